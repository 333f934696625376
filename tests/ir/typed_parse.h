// What the ir tests share to write their expressions as text: variables typed by a
// map (INDEX when not listed, as in the batch format), a parse that reports its error
// as a test failure, and a dump that shows every dtype when a comparison fails.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "ir/parse.h"
#include "ir/print.h"

namespace eqsat::testing {

using Vars = std::map<std::string, DType, std::less<>>;

// Types the listed variables by `vars` (copied: the typer may outlive the map) and
// the others as INDEX.
inline VarTyper typer_for(Vars vars) {
  return index_by_default([vars = std::move(vars)](std::string_view name) -> std::optional<DType> {
    auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  });
}

// `text` parsed with `vars`; a parse error fails the calling test (and gives a
// variable named after it, so that the test goes on).
inline Expr parse_typed(std::string_view text, const Vars& vars = {}) {
  Result<Expr> e = parse_expr(text, typer_for(vars));
  EXPECT_TRUE(e.ok()) << text << ": " << (e.ok() ? "" : e.error().describe());
  return e.ok() ? *e : Expr::var("<parse error>", DType::Index);
}

// A typed S-expression, so that failures show the dtypes: (add:INT32 x:INT32 1:INT32).
inline std::string dump(const Expr& e) {
  const std::string dtype(dtype_name(e.dtype()));
  if (e.op() == Op::Var) return e.name() + ":" + dtype;
  if (e.op() == Op::Const) return value_text(e.value()) + ":" + dtype;
  std::string text = "(" + std::string(op_info(e.op()).name) + ":" + dtype;
  for (const Expr& arg : e.args()) text += " " + dump(arg);
  return text + ")";
}

}  // namespace eqsat::testing
