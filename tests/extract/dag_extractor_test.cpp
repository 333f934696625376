// The DAG-aware extractor against the tree extractor: shared subterms paid once,
// forbidden operations avoided, ties broken the same way every time.
#include "extract/dag_extractor.h"

#include <gtest/gtest.h>

#include "extract/extract.h"
#include "extract/extractor.h"
#include "ir/print.h"

namespace eqsat {
namespace {

Expr var(const char* name) { return Expr::var(name, DType::Index); }
Expr bin(Op op, Expr a, Expr b) { return Expr::make(op, DType::Index, {std::move(a), std::move(b)}); }

CostProfile profile(const char* json) {
  auto p = CostProfile::from_json_text(json, "test");
  EXPECT_TRUE(p.ok()) << p.error().describe();
  return *p;
}

// One class holding two forms:
//   shared  = s + s with s = a * b * c * d   (tree cost 15, DAG cost 8)
//   spread  = e + f + g + h + i              (tree cost 9,  DAG cost 9)
struct SharedCase {
  EGraph egraph;
  ClassId root;
  SharedCase() {
    const Expr s = bin(Op::Mul, bin(Op::Mul, bin(Op::Mul, var("a"), var("b")), var("c")), var("d"));
    const ClassId shared = egraph.add_expr(bin(Op::Add, s, s));
    const ClassId spread = egraph.add_expr(
        bin(Op::Add, bin(Op::Add, bin(Op::Add, bin(Op::Add, var("e"), var("f")), var("g")), var("h")), var("i")));
    egraph.merge(shared, spread);
    egraph.rebuild();
    root = egraph.find(shared);
  }
};

TEST(DagExtractor, PaysASharedSubtermOnceAndBeatsTheTreeExtractor) {
  SharedCase c;
  const CostProfile dag = profile(R"({"weights": {"tree": 0, "dag": 1}})");

  TreeExtractor tree(c.egraph, dag);
  Extracted by_tree = tree.extract(c.root);
  EXPECT_EQ(print(by_tree.expr), "e + f + g + h + i");
  const SelectionCost tree_cost = selection_cost(c.egraph, dag, tree.selection(), c.root);
  EXPECT_EQ(tree_cost.dag, Cost(9));

  DagExtracted by_dag = extract_dag(c.egraph, dag, c.root);
  EXPECT_EQ(print(by_dag.expr), "a * b * c * d + a * b * c * d");
  EXPECT_EQ(by_dag.cost.dag, Cost(8));
  EXPECT_EQ(by_dag.cost.tree, Cost(15));
  EXPECT_EQ(by_dag.cost.weighted, Cost(8));
  EXPECT_LT(by_dag.cost.weighted, tree_cost.weighted);
  EXPECT_TRUE(by_dag.optimal);
}

TEST(DagExtractor, TheWeightsDecide) {
  SharedCase c;
  // Tree weight 1, DAG weight 1: shared 15 + 8 = 23, spread 9 + 9 = 18.
  DagExtracted mixed = extract_dag(c.egraph, profile(R"({"weights": {"tree": 1, "dag": 1}})"), c.root);
  EXPECT_EQ(print(mixed.expr), "e + f + g + h + i");
  EXPECT_EQ(mixed.cost.weighted, Cost(18));
  EXPECT_TRUE(mixed.optimal);
  // The default profile (tree cost only): the tree extractor's answer, optimal.
  DagExtracted tree_only = extract_dag(c.egraph, CostProfile::unit(), c.root);
  EXPECT_EQ(print(tree_only.expr), "e + f + g + h + i");
  EXPECT_TRUE(tree_only.optimal);
}

TEST(DagExtractor, GreedyBeyondTheExactLimitIsNotProvedOptimal) {
  SharedCase c;
  DagOptions options;
  options.exact_class_limit = 0;  // no exact search: the greedy answer stands
  DagExtracted greedy = extract_dag(c.egraph, profile(R"({"weights": {"tree": 0, "dag": 1}})"), c.root, options);
  EXPECT_EQ(print(greedy.expr), "a * b * c * d + a * b * c * d");
  EXPECT_STREQ(greedy.method, "greedy");
  EXPECT_FALSE(greedy.optimal);
}

TEST(DagExtractor, AnExhaustedSearchBudgetIsNotProvedOptimal) {
  SharedCase c;
  DagOptions options;
  options.search_budget = 1;
  DagExtracted cut = extract_dag(c.egraph, profile(R"({"weights": {"tree": 0, "dag": 1}})"), c.root, options);
  EXPECT_FALSE(cut.optimal);
  EXPECT_EQ(cut.cost.dag, Cost(8));  // still the best candidate found
}

TEST(DagExtractor, NeverPicksAForbiddenOperation) {
  SharedCase c;
  const CostProfile no_mul = profile(R"({"ops": {"mul": "inf"}, "weights": {"tree": 0, "dag": 1}})");
  DagExtracted result = extract_dag(c.egraph, no_mul, c.root);
  EXPECT_EQ(print(result.expr), "e + f + g + h + i");
  EXPECT_TRUE(result.optimal);
  // Everything forbidden: no form at all, and nothing is invented.
  const CostProfile nothing = profile(R"({"ops": {"add": "inf"}, "weights": {"tree": 0, "dag": 1}})");
  DagExtracted none = extract_dag(c.egraph, nothing, c.root);
  EXPECT_FALSE(none.expr.valid());
  EXPECT_FALSE(none.cost.usable);
  Extraction by_tree = extract_best(c.egraph, nothing, c.root);
  EXPECT_FALSE(by_tree.expr.valid());
}

// x + y and x * y in one class, both of cost 3: the node order (add before mul) decides,
// whichever was added first, for both extractors.
TEST(DagExtractor, TiesBreakTheSameWayWhateverTheInsertionOrder) {
  for (bool mul_first : {false, true}) {
    EGraph egraph;
    const Expr sum = bin(Op::Add, var("x"), var("y"));
    const Expr product = bin(Op::Mul, var("x"), var("y"));
    const ClassId first = egraph.add_expr(mul_first ? product : sum);
    const ClassId second = egraph.add_expr(mul_first ? sum : product);
    egraph.merge(first, second);
    egraph.rebuild();
    for (ExtractorKind kind : {ExtractorKind::Tree, ExtractorKind::Dag}) {
      for (const char* weights : {R"({})", R"({"weights": {"tree": 0, "dag": 1}})"}) {
        ExtractOptions options;
        options.kind = kind;
        Extraction result = extract_best(egraph, profile(weights), first, options);
        EXPECT_EQ(print(result.expr), "x + y") << extractor_kind_name(kind) << " " << weights;
      }
    }
  }
}

TEST(ExtractBest, ReportsTheWeightedCostAndOptimality) {
  SharedCase c;
  const CostProfile dag = profile(R"({"weights": {"tree": 0, "dag": 1}})");
  Extraction tree = extract_best(c.egraph, dag, c.root);
  EXPECT_EQ(tree.cost.weighted, Cost(9));
  EXPECT_FALSE(tree.optimal);  // the tree extractor is exact for the tree cost only
  ExtractOptions options;
  options.kind = ExtractorKind::Dag;
  Extraction dag_result = extract_best(c.egraph, dag, c.root, options);
  EXPECT_EQ(dag_result.cost.weighted, Cost(8));
  EXPECT_TRUE(dag_result.optimal);
  EXPECT_EQ(parse_extractor_kind("dag"), ExtractorKind::Dag);
  EXPECT_EQ(parse_extractor_kind("greedy"), std::nullopt);
}

}  // namespace
}  // namespace eqsat
