// Substitution of conditions: what a select's condition or the other operands of
// an and/or chain decide becomes a constant, and nothing else changes.
#include "passes/condition_context.h"

#include <gtest/gtest.h>

#include "ir/parse.h"
#include "ir/print.h"
#include "passes/facts.h"

namespace eqsat {
namespace {

std::string substituted(const std::string &text, std::map<std::string, DType> dtypes = {}) {
  Facts facts;
  facts.var_dtypes = std::move(dtypes);
  Result<Expr> e = parse_expr(text, facts.var_typer());
  if (!e) {
    ADD_FAILURE() << text << ": " << e.error().describe();
    return "";
  }
  return print(substitute_conditions(*e));
}

TEST(ConditionContext, SelectBranchesKnowTheirCondition) {
  EXPECT_EQ(substituted("select(x < y, z, select(x < y, w, x) + 3)"), "select(x < y, z, x + 3)");
  EXPECT_EQ(substituted("select(x < y, select(y <= x, w, z) // 2, w)"), "select(x < y, z // 2, w)");
}

TEST(ConditionContext, ChainOperandsKnowEachOther) {
  EXPECT_EQ(substituted("x == 1 and x != 1"), "False");
  EXPECT_EQ(substituted("x < 20 or x > 19"), "True");
  EXPECT_EQ(substituted("x == 1 or x != 2"), "x != 2");
  EXPECT_EQ(substituted("x < y and (b1 or (b2 or y <= x))", {{"b1", DType::Bool}, {"b2", DType::Bool}}),
            "x < y and (b1 or b2)");
}

TEST(ConditionContext, LinearFormsBoundEachOther) {
  // x - y < -2 bounds x - y < 1 and x - y < 0; 2 * x <= 9 is x <= 4.
  EXPECT_EQ(substituted("x < y + 1 and x < y - 2 and x < y"), "x < y - 2");
  EXPECT_EQ(substituted("x * 2 < 9 and x <= 4"), "x <= 4");
  EXPECT_EQ(substituted("y - x > 3 or x < y"), "x < y");
}

TEST(ConditionContext, AKnownSignMakesATruncatingDivisionFloor) {
  // Where x * 4 + y >= 8, the numerator x * 4 + y - 8 is not negative.
  EXPECT_EQ(substituted("select(x * 4 + y >= 8, truncmod(x * 4 + y - 8, 16), y)"),
            "select(x * 4 + y >= 8, (x * 4 + y - 8) % 16, y)");
  EXPECT_EQ(substituted("select(x >= 10, truncdiv(x, 3), 0)"), "select(x >= 10, x // 3, 0)");
  // The remainder's sign is the numerator's, whatever the divisor's.
  EXPECT_EQ(substituted("select(x >= 10, truncmod(x, -3), 0)"), "select(x >= 10, x % 3, 0)");
  // Not where the sign is unknown (the else branch), nor truncdiv by a negative
  // divisor (it is -(x // 3), no smaller).
  EXPECT_EQ(substituted("select(x >= 10, 0, truncdiv(x, 3))"), "select(x >= 10, 0, truncdiv(x, 3))");
  EXPECT_EQ(substituted("select(x >= 10, truncdiv(x, -3), 0)"), "select(x >= 10, truncdiv(x, -3), 0)");
}

TEST(ConditionContext, FixedWidthReadsOnlyComparisonsWithAConstant) {
  const std::map<std::string, DType> int8 = {{"x", DType::Int8}, {"y", DType::Int8}};
  EXPECT_EQ(substituted("x < 20 and x < 30", int8), "x < 20");
  // x < y + 1 does not follow from x < y when y + 1 wraps.
  EXPECT_EQ(substituted("x < y + 1 and x < y", int8), "x < y + 1 and x < y");
}

TEST(ConditionContext, AnOperandThatMayBeUndefinedKnowsOnlyItsLeft) {
  // At y = 0 the left operand of the original is False: the division is never
  // evaluated. Deciding the left operand by the right one would evaluate it.
  EXPECT_EQ(substituted("y != 0 and x // y > 2 and y != 0"), "y != 0 and x // y > 2");
  EXPECT_EQ(substituted("x // y > 2 and y != 0 and y != 0"), "x // y > 2 and y != 0");
}

TEST(ConditionContext, FloatComparisonsAreNotNegated) {
  // not (x < y) is not y <= x when one of them is NaN.
  const std::map<std::string, DType> fp32 = {{"x", DType::FP32}, {"y", DType::FP32}};
  EXPECT_EQ(substituted("x < y or y <= x", fp32), "x < y or y <= x");
  EXPECT_EQ(substituted("x < y and x < y", fp32), "x < y");
}

}  // namespace
}  // namespace eqsat
