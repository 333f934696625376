// E-matching, guards and the runner, with rules built by hand (the rule language lives
// in rules/ and has its own tests).
#include "egraph/pattern.h"

#include <gtest/gtest.h>

#include "egraph/guard.h"
#include "egraph/runner.h"
#include "tests/egraph/build_exprs.h"

namespace eqsat {
namespace {

using testing::bin;
using testing::lit;
using testing::var;

// x + 0 => x, over INDEX.
Rewrite add_zero() {
  Rewrite r;
  r.name = "add-zero";
  r.vars = {{"x", DType::Index, false}};
  r.lhs = Pattern::from_expr(bin(Op::Add, var("x"), lit(0)), r.vars);
  r.rhs = Pattern::from_expr(var("x"), r.vars);
  return r;
}

std::vector<Subst> matches_of(const EGraph& g, const Rewrite& r, ClassId id) {
  std::vector<Subst> out;
  match_pattern(g, r.lhs, r.vars, id, [&](const Subst& s) { out.push_back(s); });
  return out;
}

TEST(Pattern, MatchesBothOperandOrdersOfACommutativeOp) {
  EGraph g;
  ClassId a = g.add_expr(bin(Op::Add, var("y"), lit(0)));
  ClassId b = g.add_expr(bin(Op::Add, lit(0), var("z")));
  g.rebuild();
  Rewrite r = add_zero();
  ASSERT_EQ(matches_of(g, r, a).size(), 1u);
  EXPECT_EQ(matches_of(g, r, a)[0][0], g.find(g.add_var("y", DType::Index)));
  ASSERT_EQ(matches_of(g, r, b).size(), 1u);
}

TEST(Pattern, ARepeatedVariableNeedsTheSameClass) {
  EGraph g;
  std::vector<PatternVar> vars = {{"x", DType::Index, false}};
  Pattern sub_self = Pattern::from_expr(bin(Op::Sub, var("x"), var("x")), vars);
  ClassId same = g.add_expr(bin(Op::Sub, var("a"), var("a")));
  ClassId different = g.add_expr(bin(Op::Sub, var("a"), var("b")));
  g.rebuild();
  int count = 0;
  match_pattern(g, sub_self, vars, same, [&](const Subst&) { ++count; });
  match_pattern(g, sub_self, vars, different, [&](const Subst&) { ++count; });
  EXPECT_EQ(count, 1);
}

TEST(Pattern, DtypesMustAgree) {
  EGraph g;
  ClassId int32_sum = g.add_expr(bin(Op::Add, var("x", DType::Int32), lit(0, DType::Int32)));
  g.rebuild();
  EXPECT_TRUE(matches_of(g, add_zero(), int32_sum).empty());  // the rule is for INDEX
}

TEST(Pattern, ConstantOnlyVariablesMatchKnownConstants) {
  EGraph g;
  std::vector<PatternVar> vars = {{"x", DType::Index, false}, {"c", DType::Index, true}};
  Pattern p = Pattern::from_expr(bin(Op::Mul, var("x"), var("c")), vars);
  ClassId by_const = g.add_expr(bin(Op::Mul, var("a"), bin(Op::Add, lit(1), lit(2))));
  ClassId by_var = g.add_expr(bin(Op::Mul, var("a"), var("b")));
  g.rebuild();
  int count = 0;
  match_pattern(g, p, vars, by_const, [&](const Subst& s) {
    ++count;
    EXPECT_EQ(g.data(s[1]).constant->i, 3);
  });
  EXPECT_EQ(count, 1);  // c matches the folded 1 + 2; x cannot be the constant side twice
  match_pattern(g, p, vars, by_var, [&](const Subst&) { ++count; });
  EXPECT_EQ(count, 1);
}

// upper(x) < c, built by hand.
Guard upper_below_c() {
  Guard guard;
  guard.nodes.push_back({GuardNode::Kind::Upper, Op::Add, 0, 0, {}});
  guard.nodes.push_back({GuardNode::Kind::ValueOf, Op::Add, 0, 1, {}});
  guard.nodes.push_back({GuardNode::Kind::Apply, Op::Lt, 0, 0, {0, 1}});
  guard.root = 2;
  guard.text = "upper(x) < c";
  return guard;
}

// The runner skips a match whose right side is in the e-graph already, in the class of
// the match: applying it would change nothing.
TEST(Pattern, InstanceInClassNeedsEveryNodeAndTheRootInTheClass) {
  EGraph g;
  g.set_builtin_commutativity(false);  // so that b + a is a node of its own
  std::vector<PatternVar> vars = {{"x", DType::Index, false}, {"y", DType::Index, false}};
  const Pattern swapped = Pattern::from_expr(bin(Op::Add, var("y"), var("x")), vars);
  const Pattern nested = Pattern::from_expr(bin(Op::Mul, bin(Op::Add, var("y"), var("x")), lit(2)), vars);
  const ClassId a = g.add_var("a", DType::Index), b = g.add_var("b", DType::Index);
  const ClassId a_plus_b = g.add_expr(bin(Op::Add, var("a"), var("b")));
  const ClassId b_plus_a = g.add_expr(bin(Op::Add, var("b"), var("a")));
  const ClassId twice = g.add_expr(bin(Op::Mul, bin(Op::Add, var("b"), var("a")), lit(2)));
  g.rebuild();
  const std::vector<ClassId> subst = {a, b};
  // b + a exists, but in a class of its own.
  EXPECT_FALSE(instance_in_class(g, swapped, subst, a_plus_b));
  EXPECT_TRUE(instance_in_class(g, swapped, subst, b_plus_a));
  g.merge(a_plus_b, b_plus_a);
  g.rebuild();
  EXPECT_TRUE(instance_in_class(g, swapped, subst, g.find(a_plus_b)));
  EXPECT_TRUE(instance_in_class(g, swapped, std::vector<ClassId>{b, a}, g.find(a_plus_b)));
  EXPECT_FALSE(instance_in_class(g, swapped, subst, a)) << "b + a is not in the class of a";
  // Inner nodes are looked up, constants too.
  EXPECT_TRUE(instance_in_class(g, nested, subst, twice));
  EXPECT_FALSE(instance_in_class(g, nested, subst, g.find(a_plus_b)));
  EXPECT_FALSE(instance_in_class(g, nested, std::vector<ClassId>{b, b}, twice)) << "b + b is not in the e-graph";
}

TEST(Guard, IsTrueOnlyWhenTheAnalysisProvesIt) {
  EGraph g;
  g.set_var_interval("i", Interval::range(0, 7));
  ClassId i = g.add_var("i", DType::Index);
  ClassId j = g.add_var("j", DType::Index);  // unbounded
  ClassId eight = g.add_constant(Value::integer(DType::Index, 8));
  ClassId five = g.add_constant(Value::integer(DType::Index, 5));
  g.rebuild();
  Guard guard = upper_below_c();
  EXPECT_EQ(evaluate_guard(g, guard, Subst{i, eight}), Truth::True);
  EXPECT_EQ(evaluate_guard(g, guard, Subst{i, five}), Truth::False);
  EXPECT_EQ(evaluate_guard(g, guard, Subst{j, eight}), Truth::Unknown);  // no upper bound
}

TEST(Runner, AppliesRulesToAFixpointAndReports) {
  EGraph g;
  ClassId root = g.add_expr(bin(Op::Add, bin(Op::Add, var("x"), lit(0)), lit(0)));
  Rewrite rules[] = {add_zero()};
  RunReport report = run_rewrites(g, rules);
  EXPECT_EQ(report.stop_reason, StopReason::Saturated);
  EXPECT_EQ(g.find(root), g.find(g.add_var("x", DType::Index)));
  EXPECT_EQ(report.rule_fires["add-zero"], 2u);
  EXPECT_EQ(g.check_invariants(), "");
  EXPECT_NE(report.to_json().find("\"stop_reason\": \"saturated\""), std::string::npos);
}

// a + b => b + (a + 0): grows forever, so only a limit stops it.
Rewrite explosive() {
  Rewrite r;
  r.name = "grow";
  r.vars = {{"a", DType::Index, false}, {"b", DType::Index, false}};
  r.lhs = Pattern::from_expr(bin(Op::Add, var("a"), var("b")), r.vars);
  r.rhs = Pattern::from_expr(bin(Op::Add, var("b"), bin(Op::Mul, var("a"), lit(1))), r.vars);
  return r;
}

TEST(Runner, StopsAtTheIterationLimit) {
  EGraph g;
  g.add_expr(bin(Op::Add, var("x"), var("y")));
  Rewrite rules[] = {explosive()};
  RunLimits limits;
  limits.max_iterations = 3;
  RunReport report = run_rewrites(g, rules, limits);
  EXPECT_EQ(report.stop_reason, StopReason::IterationLimit);
  EXPECT_EQ(report.iterations, 3u);
  EXPECT_EQ(g.check_invariants(), "");
}

TEST(Runner, StopsAtTheNodeLimit) {
  EGraph g;
  g.add_expr(bin(Op::Add, var("x"), var("y")));
  Rewrite rules[] = {explosive()};
  RunLimits limits;
  limits.max_iterations = 1000;
  limits.max_nodes = 50;
  RunReport report = run_rewrites(g, rules, limits);
  EXPECT_EQ(report.stop_reason, StopReason::NodeLimit);
  EXPECT_EQ(g.check_invariants(), "");
}

TEST(Runner, StopsAtTheTimeLimit) {
  EGraph g;
  g.add_expr(bin(Op::Add, var("x"), var("y")));
  Rewrite rules[] = {explosive()};
  RunLimits limits;
  limits.max_iterations = RunLimits::kNoLimit;
  limits.max_nodes = RunLimits::kNoLimit;
  limits.max_seconds = 0.0;
  EXPECT_EQ(run_rewrites(g, rules, limits).stop_reason, StopReason::TimeLimit);
}

}  // namespace
}  // namespace eqsat
