// A selection: the e-node chosen for each e-class, what every extractor produces.
//
// The term of a class is its chosen node with the terms of its children. A selection is
// usable from a root when every class reachable from it has a node and no class reaches
// itself (a cycle would be an infinite term). Its costs from a root:
//   tree cost - every occurrence of a subterm counted (a term shared by two parents is
//               paid twice);
//   DAG cost  - every distinct reachable class counted once.
#pragma once

#include <vector>

#include "egraph/egraph.h"
#include "extract/cost.h"
#include "ir/expr.h"

namespace eqsat {

// Indexed by canonical class id; nullptr: no node chosen.
using Selection = std::vector<const ENode*>;

struct SelectionCost {
  Cost tree = Cost::infinite();
  Cost dag = Cost::infinite();
  Cost weighted = Cost::infinite();  // profile.weigh(tree, dag)
  bool usable = false;               // every reachable class chosen, no cycle
};

SelectionCost selection_cost(const EGraph& egraph, const CostProfile& profile, const Selection& selection,
                             ClassId root);

// The term of `root` (the selection must be usable from it). Operands of commutative
// operations are written in term order (extract/term_order.h: compound terms, then
// variables by name, then constants) and `c < x` reads as `x > c` (presentation only:
// both forms are the same node).
Expr selection_expr(const EGraph& egraph, const Selection& selection, ClassId root);

}  // namespace eqsat
