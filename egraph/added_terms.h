// The classes of terms added to an e-graph before, by node: adding a term whose
// subterms were added already costs only its new nodes.
//
// EGraph::add_expr walks the whole term. The normal forms ask the e-graph for the
// interval of every atom they read (passes/simplify_expr.cpp, bounds_in), and an atom
// of a chain holds the atoms below it: a chain of 200 `max(.., 1) // 2` was added
// 200 times over, level by level, about a quarter of its simplification. Through one
// AddedTerms, a term is walked only down to the subterms it added before.
//
// A subterm is known by its node (Expr::identity): the memo keeps each term it saw, so
// no address is reused for another node while it lives. The class remembered may have
// been merged since; it is looked up again (EGraph::find), the class the term is in
// now. Only for one e-graph, and not across EGraph::clear.
#pragma once

#include <unordered_map>
#include <utility>

#include "egraph/class_id.h"
#include "ir/expr.h"

namespace eqsat {

class EGraph;

class AddedTerms {
 public:
  // The class of `expr` in `egraph`, adding what it lacks: what EGraph::add_expr gives.
  ClassId add(EGraph& egraph, const Expr& expr);

 private:
  std::unordered_map<const void*, std::pair<Expr, ClassId>> classes_;
};

}  // namespace eqsat
