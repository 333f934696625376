#include "extract/extractor.h"

#include <algorithm>
#include <cassert>

#include "extract/term_order.h"

namespace eqsat {

TreeExtractor::TreeExtractor(const EGraph& egraph, const CostProfile& profile) : egraph_(egraph), profile_(profile) {
  assert(!egraph.needs_rebuild() && "extract from a rebuilt e-graph");
  const std::vector<ClassId> ids = egraph.class_ids();
  std::size_t max_id = 0;
  for (ClassId id : ids) max_id = std::max<std::size_t>(max_id, id.value);
  best_.assign(ids.empty() ? 0 : max_id + 1, Best{});
  selection_.assign(best_.size(), nullptr);

  // Relax until no class improves. Each pass visits classes in id order, so the
  // result is deterministic; costs only decrease, so this terminates.
  //
  // A pass is the last one when no class improved after a node of the pass had read
  // it: then every class was weighed against its operands' final values, so another
  // pass would change nothing (each class's choice is then the first of its best nodes
  // in node order, as after any number of passes). `read_in` records the last pass
  // that read each class. An e-graph built bottom up (operands before the nodes over
  // them, the usual id order) thus takes one pass instead of two.
  std::vector<uint32_t> read_in(best_.size(), 0);
  for (uint32_t pass = 1, again = 1; again; ++pass) {
    again = 0;
    for (ClassId id : ids) {
      Best& best = best_[id.value];
      const ENode*& chosen = selection_[id.value];
      bool improved = false;
      for (const ENode& node : egraph.eclass(id).nodes) {
        Cost cost = profile.op_cost(node.op, node.dtype);
        uint64_t size = 1;
        for (ClassId child : node.children) {
          const uint32_t operand = egraph.find(child).value;
          const Best& child_best = best_[operand];
          read_in[operand] = pass;
          cost = cost + child_best.cost;
          size += child_best.size;
        }
        if (cost.is_infinite()) continue;
        bool better = cost < best.cost || (cost == best.cost && size < best.size) ||
                      (cost == best.cost && size == best.size && chosen && node < *chosen);
        if (better) {
          best = Best{cost, size};
          chosen = &node;
          improved = true;
        }
      }
      // (A class read by its own nodes counts as read before it improved.)
      if (improved && read_in[id.value] == pass) again = 1;
    }
  }
  choose_by_term_order(ids);
}

void TreeExtractor::choose_by_term_order(const std::vector<ClassId>& ids) {
  // The node order above depends on class ids, i.e. on how the input was written. Among
  // the nodes of a class as cheap and as small as its best, the one whose term comes
  // first in TermOrder is chosen instead. A tied node's operands are smaller terms than
  // it (its size is 1 plus theirs), so visiting classes by size finds them decided.
  std::vector<ClassId> tied;
  for (ClassId id : ids) {
    if (egraph_.eclass(id).nodes.size() > 1 && !best_[id.value].cost.is_infinite()) tied.push_back(id);
  }
  if (tied.empty()) return;
  std::stable_sort(tied.begin(), tied.end(),
                   [&](ClassId a, ClassId b) { return best_[a.value].size < best_[b.value].size; });
  TermOrder order(egraph_, selection_);
  for (ClassId id : tied) {
    const Best& best = best_[id.value];
    const ENode*& chosen = selection_[id.value];
    for (const ENode& node : egraph_.eclass(id).nodes) {
      if (&node == chosen) continue;
      uint64_t size = 1;
      for (ClassId child : node.children) size += best_[egraph_.find(child).value].size;
      if (size != best.size || node_cost(node) != best.cost) continue;
      if (order.compare(node, *chosen) < 0) chosen = &node;
    }
  }
}

Cost TreeExtractor::cost(ClassId id) const { return best_[egraph_.find(id).value].cost; }

uint64_t TreeExtractor::size(ClassId id) const { return best_[egraph_.find(id).value].size; }

Cost TreeExtractor::node_cost(const ENode& node) const {
  Cost cost = profile_.op_cost(node.op, node.dtype);
  for (ClassId child : node.children) cost = cost + this->cost(child);
  return cost;
}

Extracted TreeExtractor::extract(ClassId id) const {
  if (cost(id).is_infinite()) return Extracted{Expr(), Cost::infinite()};
  return Extracted{selection_expr(egraph_, selection_, id), cost(id)};
}

}  // namespace eqsat
