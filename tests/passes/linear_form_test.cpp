// Linear normal forms: like terms collect and cancel, quotients and remainders
// of one numerator meet, comparisons move every term to its side. Each case is
// an input and the normal form expected of it, in one of the three modes.
#include "passes/linear_form.h"

#include <gtest/gtest.h>

#include "ir/parse.h"
#include "ir/print.h"
#include "passes/facts.h"

namespace eqsat {
namespace {

std::string normal(const std::string &text, LinearMode mode = LinearMode::Plain,
                   std::map<std::string, DType> dtypes = {}) {
  Facts facts;
  facts.var_dtypes = std::move(dtypes);
  Result<Expr> e = parse_expr(text, facts.var_typer());
  if (!e) {
    ADD_FAILURE() << text << ": " << e.error().describe();
    return "";
  }
  return print(normalize_linear(*e, mode));
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

}  // namespace
}  // namespace eqsat
