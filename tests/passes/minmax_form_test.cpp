// Offsets moved across INDEX min and max: common terms and the first operand's
// constant leave, terms around a min that cancel one of its operands enter.
#include "passes/minmax_form.h"

#include <gtest/gtest.h>

#include "ir/parse.h"
#include "ir/print.h"
#include "passes/facts.h"
#include "tests/passes/parse_for_test.h"

namespace eqsat {
namespace {

std::string normal(const std::string &text, std::map<std::string, DType> dtypes = {}) {
  const std::optional<Expr> e = testing::parse_for_test(text, std::move(dtypes));
  return e ? print(normalize_minmax_offsets(*e)) : "";
}

TEST(MinMaxForm, OffsetsOfOneMinMeet) {
  EXPECT_EQ(normal("min(x + 1, y) - min(x, y - 1)"), "1");
  EXPECT_EQ(normal("max(y - 1, x) - max(x + 1, y)"), "-1");
}

TEST(MinMaxForm, CommonTermsLeave) {
  EXPECT_EQ(normal("min(x + y + z, x + w)"), "min(w, y + z) + x");
  EXPECT_EQ(normal("max(x * 7 + y, x * 7 - z)"), "max(-z, y) + x * 7");
}

TEST(MinMaxForm, CancellingTermsEnter) {
  EXPECT_EQ(normal("min(x + y, z) + w - x"), "min(z - x, y) + w");
  EXPECT_EQ(normal("min((x + y) * 7 + z, w) - x * 7"), "min(w - x * 7, y * 7 + z)");
}

TEST(MinMaxForm, FixedWidthIsLeftAlone) {
  // min(x + 1, y) is not min(x, y - 1) + 1 where x + 1 wraps.
  const std::map<std::string, DType> int8 = {{"x", DType::Int8}, {"y", DType::Int8}};
  EXPECT_EQ(normal("min(x + 1, y) - min(x, y - 1)", int8), "min(x + 1, y) - min(x, y - 1)");
}

}  // namespace
}  // namespace eqsat

namespace eqsat {
namespace {

// simplify_expr adds both forms; it skips the Keep one when MoveOut says no constant
// left a min or max, because the two are then the same.
TEST(MinMaxForm, SaysWhetherAConstantLeftSoThatTheKeepFormIsTheSameWhenNot) {
  for (const char *text : {"min(x + 1, y) + z", "min(x + y + z, x + w)", "min(x + y, z) + w - x", "max(x, y - 3)",
                           "min(x * -4 + 8, y * -4)", "x + 1"}) {
    Result<Expr> e = parse_expr(text, Facts{}.var_typer());
    ASSERT_TRUE(e) << text;
    bool moved = true;
    const Expr move_out = normalize_minmax_offsets(*e, MinMaxConstants::MoveOut, &moved);
    const Expr keep = normalize_minmax_offsets(*e, MinMaxConstants::Keep);
    if (!moved) {
      EXPECT_EQ(print(keep), print(move_out)) << text;
    }
  }
  bool moved = false;
  Result<Expr> offset = parse_expr("min(x + 1, y) + z", Facts{}.var_typer());
  ASSERT_TRUE(offset);
  normalize_minmax_offsets(*offset, MinMaxConstants::MoveOut, &moved);
  EXPECT_TRUE(moved);
  Result<Expr> plain = parse_expr("min(x + y + z, x + w)", Facts{}.var_typer());
  ASSERT_TRUE(plain);
  normalize_minmax_offsets(*plain, MinMaxConstants::MoveOut, &moved);
  EXPECT_FALSE(moved);
}

}  // namespace
}  // namespace eqsat
