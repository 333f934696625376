// Helpers shared by the verify tests: rules from inline text, and the independent check
// of a counterexample with the constant folder.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rules/rule.h"
#include "verify/counterexample.h"
#include "verify/rule_prover.h"

namespace eqsat::verify::testing {

inline Rule parse_one_rule(const std::string& text) {
  Result<std::vector<Rule>> rules = parse_rules(text, "inline");
  if (!rules) ADD_FAILURE() << rules.error().describe();
  if (!rules || rules->size() != 1) return Rule{};
  return rules->front();
}

inline std::vector<Value> values_of(const Counterexample& cex) {
  std::vector<Value> values;
  for (const auto& b : cex.vars) values.push_back(b.value);
  return values;
}

// The folder agrees that the rewrite fails on the counterexample's values: the left side
// folds to the reported value and the right side folds to something else or is undefined.
inline ::testing::AssertionResult confirmed_by_folder(const Rewrite& rewrite, const Counterexample& cex) {
  const std::vector<Value> values = values_of(cex);
  const std::optional<Value> lhs = fold_pattern(rewrite.lhs, values);
  const std::optional<Value> rhs = fold_pattern(rewrite.rhs, values);
  if (!lhs) return ::testing::AssertionFailure() << "the folder finds the left side undefined: " << cex.text();
  if (lhs != cex.lhs)
    return ::testing::AssertionFailure() << "the folder's lhs is " << value_text(*lhs) << ": " << cex.text();
  if (rhs == lhs) return ::testing::AssertionFailure() << "the folder finds both sides equal: " << cex.text();
  if (rhs != cex.rhs) return ::testing::AssertionFailure() << "the folder's rhs differs: " << cex.text();
  return ::testing::AssertionSuccess();
}

}  // namespace eqsat::verify::testing
