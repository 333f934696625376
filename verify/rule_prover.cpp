#include "verify/rule_prover.h"

#include "verify/guard_terms.h"
#include "verify/reassociation.h"

namespace eqsat::verify {

Outcome prove_rewrite(const Rewrite& rewrite, const ProverOptions& options) {
  HypothesisFn hypotheses = [&rewrite](const Semantics& sem, std::span<const z3::expr> terms) {
    if (!rewrite.guard) return Hypotheses{sem.ctx().bool_val(true), {}};
    GuardTerms g = translate_guard(sem, *rewrite.guard, rewrite.vars, terms);
    return Hypotheses{g.holds, std::move(g.named)};
  };
  // Exactly the rule's own flags: what it needs, no more, whatever the caller asked.
  ProverOptions under = options;
  under.fast_math = rewrite.fast_math;
  if (rewrite.fast_math.has(FastMathFlag::Reassoc)) {
    // A pure reassociation is what the flag permits, and Z3 cannot prove it on IEEE
    // values; anything else must be proved under the rule's other flags.
    const std::string problem = reassociation_problem(rewrite);
    if (problem.empty()) {
      Outcome out;
      out.verdict = Verdict::Proved;
      out.kind = ProofKind::AssumedReassoc;
      return out;
    }
    Outcome proved = prove_refinement(rewrite.lhs, rewrite.rhs, rewrite.vars, hypotheses, under);
    if (proved.verdict == Verdict::Proved) return proved;
    Outcome out;
    out.unknown_reason = "needs reassoc but is not a pure reassociation (" + problem +
                         "), and Z3 does not prove it under the other flags";
    return out;
  }
  return prove_refinement(rewrite.lhs, rewrite.rhs, rewrite.vars, hypotheses, under);
}

}  // namespace eqsat::verify
