// Conjunctions that pin a floor quotient and remainder, or a remainder-sized
// window of a linear form, written as the one condition they state (TVM's
// rewrite simplifier does these as ad-hoc rules on `and`).
//
// Writing N = c*q + r with q = N // c and r = N % c (INDEX, c >= 1 constant):
//   - `N // c == k and r-comparisons` holds exactly for N in
//     [c*k + lo, c*k + hi], [lo, hi] being the remainders the comparisons allow
//     within [0, c - 1]: `x // 8 == 3 and x % 8 == 4` is `x == 28`, and
//     `x // 10 == 5 and x % 10 < 7` is `50 <= x and x <= 56`;
//   - comparisons that hold N - c*t to a window [k, k + c - 1] of c values say
//     that t is the quotient: `0 <= x - y * 5 and x - y * 5 < 5` is
//     `y == x // 5` (in general t == (N - k) // c).
// The operands used are replaced by the combined condition at the position of
// the first of them: it reads the same subterms, so it is defined where that
// operand is, and the chain's value is unchanged wherever it is defined.
#pragma once

#include "ir/expr.h"

namespace eqsat {

// `expr` with every `and` chain combined as above. Returns `expr` itself when
// nothing combines.
Expr combine_divmod_conjunctions(const Expr &expr);

}  // namespace eqsat
