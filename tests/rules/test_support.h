// Shared helpers of the rules tests: simplifying a case the way the batch format
// describes it (vars, bounds, assume), with a chosen rule set.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
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
};

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

// The simplified form of c.input under `rules`.
inline Expr simplify_with(const Case& c, const RuleSet& rules) {
  Expr input = parse_in(c, c.input);
  if (!input.valid()) return Expr();
  std::vector<Rewrite> rewrites = rules.rewrites();
  return simplify_expr(input, facts_of(c), rewrites).output;
}

}  // namespace eqsat::testing
