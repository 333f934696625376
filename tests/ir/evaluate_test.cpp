// The evaluator: the expression language's semantics on concrete values, as tests and
// fuzzers use it to compare an expression with its rewrite.
#include "ir/evaluate.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <string>

#include "tests/ir/typed_parse.h"

namespace eqsat {
namespace {

using testing::Vars;
Expr parse(std::string_view text, const Vars& vars = {}) { return testing::parse_typed(text, vars); }

Value idx(Int v) { return Value::integer(DType::Index, v); }
Value i32(Int v) { return Value::integer(DType::Int32, v); }
Value u8(Int v) { return Value::integer(DType::UInt8, v); }
Value f32(double v) { return Value::floating(DType::FP32, v); }

TEST(Evaluate, IndexArithmeticNeverWraps) {
  const Env env = {{"x", idx(Int(1) << 40)}, {"y", idx(-7)}};
  EXPECT_EQ(evaluate(parse("x * x + 1"), env), idx((Int(1) << 80) + 1));
  // Floor division and modulo: the remainder takes the divisor's sign.
  EXPECT_EQ(evaluate(parse("y // 2"), env), idx(-4));
  EXPECT_EQ(evaluate(parse("y % 2"), env), idx(1));
  // Truncating division: toward zero, the remainder takes the dividend's sign.
  EXPECT_EQ(evaluate(parse("truncdiv(y, 2)"), env), idx(-3));
  EXPECT_EQ(evaluate(parse("truncmod(y, 2)"), env), idx(-1));
}

TEST(Evaluate, FixedWidthIntegersWrap) {
  const Vars vars = {{"x", DType::Int32}, {"u", DType::UInt8}};
  EXPECT_EQ(evaluate(parse("x + 1", vars), {{"x", i32(2147483647)}}), i32(-2147483648));
  EXPECT_EQ(evaluate(parse("x + 1 > x", vars), {{"x", i32(2147483647)}}), Value::boolean(false));
  EXPECT_EQ(evaluate(parse("u - 1", vars), {{"u", u8(0)}}), u8(255));
  EXPECT_EQ(evaluate(parse("cast(x, UINT8)", vars), {{"x", i32(300)}}), u8(44));
}

TEST(Evaluate, FloatsFollowIeee) {
  const Vars vars = {{"f", DType::FP32}};
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  // -0.0 + 0.0 is +0.0, so x + 0.0 is not x.
  EXPECT_EQ(evaluate(parse("f + 0.0", vars), {{"f", f32(-0.0)}}), f32(0.0));
  EXPECT_NE(evaluate(parse("f + 0.0", vars), {{"f", f32(-0.0)}}), f32(-0.0));
  EXPECT_EQ(evaluate(parse("f * 0.0", vars), {{"f", f32(inf)}}), f32(nan));
  EXPECT_EQ(evaluate(parse("f == f", vars), {{"f", f32(nan)}}), Value::boolean(false));
  // Rounded to FP32, not computed in double: 2^24 + 1 is not an FP32.
  EXPECT_EQ(evaluate(parse("f + 1.0", vars), {{"f", f32(16777216.0)}}), f32(16777216.0));
}

TEST(Evaluate, UndefinedOperationsHaveNoValue) {
  const Env env = {{"x", idx(5)}, {"z", idx(0)}};
  EXPECT_EQ(evaluate(parse("x // z"), env), std::nullopt);
  EXPECT_EQ(evaluate(parse("x % z + 1"), env), std::nullopt);
  EXPECT_EQ(evaluate(parse("truncmod(x, z)"), env), std::nullopt);
  EXPECT_EQ(evaluate(parse("x << -1"), env), std::nullopt);
  EXPECT_EQ(evaluate(parse("cast(x, INT8) << 8"), env), std::nullopt);
  EXPECT_EQ(
      evaluate(parse("cast(f, INT32)", {{"f", DType::FP32}}), {{"f", f32(std::numeric_limits<double>::infinity())}}),
      std::nullopt);
}

TEST(Evaluate, TheBranchNotTakenNeedsNoValue) {
  const Env at_zero = {{"i", idx(0)}, {"n", idx(4)}};
  EXPECT_EQ(evaluate(parse("select(i > 0, n // i, 0)"), at_zero), idx(0));
  EXPECT_EQ(evaluate(parse("select(i == 0, n // i, 0)"), at_zero), std::nullopt);
  EXPECT_EQ(evaluate(parse("i != 0 and n // i > 1"), at_zero), Value::boolean(false));
  EXPECT_EQ(evaluate(parse("i == 0 or n // i > 1"), at_zero), Value::boolean(true));
  EXPECT_EQ(evaluate(parse("i == 0 and n // i > 1"), at_zero), std::nullopt);
}

TEST(Evaluate, VariablesNeedAValueOfTheirDtype) {
  EXPECT_EQ(evaluate(parse("x + 1"), {}), std::nullopt);
  EXPECT_EQ(evaluate(parse("x + 1"), {{"x", i32(1)}}), std::nullopt);  // x is INDEX
  EXPECT_EQ(evaluate(parse("x + 1"), {{"x", idx(1)}}), idx(2));
}

}  // namespace
}  // namespace eqsat
