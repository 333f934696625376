// The proof obligation shared by rule verification and translation validation:
// "wherever the left side is defined, the right side is defined and equal".
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "egraph/pattern.h"
#include "verify/counterexample.h"
#include "verify/z3_semantics.h"

namespace eqsat::verify {

enum class Verdict : uint8_t { Proved, Counterexample, Unknown };

// Which proof a verdict rests on.
enum class ProofKind : uint8_t {
  Exact,           // INDEX as unbounded integers (or no INDEX at all): the spec's semantics
  BvFallback,      // INDEX as bit-vectors, for values whose every intermediate fits
  AssumedReassoc,  // a pure reassociation, permitted by the reassoc flag (no Z3 proof)
};
std::string_view proof_kind_name(ProofKind kind);  // "exact", "bv-fallback", "assumed-reassoc"
std::optional<ProofKind> parse_proof_kind(std::string_view text);

struct ProverOptions {
  unsigned timeout_ms = 10000;  // per Z3 query; the fallback gets its own
  // Width of INDEX in the bit-vector fallback; at least one more than the widest
  // fixed-width dtype of the rule, so that a UINT64 value is an INDEX value too.
  unsigned fallback_bits = 64;
  // The relaxed float semantics the obligation is stated under (ir/fast_math.h): nsz
  // compares float results up to the sign of zero; nnan and ninf make a NaN or an
  // infinite input or result of either side undefined (verify/pattern_terms.h), so
  // the obligation holds vacuously where the left side has one. reassoc is not a
  // semantics Z3 can check (verify/reassociation.h) and changes nothing here.
  FastMath fast_math;
  // How fixed-width integers are read (verify/z3_semantics.h). Unset: bit-vectors,
  // then, for a fixed-width division by a non-literal they leave unknown, wrapped
  // integers (with three times the timeout). Set: that model alone (tests compare them).
  std::optional<FixedWidthModel> fixed_width_model;
  // Whether the variables stand for terms (a rule's pattern variables, which may be
  // undefined where a lazy operation does not read them: verify/pattern_terms.h) or
  // for inputs (an expression's variables, always defined: verify/equivalence.h).
  bool variables_are_terms = true;
  // How floats are read (verify/z3_semantics.h): IEEE, or exact reals (to tell a
  // result that differs only by rounding, verify/equivalence.h).
  FloatModel float_model = FloatModel::Ieee;
  // Whether the values are compared. Off, the obligation is definedness alone:
  // wherever the left side is defined, the right side is.
  bool compare_values = true;
  // Under nnan or ninf, whether a NaN or infinite result of a float +, - or * is poison,
  // as one of any other operation, an input or a literal is; off, neither is one that
  // another operation passes on from such an operand, on the right side (the left side
  // reads them as any proof does: verify/pattern_terms.h). Off for the definedness
  // question asked under reassoc (verify/equivalence.h): reassociating a sum or a
  // product may overflow where the input did not, and `min(f + g, 0.0)` passes the
  // -inf on.
  bool poison_sums_and_products = true;
};

struct Outcome {
  Verdict verdict = Verdict::Unknown;
  ProofKind kind = ProofKind::Exact;
  std::optional<Counterexample> counterexample;  // Verdict::Counterexample
  std::string unknown_reason;                    // Verdict::Unknown: "timeout 10 s", ...
};

// Hypotheses over the variables: a condition and the named terms it introduced (shown
// in counterexamples).
struct Hypotheses {
  z3::expr holds;
  std::vector<std::pair<std::string, z3::expr>> named;
};
using HypothesisFn = std::function<Hypotheses(const Semantics&, std::span<const z3::expr> var_terms)>;

// Proves that `rhs` may replace `lhs`: for every value of `vars` satisfying the
// hypotheses, wherever `lhs` is defined `rhs` is defined and has the same value, under
// both readings of definedness (verify/pattern_terms.h). INDEX is tried as Int first;
// when Z3 answers unknown there, or the translation needs bit operations on INDEX, the
// bit-vector fallback decides, and the outcome says so. A rule dividing fixed-width
// values by a variable that none of these decide is tried with them as wrapped integers.
Outcome prove_refinement(const Pattern& lhs, const Pattern& rhs, const std::vector<PatternVar>& vars,
                         const HypothesisFn& hypotheses, const ProverOptions& options);

}  // namespace eqsat::verify
