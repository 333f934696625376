#include "extract/extractor.h"

#include <cassert>

namespace eqsat {

TreeExtractor::TreeExtractor(const EGraph& egraph, const CostProfile& profile)
    : egraph_(egraph), profile_(profile) {
  assert(!egraph.needs_rebuild() && "extract from a rebuilt e-graph");
  const std::vector<ClassId> ids = egraph.class_ids();
  std::size_t max_id = 0;
  for (ClassId id : ids) max_id = std::max<std::size_t>(max_id, id.value);
  best_.assign(ids.empty() ? 0 : max_id + 1, Best{});

  // Relax until no class improves. Each pass visits classes in id order, so the
  // result is deterministic; costs only decrease, so this terminates.
  for (bool changed = true; changed;) {
    changed = false;
    for (ClassId id : ids) {
      Best& best = best_[id.value];
      for (const ENode& node : egraph.eclass(id).nodes) {
        Cost cost = profile.op_cost(node.op, node.dtype);
        uint64_t size = 1;
        for (ClassId child : node.children) {
          const Best& child_best = best_[egraph.find(child).value];
          cost = cost + child_best.cost;
          size += child_best.size;
        }
        if (cost.is_infinite()) continue;
        bool better = cost < best.cost || (cost == best.cost && size < best.size) ||
                      (cost == best.cost && size == best.size && best.node && node < *best.node);
        if (better) {
          best = Best{cost, size, &node};
          changed = true;
        }
      }
    }
  }
}

Cost TreeExtractor::cost(ClassId id) const { return best_[egraph_.find(id).value].cost; }

Extracted TreeExtractor::extract(ClassId id) const {
  std::vector<Expr> memo(best_.size());
  return Extracted{build(egraph_.find(id), memo), cost(id)};
}

Expr TreeExtractor::build(ClassId id, std::vector<Expr>& memo) const {
  id = egraph_.find(id);
  if (memo[id.value].valid()) return memo[id.value];
  const Best& best = best_[id.value];
  assert(best.node && "no finite-cost term in this class");
  const ENode& node = *best.node;
  Expr result;
  switch (node.op) {
    case Op::Var: result = Expr::var(egraph_.symbol_name(node.payload), node.dtype); break;
    case Op::Const: result = Expr::constant(egraph_.constant_value(node.payload)); break;
    default: {
      std::vector<Expr> args;
      for (ClassId child : node.children) args.push_back(build(child, memo));
      Op op = node.op;
      // Presentation only; both forms are the same node.
      if (args.size() == 2 && args[0].is_const() && !args[1].is_const()) {
        if (is_commutative(op, node.dtype)) {
          std::swap(args[0], args[1]);
        } else if (op == Op::Lt || op == Op::Le) {
          std::swap(args[0], args[1]);
          op = op == Op::Lt ? Op::Gt : Op::Ge;
        }
      }
      result = Expr::make(op, node.dtype, std::move(args));
    }
  }
  memo[id.value] = result;
  return result;
}

}  // namespace eqsat
