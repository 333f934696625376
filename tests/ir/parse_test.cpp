// The parser: Python's grammar and precedence, literal typing, and its error messages.
#include "ir/parse.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "tests/ir/typed_parse.h"

namespace eqsat {
namespace {

using testing::dump;
using testing::typer_for;
using testing::Vars;

// Variables not listed are INDEX, as in the batch format.
Result<Expr> parse(std::string_view text, const Vars& vars = {}) { return parse_expr(text, typer_for(vars)); }

// Builders for the expected trees.
Expr var(const std::string& name, DType dtype = DType::Index) { return Expr::var(name, dtype); }
Expr num(Int v, DType dtype = DType::Index) { return Expr::constant(Value::integer(dtype, v)); }
Expr real(double v, DType dtype = DType::FP32) { return Expr::constant(Value::floating(dtype, v)); }
Expr boolean(bool b) { return Expr::constant(Value::boolean(b)); }
Expr cast(Expr a, DType dtype) { return Expr::make(Op::Cast, dtype, {std::move(a)}); }
// Any other operation; the result dtype follows from the operands.
Expr make(Op op, std::vector<Expr> args) {
  DType dtype = args.back().dtype();
  if (is_comparison(op) || op == Op::And || op == Op::Or || op == Op::Not) dtype = DType::Bool;
  return Expr::make(op, dtype, std::move(args));
}

void expect_parse(std::string_view text, const Expr& expected, const Vars& vars = {}) {
  Result<Expr> got = parse(text, vars);
  ASSERT_TRUE(got.ok()) << text << ": " << got.error().describe();
  EXPECT_EQ(*got, expected) << text << "\n  got      " << dump(*got) << "\n  expected " << dump(expected);
}

const Expr x = var("x"), y = var("y"), z = var("z");
const Vars kBools = {{"p", DType::Bool}, {"q", DType::Bool}, {"r", DType::Bool}};
const Expr p = var("p", DType::Bool), q = var("q", DType::Bool), r = var("r", DType::Bool);

TEST(ParseLiterals, Integers) {
  expect_parse("12", num(12));
  expect_parse("0", num(0));
  expect_parse("00", num(0));
  expect_parse("0x1F", num(31));
  expect_parse("-0x10", num(-16));
  expect_parse("+3", num(3));
  // 2^127 - 1 and -2^127 are the ends of the INDEX literals we hold.
  expect_parse("170141183460469231731687303715884105727", num(std::numeric_limits<Int>::max()));
  expect_parse("-170141183460469231731687303715884105728", num(std::numeric_limits<Int>::min()));
}

TEST(ParseLiterals, MinusBeforeALiteralIsPartOfIt) {
  expect_parse("-3", num(-3));
  expect_parse("- 3", num(-3));
  expect_parse("--3", make(Op::Neg, {num(-3)}));
  expect_parse("-(3)", make(Op::Neg, {num(3)}));
  expect_parse("-x", make(Op::Neg, {x}));
  expect_parse("~3", make(Op::BitNot, {num(3)}));
  expect_parse("~-3", make(Op::BitNot, {num(-3)}));
  expect_parse("-~3", make(Op::Neg, {make(Op::BitNot, {num(3)})}));
  // Only a minus: binary minus stays subtraction.
  expect_parse("x - 3", make(Op::Sub, {x, num(3)}));
  expect_parse("x - -3", make(Op::Sub, {x, num(-3)}));
  expect_parse("x-3", make(Op::Sub, {x, num(3)}));
}

TEST(ParseLiterals, Floats) {
  expect_parse("1.5", real(1.5));
  expect_parse("0.0", real(0.0));
  expect_parse("-0.0", real(-0.0));
  expect_parse("-(0.0)", make(Op::Neg, {real(0.0)}));
  expect_parse("2.", real(2.0));
  expect_parse(".5", real(0.5));
  expect_parse("1e-3", real(1e-3));
  expect_parse("1E+3", real(1000.0));
  expect_parse("2.e1", real(20.0));
  // Rounded to the dtype: 0.1 as FP32 is the float nearest 0.1.
  expect_parse("0.1", real(0.1, DType::FP32));
  // Too small for any float: zero, as in Python.
  expect_parse("1e-400", real(0.0));
}

TEST(ParseLiterals, Booleans) {
  expect_parse("True", boolean(true));
  expect_parse("False", boolean(false));
}

TEST(ParseLiterals, ExplicitDtypes) {
  expect_parse("const(7, INT32)", num(7, DType::Int32));
  expect_parse("const(-128, INT8)", num(-128, DType::Int8));
  expect_parse("const(255, UINT8)", num(255, DType::UInt8));
  // Any n-bit two's complement pattern is accepted and wraps, as C converts it.
  expect_parse("const(-1, UINT8)", num(255, DType::UInt8));
  expect_parse("const(255, INT8)", num(-1, DType::Int8));
  expect_parse("const(18446744073709551615, UINT64)", num((Int(1) << 64) - 1, DType::UInt64));
  expect_parse("const(0, BOOL)", boolean(false));
  expect_parse("const(1, BOOL)", boolean(true));
  expect_parse("const(True, BOOL)", boolean(true));
  expect_parse("const(2, FP32)", real(2.0));
  expect_parse("const(1.5, FP64)", real(1.5, DType::FP64));
  expect_parse("const(-0.0, BF16)", real(-0.0, DType::BF16));
  expect_parse("const(inf, FP32)", real(std::numeric_limits<double>::infinity()));
  expect_parse("const(-inf, FP64)", real(-std::numeric_limits<double>::infinity(), DType::FP64));
  expect_parse("const(nan, FP16)", real(std::nan(""), DType::FP16));
  expect_parse("const(65504.0, FP16)", real(65504.0, DType::FP16));
}

TEST(ParsePrecedence, ArithmeticBindsLikePython) {
  expect_parse("x + y * z", make(Op::Add, {x, make(Op::Mul, {y, z})}));
  expect_parse("x * y + z", make(Op::Add, {make(Op::Mul, {x, y}), z}));
  expect_parse("(x + y) * z", make(Op::Mul, {make(Op::Add, {x, y}), z}));
  expect_parse("-x * y", make(Op::Mul, {make(Op::Neg, {x}), y}));
  expect_parse("-x // 4", make(Op::FloorDiv, {make(Op::Neg, {x}), num(4)}));
  expect_parse("x * -y", make(Op::Mul, {x, make(Op::Neg, {y})}));
  expect_parse("~x + 1", make(Op::Add, {make(Op::BitNot, {x}), num(1)}));
}

TEST(ParsePrecedence, LeftAssociative) {
  expect_parse("x - y - z", make(Op::Sub, {make(Op::Sub, {x, y}), z}));
  expect_parse("x - (y - z)", make(Op::Sub, {x, make(Op::Sub, {y, z})}));
  expect_parse("x // 4 // 8", make(Op::FloorDiv, {make(Op::FloorDiv, {x, num(4)}), num(8)}));
  expect_parse("x % 4 * 8", make(Op::Mul, {make(Op::FloorMod, {x, num(4)}), num(8)}));
  expect_parse("x << 1 >> 2", make(Op::Shr, {make(Op::Shl, {x, num(1)}), num(2)}));
  expect_parse("p or q or r", make(Op::Or, {make(Op::Or, {p, q}), r}), kBools);
}

TEST(ParsePrecedence, EveryLevel) {
  // | < ^ < & < shifts < + - < * / // %.
  expect_parse(
      "x | y ^ z & x << y + z * x",
      make(Op::BitOr,
           {x, make(Op::BitXor,
                    {y, make(Op::BitAnd, {z, make(Op::Shl, {x, make(Op::Add, {y, make(Op::Mul, {z, x})})})})})}));
  expect_parse(
      "x * y + z << x & y ^ z | x",
      make(Op::BitOr,
           {make(Op::BitXor, {make(Op::BitAnd, {make(Op::Shl, {make(Op::Add, {make(Op::Mul, {x, y}), z}), x}), y}), z}),
            x}));
  // Comparisons are below |; not is below comparisons; and below not; or below and.
  expect_parse("x | y < z", make(Op::Lt, {make(Op::BitOr, {x, y}), z}));
  expect_parse("not x < y", make(Op::Not, {make(Op::Lt, {x, y})}));
  expect_parse("not p and q", make(Op::And, {make(Op::Not, {p}), q}), kBools);
  expect_parse("p or q and r", make(Op::Or, {p, make(Op::And, {q, r})}), kBools);
  expect_parse("not not p", make(Op::Not, {make(Op::Not, {p})}), kBools);
  expect_parse("not (p or q)", make(Op::Not, {make(Op::Or, {p, q})}), kBools);
}

TEST(ParsePrecedence, ComparisonChainsMeanAnd) {
  expect_parse("x < y < z", make(Op::And, {make(Op::Lt, {x, y}), make(Op::Lt, {y, z})}));
  expect_parse("x < y <= z != 3",
               make(Op::And, {make(Op::And, {make(Op::Lt, {x, y}), make(Op::Le, {y, z})}), make(Op::Ne, {z, num(3)})}));
  expect_parse("0 <= x < 16", make(Op::And, {make(Op::Le, {num(0), x}), make(Op::Lt, {x, num(16)})}));
  // Parentheses break a chain.
  expect_parse("(x < y) == p", make(Op::Eq, {make(Op::Lt, {x, y}), p}), kBools);
}

TEST(ParsePrecedence, ChainSharesTheMiddleOperand) {
  Result<Expr> chain = parse("x < y + 1 < z");
  ASSERT_TRUE(chain.ok());
  const Expr& middle_left = chain->arg(0).arg(1);
  const Expr& middle_right = chain->arg(1).arg(0);
  EXPECT_EQ(&middle_left.args(), &middle_right.args()) << "one node, not two copies";
}

TEST(ParseCalls, AllFunctions) {
  const Vars vars = {{"c", DType::Bool}};
  const Expr c = var("c", DType::Bool);
  expect_parse("min(x, 0)", make(Op::Min, {x, num(0)}));
  expect_parse("max(x, y)", make(Op::Max, {x, y}));
  expect_parse("abs(x - y)", make(Op::Abs, {make(Op::Sub, {x, y})}));
  expect_parse("select(c, x, y)", make(Op::Select, {c, x, y}), vars);
  expect_parse("where(c, x, y)", make(Op::Select, {c, x, y}), vars);
  expect_parse("truncdiv(x, 4)", make(Op::TruncDiv, {x, num(4)}));
  expect_parse("truncmod(x, 4)", make(Op::TruncMod, {x, num(4)}));
  expect_parse("cast(x, INT32)", cast(x, DType::Int32));
  expect_parse("select(x < 16, x + 0, 3)",
               make(Op::Select, {make(Op::Lt, {x, num(16)}), make(Op::Add, {x, num(0)}), num(3)}));
}

TEST(ParseCalls, PlPrefixIsIgnored) {
  expect_parse("pl.min(x, pl.max(y, 1))", make(Op::Min, {x, make(Op::Max, {y, num(1)})}));
  expect_parse("pl.cast(x, pl.INT64)", cast(x, DType::Int64));
  expect_parse("cast(x, pl.FP16)", cast(x, DType::FP16));
  expect_parse("const(3, pl.INT8)", num(3, DType::Int8));
}

TEST(ParseTyping, IntegerLiteralTakesTheOperandsDtype) {
  const Vars vars = {{"i", DType::Int32}, {"f", DType::FP32}, {"u", DType::UInt8}};
  const Expr i = var("i", DType::Int32), f = var("f", DType::FP32), u = var("u", DType::UInt8);
  expect_parse("i + 1", make(Op::Add, {i, num(1, DType::Int32)}), vars);
  expect_parse("1 + i", make(Op::Add, {num(1, DType::Int32), i}), vars);
  expect_parse("f * 2", make(Op::Mul, {f, real(2.0)}), vars);
  expect_parse("min(3, u)", make(Op::Min, {num(3, DType::UInt8), u}), vars);
  expect_parse("i == -1", make(Op::Eq, {i, num(-1, DType::Int32)}), vars);
  expect_parse("i << 1", make(Op::Shl, {i, num(1, DType::Int32)}), vars);
  expect_parse("f / 2", make(Op::Div, {f, real(2.0)}), vars);
}

TEST(ParseTyping, LiteralSubtreesTakeTheDtypeTheyMeet) {
  const Vars vars = {{"i", DType::Int32}, {"b", DType::Int8}, {"c", DType::Bool}};
  const Expr i = var("i", DType::Int32), b = var("b", DType::Int8), c = var("c", DType::Bool);
  expect_parse("i + (3 + 4)", make(Op::Add, {i, make(Op::Add, {num(3, DType::Int32), num(4, DType::Int32)})}), vars);
  expect_parse(
      "(1 + 4) * 2 < b",
      make(Op::Lt,
           {make(Op::Mul, {make(Op::Add, {num(1, DType::Int8), num(4, DType::Int8)}), num(2, DType::Int8)}), b}),
      vars);
  expect_parse("select(c, 1, 2) + i",
               make(Op::Add, {make(Op::Select, {c, num(1, DType::Int32), num(2, DType::Int32)}), i}), vars);
  expect_parse("-(3) + i", make(Op::Add, {make(Op::Neg, {num(3, DType::Int32)}), i}), vars);
}

TEST(ParseTyping, LiteralsAloneTakeTheDefaults) {
  expect_parse("3 + 4", make(Op::Add, {num(3), num(4)}));
  expect_parse("3 < 4", make(Op::Lt, {num(3), num(4)}));
  expect_parse("1.5 + 2", make(Op::Add, {real(1.5), real(2.0)}));
  expect_parse("1 < 2.5", make(Op::Lt, {real(1.0), real(2.5)}));
  // Dividing integer literals gives a float, as in Python.
  expect_parse("1 / 2", make(Op::Div, {real(1.0), real(2.0)}));
  // A cast's operand stands alone: this is the INDEX 3, cast.
  expect_parse("cast(3, INT8)", cast(num(3), DType::Int8));
  expect_parse("cast(1.5, FP16)", cast(real(1.5), DType::FP16));
  expect_parse("select(True, 1, 2)", make(Op::Select, {boolean(true), num(1), num(2)}));
}

TEST(ParseTyping, ExplicitConstantFixesTheDtype) {
  expect_parse("const(127, INT8) + 1", make(Op::Add, {num(127, DType::Int8), num(1, DType::Int8)}));
  expect_parse("2 * const(1.5, FP64)", make(Op::Mul, {real(2.0, DType::FP64), real(1.5, DType::FP64)}));
  expect_parse("cast(x + 1, INT32) - const(1, INT32)",
               make(Op::Sub, {cast(make(Op::Add, {x, num(1)}), DType::Int32), num(1, DType::Int32)}));
}

TEST(ParseTyping, LiteralsRoundToTheirDtype) {
  const Vars vars = {{"h", DType::FP16}};
  const Expr h = var("h", DType::FP16);
  // 0.1 is not an FP16 value: it becomes the nearest one.
  expect_parse("h + 0.1", make(Op::Add, {h, real(0.1, DType::FP16)}), vars);
  expect_parse("h + 2049", make(Op::Add, {h, real(2048.0, DType::FP16)}), vars);
}

TEST(ParseTyping, EveryDtypeAndOperation) {
  // Each dtype with the operations it admits.
  for (int d = 0; d < kNumDTypes; ++d) {
    const auto dtype = static_cast<DType>(d);
    const Vars vars = {{"a", dtype}, {"b", dtype}, {"c", DType::Bool}};
    const std::string name(dtype_name(dtype));
    std::vector<std::string> good = {"a == b", "a != b", "select(c, a, b)", "cast(a, INDEX)"};
    if (is_integer(dtype) || is_float(dtype)) {
      for (const char* e : {"a + b", "a - b", "a * b", "-a", "min(a, b)", "max(a, b)", "abs(a)", "a < b", "a <= b",
                            "a > b", "a >= b"}) {
        good.push_back(e);
      }
    }
    if (is_integer(dtype)) {
      for (const char* e : {"a // b", "a % b", "truncdiv(a, b)", "truncmod(a, b)", "a & b", "a | b", "a ^ b", "~a",
                            "a << b", "a >> b"}) {
        good.push_back(e);
      }
    }
    if (is_float(dtype)) good.push_back("a / b");
    if (dtype == DType::Bool) {
      for (const char* e : {"a and b", "a or b", "not a"}) good.push_back(e);
    }
    for (const std::string& text : good) {
      Result<Expr> e = parse(text, vars);
      EXPECT_TRUE(e.ok()) << name << ": " << text << ": " << e.error().describe();
    }
  }
}

TEST(ParseNames, BoolContextIsReported) {
  std::map<std::string, bool> seen;
  VarTyper typer = [&seen](std::string_view name, bool bool_context) -> std::optional<DType> {
    seen[std::string(name)] = bool_context;
    return name.size() == 1 && name[0] >= 'p' && name[0] <= 's' ? DType::Bool : DType::Index;
  };
  ASSERT_TRUE(parse_expr("select(p, x, y) < z and (q) or not r == s", typer).ok());
  EXPECT_TRUE(seen["p"]);   // a select condition
  EXPECT_TRUE(seen["q"]);   // an operand of and (parentheses do not matter)
  EXPECT_FALSE(seen["r"]);  // an operand of ==, which takes any dtype
  EXPECT_FALSE(seen["s"]);
  EXPECT_FALSE(seen["x"]);
  EXPECT_FALSE(seen["z"]);
}

TEST(ParseNames, UnknownNameFromTheTyper) {
  VarTyper only_x = [](std::string_view name, bool) -> std::optional<DType> {
    if (name == "x") return DType::Int32;
    return std::nullopt;
  };
  Result<Expr> e = parse_expr("x + foo", only_x);
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().message, "unknown name 'foo'");
  EXPECT_EQ(e.error().column, 5);
}

TEST(ParseNames, IndexByDefault) {
  VarTyper typer = index_by_default([](std::string_view name) -> std::optional<DType> {
    if (name == "f") return DType::FP64;
    return std::nullopt;
  });
  EXPECT_EQ(typer("f", false), DType::FP64);
  EXPECT_EQ(typer("anything", true), DType::Index);
  EXPECT_EQ(index_by_default(nullptr)("x", false), DType::Index);
}

struct BadCase {
  std::string text;
  int column;
  std::string message;  // a substring of the error message
};

class ParseErrors : public ::testing::TestWithParam<BadCase> {};

TEST_P(ParseErrors, NamesTheColumnAndTheReason) {
  const BadCase& bad = GetParam();
  const Vars vars = {
      {"i", DType::Int32}, {"j", DType::Int64}, {"f", DType::FP32}, {"u", DType::UInt8}, {"p", DType::Bool}};
  Result<Expr> e = parse(bad.text, vars);
  ASSERT_FALSE(e.ok()) << bad.text << " parsed as " << dump(*e);
  EXPECT_EQ(e.error().column, bad.column) << bad.text << ": " << e.error().describe();
  EXPECT_NE(e.error().message.find(bad.message), std::string::npos) << bad.text << ": " << e.error().describe();
}

INSTANTIATE_TEST_SUITE_P(
    Syntax, ParseErrors,
    ::testing::Values(
        BadCase{"", 1, "empty expression"}, BadCase{"   ", 1, "empty expression"},
        BadCase{"x + $", 5, "unexpected character '$'"}, BadCase{"x + é", 5, "unexpected non-ASCII character"},
        BadCase{"(x + 1", 7, "expected ')' but found end of input"},
        BadCase{"min(x, 1", 9, "expected ',' or ')' but found end of input"}, BadCase{"x + 1)", 6, "unmatched ')'"},
        BadCase{"x y", 3, "unexpected 'y' after the end of the expression"}, BadCase{"x if p else y", 3, "use select"},
        BadCase{"x +", 4, "expected an expression but found end of input"},
        BadCase{"x + * y", 5, "expected an expression but found '*'"},
        BadCase{"x ** 2", 3, "'**' (power) is not supported"}, BadCase{"x = 1", 3, "unexpected character '='"},
        BadCase{"x and", 6, "expected an expression"},
        BadCase{"x + not p", 5, "expected an expression but found 'not'"},
        BadCase{"lambda + 1", 1, "expected an expression but found 'lambda'"},
        BadCase{"3x", 1, "malformed number '3x'"}, BadCase{"1e", 1, "malformed number '1e'"},
        BadCase{"007", 1, "leading zeros"}, BadCase{"1 + 999999999999999999999999999999999999999999", 5, "too large"},
        BadCase{"1e400", 1, "float literal 1e400 is out of range"}));

INSTANTIATE_TEST_SUITE_P(Calls, ParseErrors,
                         ::testing::Values(BadCase{"foo(x)", 1, "unknown function 'foo'"},
                                           BadCase{"x + pl.foo(1)", 5, "unknown function 'pl.foo'"},
                                           BadCase{"min(x)", 1, "'min' takes 2 arguments but got 1"},
                                           BadCase{"abs(x, y)", 1, "'abs' takes 1 argument but got 2"},
                                           BadCase{"select(p, x)", 1, "'select' takes 3 arguments but got 2"},
                                           BadCase{"max()", 1, "'max' takes 2 arguments but got 0"},
                                           BadCase{"cast(x, INT33)", 9, "unknown dtype 'INT33'"},
                                           BadCase{"cast(x, 3)", 9, "must be a dtype"},
                                           BadCase{"const(x, INT8)", 7, "must be a literal"},
                                           BadCase{"const(-nan, FP32)", 7, "must be a literal"},
                                           BadCase{"pl.x + 1", 1, "unknown name 'pl.x'"}));

INSTANTIATE_TEST_SUITE_P(
    Types, ParseErrors,
    ::testing::Values(BadCase{"i + j", 3, "operands of '+' have different dtypes INT32 and INT64"},
                      BadCase{"i + (j + 1)", 3, "operands of '+' have different dtypes INT32 and INT64"},
                      BadCase{"min(i, x)", 1, "operands of 'min' have different dtypes INT32 and INDEX"},
                      BadCase{"select(p, i, f)", 1, "branches of 'select' have different dtypes INT32 and FP32"},
                      BadCase{"i < j", 3, "operands of '<' have different dtypes"},
                      BadCase{"i < i < j", 7, "operands of '<' have different dtypes INT32 and INT64"},
                      BadCase{"f // 2", 3, "'//' needs integer operands, got FP32"},
                      BadCase{"f % 2.0", 3, "'%' needs integer operands, got FP32"},
                      BadCase{"truncdiv(f, f)", 1, "'truncdiv' needs integer operands, got FP32"},
                      BadCase{"x / 2", 3, "'/' needs float operands, got INDEX"},
                      BadCase{"x + 1 / 2", 7, "'/' needs float operands, got INDEX"},
                      BadCase{"f & f", 3, "'&' needs integer operands, got FP32"},
                      BadCase{"~f", 1, "'~' needs integer operands, got FP32"},
                      BadCase{"p + p", 3, "'+' needs integer or float operands, got BOOL"},
                      BadCase{"-p", 1, "'-' needs integer or float operands, got BOOL"},
                      BadCase{"p < p", 3, "'<' needs integer or float operands, got BOOL"},
                      BadCase{"x and p", 3, "operand of 'and' must be BOOL, got INDEX"},
                      BadCase{"not x", 1, "operand of 'not' must be BOOL, got INDEX"},
                      BadCase{"select(x, 1, 2)", 1, "the condition of 'select' must be BOOL, got INDEX"},
                      BadCase{"not 1", 5, "integer literal 1 where BOOL is expected"},
                      BadCase{"p == 1", 6, "integer literal 1 where BOOL is expected"},
                      BadCase{"i + 1.5", 5, "float literal 1.5 where INT32 is expected"},
                      BadCase{"x + (1.5 + 2)", 6, "float literal 1.5 where INDEX is expected"},
                      BadCase{"const(1.5, INT32)", 7, "float literal 1.5 where INT32 is expected"},
                      BadCase{"u + 300", 5, "literal 300 is out of range of UINT8"},
                      BadCase{"u == -129", 6, "literal -129 is out of range of UINT8"},
                      BadCase{"const(256, INT8)", 7, "literal 256 is out of range of INT8"},
                      BadCase{"-(const(256, INT8))", 9, "literal 256 is out of range of INT8"},
                      BadCase{"const(2, BOOL)", 7, "literal 2 is out of range of BOOL"},
                      BadCase{"const(True, INT8)", 7, "True is not a value of INT8"},
                      BadCase{"const(1e39, FP32)", 7, "literal 1e39 is out of range of FP32"},
                      BadCase{"const(70000, FP16)", 7, "literal 70000 is out of range of FP16"},
                      BadCase{"True + 1", 6, "'+' needs integer or float operands, got BOOL"}));

TEST(ParseLimits, DeepNestingIsAnErrorNotACrash) {
  for (const std::string& open :
       {std::string("("), std::string("-"), std::string("~"), std::string("not "), std::string("abs(")}) {
    std::string text;
    for (int i = 0; i < 100000; ++i) text += open;
    text += "x";
    Result<Expr> e = parse(text);
    ASSERT_FALSE(e.ok()) << open;
    EXPECT_EQ(e.error().message, "expression nested too deeply") << open;
  }
}

TEST(ParseLimits, LongFlatChainsAreLimitedByTreeHeight) {
  std::string sum = "x";
  for (int i = 0; i < 100000; ++i) sum += " + 1";
  Result<Expr> e = parse(sum);
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().message, "expression nested too deeply");
}

