// The cost of an expression as written, under a profile: what an extraction result is
// compared with (the Simplify pass keeps the original unless the result is cheaper).
// Tree cost counts every occurrence of a subterm; DAG cost counts each structurally
// distinct subterm once; the result is profile.weigh(tree, dag).
#pragma once

#include "extract/cost.h"
#include "extract/selection.h"
#include "ir/expr.h"

namespace eqsat {

SelectionCost expr_cost(const Expr& expr, const CostProfile& profile);

}  // namespace eqsat
