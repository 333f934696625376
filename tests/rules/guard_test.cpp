// The guard language: parsing into egraph/guard.h nodes and three-valued evaluation
// over the analyses of a match.
#include "rules/guard_parser.h"
#include "tests/rules/test_support.h"

namespace eqsat::testing {
namespace {

// The variables of a rule `x % c + y` in INDEX: x and y have intervals, c is a constant.
const std::vector<PatternVar> kVars = {
    {"x", DType::Index, false}, {"c", DType::Index, true}, {"y", DType::Index, false}};

// A match: x in `x_interval`, c = `c`, y unbounded.
class GuardEval : public ::testing::Test {
 protected:
  Truth eval(const std::string& text, Interval x_interval, Int c = 10) {
    Result<Guard> guard = parse_guard(text, kVars);
    EXPECT_TRUE(guard.ok()) << text << ": " << (guard.ok() ? "" : guard.error().describe());
    if (!guard) return Truth::Unknown;
    EGraph egraph;
    egraph.set_var_interval("x", x_interval);
    Subst subst;
    subst.push_back(egraph.add_var("x", DType::Index));
    subst.push_back(egraph.add_constant(Value::integer(DType::Index, c)));
    subst.push_back(egraph.add_var("y", DType::Index));
    egraph.rebuild();
    return evaluate_guard(egraph, *guard, subst);
  }
};

TEST_F(GuardEval, BoundsAndConstants) {
  EXPECT_EQ(eval("c > 0 and lower(x) >= 0 and upper(x) < c", Interval::range(0, 9)), Truth::True);
  EXPECT_EQ(eval("c > 0 and lower(x) >= 0 and upper(x) < c", Interval::range(0, 10)), Truth::False);
  // An unbounded side is unknown, and unknown never lets a rule fire.
  EXPECT_EQ(eval("c > 0 and lower(x) >= 0 and upper(x) < c", Interval::range(0, std::nullopt)), Truth::Unknown);
  EXPECT_EQ(eval("lower(y) >= 0", Interval::all()), Truth::Unknown);
  // The bounds of a constant-only variable are its value.
  EXPECT_EQ(eval("lower(c) == c and upper(c) == 10", Interval::all()), Truth::True);
}

TEST_F(GuardEval, ThreeValuedLogic) {
  EXPECT_EQ(eval("lower(y) >= 0 or c > 0", Interval::all()), Truth::True);
  EXPECT_EQ(eval("lower(y) >= 0 and c < 0", Interval::all()), Truth::False);
  EXPECT_EQ(eval("not (lower(y) >= 0)", Interval::all()), Truth::Unknown);
  EXPECT_EQ(eval("not (c < 0)", Interval::all()), Truth::True);
}

TEST_F(GuardEval, ArithmeticIsExactAndFloors) {
  EXPECT_EQ(eval("-7 // 2 == -4 and -7 % 2 == 1 and 7 % -2 == -1", Interval::all()), Truth::True);
  EXPECT_EQ(eval("c * c * c * c == 10000 and c - 11 == -1 and -c == -10", Interval::all()), Truth::True);
  EXPECT_EQ(eval("min(c, 3) == 3 and max(c, 3) == c and abs(3 - c) == 7", Interval::all()), Truth::True);
  EXPECT_EQ(eval("c & 3 == 2 and (c & 3) == 2", Interval::all()), Truth::True);
  // Division by zero in a guard is unknown, not an error.
  EXPECT_EQ(eval("c // (c - 10) == 0", Interval::all()), Truth::Unknown);
}

TEST_F(GuardEval, PythonPrecedence) {
  EXPECT_EQ(eval("c + 2 * 3 == 16", Interval::all()), Truth::True);
  EXPECT_EQ(eval("-c * 2 == -20", Interval::all()), Truth::True);
  EXPECT_EQ(eval("not c == 3 and c > 0", Interval::all()), Truth::True);  // (not (c == 3)) and (c > 0)
  EXPECT_EQ(eval("c < 0 and c > 100 or c == 10", Interval::all()), Truth::True);
}

TEST_F(GuardEval, ComparisonChains) {
  EXPECT_EQ(eval("0 <= c < 16", Interval::all()), Truth::True);
  EXPECT_EQ(eval("0 <= c < 8", Interval::all()), Truth::False);
  EXPECT_EQ(eval("lower(x) <= upper(x) < c <= 10", Interval::range(1, 2)), Truth::True);
}

TEST_F(GuardEval, IsConst) {
  EXPECT_EQ(eval("is_const(c) and not is_const(x)", Interval::all()), Truth::True);
  // A variable whose interval is a single point is a constant to the analysis.
  EXPECT_EQ(eval("is_const(x)", Interval::point(4)), Truth::True);
}

// `text`, parsed over kVars, evaluated for the match `subst` (Unknown if it does not parse).
Truth eval_guard(const EGraph& egraph, const Subst& subst, const std::string& text) {
  Result<Guard> guard = parse_guard(text, kVars);
  EXPECT_TRUE(guard.ok()) << text << ": " << (guard.ok() ? "" : guard.error().describe());
  return guard ? evaluate_guard(egraph, *guard, subst) : Truth::Unknown;
}

TEST(GuardTotal, ReadsWhetherTheClassHoldsATermDefinedEverywhere) {
  // x: a variable; c: x // y, undefined at y = 0; y: y // x merged with x + 1 (equal
  // under some fact), so its class holds a total term as well.
  EGraph egraph;
  const Expr x = Expr::var("x", DType::Index);
  const Expr y = Expr::var("y", DType::Index);
  const Expr quotient = Expr::make(Op::FloorDiv, DType::Index, {x, y});
  Subst subst;
  subst.push_back(egraph.add_expr(x));
  subst.push_back(egraph.add_expr(quotient));
  const ClassId other_quotient = egraph.add_expr(Expr::make(Op::FloorDiv, DType::Index, {y, x}));
  egraph.merge(other_quotient, egraph.add_expr(Expr::make(Op::Add, DType::Index,
                                                          {x, Expr::constant(Value::integer(DType::Index, 1))})));
  subst.push_back(other_quotient);
  egraph.rebuild();
  auto eval = [&](const std::string& text) { return eval_guard(egraph, subst, text); };
  EXPECT_EQ(eval("total(x)"), Truth::True);
  EXPECT_EQ(eval("total(c)"), Truth::False);  // never unknown
  EXPECT_EQ(eval("total(y)"), Truth::True);
  EXPECT_FALSE(parse_guard("total(3)", kVars).ok());
  EXPECT_FALSE(parse_guard("total(z)", kVars).ok());
}

TEST(GuardCongruence, ModulusAndRemainderReadTheCongruenceAnalysis) {
  // x = i*8 + 6 (8k + 6), c = 4, y unbounded (nothing known: 1 and 0).
  EGraph egraph;
  Subst subst;
  subst.push_back(egraph.add_expr(
      Expr::make(Op::Add, DType::Index,
                 {Expr::make(Op::Mul, DType::Index,
                             {Expr::var("i", DType::Index), Expr::constant(Value::integer(DType::Index, 8))}),
                  Expr::constant(Value::integer(DType::Index, 6))})));
  subst.push_back(egraph.add_constant(Value::integer(DType::Index, 4)));
  subst.push_back(egraph.add_var("y", DType::Index));
  egraph.rebuild();
  auto eval = [&](const std::string& text) { return eval_guard(egraph, subst, text); };
  EXPECT_EQ(eval("modulus(x) == 8 and remainder(x) == 6"), Truth::True);
  EXPECT_EQ(eval("modulus(x) % c == 0 and remainder(x) // c == 1"), Truth::True);
  EXPECT_EQ(eval("modulus(y) == 1 and remainder(y) == 0"), Truth::True);
  EXPECT_EQ(eval("modulus(y) % c == 0"), Truth::False);
  // A constant's congruence is unknown (constant folding handles constants).
  EXPECT_EQ(eval("modulus(c) >= 1"), Truth::Unknown);
  Result<Guard> parsed = parse_guard("remainder(x) < modulus(y)", kVars);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->nodes[0].kind, GuardNode::Kind::Remainder);
  EXPECT_EQ(parsed->nodes[0].var, 0u);
  EXPECT_EQ(parsed->nodes[1].kind, GuardNode::Kind::Modulus);
  EXPECT_EQ(parsed->nodes[1].var, 2u);
  EXPECT_FALSE(parse_guard("modulus(3) > 0", kVars).ok());
  EXPECT_FALSE(parse_guard("remainder(z) > 0", kVars).ok());
}

TEST(GuardParse, NodesComeBeforeTheirParents) {
  Result<Guard> guard = parse_guard("0 <= c < 8", kVars);
  ASSERT_TRUE(guard.ok());
  EXPECT_EQ(guard->text, "0 <= c < 8");
  const GuardNode& root = guard->nodes[guard->root];
  EXPECT_EQ(root.kind, GuardNode::Kind::Apply);
  EXPECT_EQ(root.op, Op::And);
  for (std::size_t i = 0; i < guard->nodes.size(); ++i) {
    for (uint32_t child : guard->nodes[i].children) EXPECT_LT(child, i);
  }
  Result<Guard> bounds = parse_guard("upper(x) < c", kVars);
  ASSERT_TRUE(bounds.ok());
  EXPECT_EQ(bounds->nodes[0].kind, GuardNode::Kind::Upper);
  EXPECT_EQ(bounds->nodes[0].var, 0u);
  EXPECT_EQ(bounds->nodes[1].kind, GuardNode::Kind::ValueOf);
  EXPECT_EQ(bounds->nodes[1].var, 1u);
}

std::string guard_error(const std::string& text) {
  Result<Guard> guard = parse_guard(text, kVars);
  EXPECT_FALSE(guard.ok()) << "accepted: " << text;
  return guard.ok() ? "" : guard.error().describe();
}

TEST(GuardParse, Errors) {
  EXPECT_EQ(guard_error(""), "column 1: empty guard");
  EXPECT_EQ(guard_error("c > 0 and"), "column 10: expected a value, found the end of the guard");
  EXPECT_EQ(guard_error("c + 1"), "column 1: a guard must be a condition (a comparison, and, or, not)");
  EXPECT_EQ(guard_error("c and c > 0"), "column 3: 'and' needs a condition, not a number");
  EXPECT_EQ(guard_error("not c"), "column 1: 'not' needs a condition, not a number");
  EXPECT_EQ(guard_error("(c > 0) + 1 > 0"), "column 9: '+' needs a number, not a condition");
  EXPECT_EQ(guard_error("x > 0"),
            "column 1: 'x' is not a constant-only variable (c, c0, c1, ...): its value is unknown, use "
            "lower(x)/upper(x)");
  EXPECT_EQ(guard_error("lower(z) > 0"), "column 7: the guard uses 'z', which the left side does not bind");
  EXPECT_EQ(guard_error("lower(x + 1) > 0"), "column 9: expected ')', found '+'");
  EXPECT_EQ(guard_error("lower(1) > 0"), "column 7: 'lower' takes a pattern variable");
  EXPECT_EQ(guard_error("bound(x) > 0"), "column 1: unknown guard function 'bound'");
  EXPECT_EQ(guard_error("c / 2 > 0"), "column 3: a guard divides with '//' (floor division)");
  EXPECT_EQ(guard_error("c > 0 $"), "column 7: unexpected character '$' in the guard");
  EXPECT_EQ(guard_error("c > 0 c"), "column 7: unexpected 'c' after the end of the guard");
  EXPECT_EQ(guard_error("(c > 0"), "column 7: expected ')', found end of the guard");
  EXPECT_EQ(guard_error("c > 0 or True"), "column 10: a guard has no True/False literals; write the condition itself");
}

}  // namespace
}  // namespace eqsat::testing
