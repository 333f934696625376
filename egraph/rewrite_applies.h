// Whether a search of the rewrites would find anything to apply, asked without a run.
//
// simplify_expr's fast path for an expression already in its simplest form: once its
// normal forms have added nothing to the e-graph, a run would search every rewrite,
// find nothing it may apply, and stop saturated after one iteration, and the
// extraction would give the input back. The run's set-up (its operation index, its
// search tasks, the per-iteration report and timers) and the rounds after it cost
// more than the search itself for such a small e-graph; this asks the search's one
// question directly.
#pragma once

#include <span>

#include "egraph/egraph.h"
#include "egraph/rewrite.h"
#include "egraph/rule_index.h"
#include "ir/fast_math.h"

namespace eqsat {

// Whether some rewrite of `rewrites` (indexed by `index`) that `fast_math` grants
// matches in some class of `egraph` with a guard that holds (Truth::True; a rewrite
// without a guard holds everywhere). False means a run's first iteration would apply
// nothing and stop saturated. A rewrite whose right side is in place already counts
// as applying: a true answer only means a run is needed to know.
bool some_rewrite_applies(const EGraph& egraph, std::span<const Rewrite> rewrites, const RuleIndex& index,
                          FastMath fast_math);

}  // namespace eqsat
