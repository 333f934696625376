// The e-graph core: hash-consing, merge + rebuild (congruence), analyses, invariants.
#include "egraph/egraph.h"

#include <gtest/gtest.h>

#include <limits>
#include <optional>
#include <random>
#include <stdexcept>

#include "egraph/runner.h"
#include "tests/egraph/build_exprs.h"

namespace eqsat {
namespace {

using testing::bin;
using testing::lit;
using testing::var;

TEST(EGraph, HashConsingReturnsTheSameClassForTheSameTerm) {
  EGraph g;
  ClassId a = g.add_expr(bin(Op::Add, var("x"), var("y")));
  ClassId b = g.add_expr(bin(Op::Add, var("x"), var("y")));
  EXPECT_EQ(a, b);
  EXPECT_EQ(g.num_classes(), 3u);  // x, y, x + y
}

TEST(EGraph, CommutativeOperandsAreOneNode) {
  EGraph g;
  ClassId a = g.add_expr(bin(Op::Add, var("x"), var("y")));
  ClassId b = g.add_expr(bin(Op::Add, var("y"), var("x")));
  EXPECT_EQ(a, b);
  // Subtraction is not commutative.
  EXPECT_NE(g.add_expr(bin(Op::Sub, var("x"), var("y"))), g.add_expr(bin(Op::Sub, var("y"), var("x"))));
}

TEST(EGraph, FloatMinAndMaxKeepTheirOperandOrder) {
  // min(-0.0, +0.0) may be either zero, so min(f, g) and min(g, f) can differ on
  // floats (found by the fuzzer: min(0.0, f) became min(f, 0.0)). On integers they are
  // one node.
  EGraph g;
  for (Op op : {Op::Min, Op::Max}) {
    EXPECT_NE(g.add_expr(bin(op, var("f", DType::FP32), var("g", DType::FP32))),
              g.add_expr(bin(op, var("g", DType::FP32), var("f", DType::FP32))));
    EXPECT_EQ(g.add_expr(bin(op, var("a", DType::Int32), var("b", DType::Int32))),
              g.add_expr(bin(op, var("b", DType::Int32), var("a", DType::Int32))));
  }
  // Float addition and equality stay commutative (NaN compares the same either way).
  EXPECT_EQ(g.add_expr(bin(Op::Add, var("f", DType::FP32), var("g", DType::FP32))),
            g.add_expr(bin(Op::Add, var("g", DType::FP32), var("f", DType::FP32))));
}

TEST(EGraph, AndAndOrKeepTheirOperandOrder) {
  // `and`/`or` short-circuit: x == 0 or y // x > 1 is defined at x = 0, the other order
  // is not. So they are not one node in both orders (rules swap them where that is
  // sound: and-comm, or-comm).
  EGraph g;
  for (Op op : {Op::And, Op::Or}) {
    EXPECT_NE(g.add_expr(bin(op, var("p", DType::Bool), var("q", DType::Bool))),
              g.add_expr(bin(op, var("q", DType::Bool), var("p", DType::Bool))));
  }
}

TEST(EGraph, TotalityAnalysis) {
  // A class is total when it holds a term defined for every input.
  EGraph g;
  const ClassId sum = g.add_expr(bin(Op::Add, var("x"), lit(1)));
  const ClassId quotient = g.add_expr(bin(Op::FloorDiv, var("x"), var("y")));
  const ClassId uses_quotient = g.add_expr(bin(Op::Mul, bin(Op::FloorDiv, var("x"), var("y")), lit(2)));
  EXPECT_TRUE(g.data(sum).total);
  EXPECT_FALSE(g.data(quotient).total);
  EXPECT_FALSE(g.data(uses_quotient).total);
  // Made equal to a total term (by a rule that proved it), the quotient is total, and
  // so are the terms over it.
  g.merge(quotient, sum);
  g.rebuild();
  EXPECT_TRUE(g.data(quotient).total);
  EXPECT_TRUE(g.data(uses_quotient).total);
  // A division by a class whose interval leaves out zero is defined everywhere.
  EXPECT_TRUE(g.data(g.add_expr(bin(Op::FloorDiv, var("x"), lit(2)))).total);
  g.set_var_interval("n", Interval::range(1, std::nullopt));
  EXPECT_TRUE(g.data(g.add_expr(bin(Op::FloorMod, var("x"), var("n")))).total);
  EXPECT_FALSE(g.data(g.add_expr(bin(Op::FloorMod, var("x"), var("y")))).total);
  // Float division is IEEE (x / 0.0 is an infinity or NaN): total. A cast from a float is
  // total to another float or to BOOL, not to an integer (NaN has no integer value).
  const Expr f = var("f", DType::FP32);
  EXPECT_TRUE(g.data(g.add_expr(Expr::make(Op::Div, DType::FP32, {f, f}))).total);
  EXPECT_TRUE(g.data(g.add_expr(Expr::make(Op::Cast, DType::FP64, {f}))).total);
  EXPECT_TRUE(g.data(g.add_expr(Expr::make(Op::Cast, DType::Bool, {f}))).total);
  EXPECT_FALSE(g.data(g.add_expr(Expr::make(Op::Cast, DType::Int32, {f}))).total);
}

TEST(EGraph, TotalityAnalysisUnderNnanOrNinf) {
  // Under nnan or ninf a NaN or an infinity is poison (ir/definedness.h): a float
  // variable may be one, and float arithmetic may make one. `p and f > 0.0` must not
  // become `f > 0.0 and p` (the guard total(q) of and-comm reads this).
  EGraph g;
  g.set_fast_math(FastMathFlag::Ninf);
  const Expr f = var("f", DType::FP32);
  const Expr one = Expr::constant(Value::floating(DType::FP32, 1.0));
  const Expr inf = Expr::constant(Value::floating(DType::FP32, std::numeric_limits<double>::infinity()));
  EXPECT_FALSE(g.data(g.add_expr(f)).total);
  EXPECT_FALSE(g.data(g.add_expr(Expr::make(Op::Gt, DType::Bool, {f, one}))).total);
  // An integer made a float may overflow to an infinity; a product of literals is its
  // folded value, total if that is finite.
  EXPECT_FALSE(g.data(g.add_expr(Expr::make(Op::Cast, DType::FP16, {var("x")}))).total);
  const Expr big = Expr::constant(Value::floating(DType::FP32, 1e38));
  EXPECT_FALSE(g.data(g.add_expr(Expr::make(Op::Mul, DType::FP32, {big, big}))).total);
  EXPECT_TRUE(g.data(g.add_expr(Expr::make(Op::Mul, DType::FP32, {one, one}))).total);
  EXPECT_FALSE(g.data(g.add_expr(inf)).total);
  EXPECT_TRUE(g.data(g.add_expr(one)).total);
  EXPECT_TRUE(g.data(g.add_expr(Expr::make(Op::Neg, DType::FP32, {one}))).total);
  EXPECT_TRUE(g.data(g.add_expr(bin(Op::Add, var("x"), lit(1)))).total) << "integers are as before";
  // clear() keeps the flags; without them the same terms are total.
  g.clear();
  EXPECT_FALSE(g.data(g.add_expr(f)).total);
  EGraph strict;
  EXPECT_TRUE(strict.data(strict.add_expr(f)).total);
  EXPECT_TRUE(strict.data(strict.add_expr(Expr::make(Op::Gt, DType::Bool, {f, one}))).total);
  EXPECT_TRUE(strict.data(strict.add_expr(inf)).total);
}

TEST(EGraph, ARunGrantedNnanOrNinfNeedsAnEGraphToldThem) {
  EGraph g;
  g.add_expr(var("f", DType::FP32));
  EXPECT_THROW(run_rewrites(g, {}, {}, {}, FastMathFlag::Nnan), std::logic_error);
  EXPECT_NO_THROW(run_rewrites(g, {}, {}, {}, FastMath(FastMathFlag::Nsz) | FastMathFlag::Reassoc));
  EGraph told;
  told.set_fast_math(FastMath::all());
  told.add_expr(var("f", DType::FP32));
  EXPECT_NO_THROW(run_rewrites(told, {}, {}, {}, FastMathFlag::Nnan));
}

// A node added straight into a class (add_to, how a rewrite's right side joins its
// left side) that knows only its dtype's facts still makes a partial class total: the
// join it skips elsewhere is no change only for a class that is total already.
TEST(EGraph, ATotalNodeAddedToAPartialClassMakesItTotal) {
  EGraph g;
  const ClassId quotient = g.add_expr(bin(Op::FloorDiv, var("x"), var("y")));
  ASSERT_FALSE(g.data(quotient).total);
  const ClassId x = g.add_expr(var("x"));
  const ClassId z = g.add_expr(var("z"));
  ENode sum = testing::binary_node(Op::Add, x, z);  // nothing known of it but its dtype
  EXPECT_TRUE(g.add_to(quotient, sum));
  g.rebuild();
  EXPECT_TRUE(g.data(quotient).total);
}

TEST(EGraph, MergeThenRebuildRestoresCongruence) {
  EGraph g;
  ClassId fa = g.add_expr(bin(Op::Mul, var("a"), lit(2)));
  ClassId fb = g.add_expr(bin(Op::Mul, var("b"), lit(2)));
  ASSERT_NE(g.find(fa), g.find(fb));
  EXPECT_TRUE(g.merge(g.add_var("a", DType::Index), g.add_var("b", DType::Index)));
  EXPECT_TRUE(g.needs_rebuild());
  g.rebuild();
  EXPECT_EQ(g.find(fa), g.find(fb));  // a == b implies a*2 == b*2
  EXPECT_EQ(g.check_invariants(), "");
  EXPECT_FALSE(g.merge(fa, fb));  // already equal
}

// The node of `op` in the class of `id`, if one.
std::optional<ENode> node_of(const EGraph& g, ClassId id, Op op) {
  for (const ENode& node : g.eclass(id).nodes) {
    if (node.op == op) return node;
  }
  return std::nullopt;
}

// A node's `added_at` is when it took its place in its class's list in its form, its
// `formed_at` when it got the form (egraph/enode.h): a merge that moves a node renews
// the first only; re-canonicalization renews both; of two nodes that become one, the
// oldest of each is kept.
TEST(EGraph, AMergeKeepsWhenANodeGotItsFormAndReCanonicalizationRenewsIt) {
  EGraph g;
  g.set_builtin_commutativity(false);
  const ClassId sum = g.add_expr(bin(Op::Add, var("a"), var("b")));  // epoch 0
  g.advance_change_epoch();
  // c's class has a parent and a + b's none: a + b moves into c's class.
  const ClassId c = g.add_var("c", DType::Index);
  g.add_expr(bin(Op::Mul, var("c"), lit(2)));
  ASSERT_TRUE(g.merge(sum, c));
  g.rebuild();
  ASSERT_EQ(g.find(sum), c);
  std::optional<ENode> moved = node_of(g, c, Op::Add);
  ASSERT_TRUE(moved);
  EXPECT_EQ(moved->added_at, 1u);
  EXPECT_EQ(moved->formed_at, 0u);

  g.advance_change_epoch();
  // d's class has more parents than a's: a's class is absorbed, and a + b becomes d + b.
  const ClassId d = g.add_var("d", DType::Index);
  g.add_expr(bin(Op::Mul, var("d"), lit(3)));
  g.add_expr(bin(Op::Mul, var("d"), lit(4)));
  ASSERT_TRUE(g.merge(g.add_var("a", DType::Index), d));
  g.rebuild();
  ASSERT_EQ(g.find(g.add_var("a", DType::Index)), d);
  std::optional<ENode> renewed = node_of(g, c, Op::Add);
  ASSERT_TRUE(renewed);
  EXPECT_EQ(renewed->children[0], d);
  EXPECT_EQ(renewed->added_at, 2u);
  EXPECT_EQ(renewed->formed_at, 2u);

  g.advance_change_epoch();
  // d * 5 is made at epoch 3, e * 5 at epoch 4; merging e into d makes them one node
  // (congruence), which keeps d * 5's form's epoch.
  const ClassId d5 = g.add_expr(bin(Op::Mul, var("d"), lit(5)));
  g.advance_change_epoch();
  const ClassId e5 = g.add_expr(bin(Op::Mul, var("e"), lit(5)));
  ASSERT_TRUE(g.merge(d, g.add_var("e", DType::Index)));
  g.rebuild();
  ASSERT_EQ(g.find(d5), g.find(e5));
  std::optional<ENode> kept = node_of(g, d5, Op::Mul);
  ASSERT_TRUE(kept);
  EXPECT_EQ(kept->formed_at, 3u);
  EXPECT_LE(kept->formed_at, kept->added_at);
  EXPECT_EQ(g.check_invariants(), "");
}

TEST(EGraph, ConstantAnalysisFoldsAndAddsTheConstantNode) {
  EGraph g;
  ClassId sum = g.add_expr(bin(Op::Add, lit(3), lit(4)));
  g.rebuild();
  ASSERT_TRUE(g.data(sum).constant.has_value());
  EXPECT_EQ(g.data(sum).constant->i, 7);
  EXPECT_EQ(g.find(sum), g.find(g.add_constant(Value::integer(DType::Index, 7))));
  EXPECT_EQ(g.check_invariants(), "");
}

TEST(EGraph, ConstantFoldingWrapsFixedWidthTypes) {
  EGraph g;
  ClassId sum = g.add_expr(bin(Op::Add, lit(127, DType::Int8), lit(1, DType::Int8)));
  g.rebuild();
  EXPECT_EQ(g.data(sum).constant->i, -128);
}

TEST(EGraph, DivisionByZeroIsNotFolded) {
  EGraph g;
  ClassId q = g.add_expr(bin(Op::FloorDiv, lit(7), lit(0)));
  g.rebuild();
  EXPECT_FALSE(g.data(q).constant.has_value());
}

TEST(EGraph, IntervalsFlowFromVariableBounds) {
  EGraph g;
  g.set_var_interval("i", Interval::range(0, 7));
  ClassId sum = g.add_expr(bin(Op::Add, var("i"), lit(1)));
  g.rebuild();
  EXPECT_EQ(g.data(sum).interval, Interval::range(1, 8));
}

TEST(EGraph, ADecidedComparisonBecomesAConstant) {
  EGraph g;
  g.set_var_interval("i", Interval::range(0, 7));
  ClassId cmp = g.add_expr(bin(Op::Lt, var("i"), lit(16)));
  g.rebuild();
  ASSERT_TRUE(g.data(cmp).constant.has_value());
  EXPECT_EQ(*g.data(cmp).constant, Value::boolean(true));
}

TEST(EGraph, BoundsSetAfterTheVariableRefineItsUsers) {
  EGraph g;
  ClassId sum = g.add_expr(bin(Op::Add, var("i"), lit(1)));
  g.rebuild();
  EXPECT_TRUE(g.data(sum).interval.is_all());
  g.set_var_interval("i", Interval::range(0, 7));
  g.rebuild();
  EXPECT_EQ(g.data(sum).interval, Interval::range(1, 8));
}

TEST(EGraph, MergingIntersectsIntervals) {
  EGraph g;
  g.set_var_interval("a", Interval::range(0, 10));
  g.set_var_interval("b", Interval::range(5, 20));
  ClassId a = g.add_var("a", DType::Index);
  ClassId b = g.add_var("b", DType::Index);
  g.merge(a, b);
  g.rebuild();
  EXPECT_EQ(g.data(a).interval, Interval::range(5, 10));
}

TEST(EGraph, ContradictoryConstantsAreCountedNotCrashed) {
  EGraph g;
  g.merge(g.add_constant(Value::integer(DType::Index, 1)), g.add_constant(Value::integer(DType::Index, 2)));
  g.rebuild();
  EXPECT_EQ(g.contradictions(), 1u);
}

TEST(EGraph, ClearKeepsNothing) {
  EGraph g;
  g.add_expr(bin(Op::Add, var("x"), lit(1)));
  g.clear();
  EXPECT_EQ(g.num_classes(), 0u);
  EXPECT_EQ(g.num_nodes(), 0u);
  EXPECT_EQ(g.check_invariants(), "");
}

TEST(EGraph, ALeafAddedAgainIsFoundInItsClassAsMergesLeaveIt) {
  // Leaves are looked up in a table of their classes (not the hash-cons): the table
  // must give the class a merge made canonical, per dtype, and nothing after clear.
  EGraph g;
  const ClassId x = g.add_var("x", DType::Index);
  const ClassId x32 = g.add_var("x", DType::Int32);
  const ClassId one = g.add_constant(Value::integer(DType::Index, 1));
  EXPECT_NE(x, x32);
  EXPECT_EQ(g.add_var("x", DType::Index), x);
  EXPECT_EQ(g.add_var("x", DType::Int32), x32);
  EXPECT_EQ(g.add_constant(Value::integer(DType::Index, 1)), one);
  EXPECT_EQ(g.lookup_constant(Value::integer(DType::Index, 1)), one);
  EXPECT_EQ(g.lookup_constant(Value::integer(DType::Index, 2)), std::nullopt);

  const ClassId y = g.add_var("y", DType::Index);
  g.merge(x, y);
  g.rebuild();
  EXPECT_EQ(g.add_var("x", DType::Index), g.find(y));
  EXPECT_EQ(g.add_var("y", DType::Index), g.find(x));

  g.clear();
  const ClassId z = g.add_var("z", DType::Index);  // takes the first id again
  const ClassId x_again = g.add_var("x", DType::Index);
  EXPECT_NE(x_again, z);
  EXPECT_EQ(g.num_classes(), 2u);
  EXPECT_EQ(g.symbol_name(g.eclass(x_again).nodes.front().payload), "x");
  EXPECT_EQ(g.lookup_constant(Value::integer(DType::Index, 1)), std::nullopt);
  EXPECT_EQ(g.check_invariants(), "");
}

TEST(EGraph, ASmallConstantIsInternedAnewAfterClear) {
  // Small INDEX constants are numbered through a table of their own (no hash, no
  // probe): after clear it must not give a number the constants no longer have.
  EGraph g;
  const Value one = Value::integer(DType::Index, 1);
  const Value three = Value::integer(DType::Index, 3);
  const Value big = Value::integer(DType::Index, 1000);  // beyond the table
  EXPECT_EQ(g.constant_value(g.intern_constant(one)), one);
  EXPECT_EQ(g.intern_constant(one), g.intern_constant(one));
  EXPECT_EQ(g.constant_value(g.intern_constant(big)), big);
  g.clear();
  EXPECT_EQ(g.constant_value(g.intern_constant(three)), three);  // takes number 0 again
  EXPECT_EQ(g.constant_value(g.intern_constant(one)), one);
  EXPECT_EQ(g.constant_value(g.intern_constant(big)), big);
  EXPECT_NE(g.intern_constant(one), g.intern_constant(three));
}

// Random terms over a few leaves, random merges: after every rebuild the invariants hold,
// every requested equality holds, and congruence is complete (checked against a naive
// closure computed from scratch).
TEST(EGraph, InvariantsHoldAfterRandomUnions) {
  std::mt19937 rng(12345);
  const Op ops[] = {Op::Add, Op::Sub, Op::Mul, Op::Min, Op::Max};
  for (int round = 0; round < 40; ++round) {
    EGraph g;
    std::vector<ClassId> ids;
    for (const char* name : {"a", "b", "c", "d"}) ids.push_back(g.add_var(name, DType::Index));
    for (int i = 0; i < 60; ++i) {
      ENode node;
      node.op = ops[rng() % 5];
      node.dtype = DType::Index;
      node.children = {ids[rng() % ids.size()], ids[rng() % ids.size()]};
      ids.push_back(g.add(node));
    }
    std::vector<std::pair<ClassId, ClassId>> merged;
    for (int i = 0; i < 12; ++i) {
      ClassId x = ids[rng() % ids.size()], y = ids[rng() % ids.size()];
      g.merge(x, y);
      merged.emplace_back(x, y);
      if (rng() % 3 == 0) g.rebuild();
    }
    g.rebuild();
    ASSERT_EQ(g.check_invariants(), "") << "round " << round;
    for (auto [x, y] : merged) EXPECT_EQ(g.find(x), g.find(y));
    // Naive congruence: any two nodes whose children are pairwise equal are equal.
    for (ClassId p : g.class_ids()) {
      for (ClassId q : g.class_ids()) {
        for (const ENode& np : g.eclass(p).nodes) {
          for (const ENode& nq : g.eclass(q).nodes) {
            if (np.op != nq.op || np.payload != nq.payload || np.children.size() != nq.children.size()) continue;
            bool same_children = true;
            for (std::size_t k = 0; k < np.children.size(); ++k) {
              same_children &= g.find(np.children[k]) == g.find(nq.children[k]);
            }
            if (same_children) {
              EXPECT_EQ(g.find(p), g.find(q));
            }
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace eqsat