TEST(ParseLimits, ReasonableDepthsParse) {
  std::string nested = "x";
  for (int i = 0; i < 400; ++i) nested = "(" + nested + " + 1)";
  EXPECT_TRUE(parse(nested).ok());
  std::string sum = "x";
  for (int i = 0; i < 900; ++i) sum += " + 1";
  EXPECT_TRUE(parse(sum).ok());
}

// Random token soup must give a result or an error, never a crash or a hang.
TEST(ParseLimits, RandomInputNeverCrashes) {
  const std::vector<std::string> pieces = {"x",       "p",     "1",      "-",    "+",   "*",    "//",  "%",  "/",
                                           "(",       ")",     ",",      "<",    "==",  "not",  "and", "or", "min(",
                                           "select(", "cast(", "const(", "INT8", "1.5", "True", "~",   "&",  "<<",
                                           " ",       "0x",    "inf",    "pl.",  "$",   "e5",   "."};
  std::mt19937 rng(7);
  int parsed = 0;
  for (int n = 0; n < 20000; ++n) {
    std::string text;
    const int length = int(rng() % 12) + 1;
    for (int i = 0; i < length; ++i) text += pieces[rng() % pieces.size()];
    Result<Expr> e = parse(text, kBools);
    parsed += e.ok();
    if (!e.ok()) {
      EXPECT_GE(e.error().column, 1) << text;
      EXPECT_LE(e.error().column, int(text.size()) + 1) << text;
    }
  }
  EXPECT_GT(parsed, 0);
}

}  // namespace
}  // namespace eqsat
