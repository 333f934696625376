// Makes translation validation cheap when the input and the output share most of their
// structure, as simplifier results do: subterms that occur on both sides are replaced by
// fresh variables before Z3 sees them.
//
// Sound because the abstracted claim is stronger: if output equals input for *every*
// value of a fresh variable, it does for the value the subterm takes. Only subterms
// that are always defined are abstracted (no integer division, modulo or shift, no
// float-to-integer cast anywhere inside), so definedness is not lost either. The
// converse does not hold: a counterexample to the abstracted claim proves nothing, and
// the caller must then ask about the original terms.
//
// Both sides are first put in a normal form that changes no value: the operands of
// each commutative operation (is_commutative in ir/op.h) sorted, so that `f * h` and
// `h * f` are recognized as the same subterm; those of `and`/`or` only when both are
// always defined (`x == 0 or y // x > 1` is not `y // x > 1 or x == 0`).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "ir/expr.h"
#include "ir/fast_math.h"

namespace eqsat::verify {

struct AbstractedPair {
  Expr input;
  Expr output;
  std::vector<std::pair<std::string, Expr>> abstracted;  // fresh variable, the subterm
  bool identical = false;                                // the normal forms are equal: no proof needed
};

// The fresh variables are named _t0, _t1, ..., avoiding the names of both sides.
// `flags`: the fast-math flags of the claim; under nnan or ninf, float arithmetic and
// float variables may be undefined too (ir/definedness.h), so they are not abstracted,
// nor do `and`/`or` over float comparisons commute.
AbstractedPair abstract_common_subterms(const Expr& input, const Expr& output, FastMath flags = {});

}  // namespace eqsat::verify
