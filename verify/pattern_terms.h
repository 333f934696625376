// A pattern (either side of a rewrite, or an expression turned into one) as Z3 terms.
#pragma once

#include <span>

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

// `vars[i]` is the term of the pattern's variable i.
PatternTerm translate_pattern(const Semantics& semantics, const Pattern& pattern, std::span<const z3::expr> vars);

}  // namespace eqsat::verify
