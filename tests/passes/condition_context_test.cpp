// Substitution of conditions: what a select's condition or the other operands of
// an and/or chain decide becomes a constant, and nothing else changes.
#include "passes/condition_context.h"

#include <gtest/gtest.h>

#include "ir/parse.h"
#include "ir/print.h"
#include "passes/facts.h"
#include "tests/passes/parse_for_test.h"

namespace eqsat {
namespace {

std::string substituted(const std::string &text, std::map<std::string, DType> dtypes = {}) {
  const std::optional<Expr> e = testing::parse_for_test(text, std::move(dtypes));
  return e ? print(substitute_conditions(*e)) : "";
}

TEST(ConditionContext, SelectBranchesKnowTheirCondition) {
  EXPECT_EQ(substituted("select(x < y, z, select(x < y, w, x) + 3)"), "select(x < y, z, x + 3)");
  EXPECT_EQ(substituted("select(x < y, select(y <= x, w, z) // 2, w)"), "select(x < y, z // 2, w)");
}

// Under the strict reading a select computes both branches and a chain all its
// operands (docs/verification.md), so a branch's facts may change a value only where
// the select or chain discards it: never a divisor's, a shift amount's or a cast
// float's, whose value decides whether the operation is defined. At q = True and x = 0,
// `select(q, 0, 1 % select(q, 1, x))` is 0, and `select(q, 0, 1 % x)` is undefined.
// (Found by `eqsat fuzz --seed 35001 --max-depth 6`, case 3917.)
TEST(ConditionContext, ABranchsFactsLeaveWhatDecidesDefinednessAlone) {
  const std::map<std::string, DType> q = {{"q", DType::Bool}};
  EXPECT_EQ(substituted("select(q, 0, 1 % select(q, 1, x))", q), "select(q, 0, 1 % select(q, 1, x))");
  EXPECT_EQ(substituted("not q and 1 % select(q, 1, x) == 0", q), "not q and 1 % select(q, 1, x) == 0");
  EXPECT_EQ(substituted("select(q, 0, 8 >> select(q, 1, x))", q), "select(q, 0, 8 >> select(q, 1, x))");
  // The dividend's value decides nothing: there the facts still apply.
  EXPECT_EQ(substituted("select(q, 0, select(q, 1, x) % 7)", q), "select(q, 0, x % 7)");
  // And what holds everywhere (an assumption) applies in a divisor too.
  const std::optional<Expr> e = testing::parse_for_test("select(r < 0, 0, 1 % select(q, 1, x))", q);
  const std::optional<Expr> assumption = testing::parse_for_test("not q", q);
  ASSERT_TRUE(e && assumption);
  EXPECT_EQ(print(substitute_conditions(*e, {*assumption})), "select(r < 0, 0, 1 % x)");
}

// Under nnan or ninf a NaN or an infinity is poison, so every operand of float
// arithmetic decides whether it is defined: at q = True, `1.0 / select(q, 1.0, -0.0)`
// is 1.0, and `1.0 / -0.0` is -inf, poison under ninf, in a branch a strict select
// computes. (Found by `eqsat fuzz --seed 35003 --max-depth 5 --fast-math all`, case 1984.)
TEST(ConditionContext, UnderNinfABranchsFactsLeaveFloatArithmeticAlone) {
  const std::map<std::string, DType> vars = {{"q", DType::Bool}, {"f", DType::FP32}};
  const std::optional<Expr> e = testing::parse_for_test("select(q, 0.0, 1.0 / select(q, 1.0, -0.0))", vars);
  ASSERT_TRUE(e);
  EXPECT_EQ(print(substitute_conditions(*e)), "select(q, 0.0, 1.0 / -0.0)") << "strict IEEE: -inf is a value";
  for (FastMath flags : {FastMath(FastMathFlag::Nnan), FastMath(FastMathFlag::Ninf)})
    EXPECT_EQ(print(substitute_conditions(*e, {}, {}, flags)), "select(q, 0.0, 1.0 / select(q, 1.0, -0.0))");
  // A select's value passed on unchanged by no arithmetic is still decided.
  const std::optional<Expr> passed = testing::parse_for_test("select(q, 0.0, -select(q, 1.0, f))", vars);
  ASSERT_TRUE(passed);
  EXPECT_EQ(print(substitute_conditions(*passed, {}, {}, FastMath::all())), "select(q, 0.0, -f)");
}

// Under nnan a float comparison may be undefined (its float may be NaN): a chain's
// later operand no longer tells an earlier one what it knows.
TEST(ConditionContext, UnderNnanAFloatComparisonIsAnOperandThatMayBeUndefined) {
  const std::map<std::string, DType> vars = {{"f", DType::FP32}};
  const std::optional<Expr> e = testing::parse_for_test("x < 5 and f > 0.0 and x < 3", vars);
  ASSERT_TRUE(e);
  EXPECT_EQ(print(substitute_conditions(*e)), "f > 0.0 and x < 3");
  // At x = 7, f = NaN the chain is False, and `f > 0.0 and x < 3` poison.
  EXPECT_EQ(print(substitute_conditions(*e, {}, {}, FastMathFlag::Nnan)), "x < 5 and f > 0.0 and x < 3");
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

TEST(ConditionContext, ComparisonsChainTransitively) {
  // not P or Q is Q where P holds: a - b <= -1 and b - c <= -1 sum to a - c <= -2.
  EXPECT_EQ(substituted("not (a <= b and b <= c) or a <= c"), "True");
  EXPECT_EQ(substituted("not (a < b and b < c) or a + 1 < c"), "True");
  // One short: a + 2 < c needs a - c <= -3.
  EXPECT_EQ(substituted("not (a < b and b < c) or a + 2 < c"), "not (a < b and b < c) or a + 2 < c");
  EXPECT_EQ(substituted("x < y and y < z and z <= x"), "False");
}

TEST(ConditionContext, AtomsBringTheirOwnFacts) {
  // max(a, b) >= a and max(a, b) >= b, summed.
  EXPECT_EQ(substituted("max(a, b) * 2 >= a + b"), "True");
  EXPECT_EQ(substituted("min(a, b + 2) <= b + 2"), "True");
  // 0 <= a % b < b once b >= 1 is known; nothing while the sign of b is open.
  EXPECT_EQ(substituted("not b > 0 or a % b >= 0 and a % b < b"), "True");
  EXPECT_EQ(substituted("a % b >= 0"), "a % b >= 0");
  EXPECT_EQ(substituted("x // 4 * 4 <= x and x - 3 <= x // 4 * 4"), "True");
  // a // b * b is a - a % b: in (a - b, a] where b >= 1.
  EXPECT_EQ(substituted("not b > 0 or a // b * b <= a and a // b * b > a - b"), "True");
  EXPECT_EQ(substituted("a // b * b <= a"), "a // b * b <= a");
}

TEST(ConditionContext, AFactorOfKnownSignCancels) {
  // a * d - b * d = d * (a - b): negative where d >= 1 and a - b <= -1.
  EXPECT_EQ(substituted("not (a < b and d > 0) or a * d < b * d"), "True");
  // d <= -1 turns it around: a * d < b * d is False there, only `not P` is left.
  EXPECT_EQ(substituted("not (a < b and d < 0) or a * d < b * d"), "not (a < b and d < 0)");
  // The sign of d open: nothing.
  EXPECT_EQ(substituted("not a < b or a * d < b * d"), "not a < b or a * d < b * d");
}

TEST(ConditionContext, KnownEqualitiesAreSubstituted) {
  EXPECT_EQ(substituted("not a == b or a * a == b * b"), "True");
  EXPECT_EQ(substituted("a != 3 or a * a == 9"), "True");
  EXPECT_EQ(substituted("not a == b or a * a == b * c"), "not a == b or a * a == b * c");
}

TEST(ConditionContext, AssumptionsAndBoundsJoinTheContext) {
  Facts facts;
  Result<Expr> e = parse_expr("i0 * 32 + i1 < (n + 31) // 32 * 32", facts.var_typer());
  Result<Expr> assumption = parse_expr("i0 < (n + 31) // 32", facts.var_typer());
  ASSERT_TRUE(e.ok() && assumption.ok());
  // i1 in [0, 31]: 32 * i0 + i1 <= 32 * ((n + 31) // 32 - 1) + 31.
  auto bounds = [](const Expr &atom) { return print(atom) == "i1" ? Interval::range(0, 31) : Interval::all(); };
  EXPECT_EQ(print(substitute_conditions(*e, {*assumption}, bounds)), "True");
  EXPECT_EQ(print(substitute_conditions(*e, {*assumption})), print(*e));  // i1 unbounded
  EXPECT_EQ(print(substitute_conditions(*e, {}, bounds)), print(*e));     // i0 unbounded
}

TEST(ConditionContext, AMinOrMaxOfOperandsTheContextOrdersPicksOne) {
  // Order facts, not intervals: x and y are unbounded, only x <= y + -1 is known.
  EXPECT_EQ(substituted("select(x < y, min(x, y) + max(y, x), 0)"), "select(x < y, x + y, 0)");
  // Not ordered: kept.
  EXPECT_EQ(substituted("select(x < z, min(x, y), 0)"), "select(x < z, min(x, y), 0)");
  // Floats are not ordered by the context (NaN): kept.
  EXPECT_EQ(substituted("select(x < y, min(x, y), y)", {{"x", DType::FP32}, {"y", DType::FP32}}),
            "select(x < y, min(x, y), y)");
  const std::optional<Expr> e = testing::parse_for_test("min(x, y) + max(x, y)");
  const std::optional<Expr> assumption = testing::parse_for_test("x <= y");
  ASSERT_TRUE(e && assumption);
  EXPECT_EQ(print(substitute_conditions(*e, {*assumption})), "x + y");
}

TEST(ConditionContext, AValueNoFactAllowsIsRuledOut) {
  // Were i 3, i % 2 == 0 would be False: so i == 3 is.
  EXPECT_EQ(substituted("select(i % 2 == 0, i == 3, i == 3)"), "select(i % 2 == 0, False, i == 3)");
  EXPECT_EQ(substituted("i % 2 != 0 or i != 3"), "True");
  EXPECT_EQ(substituted("i < 5 and i == 7"), "False");
  // A value the facts allow stays open.
  EXPECT_EQ(substituted("i % 2 == 0 and i == 4"), "i % 2 == 0 and i == 4");
}

TEST(ConditionContext, AComparisonOfASelectIsDecidedBranchByBranch) {
  // x >= 0 where x >= 0; -x >= 0 where x < 0.
  EXPECT_EQ(substituted("select(x >= 0, x, x * -1) >= 0"), "True");
  // x > 0 is open where x >= 0: nothing is decided.
  EXPECT_EQ(substituted("select(x >= 0, x, x * -1) > 0"), "select(x >= 0, x, x * -1) > 0");
}

TEST(ConditionContext, FixedWidthSidesAreNotMovedAcross) {
  const std::map<std::string, DType> int32 = {{"x", DType::Int32}, {"y", DType::Int32}, {"z", DType::Int32}};
  // x + 1 wraps at the maximum.
  EXPECT_EQ(substituted("not (x < y and y < z) or x + 1 < z", int32), "not (x < y and y < z) or x + 1 < z");
}

TEST(ConditionContext, FloatComparisonsAreNotNegated) {
  // not (x < y) is not y <= x when one of them is NaN.
  const std::map<std::string, DType> fp32 = {{"x", DType::FP32}, {"y", DType::FP32}};
  EXPECT_EQ(substituted("x < y or y <= x", fp32), "x < y or y <= x");
  EXPECT_EQ(substituted("x < y and x < y", fp32), "x < y");
}

}  // namespace
}  // namespace eqsat
