// A pattern (either side of a rewrite, or an expression turned into one) as Z3 terms.
#pragma once

#include <span>
#include <string>

#include "egraph/pattern.h"
#include "verify/z3_semantics.h"

namespace eqsat::verify {

// Undefinedness comes in two readings, and a proof must hold under both:
//   strict: an expression is defined when every operation in it is, so the untaken
//           branch of a select counts (what a vectorised select that computes both
//           branches does);
//   lazy:   select(c, t, f) only needs the branch it takes, `a and b` needs b only when
//           a is True, `a or b` only when a is False (Python's evaluation).
// Which one the code generator follows is not ours to know, hence both (see
// rule_prover.cpp for the obligation). Under the nnan and ninf fast-math flags of the
// semantics, a float input or result that is NaN (or infinite) is undefined as well.
struct PatternTerm {
  z3::expr value;
  z3::expr defined_strict;
  z3::expr defined_lazy;
  z3::expr fits;  // bit-vector INDEX model: every INDEX intermediate fits; else True
};

// Whether a pattern variable may stand for an undefined term matters only where the
// pattern has a lazy operation (`and`, `or`, `select`): anywhere else the variable's
// undefinedness makes the whole side undefined in both readings, so the obligation
// says nothing there. Where it matters, each variable gets a truth value "x is
// defined here" (variable_defined); its value is arbitrary where it is not.
// `x and y => y and x` fails for x = False, y undefined; the guard `total(y)` (an
// analysis fact, egraph/guard.h) makes y defined and the rule holds.
bool reads_operands_lazily(const Pattern& pattern);
z3::expr variable_defined(z3::context& ctx, const std::string& var_name);

// `vars[i]` is the term of the pattern's variable i; `defined[i]`, when given, whether
// it is defined (else it is).
// `rounding_defined`: where the semantics does not make a NaN or infinite result of a
// float sum or product poison (Semantics::poison_sums_and_products, the definedness
// question asked under reassoc, verify/equivalence.h), whether this side is read so.
// Only the output is: it may overflow where reassociating a sum makes it; the input's
// NaN and infinite results are poison as in any proof, so the input is not defined
// where the output, having folded the sum away, computes the same overflow from a
// value that carries no rounding (`1.0 / (1.0 + (h + -1.0))` and `1.0 / h` at h = 0).
PatternTerm translate_pattern(const Semantics& semantics, const Pattern& pattern, std::span<const z3::expr> vars,
                              std::span<const z3::expr> defined = {}, bool rounding_defined = true);

}  // namespace eqsat::verify
