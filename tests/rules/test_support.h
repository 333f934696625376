// Shared helpers of the rules tests: simplifying a case the way the batch format
// describes it (vars, bounds, assume), with a chosen rule set.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ir/parse.h"
#include "ir/print.h"
#include "passes/simplify_expr.h"
#include "rules/rule.h"

namespace eqsat::testing {

struct Case {
  std::string input;
  std::map<std::string, DType> vars;  // unlisted names are INDEX
  std::map<std::string, std::pair<std::optional<Int>, std::optional<Int>>> bounds;
  std::vector<std::string> assume;
  FastMath fast_math;  // the flags granted (rules/fastmath.rules)
};

// A case from compact text: vars "x:INT32 p:BOOL", bounds "x:0:9 y:-3:" (an empty
// side is open).
inline Case make_case(std::string input, std::string_view vars = "", std::string_view bounds = "") {
  Case c;
  c.input = std::move(input);
  auto words = [](std::string_view text) {
    std::vector<std::string> out;
    std::size_t i = 0;
    while (i < text.size()) {
      while (i < text.size() && text[i] == ' ') ++i;
      std::size_t end = text.find(' ', i);
      if (end == std::string_view::npos) end = text.size();
      if (end > i) out.emplace_back(text.substr(i, end - i));
      i = end;
    }
    return out;
  };
  for (const std::string& word : words(vars)) {
    const std::size_t colon = word.find(':');
    std::optional<DType> dtype = parse_dtype(word.substr(colon + 1));
    EXPECT_TRUE(colon != std::string::npos && dtype) << "bad var spec '" << word << "'";
    if (dtype) c.vars[word.substr(0, colon)] = *dtype;
  }
  for (const std::string& word : words(bounds)) {
    const std::size_t first = word.find(':');
    const std::size_t second = word.find(':', first + 1);
    EXPECT_TRUE(first != std::string::npos && second != std::string::npos) << "bad bound spec '" << word << "'";
    auto side = [](const std::string& text) -> std::optional<Int> {
      if (text.empty()) return std::nullopt;
      return parse_int(text);
    };
    c.bounds[word.substr(0, first)] = {side(word.substr(first + 1, second - first - 1)), side(word.substr(second + 1))};
  }
  return c;
}

inline Facts facts_of(const Case& c) {
  Facts facts;
  facts.var_dtypes = c.vars;
  for (const auto& [name, bound] : c.bounds) facts.bounds[name] = Interval::range(bound.first, bound.second);
  for (const std::string& text : c.assume) {
    Result<Expr> fact = parse_expr(text, facts.var_typer());
    EXPECT_TRUE(fact.ok()) << "assume '" << text << "': " << (fact.ok() ? "" : fact.error().describe());
    if (fact) facts.assumptions.push_back(*fact);
  }
  return facts;
}

inline Expr parse_in(const Case& c, const std::string& text) {
  Result<Expr> expr = parse_expr(text, facts_of(c).var_typer());
  EXPECT_TRUE(expr.ok()) << "'" << text << "': " << (expr.ok() ? "" : expr.error().describe());
  return expr.ok() ? *expr : Expr();
}

// The simplified form of c.input under `rules` (and the linear normal forms, unless
// `linear_forms` is false: then the rules act alone).
inline Expr simplify_with(const Case& c, const RuleSet& rules, bool linear_forms = true) {
  Expr input = parse_in(c, c.input);
  if (!input.valid()) return Expr();
  std::vector<Rewrite> rewrites = rules.rewrites();
  SimplifyOptions options;
  options.linear_forms = linear_forms;
  options.fast_math = c.fast_math;
  return simplify_expr(input, facts_of(c), rewrites, options).output;
}

// Structural equality where the operands of a commutative operation may come in
// either order (the e-graph keeps one order, chosen by class ids).
inline bool same_modulo_commutativity(const Expr& a, const Expr& b) {
  if (a.op() != b.op() || a.dtype() != b.dtype() || a.args().size() != b.args().size()) return false;
  if (a.op() == Op::Var) return a.name() == b.name();
  if (a.op() == Op::Const) return a.value() == b.value();
  auto all_same = [&](bool swapped) {
    for (std::size_t i = 0; i < a.args().size(); ++i) {
      const std::size_t j = swapped && i < 2 ? 1 - i : i;
      if (!same_modulo_commutativity(a.arg(i), b.arg(j))) return false;
    }
    return true;
  };
  return all_same(false) || (is_commutative(a.op(), a.dtype()) && all_same(true));
}

}  // namespace eqsat::testing
