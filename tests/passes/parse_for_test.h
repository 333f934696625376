// The parse step the pass tests share: an expression from text, its variables INDEX
// unless given another dtype, and a parse error reported as a test failure.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>

#include "ir/parse.h"
#include "passes/facts.h"

namespace eqsat::testing {

// `text` parsed with `dtypes` for its variables (INDEX for the others); a parse error
// fails the calling test and gives nothing.
inline std::optional<Expr> parse_for_test(const std::string &text, std::map<std::string, DType> dtypes = {}) {
  Facts facts;
  facts.var_dtypes = std::move(dtypes);
  Result<Expr> e = parse_expr(text, facts.var_typer());
  if (!e) {
    ADD_FAILURE() << text << ": " << e.error().describe();
    return std::nullopt;
  }
  return *e;
}

}  // namespace eqsat::testing
