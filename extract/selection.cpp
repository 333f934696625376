#include "extract/selection.h"

#include <cassert>
#include <functional>

#include "extract/term_order.h"

namespace eqsat {

SelectionCost selection_cost(const EGraph& egraph, const CostProfile& profile, const Selection& selection,
                             ClassId root) {
  // Depth-first over the chosen nodes; `state` 1 = on the path (a revisit is a cycle),
  // 2 = done (its tree cost is known).
  std::vector<uint8_t> state(selection.size(), 0);
  std::vector<Cost> tree(selection.size(), Cost::infinite());
  Cost dag(0);
  bool usable = true;
  std::function<Cost(ClassId)> visit = [&](ClassId id) -> Cost {
    id = egraph.find(id);
    uint8_t& s = state[id.value];
    if (s == 2) return tree[id.value];
    const ENode* node = selection[id.value];
    if (s == 1 || node == nullptr) {
      usable = false;
      return Cost::infinite();
    }
    s = 1;
    const Cost own = profile.op_cost(node->op, node->dtype);
    dag = dag + own;
    Cost total = own;
    for (ClassId child : node->children) total = total + visit(child);
    s = 2;
    tree[id.value] = total;
    return total;
  };
  SelectionCost cost;
  cost.tree = visit(root);
  cost.usable = usable && !cost.tree.is_infinite();
  if (!cost.usable) return SelectionCost{};
  cost.dag = dag;
  cost.weighted = profile.weigh(cost.tree, cost.dag);
  return cost;
}

namespace {

Expr build(const EGraph& egraph, const Selection& selection, TermOrder& order, ClassId id, std::vector<Expr>& memo) {
  id = egraph.find(id);
  if (memo[id.value].valid()) return memo[id.value];
  const ENode* chosen = selection[id.value];
  assert(chosen && "no node chosen for a reachable class");
  const ENode& node = *chosen;
  Expr result;
  switch (node.op) {
    case Op::Var:
      result = Expr::var(egraph.symbol_name(node.payload), node.dtype);
      break;
    case Op::Const:
      result = Expr::constant(egraph.constant_value(node.payload));
      break;
    default: {
      // Commutative operands in term order (constants last); `c < x` as `x > c`.
      std::vector<Expr> args;
      for (ClassId child : order.presented_operands(node)) args.push_back(build(egraph, selection, order, child, memo));
      Op op = node.op;
      if ((op == Op::Lt || op == Op::Le) && args[0].is_const() && !args[1].is_const()) {
        std::swap(args[0], args[1]);
        op = op == Op::Lt ? Op::Gt : Op::Ge;
      }
      result = Expr::make(op, node.dtype, std::move(args));
    }
  }
  memo[id.value] = result;
  return result;
}

}  // namespace

Expr selection_expr(const EGraph& egraph, const Selection& selection, ClassId root) {
  std::vector<Expr> memo(selection.size());
  TermOrder order(egraph, selection);
  return build(egraph, selection, order, root, memo);
}

}  // namespace eqsat
