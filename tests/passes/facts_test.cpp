// Facts (bounds and assumptions) seed the analyses; with no rules at all, the interval
// analysis alone decides these.
#include "passes/facts.h"

#include <gtest/gtest.h>

#include "ir/print.h"
#include "passes/simplify_expr.h"

namespace eqsat {
namespace {

Expr parse(const std::string& text, const Facts& facts) {
  auto e = parse_expr(text, facts.var_typer());
  EXPECT_TRUE(e.ok()) << text << ": " << e.error().describe();
  return *e;
}

std::string simplify_without_rules(const std::string& text, const Facts& facts) {
  return print(simplify_expr(parse(text, facts), facts, {}).output);
}

TEST(Facts, BoundsDecideComparisons) {
  Facts facts;
  facts.bounds["i"] = Interval::range(0, 7);
  EXPECT_EQ(simplify_without_rules("i < 16", facts), "True");
  EXPECT_EQ(simplify_without_rules("i == -1", facts), "False");
  EXPECT_EQ(simplify_without_rules("i < 5", facts), "i < 5");
}

TEST(Facts, AnAssumedComparisonWithAConstantNarrowsTheInterval) {
  Facts facts;
  facts.assumptions.push_back(parse("n > 8", facts));
  EXPECT_EQ(simplify_without_rules("n > 4", facts), "True");
  EXPECT_EQ(simplify_without_rules("select(n > 4, 1, 0)", facts), "1");
}

TEST(Facts, ConstantOnTheLeftAndConjunctionsToo) {
  Facts facts;
  facts.assumptions.push_back(parse("0 <= k and k < 4", facts));
  EXPECT_EQ(simplify_without_rules("k < 10", facts), "True");
  EXPECT_EQ(simplify_without_rules("k >= 0", facts), "True");
}

TEST(Facts, EqualityMakesTheVariableAConstant) {
  Facts facts;
  facts.assumptions.push_back(parse("x == 3", facts));
  EXPECT_EQ(simplify_without_rules("x * 4", facts), "12");
}

TEST(Facts, NotEqualAtTheEdgeOfTheIntervalNarrowsIt) {
  Facts facts;
  facts.bounds["x"] = Interval::range(0, 10);
  facts.assumptions.push_back(parse("x != 0", facts));
  EXPECT_EQ(simplify_without_rules("x >= 1", facts), "True");
}

TEST(Facts, AnAssumptionItselfIsTrue) {
  Facts facts;
  facts.assumptions.push_back(parse("x < y", facts));
  EXPECT_EQ(simplify_without_rules("x < y", facts), "True");
  EXPECT_EQ(simplify_without_rules("y > x", facts), "y > x");  // that needs a rule
}

TEST(Facts, FixedWidthBoundsAreIntersectedWithTheDtype) {
  Facts facts;
  facts.var_dtypes["u"] = DType::UInt8;
  EXPECT_EQ(simplify_without_rules("u >= 0", facts), "True");  // unsigned: by its dtype
  EXPECT_EQ(simplify_without_rules("u <= 255", facts), "True");
}

}  // namespace
}  // namespace eqsat
