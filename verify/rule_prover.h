// Proving one rewrite (one dtype instance of a rule) sound with Z3.
#pragma once

#include "egraph/rewrite.h"
#include "verify/refinement.h"

namespace eqsat::verify {

// Proves `lhs => rhs if guard`: under the guard's hypotheses (verify/guard_terms.h),
// wherever the left side is defined the right side is defined and equal, under exactly
// the rule's fast-math flags (ProverOptions::fast_math is replaced by them). A rule
// that needs reassoc is accepted as `assumed-reassoc` when it is a pure reassociation
// (verify/reassociation.h).
Outcome prove_rewrite(const Rewrite& rewrite, const ProverOptions& options = {});

}  // namespace eqsat::verify
