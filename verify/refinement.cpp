#include "verify/refinement.h"

#include <algorithm>
#include <optional>

#include "verify/pattern_terms.h"
#include "verify/z3_deadline.h"
#include "verify/z3_numerals.h"

namespace eqsat::verify {

std::string_view proof_kind_name(ProofKind kind) {
  switch (kind) {
    case ProofKind::Exact:
      return "exact";
    case ProofKind::BvFallback:
      return "bv-fallback";
    case ProofKind::AssumedReassoc:
      return "assumed-reassoc";
  }
  return "exact";
}

std::optional<ProofKind> parse_proof_kind(std::string_view text) {
  for (ProofKind kind : {ProofKind::Exact, ProofKind::BvFallback, ProofKind::AssumedReassoc}) {
    if (text == proof_kind_name(kind)) return kind;
  }
  return std::nullopt;
}

namespace {

bool mentions_index(const Pattern& pattern) {
  return std::any_of(pattern.nodes.begin(), pattern.nodes.end(),
                     [](const PatternNode& n) { return n.dtype == DType::Index; });
}

// A fixed-width division or remainder whose divisor is not a literal: at 32 and 64
// bits a division circuit that bit-blasting makes too large for Z3 within its timeout.
bool has_fixed_width_division(const Pattern& pattern) {
  return std::any_of(pattern.nodes.begin(), pattern.nodes.end(), [&](const PatternNode& n) {
    const bool division = n.kind == PatternNode::Kind::Op && (n.op == Op::FloorDiv || n.op == Op::FloorMod ||
                                                              n.op == Op::TruncDiv || n.op == Op::TruncMod);
    return division && is_fixed_width_int(n.dtype) && pattern.nodes[n.children[1]].kind != PatternNode::Kind::Const;
  });
}

// A cast between INDEX and a fixed-width integer. With INDEX as Int, Z3 bridges the two
// with int2bv and bv2int, which it mixes badly: `cast(x + c, INT32) => cast(x, INT32) +
// cast(c, INT32)` on INDEX ran to its timeout there. Wrapped integers need no bridge.
bool has_index_cast(const Pattern& pattern) {
  return std::any_of(pattern.nodes.begin(), pattern.nodes.end(), [&](const PatternNode& n) {
    if (n.kind != PatternNode::Kind::Op || n.op != Op::Cast) return false;
    const DType from = pattern.nodes[n.children[0]].dtype;
    return (n.dtype == DType::Index && is_fixed_width_int(from)) ||
           (from == DType::Index && is_fixed_width_int(n.dtype));
  });
}

bool has_index_variable(const std::vector<PatternVar>& vars) {
  return std::any_of(vars.begin(), vars.end(), [](const PatternVar& v) { return v.dtype == DType::Index; });
}

std::string named_text(const z3::model& model, const std::string& name, const z3::expr& term) {
  const z3::expr v = model.eval(term, true);
  if (v.is_bool()) return name + " = " + (v.is_true() ? "True" : "False");
  if (v.is_bv()) return name + " = " + to_string(numeral_value(v, DType::Index, v.get_sort().bv_size()));
  return name + " = " + v.to_string();
}

std::string timeout_text(unsigned timeout_ms) {
  const unsigned s = timeout_ms / 1000;
  return "timeout " + (timeout_ms % 1000 == 0 ? std::to_string(s) + " s" : std::to_string(timeout_ms) + " ms");
}

// Z3's default solver picks its strategy per query; for pure bit-vector queries the
// QF_BV tactic (bit-blasting after word-level simplification) is much faster on
// division and multiplication, so name it when nothing else is involved.
z3::solver make_solver(z3::context& ctx, const Semantics& sem, const Pattern& lhs, const Pattern& rhs,
                       const std::vector<PatternVar>& vars) {
  auto bv_only = [&](DType t) { return t == DType::Bool || (is_integer(t) && sem.is_bv(t)); };
  bool pure = std::all_of(vars.begin(), vars.end(), [&](const PatternVar& v) { return bv_only(v.dtype); });
  for (const Pattern* p : {&lhs, &rhs}) {
    for (const PatternNode& n : p->nodes) pure = pure && bv_only(n.dtype);
  }
  return pure ? z3::solver(ctx, "QF_BV") : z3::solver(ctx);
}

// A bit-vector proof is exact when no variable is an INDEX (so the model restricts no
// input) and every INDEX intermediate fits whatever the inputs (e.g. casts of INT32
// values to INDEX): then the no-overflow hypotheses exclude nothing.
bool fallback_is_exact(z3::solver& solver, const std::vector<PatternVar>& vars, const z3::expr& hypotheses,
                       const z3::expr& fits) {
  if (has_index_variable(vars)) return false;
  solver.reset();
  solver.add(hypotheses && !fits);
  return solver.check() == z3::unsat;
}

Outcome attempt(const Pattern& lhs, const Pattern& rhs, const std::vector<PatternVar>& vars,
                const HypothesisFn& hypotheses, const ProverOptions& options, IndexModel model,
                FixedWidthModel fixed_width) {
  // A context per attempt: Z3 contexts are not thread-safe, and attempts run in parallel.
  z3::context ctx;
  const Semantics sem(ctx, model, options.fallback_bits, options.fast_math, fixed_width, options.float_model,
                      options.poison_sums_and_products);
  std::vector<z3::expr> terms;
  z3::expr ranges = ctx.bool_val(true);
  for (const PatternVar& v : vars) {
    terms.push_back(sem.variable(v.name, v.dtype));
    ranges = ranges && sem.variable_range(terms.back(), v.dtype);
  }
  const Hypotheses hyp = hypotheses(sem, terms);
  // A variable may stand for an undefined term where the left side reads an operand
  // lazily (verify/pattern_terms.h); the guard's total(x) says it is defined.
  std::vector<z3::expr> defined;
  if (options.variables_are_terms && reads_operands_lazily(lhs)) {
    for (const PatternVar& v : vars) defined.push_back(variable_defined(ctx, v.name));
  }
  // The left side (the input) keeps its sums' and products' NaN and infinite results
  // poison (translate_pattern).
  const PatternTerm l = translate_pattern(sem, lhs, terms, defined, /*rounding_defined=*/false);
  const PatternTerm r = translate_pattern(sem, rhs, terms, defined);

  // The negation of: for both readings, defined(lhs) implies defined(rhs) and equal.
  // The strict reading's premise implies the lazy one's, hence one query.
  const z3::expr rhs_defined = r.defined_lazy && z3::implies(l.defined_strict, r.defined_strict);
  const z3::expr differs = options.compare_values ? !sem.same(l.value, r.value, lhs.dtype()) : ctx.bool_val(false);
  const z3::expr failure = l.defined_lazy && (!rhs_defined || differs);

  z3::solver solver = make_solver(ctx, sem, lhs, rhs, vars);
  // Not Z3's `timeout` parameter, which can deadlock in Z3 4.8.12 (verify/z3_deadline.h).
  const Z3Deadline deadline(ctx, options.timeout_ms);
  solver.add(ranges);
  solver.add(hyp.holds);
  solver.add(sem.definitions());  // of the fresh terms the translations introduced
  if (model == IndexModel::BitVector) solver.add(l.fits && r.fits);
  solver.add(failure);

  Outcome out;
  out.kind = model == IndexModel::Integer ? ProofKind::Exact : ProofKind::BvFallback;
  switch (solver.check()) {
    case z3::unsat:
      out.verdict = Verdict::Proved;
      if (model == IndexModel::BitVector && fallback_is_exact(solver, vars, hyp.holds, l.fits && r.fits)) {
        out.kind = ProofKind::Exact;
      }
      return out;
    case z3::unknown: {
      out.verdict = Verdict::Unknown;
      out.unknown_reason = deadline.expired() ? timeout_text(options.timeout_ms) : solver.reason_unknown();
      return out;
    }
    case z3::sat:
      break;
  }
  const z3::model m = solver.get_model();
  Counterexample cex;
  for (std::size_t i = 0; i < vars.size(); ++i) {
    cex.vars.push_back({vars[i].name, sem.model_value(m, terms[i], vars[i].dtype)});
  }
  for (std::size_t i = 0; i < defined.size(); ++i) {
    if (m.eval(defined[i], true).is_false()) cex.undefined.push_back(vars[i].name);
  }
  for (const auto& [name, term] : hyp.named) cex.facts.push_back(named_text(m, name, term));
  cex.lhs = sem.model_value(m, l.value, lhs.dtype());
  if (m.eval(rhs_defined, true).is_true()) cex.rhs = sem.model_value(m, r.value, rhs.dtype());
  out.verdict = Verdict::Counterexample;
  out.counterexample = std::move(cex);
  return out;
}

Outcome guarded_attempt(const Pattern& lhs, const Pattern& rhs, const std::vector<PatternVar>& vars,
                        const HypothesisFn& hypotheses, const ProverOptions& options, IndexModel model,
                        FixedWidthModel fixed_width = FixedWidthModel::BitVector) {
  try {
    return attempt(lhs, rhs, vars, hypotheses, options, model, fixed_width);
  } catch (const z3::exception& e) {
    Outcome out;
    out.unknown_reason = std::string("z3 error: ") + e.msg();
    return out;
  } catch (const std::range_error& e) {
    Outcome out;
    out.unknown_reason = std::string("model value out of range: ") + e.what();
    return out;
  }
}

// INDEX as Int and the fixed widths as bit-vectors, with the bit-vector INDEX fallback.
Outcome prove_with_bit_vectors(const Pattern& lhs, const Pattern& rhs, const std::vector<PatternVar>& vars,
                               const HypothesisFn& hypotheses, const ProverOptions& options) {
  const bool index = mentions_index(lhs) || mentions_index(rhs);
  // Wide enough that every fixed-width value of the rule is an INDEX value too (a
  // UINT64 cast to INDEX needs 65 bits).
  ProverOptions wide = options;
  for (const Pattern* p : {&lhs, &rhs}) {
    for (const PatternNode& n : p->nodes) {
      if (is_fixed_width_int(n.dtype))
        wide.fallback_bits = std::max(wide.fallback_bits, unsigned(bit_width(n.dtype)) + 1);
    }
  }
  // Fixed-width inputs whose INDEX values are only intermediates (casts through INDEX):
  // Z3 mixes its integer theory and bit-vectors (int2bv, bv2int) badly, and the integer
  // attempt often runs to its timeout, while the bit-vector model decides them at once
  // and exactly when every intermediate fits for every input (fallback_is_exact), and any
  // counterexample it finds is real (its intermediates fit). So it goes first there.
  std::optional<Outcome> bit_vector;
  if (index && !has_index_variable(vars)) {
    bit_vector = guarded_attempt(lhs, rhs, vars, hypotheses, wide, IndexModel::BitVector);
    const bool decided = bit_vector->verdict == Verdict::Counterexample ||
                         (bit_vector->verdict == Verdict::Proved && bit_vector->kind == ProofKind::Exact);
    if (decided) return *bit_vector;
  }
  std::string integer_reason;
  try {
    Outcome exact = guarded_attempt(lhs, rhs, vars, hypotheses, options, IndexModel::Integer);
    if (exact.verdict != Verdict::Unknown || !index) return exact;
    integer_reason = exact.unknown_reason;
  } catch (const Unsupported& e) {
    integer_reason = e.what();
  }
  Outcome fallback =
      bit_vector ? *bit_vector : guarded_attempt(lhs, rhs, vars, hypotheses, wide, IndexModel::BitVector);
  if (fallback.verdict == Verdict::Unknown && fallback.unknown_reason != integer_reason) {
    fallback.unknown_reason = integer_reason + "; bit-vector fallback: " + fallback.unknown_reason;
  }
  return fallback;
}

Outcome wrapped_integer_attempt(const Pattern& lhs, const Pattern& rhs, const std::vector<PatternVar>& vars,
                                const HypothesisFn& hypotheses, const ProverOptions& options) {
  try {
    return guarded_attempt(lhs, rhs, vars, hypotheses, options, IndexModel::Integer, FixedWidthModel::WrappedInteger);
  } catch (const Unsupported& e) {
    Outcome out;
    out.unknown_reason = e.what();
    return out;
  }
}

// One round for a rule that wrapped integers may decide: the usual models with the
// budget of `options`, then, unless they decided it, wrapped integers with three times
// it (the signed 32-bit `(x % y) % y` took about 20 s there at a 10 s budget). Wrapped
// integers read the fixed-width values as Int, reduced into range: an exact model in
// which Z3 reasons with a quotient's defining equations instead of a division circuit,
// and needs no int2bv bridge for an INDEX cast. Before the last round a bv-fallback
// proof does not decide (the next round's integer attempt may still make it exact), and
// an undecided round gives nothing.
std::optional<Outcome> usual_then_wrapped(const Pattern& lhs, const Pattern& rhs, const std::vector<PatternVar>& vars,
                                          const HypothesisFn& hypotheses, const ProverOptions& options,
                                          bool last_round) {
  Outcome usual = prove_with_bit_vectors(lhs, rhs, vars, hypotheses, options);
  const bool decided = usual.verdict == Verdict::Counterexample ||
                       (usual.verdict == Verdict::Proved && (last_round || usual.kind == ProofKind::Exact));
  if (decided) return usual;
  ProverOptions longer = options;
  longer.timeout_ms = 3 * options.timeout_ms;
  const Outcome wrapped = wrapped_integer_attempt(lhs, rhs, vars, hypotheses, longer);
  if (wrapped.verdict != Verdict::Unknown) return wrapped;
  if (!last_round) return std::nullopt;
  usual.unknown_reason += "; wrapped integers: " + wrapped.unknown_reason;
  return usual;
}

// The short budget of the first round, per model.
constexpr unsigned kFirstRoundMs = 5000;

}  // namespace

Outcome prove_refinement(const Pattern& lhs, const Pattern& rhs, const std::vector<PatternVar>& vars,
                         const HypothesisFn& hypotheses, const ProverOptions& options) {
  if (options.fixed_width_model == FixedWidthModel::WrappedInteger) {
    return wrapped_integer_attempt(lhs, rhs, vars, hypotheses, options);
  }
  // Rules that wrapped integers may decide where the usual models run to their timeout:
  // a fixed-width division by a variable, a cast between INDEX and a fixed width.
  const bool for_wrapped =
      !options.fixed_width_model &&
      (has_fixed_width_division(lhs) || has_fixed_width_division(rhs) || has_index_cast(lhs) || has_index_cast(rhs));
  if (!for_wrapped) return prove_with_bit_vectors(lhs, rhs, vars, hypotheses, options);
  if (options.timeout_ms > kFirstRoundMs) {
    // Both models first on a short budget. Each decides rules the other runs to its
    // timeout on (the bit-vectors a divisor of 8 or 16 bits; wrapped integers the 32-
    // and 64-bit remainders, and the INDEX casts), and each verdict is exact, so the
    // first that comes stands: the catalogue's wide remainders each spent the whole
    // budget as bit-vectors (60 s in CI) before wrapped integers proved them in under a
    // second.
    ProverOptions first = options;
    first.timeout_ms = kFirstRoundMs;
    if (std::optional<Outcome> quick = usual_then_wrapped(lhs, rhs, vars, hypotheses, first, false)) return *quick;
  }
  return *usual_then_wrapped(lhs, rhs, vars, hypotheses, options, true);
}

}  // namespace eqsat::verify
