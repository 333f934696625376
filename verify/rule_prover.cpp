#include "verify/rule_prover.h"

#include "verify/guard_terms.h"

namespace eqsat::verify {

Outcome prove_rewrite(const Rewrite& rewrite, const ProverOptions& options) {
  HypothesisFn hypotheses = [&rewrite](const Semantics& sem, std::span<const z3::expr> terms) {
    if (!rewrite.guard) return Hypotheses{sem.ctx().bool_val(true), {}};
    GuardTerms g = translate_guard(sem, *rewrite.guard, rewrite.vars, terms);
    return Hypotheses{g.holds, std::move(g.named)};
  };
  return prove_refinement(rewrite.lhs, rewrite.rhs, rewrite.vars, hypotheses, options);
}

}  // namespace eqsat::verify
