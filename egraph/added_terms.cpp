#include "egraph/added_terms.h"

#include <algorithm>

#include "egraph/egraph.h"

namespace eqsat {

ClassId AddedTerms::add(EGraph& egraph, const Expr& expr) {
  // Leaves (the e-graph finds a variable's or constant's class by its name or value
  // already, without hashing a node) and operations over leaves: adding them again
  // costs less than remembering them, and most terms asked about are such.
  const auto is_leaf = [](const Expr& arg) { return arg.args().empty(); };
  if (std::all_of(expr.args().begin(), expr.args().end(), is_leaf)) return egraph.add_expr(expr);
  if (auto it = classes_.find(expr.identity()); it != classes_.end()) return egraph.find(it->second.second);
  // As EGraph::add_expr builds the node, with each operand's class from here.
  ENode node;
  node.op = expr.op();
  node.dtype = expr.dtype();
  for (const Expr& arg : expr.args()) node.children.push_back(add(egraph, arg));
  const ClassId id = egraph.add(std::move(node));
  classes_.emplace(expr.identity(), std::make_pair(expr, id));
  return id;
}

}  // namespace eqsat
