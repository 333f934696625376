// Conjunctions of quotient and remainder comparisons, and remainder-sized
// windows of a linear form, combined into the one condition they state.
#include "passes/divmod_conjunction.h"

#include <gtest/gtest.h>

#include "ir/parse.h"
#include "ir/print.h"
#include "passes/facts.h"
#include "tests/passes/parse_for_test.h"

namespace eqsat {
namespace {

std::string combined(const std::string &text) {
  const std::optional<Expr> e = testing::parse_for_test(text);
  return e ? print(combine_divmod_conjunctions(*e)) : "";
}

TEST(DivModConjunction, QuotientAndRemainderPinTheNumerator) {
  EXPECT_EQ(combined("x // 8 == 3 and x % 8 == 4"), "x == 28");
  EXPECT_EQ(combined("x % 8 == 4 and x // 8 == -3"), "x == -20");
  EXPECT_EQ(combined("(x + y) // 8 == 1 and (x + y) % 8 == 0"), "x + y == 8");
}

TEST(DivModConjunction, RemainderComparisonsLeaveARange) {
  EXPECT_EQ(combined("x // 10 == 5 and x % 10 < 7"), "50 <= x and x <= 56");
  EXPECT_EQ(combined("x // 10 == -5 and 7 < x % 10"), "-42 <= x and x <= -41");
  EXPECT_EQ(combined("x // 10 == 5 and x % 10 > 12"), "False");
  // Other operands keep their place; the combination takes the quotient's.
  EXPECT_EQ(combined("z < 3 and x // 10 == 5 and x % 10 >= 7"), "z < 3 and (57 <= x and x <= 59)");
}

TEST(DivModConjunction, AWindowOfTheDivisorsWidthIsAQuotient) {
  EXPECT_EQ(combined("0 <= x - y * 5 and x - y * 5 < 5"), "y == x // 5");
  EXPECT_EQ(combined("3 <= x - y * 4 and x - y * 4 <= 6"), "y == (x + -3) // 4");
  // y * 5 - x in [0, 4]: -x + 5y, read with x first, is x - 5y in [-4, 0].
  EXPECT_EQ(combined("y * 5 - x >= 0 and y * 5 - x <= 4"), "y == (x + 4) // 5");
}

TEST(DivModConjunction, NothingCombinesWithoutAPinnedQuotientOrAnExactWindow) {
  EXPECT_EQ(combined("x // 8 < 3 and x % 8 == 4"), "x // 8 < 3 and x % 8 == 4");
  EXPECT_EQ(combined("0 <= x - y * 5 and x - y * 5 < 6"), "0 <= x - y * 5 and x - y * 5 < 6");
  EXPECT_EQ(combined("x // 8 == 3 or x % 8 == 4"), "x // 8 == 3 or x % 8 == 4");
  EXPECT_EQ(combined("x // y == 3 and x % y == 4"), "x // y == 3 and x % y == 4");
}

}  // namespace
}  // namespace eqsat
