// Tree-optimal extraction: the cheapest expression of each e-class, bottom-up.
//
// The cost of a node is its operation's price plus the cost of the best term of each
// child class (shared subterms are counted each time they appear: tree cost). Costs
// are computed to a fixpoint, so cycles in the e-graph are harmless. Ties break in a
// fixed order: lower cost, then fewer tree nodes, then the order of the terms
// (extract/term_order.h), which does not depend on class ids: the result depends on
// neither hashing nor the order in which the input's subterms were seen.
// A node of infinite cost (an operation the profile forbids) is never chosen.
#pragma once

#include <vector>

#include "egraph/egraph.h"
#include "extract/cost.h"
#include "extract/selection.h"
#include "ir/expr.h"

namespace eqsat {

struct Extracted {
  Expr expr;
  Cost cost;  // tree cost
};

class TreeExtractor {
 public:
  // Computes the best node of every class; the e-graph must be rebuilt.
  TreeExtractor(const EGraph& egraph, const CostProfile& profile);

  // The tree cost of the best term of `id` (infinite: every term uses a forbidden
  // operation).
  Cost cost(ClassId id) const;
  // Number of nodes of the best term of `id` (the first tie-break).
  uint64_t size(ClassId id) const;
  // The tree cost of `node` with the best term of each child.
  Cost node_cost(const ENode& node) const;
  // The cheapest term of `id`, written as selection_expr writes it (commutative
  // operands in term order, `c < x` as `x > c`).
  Extracted extract(ClassId id) const;
  // The best node of every class.
  const Selection& selection() const { return selection_; }

 private:
  void choose_by_term_order(const std::vector<ClassId>& ids);

  struct Best {
    Cost cost = Cost::infinite();
    uint64_t size = 0;  // tree nodes, the first tie-break
  };

  const EGraph& egraph_;
  const CostProfile& profile_;
  std::vector<Best> best_;  // by class id (canonical ids only are meaningful)
  Selection selection_;
};

}  // namespace eqsat
