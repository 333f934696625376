// DAG-aware extraction: the selection whose weighted cost
//   tree * (tree cost) + dag * (DAG cost)          (extract/cost.h, CostWeights)
// is least, counting a subterm shared by several parents once in the DAG cost.
//
// Choosing a node per class so that shared subterms are paid once is NP-hard in
// general (the tree extractor's per-class bottom-up choice is not optimal any more), so:
//   1. two quick candidates: the tree extractor's selection, and a greedy one that
//      prices each node with the set of classes its term uses (the union of its
//      children's sets, so a class reached twice is paid once);
//   2. when the part of the e-graph reachable from the root has at most
//      `exact_class_limit` classes, a branch-and-bound search over the selections,
//      which proves the best one optimal unless it runs out of `search_budget` steps.
// The answer says whether it is proved optimal. When the DAG weight is 0, the tree
// extractor's answer is optimal and is returned as it is.
//
// Ties: a candidate replaces the best so far only if it is strictly cheaper, and the
// candidates come in a fixed order (the tree selection, the greedy one, then the
// search's order: the undecided class with the smallest id first, its nodes in the
// tree extractor's order: tree cost, size, node order). Same input, same answer.
// A node of infinite cost is never chosen.
#pragma once

#include <cstddef>

#include "egraph/egraph.h"
#include "extract/cost.h"
#include "extract/selection.h"
#include "ir/expr.h"

namespace eqsat {

struct DagOptions {
  std::size_t exact_class_limit = 200;  // classes reachable from the root
  std::size_t search_budget = 200000;   // branch-and-bound steps
};

struct DagExtracted {
  Expr expr;                     // invalid when every term uses a forbidden operation
  SelectionCost cost;            // tree, DAG and weighted cost of `expr`
  bool optimal = false;          // no selection has a lower weighted cost
  const char* method = "tree";   // which candidate won: "tree", "greedy", "search"
  std::size_t search_steps = 0;  // branch-and-bound steps taken
  Selection selection;
};

DagExtracted extract_dag(const EGraph& egraph, const CostProfile& profile, ClassId root,
                         const DagOptions& options = {});

}  // namespace eqsat
