// The rule index (egraph/rule_index.h) and the search's check of the classes under a
// rewrite's root: they only decide which rewrites and classes the matcher is run on,
// so a run finds the same matches and builds the same e-graph as matching everything.
#include "egraph/rule_index.h"

#include <gtest/gtest.h>

#include <vector>

#include "egraph/runner.h"
#include "tests/egraph/build_exprs.h"

namespace eqsat {
namespace {

using testing::bin;
using testing::lit;
using testing::var;

Rewrite rewrite(const char* name, std::vector<PatternVar> vars, const Expr& lhs, const Expr& rhs) {
  Rewrite r;
  r.name = name;
  r.vars = std::move(vars);
  r.lhs = Pattern::from_expr(lhs, r.vars);
  r.rhs = Pattern::from_expr(rhs, r.vars);
  return r;
}

// (x * c) + y => y + x * c with c a known constant: a rule whose root needs a product
// under one operand of a commutative operation.
Rewrite product_plus(DType dtype = DType::Index) {
  return rewrite(
      "product-plus", {{"x", dtype, false}, {"c", dtype, true}, {"y", dtype, false}},
      bin(Op::Add, bin(Op::Mul, var("x", dtype), var("c", dtype)), var("y", dtype)),
      bin(Op::Sub, var("y", dtype), bin(Op::Mul, var("x", dtype), bin(Op::Sub, lit(0, dtype), var("c", dtype)))));
}

TEST(RuleIndex, ListsTheRewritesOfARootOperationAndDtypeInOrder) {
  std::vector<Rewrite> rules = {
      product_plus(),                                                                               // 0: Add, INDEX
      rewrite("sub-self", {{"x", DType::Index, false}}, bin(Op::Sub, var("x"), var("x")), lit(0)),  // 1: Sub
      product_plus(DType::Int32),                                                                   // 2: Add, INT32
      rewrite("add-zero", {{"x", DType::Index, false}}, bin(Op::Add, var("x"), lit(0)), var("x")),  // 3: Add
      rewrite("any", {{"x", DType::Index, false}}, var("x"), bin(Op::Add, var("x"), lit(0))),       // 4: unrooted
  };
  RuleIndex index(rules);
  EXPECT_TRUE(index.indexes(rules));
  EXPECT_EQ(std::vector<uint32_t>(index.rooted_at(Op::Add, DType::Index).begin(),
                                  index.rooted_at(Op::Add, DType::Index).end()),
            (std::vector<uint32_t>{0, 3}));
  EXPECT_EQ(index.rooted_at(Op::Add, DType::Int32).size(), 1u);
  EXPECT_EQ(index.rooted_at(Op::Sub, DType::Index)[0], 1u);
  EXPECT_TRUE(index.rooted_at(Op::Mul, DType::Index).empty());
  ASSERT_EQ(index.unrooted(DType::Index).size(), 1u);
  EXPECT_EQ(index.unrooted(DType::Index)[0], 4u);

  // The shape of rule 0: the product under either operand (Add commutes), then the
  // variable y (no need).
  EXPECT_TRUE(index.shape(0).any_order);
  EXPECT_EQ(index.shape(0).operand_needs[0], class_summary_bit(Op::Mul));
  EXPECT_EQ(index.shape(0).operand_needs[1], 0u);
  // x + 0: the constant operand needs a class of known value.
  EXPECT_EQ(index.shape(3).operand_needs[1], kKnownConstantBit);
  EXPECT_FALSE(index.shape(1).any_order);
}

TEST(RuleIndex, AnIndexOfOtherRewritesIsNotUsedForThese) {
  std::vector<Rewrite> rules = {product_plus()};
  std::vector<Rewrite> copy = rules;
  RuleIndex index(rules);
  EXPECT_FALSE(index.indexes(copy));  // other storage, even with equal contents
  EXPECT_FALSE(RuleIndex().indexes(rules));
}

// Runs the rules on `expr` and returns the run's report and the e-graph's size.
struct Outcome {
  RunReport report;
  std::size_t nodes = 0;
  std::size_t classes = 0;
};
Outcome run(const Expr& expr, const std::vector<Rewrite>& rules, const RuleIndex* index, bool commutativity) {
  EGraph g;
  g.set_builtin_commutativity(commutativity);
  g.add_expr(expr);
  Outcome out;
  out.report = run_rewrites(g, rules, {}, {}, {}, 1, {}, index);
  out.nodes = g.num_nodes();
  out.classes = g.num_classes();
  return out;
}

TEST(RuleIndex, ARunWithTheIndexOrWithoutOneOrWithAStaleOneIsTheSame) {
  // The product written second and first: with built-in commutativity the check of the
  // operands must look at both for a commutative root, and find the product; without,
  // only the order of the pattern matches.
  const Expr product_second = bin(Op::Add, var("y"), bin(Op::Mul, var("x"), lit(3)));
  const Expr product_first = bin(Op::Add, bin(Op::Mul, var("x"), lit(3)), var("y"));
  const std::vector<Rewrite> rules = {
      product_plus(), rewrite("add-zero", {{"x", DType::Index, false}}, bin(Op::Add, var("x"), lit(0)), var("x"))};
  const RuleIndex index(rules);
  const std::vector<Rewrite> others = {product_plus(DType::Int32)};
  const RuleIndex stale(others);
  for (bool commutativity : {true, false}) {
    for (const Expr& expr : {product_second, product_first}) {
      const Outcome plain = run(expr, rules, nullptr, commutativity);
      const Outcome indexed = run(expr, rules, &index, commutativity);
      const Outcome with_stale = run(expr, rules, &stale, commutativity);
      const bool can_match = commutativity || expr == product_first;
      EXPECT_EQ(plain.report.rule_fires.count("product-plus"), can_match ? 1u : 0u);
      for (const Outcome* o : {&indexed, &with_stale}) {
        EXPECT_EQ(o->nodes, plain.nodes);
        EXPECT_EQ(o->classes, plain.classes);
        EXPECT_EQ(o->report.rule_fires, plain.report.rule_fires);
        ASSERT_EQ(o->report.per_iteration.size(), plain.report.per_iteration.size());
        for (std::size_t i = 0; i < plain.report.per_iteration.size(); ++i)
          EXPECT_EQ(o->report.per_iteration[i].matches, plain.report.per_iteration[i].matches);
      }
    }
  }
}

TEST(RuleIndex, ARootsNeedsAreTheOperationsItsOperandsMustHold) {
  // product-plus needs a product under its root; add-zero a known constant; a rule
  // over plain variables needs nothing.
  const std::vector<Rewrite> rules = {
      product_plus(), rewrite("add-zero", {{"x", DType::Index, false}}, bin(Op::Add, var("x"), lit(0)), var("x")),
      rewrite("swap", {{"x", DType::Index, false}, {"y", DType::Index, false}}, bin(Op::Sub, var("x"), var("y")),
              bin(Op::Add, var("x"), bin(Op::Sub, lit(0), var("y"))))};
  const RuleIndex index(rules);
  EXPECT_EQ(index.root(0).needs, class_summary_bit(Op::Mul));
  EXPECT_EQ(index.root(1).needs, kKnownConstantBit);
  EXPECT_EQ(index.root(2).needs, 0u);
  EXPECT_FALSE(index.root(2).constrained());

  // An e-graph whose classes hold only additions and variables: no product anywhere,
  // so product-plus may not match; with a product somewhere, it may.
  const uint64_t sums = class_summary_bit(Op::Add) | class_summary_bit(Op::Var);
  EXPECT_FALSE(may_match_somewhere(index.root(0), sums));
  EXPECT_TRUE(may_match_somewhere(index.root(0), sums | class_summary_bit(Op::Mul)));
  EXPECT_FALSE(may_match_somewhere(index.root(1), sums));
  EXPECT_TRUE(may_match_somewhere(index.root(1), sums | kKnownConstantBit));
  EXPECT_TRUE(may_match_somewhere(index.root(2), 0));
}

TEST(RuleIndex, AClassWithoutTheOperandsARuleNeedsIsNotMatched) {
  // y + x has no product under it: product-plus never fires, and x + 0 has no
  // constant: add-zero neither.
  const Expr expr = bin(Op::Add, var("y"), var("x"));
  const std::vector<Rewrite> rules = {
      product_plus(), rewrite("add-zero", {{"x", DType::Index, false}}, bin(Op::Add, var("x"), lit(0)), var("x"))};
  const Outcome outcome = run(expr, rules, nullptr, true);
  EXPECT_TRUE(outcome.report.rule_fires.empty());
  EXPECT_EQ(outcome.report.per_iteration.at(0).matches, 0u);
  EXPECT_EQ(outcome.report.stop_reason, StopReason::Saturated);
}

}  // namespace
}  // namespace eqsat
