// AddedTerms: terms added through one memo find the subterms they share with terms
// added before, and every class it gives is the one EGraph::add_expr gives.
#include "egraph/added_terms.h"

#include <gtest/gtest.h>

#include "egraph/egraph.h"
#include "tests/egraph/build_exprs.h"

namespace eqsat {
namespace {

using testing::bin;
using testing::lit;
using testing::var;

TEST(AddedTerms, GivesTheClassesAddExprGives) {
  EGraph egraph;
  AddedTerms terms;
  const Expr inner = bin(Op::FloorDiv, bin(Op::Max, var("x"), lit(1)), lit(2));
  const Expr outer = bin(Op::FloorDiv, bin(Op::Max, inner, lit(1)), lit(2));
  const ClassId inner_class = terms.add(egraph, inner);
  const ClassId outer_class = terms.add(egraph, outer);
  EXPECT_EQ(inner_class, egraph.find(egraph.add_expr(inner)));
  EXPECT_EQ(outer_class, egraph.find(egraph.add_expr(outer)));
  // A leaf, and a term built apart with the same structure (other nodes).
  EXPECT_EQ(terms.add(egraph, var("x")), egraph.add_expr(var("x")));
  const Expr rebuilt = bin(Op::FloorDiv, bin(Op::Max, var("x"), lit(1)), lit(2));
  EXPECT_EQ(terms.add(egraph, rebuilt), inner_class);
  // Nothing was added twice: 7 e-nodes (x, 1, 2, two max, two quotients).
  EXPECT_EQ(egraph.num_nodes(), 7u);
}

TEST(AddedTerms, ARememberedTermIsFoundInTheClassAMergeMovedItTo) {
  EGraph egraph;
  AddedTerms terms;
  const Expr sum = bin(Op::Add, var("x"), var("y"));
  const ClassId before = terms.add(egraph, sum);
  const ClassId other = egraph.add_expr(var("z"));
  egraph.merge(before, other);
  egraph.rebuild();
  EXPECT_EQ(terms.add(egraph, sum), egraph.find(other));
  EXPECT_EQ(terms.add(egraph, sum), egraph.find(before));
  // A term over it is made over the merged class.
  const Expr doubled = bin(Op::Mul, sum, lit(2));
  EXPECT_EQ(terms.add(egraph, doubled), egraph.find(egraph.add_expr(bin(Op::Mul, var("z"), lit(2)))));
}

}  // namespace
}  // namespace eqsat
