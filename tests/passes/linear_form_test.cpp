// Linear normal forms: like terms collect and cancel, quotients and remainders
// of one numerator meet, comparisons move every term to its side. Each case is
// an input and the normal form expected of it, in one of the three modes.
#include "passes/linear_form.h"

#include <gtest/gtest.h>

#include "egraph/egraph.h"
#include "ir/parse.h"
#include "ir/print.h"
#include "passes/facts.h"
#include "tests/passes/parse_for_test.h"

namespace eqsat {
namespace {

std::string normal(const std::string &text, LinearMode mode = LinearMode::Plain,
                   std::map<std::string, DType> dtypes = {}) {
  const std::optional<Expr> e = testing::parse_for_test(text, std::move(dtypes));
  return e ? print(normalize_linear(*e, mode)) : "";
}

TEST(LinearForm, LikeTermsCollectAndCancel) {
  EXPECT_EQ(normal("(x * 3 + y) - (y + x * 2)"), "x");
  EXPECT_EQ(normal("x + y - (y + z)"), "x - z");
  EXPECT_EQ(normal("(x - y) * z + (y * z + w)"), "w + x * z");
  EXPECT_EQ(normal("3 - (y - 2)"), "5 - y");
  EXPECT_EQ(normal("x - x"), "0");
}

TEST(LinearForm, AtomsAreNormalizedInside) { EXPECT_EQ(normal("min(x + y - y, z) + 1"), "min(x, z) + 1"); }

TEST(LinearForm, FixedWidthCoefficientsWrap) {
  // 200 * x + 56 * x = 256 * x = 0 modulo 2^8
  EXPECT_EQ(normal("x * 200 + x * 56", LinearMode::Plain, {{"x", DType::UInt8}}), "const(0, UINT8)");
  EXPECT_EQ(normal("x * 100 + x * 100 + x * 100", LinearMode::Plain, {{"x", DType::Int8}}), "x * 44");
}

TEST(LinearForm, FloatsAreLeftAlone) {
  EXPECT_EQ(normal("x + y - y", LinearMode::Plain, {{"x", DType::FP32}, {"y", DType::FP32}}), "x + y - y");
}

TEST(LinearForm, DivisionByAConstantSplitsItsNumerator) {
  EXPECT_EQ(normal("(z - y * 7) // 7"), "z // 7 - y");
  EXPECT_EQ(normal("(x - 1) // 4"), "(x + 3) // 4 + -1");
  EXPECT_EQ(normal("(x * 3 + 5) // 9"), "(x + 1) // 3");
  EXPECT_EQ(normal("(y - x * 8) % 4"), "y % 4");
  EXPECT_EQ(normal("x // 2 // 4"), "x // 8");
}

// A sum with one quotient written as that quotient: its other terms move into the
// numerator (times the divisor), where they may cancel. A negated quotient rounds the
// other way: -(N // m) = (m - 1 - N) // m.
std::string one_quotient(const std::string &text) {
  const std::optional<Expr> e = testing::parse_for_test(text, {});
  return e ? print(LinearNormalizer(LinearMode::Plain).as_one_quotient(*e)) : "";
}

TEST(LinearForm, TermsMoveIntoTheOneQuotientOfASum) {
  EXPECT_EQ(one_quotient("2 * x + (2 * x + y) // 5"), "(x * 12 + y) // 5");
  EXPECT_EQ(one_quotient("x + (y + w - x) // 2"), "(w + x + y) // 2");
  EXPECT_EQ(one_quotient("x - (x - y) // 2"), "(x + y + 1) // 2");
  // All terms of the numerator negative: the negative divisor's spelling.
  EXPECT_EQ(one_quotient("(x * y - w) // 4 - x * y"), "(w + x * y * 3) // -4");
  // Terms of one coefficient factored where that is smaller.
  EXPECT_EQ(one_quotient("x + z + (y + (x + z)) // 3"), "((x + z) * 4 + y) // 3");
  EXPECT_EQ(one_quotient("x + z + (y - w * 3 + 1) // 3"), "((x + z) * 3 + y - w * 3 + 1) // 3");
  EXPECT_EQ(one_quotient("2 * x + (y * 2 + z) // 5"), "(x * 10 + y * 2 + z) // 5");  // no two share one
  // The quotient found inside the sum once the multiples of 3 left it.
  EXPECT_EQ(one_quotient("(y + 3 * x) // 3 - x + z"), "(y + z * 3) // 3");
}

TEST(LinearForm, OnlyASumOfOneQuotientMovesIntoIt) {
  for (const char *kept : {"x // 3 - (x + 7) // 3", "x // 2 * 2 + y", "x // 2 * y + y", "x + y", "x // 2", "x + y % 3",
                           "truncdiv(x, 3) + y"}) {
    EXPECT_EQ(one_quotient(kept), kept);
  }
}

TEST(LinearForm, QuotientsAndRemaindersMeet) {
  EXPECT_EQ(normal("y + x // 8 * 4 + x // 2 % 4", LinearMode::DivForm), "x // 2 + y");
  EXPECT_EQ(normal("x - x // 8 * 8", LinearMode::ModForm), "x % 8");
  EXPECT_EQ(normal("x // 3 * 3 + y + x % 3", LinearMode::ModForm), "x + y");
}

TEST(LinearForm, TruncatingDivisionKeepsItsNumeratorWhole) {
  // Without bounds a truncating numerator's sign is unknown: its multiples of the
  // divisor stay (truncdiv(x + 4, 4) is 0 at x = -1, truncdiv(x, 4) + 1 is 1).
  EXPECT_EQ(normal("truncdiv(x + 4, 4)"), "truncdiv(x + 4, 4)");
  EXPECT_EQ(normal("truncmod(x * 10 + y, 2)"), "truncmod(x * 10 + y, 2)");
  // What holds for every sign: a divisor's sign leaves, common factors cancel,
  // quotients of quotients combine.
  EXPECT_EQ(normal("truncdiv(x, -5)"), "-truncdiv(x, 5)");
  EXPECT_EQ(normal("truncmod(x, -2)"), "truncmod(x, 2)");
  EXPECT_EQ(normal("truncdiv(x + y + x + y * 3, 2)"), "x + y * 2");
  EXPECT_EQ(normal("truncdiv(x * 2, 4)"), "truncdiv(x, 2)");
  EXPECT_EQ(normal("truncmod(x * 6 + 3, 9)"), "truncmod(x * 2 + 1, 3) * 3");
  EXPECT_EQ(normal("truncdiv(truncdiv(x, 2), 3)"), "truncdiv(x, 6)");
  EXPECT_EQ(normal("truncdiv(-7, 2)"), "-3");
  EXPECT_EQ(normal("truncmod(-7, 2)"), "-1");
}

TEST(LinearForm, TruncatedQuotientsAndRemaindersMeet) {
  // truncmod(N, m) = N - m * truncdiv(N, m) for every sign of N.
  EXPECT_EQ(normal("x - truncdiv(x, 3) * 3", LinearMode::ModForm), "truncmod(x, 3)");
  EXPECT_EQ(normal("y * 3 - truncdiv(y, 2) * 6", LinearMode::ModForm), "truncmod(y, 2) * 3");
  EXPECT_EQ(normal("truncdiv(x, 6) * 6 + truncmod(truncdiv(x, 3), 2) * 3 + truncmod(x, 3)", LinearMode::DivForm), "x");
}

TEST(LinearForm, TruncatedQuotientComparedWithAConstant) {
  // truncdiv(x, 2) rounds -1 up to 0: truncdiv(x, 2) >= 0 holds from x = -1 on.
  EXPECT_EQ(normal("truncdiv(x, 2) > 3"), "7 < x");
  EXPECT_EQ(normal("truncdiv(x, 2) >= 0"), "-2 < x");
  EXPECT_EQ(normal("truncdiv(x, 2) <= -1"), "x < -1");
  EXPECT_EQ(normal("truncdiv(x, 2) <= 1"), "x < 4");
}

std::string bounded(const std::string &text, const std::map<std::string, Interval> &bounds,
                    const std::vector<std::string> &assumptions = {}, LinearMode mode = LinearMode::Plain);

TEST(LinearForm, NegativeConstantDivisorsAreReadAsPositiveOnes) {
  // x // -c = (-x) // c, x % -c = -((-x) % c): quotients of one numerator meet.
  EXPECT_EQ(normal("x // -2 // 3"), "x // -6");
  EXPECT_EQ(normal("(x // -2 + 1) // 3"), "(x + -2) // -6");
  EXPECT_EQ(normal("(x - x % -9) % 9", LinearMode::DivForm), "0");
  // (x // 2) // -3 is not x // -6 (x = 1: 0 against -1): kept apart.
  EXPECT_EQ(normal("x // 2 // -3"), "x // 2 // -3");
}

TEST(LinearForm, SymbolicDivisorsCancelTheirCommonFactor) {
  // Where a divisor is 0 the input is undefined and the result may be anything (the
  // contract: equal wherever the input is defined), so a common factor cancels
  // whatever its sign, as in TVM: x * y // y is x.
  EXPECT_EQ(normal("(3 * a + 9 * b) // (3 * d)"), "(a + b * 3) // d");
  EXPECT_EQ(normal("x * y // y"), "x");
  EXPECT_EQ(normal("x * y * z // (x * z)"), "y");
  EXPECT_EQ(normal("x * x * y // (x * x * x * 4)"), "y // (x * 4)");
  // A division by the constant 0 is kept as it is.
  EXPECT_EQ(normal("x * y // 0"), "x * y // 0");
}

TEST(LinearForm, SymbolicDivisorsSplitTheirNumerator) {
  EXPECT_EQ(normal("(x * z * 2 + y) // (z * 2)"), "x + y // (z * 2)");
  EXPECT_EQ(normal("(x * z * 2 + y) % (z * 2)"), "y % (z * 2)");
  EXPECT_EQ(normal("(d * a * 20 + b * d * 5 + 10) // (5 * d)"), "2 // d + a * 4 + b");
  // truncdiv(x * y + z, y) is not x + truncdiv(z, y) (x = 1, y = 2, z = -1: 0
  // against 1): a truncating division splits only when it is exact.
  EXPECT_EQ(normal("truncdiv(x * y + z, y)"), "truncdiv(x * y + z, y)");
}

TEST(LinearForm, SymbolicQuotientsMeetTheirRemainders) {
  // y * (x // y) = x - x % y, and x % y = x - y * (x // y), wherever y != 0 (at
  // y = 0 the input is undefined).
  const std::map<std::string, Interval> positive{{"y", Interval::range(1, std::nullopt)}};
  EXPECT_EQ(bounded("x // y * y + x % y", positive, {}, LinearMode::ModForm), "x");
  EXPECT_EQ(bounded("(x - x % y) % y", positive, {}, LinearMode::DivForm), "0");
  EXPECT_EQ(normal("x // y * y + x % y", LinearMode::ModForm), "x");
}

TEST(LinearForm, NestedQuotientsAndRemaindersOfOneNumeratorMeet) {
  // x // 60 = (x // 3) // 20, so 2 * (x // 3) - 40 * (x // 60) is 2 * ((x // 3) % 20).
  EXPECT_EQ(normal("x // 3 % 4 * 2 + x // 12 % 5 * 8", LinearMode::DivForm), "x // 3 * 2 - x // 60 * 40");
  EXPECT_EQ(normal("x // 3 * 2 - x // 60 * 40", LinearMode::ModForm), "x // 3 % 20 * 2");
  // A remainder by a multiple of the divisor leaves the numerator.
  EXPECT_EQ(normal("(a % 4 + b) % 2"), "(a + b) % 2");
  EXPECT_EQ(normal("((v + 3) % 7 + w) % 7 % 7"), "(v + w + 3) % 7");
}

TEST(LinearForm, ComparisonsMoveTermsAcross) {
  EXPECT_EQ(normal("x + y < y + z"), "x < z");
  EXPECT_EQ(normal("x - 2 < y"), "x < y + 2");
  EXPECT_EQ(normal("x * 2 < y * 2 + 3"), "x < y + 2");
  EXPECT_EQ(normal("x * 2 == y * 2 + 3"), "False");
  EXPECT_EQ(normal("x + 1 > x"), "True");
}

TEST(LinearForm, FixedWidthOrderingsAreKept) {
  // x + 1 > x is False at INT32's maximum.
  EXPECT_EQ(normal("x + 1 > x", LinearMode::Plain, {{"x", DType::Int32}}), "x + 1 > x");
  EXPECT_EQ(normal("x + 1 == x + 1", LinearMode::Plain, {{"x", DType::Int32}}), "True");
}

// The normal form under the bounds and assumptions of `facts`, as simplify_expr
// gives them (the e-graph's intervals and the classes it knows True).
std::string bounded(const std::string &text, const std::map<std::string, Interval> &bounds,
                    const std::vector<std::string> &assumptions, LinearMode mode) {
  Facts facts;
  facts.bounds = bounds;
  for (const std::string &a : assumptions) facts.assumptions.push_back(parse_expr(a, facts.var_typer()).value());
  EGraph egraph;
  assert_facts(egraph, facts);
  const Expr e = parse_expr(text, facts.var_typer()).value();
  return print(
      normalize_linear(e, mode, [&egraph](const Expr &x) { return egraph.data(egraph.add_expr(x)).interval; }));
}

TEST(LinearForm, SymbolicRemaindersInRangeFold) {
  // 0 <= b < 2 <= d: b % d is b.
  EXPECT_EQ(bounded("(d * a + b) % d", {{"b", Interval::range(0, 1)}, {"d", Interval::range(2, 5)}}), "b");
  // d may be negative: b % d is b - 2 at b = 1, d = -2... so it stays.
  EXPECT_EQ(bounded("(d * a + b) % d", {{"b", Interval::range(0, 1)}, {"d", Interval::range(-5, 5)}}), "b % d");
  // An assumption relating numerator and divisor: 0 <= r < a + 2.
  const std::map<std::string, Interval> ranges{{"r", Interval::range(0, std::nullopt)}, {"a", Interval::range(1, 10)}};
  EXPECT_EQ(bounded("r // (a + 2)", ranges, {"r < a + 2"}), "0");
  EXPECT_EQ(bounded("r % (a + 2)", ranges, {"r < a + 2"}), "r");
  EXPECT_EQ(bounded("r % (a + 2)", ranges), "r % (a + 2)");
}

TEST(LinearForm, NonzeroSymbolicFactorsCancel) {
  const std::map<std::string, Interval> positive{{"x", Interval::range(1, std::nullopt)},
                                                 {"y", Interval::range(1, std::nullopt)},
                                                 {"z", Interval::range(1, std::nullopt)},
                                                 {"p", Interval::range(0, std::nullopt)}};
  EXPECT_EQ(bounded("x * y // y", positive), "x");
  EXPECT_EQ(bounded("x * 2 * x * y // (4 * x * x * x)", positive), "y // (x * 2)");
  EXPECT_EQ(bounded("x * 4 % (y * 4)", positive), "x % y * 4");
  EXPECT_EQ(bounded("(p + 1) * 64 % ((p + 1) * 32)", positive), "0");
  EXPECT_EQ(bounded("truncdiv(x * 6 * z, 3 * z * y)", positive), "truncdiv(x * 2, y)");
  EXPECT_EQ(bounded("truncmod(y * x * 32 * x, x * y)", positive), "0");
  // y in [0, 5] may be 0, where the input is undefined: x all the same.
  EXPECT_EQ(bounded("x * y // y", {{"y", Interval::range(0, 5)}}), "x");
}

TEST(LinearForm, BoundedQuotientsTakeRemaindersNearestZero) {
  // (40 * a + 5 * b + 4 * c + 1) is 5 * (8 * a + b + c) + (1 - c), 1 - c in [0, 1].
  EXPECT_EQ(bounded("(160 * a + 5 * b + 4 * c + 1) // 60",
                    {{"a", Interval::range(0, 2)}, {"b", Interval::range(0, 31)}, {"c", Interval::range(0, 1)}}),
            "(a * 8 + b + c) // 12 + a * 2");
  // A remainder of exactly half the divisor is tried both ways.
  EXPECT_EQ(bounded("(3 + 2 * x + 3 * y) % 4", {{"x", Interval::range(0, 1)}, {"y", Interval::range(0, 1)}}),
            "3 - x * 2 - y");
}

}  // namespace
}  // namespace eqsat
