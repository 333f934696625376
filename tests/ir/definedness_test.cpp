// Which operations can be undefined (ir/definedness.h), checked against the evaluator:
// an operation called total is defined on every defined operand tried, and one called
// partial has operands where it is not. The e-graph's totality analysis, the
// extractor's operand order and the verifier's common-subterm form all read this one
// predicate.
#include "ir/definedness.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "ir/evaluate.h"
#include "tests/ir/typed_parse.h"

namespace eqsat {
namespace {

using testing::Vars;
Expr parse(std::string_view text, const Vars& vars) { return testing::parse_typed(text, vars); }

// Values worth trying for operands of a dtype: zero, signs, the edges, and for floats
// NaN and the infinities.
std::vector<Value> probes(DType dtype) {
  if (dtype == DType::Bool) return {Value::boolean(false), Value::boolean(true)};
  if (is_float(dtype)) {
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<Value> values;
    for (double v : {0.0, -0.0, 1.0, -2.5, 1e30, -1e30, inf, -inf, std::numeric_limits<double>::quiet_NaN()})
      values.push_back(Value::floating(dtype, v));
    return values;
  }
  std::vector<Value> values;
  for (Int v : {Int(0), Int(1), Int(-1), Int(7), Int(-128), Int(127), Int(255), Int(40)}) {
    values.push_back(Value::integer(dtype, v));  // wrapped into the dtype's range
  }
  return values;
}

// Whether `text` (in x and y) evaluates to a value for every pair of probes.
bool defined_on_all_probes(const std::string& text, DType x, DType y) {
  const Expr expr = parse(text, {{"x", x}, {"y", y}});
  for (const Value& a : probes(x)) {
    for (const Value& b : probes(y)) {
      if (!evaluate(expr, {{"x", a}, {"y", b}})) return false;
    }
  }
  return true;
}

struct Case {
  std::string text;
  DType x, y;
};

TEST(Definedness, TotalOperationsAreDefinedOnEveryOperand) {
  const std::vector<Case> total = {
      {"x + y", DType::Int8, DType::Int8},           {"x * y", DType::UInt8, DType::UInt8},
      {"x - y", DType::Index, DType::Index},         {"x & y", DType::Int32, DType::Int32},
      {"x / y", DType::FP32, DType::FP32},           {"x / y", DType::FP64, DType::FP64},
      {"x < y", DType::FP32, DType::FP32},           {"cast(x, FP16)", DType::FP64, DType::FP64},
      {"cast(x, BOOL)", DType::FP32, DType::FP32},   {"cast(x, INT8)", DType::Int32, DType::Int32},
      {"cast(x, FP32)", DType::Index, DType::Index}, {"select(x < 1, y, y + 1)", DType::Index, DType::Int8},
  };
  for (const Case& c : total) {
    const Expr expr = parse(c.text, {{"x", c.x}, {"y", c.y}});
    EXPECT_FALSE(is_partial(expr.op(), expr.dtype(), expr.arg(0).dtype())) << c.text;
    EXPECT_FALSE(may_be_undefined(expr)) << c.text;
    EXPECT_TRUE(defined_on_all_probes(c.text, c.x, c.y)) << c.text;
  }
}

TEST(Definedness, PartialOperationsHaveOperandsWithoutAValue) {
  const std::vector<Case> partial = {
      {"x // y", DType::Index, DType::Index},         {"x % y", DType::Int32, DType::Int32},
      {"truncdiv(x, y)", DType::UInt8, DType::UInt8}, {"truncmod(x, y)", DType::Int8, DType::Int8},
      {"x << y", DType::Int32, DType::Int32},         {"x >> y", DType::UInt8, DType::UInt8},
      {"cast(x, INT32)", DType::FP32, DType::FP32},   {"cast(x, INDEX)", DType::FP64, DType::FP64},
  };
  for (const Case& c : partial) {
    const Expr expr = parse(c.text, {{"x", c.x}, {"y", c.y}});
    EXPECT_TRUE(is_partial(expr.op(), expr.dtype(), expr.arg(0).dtype())) << c.text;
    EXPECT_TRUE(may_be_undefined(expr)) << c.text;
    EXPECT_FALSE(defined_on_all_probes(c.text, c.x, c.y)) << c.text;
  }
}

TEST(Definedness, APartialOperationAnywhereMakesAnExpressionPartial) {
  const Vars vars = {{"f", DType::FP32}};
  EXPECT_TRUE(may_be_undefined(parse("min(x + 1, select(x > 0, 8 // x, 0))", vars)));
  EXPECT_TRUE(may_be_undefined(parse("cast(f * 2.0, INT32) + 1", vars)));
  EXPECT_FALSE(may_be_undefined(parse("f / (f - f) < 1.0 and x < 3", vars)));
}

// Under nnan or ninf a NaN or an infinity is poison (ir/fast_math.h): float arithmetic
// can make one from values that are not, and a float variable may be one.
TEST(Definedness, UnderNnanOrNinfFloatArithmeticAndFloatVariablesMayBeUndefined) {
  const Vars vars = {{"f", DType::FP32}, {"g", DType::FP32}, {"p", DType::Bool}};
  for (FastMath flags : {FastMath(FastMathFlag::Nnan), FastMath(FastMathFlag::Ninf), FastMath::all()}) {
    for (std::string_view text : {"f + g", "f - g", "f * g", "f / g", "cast(x, FP16)", "cast(f, FP16)"}) {
      const Expr expr = parse(text, vars);
      EXPECT_TRUE(is_partial(expr.op(), expr.dtype(), expr.arg(0).dtype(), flags)) << text;
      EXPECT_FALSE(is_partial(expr.op(), expr.dtype(), expr.arg(0).dtype())) << text << ": strict IEEE";
    }
    // These pass a value on, or compare: no NaN or infinity of their own.
    for (std::string_view text : {"-f", "abs(f)", "min(f, g)", "max(f, g)", "select(p, f, g)", "f < g"}) {
      const Expr expr = parse(text, vars);
      EXPECT_FALSE(is_partial(expr.op(), expr.dtype(), expr.arg(0).dtype(), flags)) << text;
    }
    // ... but a float variable under them may itself be poison.
    EXPECT_TRUE(may_be_undefined(parse("p and f > 0.0", vars), flags));
    EXPECT_TRUE(leaf_may_be_undefined(parse("f", vars), flags));
    EXPECT_FALSE(leaf_may_be_undefined(parse("2.5", vars), flags));
    EXPECT_FALSE(may_be_undefined(parse("p and x > 0", vars), flags)) << "no float, nothing changes";
  }
  EXPECT_FALSE(may_be_undefined(parse("p and f > 0.0", vars)));
  EXPECT_FALSE(may_be_undefined(parse("p and f > 0.0", vars), FastMath(FastMathFlag::Nsz) | FastMathFlag::Reassoc));
  // A literal NaN is poison under nnan, an infinite one under ninf.
  const Value nan = Value::floating(DType::FP32, std::numeric_limits<double>::quiet_NaN());
  const Value inf = Value::floating(DType::FP32, std::numeric_limits<double>::infinity());
  EXPECT_TRUE(constant_is_poison(nan, FastMathFlag::Nnan));
  EXPECT_FALSE(constant_is_poison(nan, FastMathFlag::Ninf));
  EXPECT_TRUE(constant_is_poison(inf, FastMathFlag::Ninf));
  EXPECT_FALSE(constant_is_poison(inf, FastMathFlag::Nnan));
  EXPECT_FALSE(constant_is_poison(Value::floating(DType::FP32, 1e30), FastMath::all()));
}

}  // namespace
}  // namespace eqsat
