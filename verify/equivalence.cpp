#include "verify/equivalence.h"

#include <algorithm>

#include "verify/common_subterms.h"
#include "verify/pattern_terms.h"

namespace eqsat::verify {

namespace {

void collect_vars(const Expr& e, std::vector<PatternVar>& vars) {
  if (e.op() == Op::Var) {
    const bool known = std::any_of(vars.begin(), vars.end(), [&](const PatternVar& v) { return v.name == e.name(); });
    if (!known) vars.push_back({e.name(), e.dtype(), false});
    return;
  }
  for (const Expr& arg : e.args()) collect_vars(arg, vars);
}

EquivalenceResult prove_equivalent(const Expr& input, const Expr& output, const Facts& facts,
                                   const ProverOptions& options);

// The answer to one question of differs_only_by_rounding; a claim the real model has
// no reading for (a float cast to an integer) is answered no.
EquivalenceResult asked(const Expr& input, const Expr& output, const Facts& facts, const ProverOptions& options) {
  try {
    return prove_equivalent(input, output, facts, options);
  } catch (const Unsupported& e) {
    return {EquivalenceResult::Status::Counterexample, ProofKind::Exact, e.what()};
  }
}

// Whether `output` differs from `input` only by rounding: equal when every float is a
// real number and every operation exact, and defined wherever the input is under the
// IEEE semantics and nnan or ninf (an operand order that reads a NaN input first is
// wrong, and so is a division made infinite), but for the results of +, - and * and
// of what is computed from them: reassociating a sum may overflow where the input did
// not (`f + g` of FP16 at f = -65184, g = -336, where `f + (g + 2.0)` is finite), and
// `min(f + g + 2.0, 0.0)` is then -inf too; a quotient by a sum rounded otherwise may
// overflow (verify/pattern_terms.cpp).
// Equal (assumed-reassoc) if both are proved; Counterexample if either is refuted;
// Unknown otherwise.
EquivalenceResult differs_only_by_rounding(const Expr& input, const Expr& output, const Facts& facts,
                                           const ProverOptions& options) {
  ProverOptions exact_arithmetic = options;
  exact_arithmetic.float_model = FloatModel::Real;
  ProverOptions definedness = options;
  definedness.compare_values = false;
  definedness.poison_sums_and_products = false;
  using Status = EquivalenceResult::Status;
  const EquivalenceResult equal = asked(input, output, facts, exact_arithmetic);
  if (equal.status == Status::Counterexample) return equal;
  const EquivalenceResult defined = asked(input, output, facts, definedness);
  if (defined.status == Status::Counterexample) return defined;
  if (equal.status == Status::Equal && defined.status == Status::Equal)
    return {Status::Equal, ProofKind::AssumedReassoc, ""};
  return {Status::Unknown, ProofKind::Exact,
          "not equal under IEEE; whether only by rounding (reassoc): " +
              (equal.status == Status::Unknown ? equal.detail : defined.detail)};
}

}  // namespace

// First the claim with the shared subterms abstracted (verify/common_subterms.h), which
// Z3 decides quickly where the full float terms would time out; if that is not proved,
// the claim as it is. Under reassoc, a counterexample that is only rounding is not one.
EquivalenceResult verify_equivalent(const Expr& input, const Expr& output, const Facts& facts,
                                    const ProverOptions& options) {
  const AbstractedPair pair = abstract_common_subterms(input, output, options.fast_math);
  if (pair.identical) return {EquivalenceResult::Status::Equal, ProofKind::Exact, ""};
  if (!pair.abstracted.empty()) {
    ProverOptions quick = options;
    quick.timeout_ms = std::min(options.timeout_ms, 1000u);
    EquivalenceResult abstracted = prove_equivalent(pair.input, pair.output, facts, quick);
    if (abstracted.status == EquivalenceResult::Status::Equal) return abstracted;
  }
  EquivalenceResult result = prove_equivalent(input, output, facts, options);
  if (result.status != EquivalenceResult::Status::Counterexample || !options.fast_math.has(FastMathFlag::Reassoc))
    return result;
  const EquivalenceResult rounding = differs_only_by_rounding(input, output, facts, options);
  // A refuted question leaves the IEEE counterexample, which shows the values.
  return rounding.status == EquivalenceResult::Status::Counterexample ? result : rounding;
}

namespace {

EquivalenceResult prove_equivalent(const Expr& input, const Expr& output, const Facts& facts,
                                   const ProverOptions& options) {
  std::vector<PatternVar> vars;
  collect_vars(input, vars);
  collect_vars(output, vars);
  for (const Expr& a : facts.assumptions) collect_vars(a, vars);
  const Pattern lhs = Pattern::from_expr(input, vars);
  const Pattern rhs = Pattern::from_expr(output, vars);
  std::vector<Pattern> assumptions;
  for (const Expr& a : facts.assumptions) assumptions.push_back(Pattern::from_expr(a, vars));

  HypothesisFn hypotheses = [&](const Semantics& sem, std::span<const z3::expr> terms) {
    z3::expr holds = sem.ctx().bool_val(true);
    for (std::size_t i = 0; i < vars.size(); ++i) {
      auto bound = facts.bounds.find(vars[i].name);
      if (bound != facts.bounds.end())
        holds = holds && sem.in_range(terms[i], vars[i].dtype, bound->second.lo, bound->second.hi);
    }
    // An assumption that holds was evaluated, so it is defined (lazily, as a condition is).
    for (const Pattern& a : assumptions) {
      const PatternTerm t = translate_pattern(sem, a, terms);
      holds = holds && t.value && t.defined_lazy && t.fits;
    }
    return Hypotheses{holds, {}};
  };
  // The variables are the inputs (or always-defined subterms, verify/common_subterms.h):
  // defined everywhere, unlike a rule's pattern variables.
  ProverOptions inputs = options;
  inputs.variables_are_terms = false;
  const Outcome outcome = prove_refinement(lhs, rhs, vars, hypotheses, inputs);
  EquivalenceResult result;
  result.kind = outcome.kind;
  switch (outcome.verdict) {
    case Verdict::Proved:
      result.status = EquivalenceResult::Status::Equal;
      break;
    case Verdict::Counterexample:
      result.status = EquivalenceResult::Status::Counterexample;
      result.detail = outcome.counterexample->text("input", "output");
      break;
    case Verdict::Unknown:
      result.status = EquivalenceResult::Status::Unknown;
      result.detail = outcome.unknown_reason;
      break;
  }
  return result;
}

}  // namespace

}  // namespace eqsat::verify
