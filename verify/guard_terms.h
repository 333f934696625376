// A rule's guard as hypotheses: what the analyses guarantee when the guard fires.
//
//   lower(x), upper(x)  a fresh integer l_x (u_x) with l_x <= x (x <= u_x), x read as
//                       the integer its dtype says (signed for INTn, unsigned for
//                       UINTn); one per variable, shared by every occurrence. A float x
//                       has no interval: its bounds are unconstrained integers.
//   modulus(x),         fresh integers m_x and r_x with m_x >= 1, 0 <= r_x < m_x and
//   remainder(x)        x ≡ r_x (mod m_x); one pair per variable
//   c (const-only)      the integer value of the variable c itself
//   is_const(x)         a fresh truth value: the rule must hold whatever it says
//   total(x)            a fresh truth value t_x with t_x => defined(x)
//                       (verify/pattern_terms.h: x is defined here)
//   arithmetic          exact integers (Z3 Int); // and % floor as in Python
//
// The runtime evaluates a guard in three-valued logic (an infinite bound, an overflow of
// its 128-bit arithmetic or a division by zero is unknown) and fires only on True. Every
// connective there is monotone, so a guard that is True with unknowns is True for any
// value in their place; assuming the guard true over exact integers therefore covers
// every case in which the rule fires.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "egraph/guard.h"
#include "verify/z3_semantics.h"

namespace eqsat::verify {

struct GuardTerms {
  z3::expr holds;  // the guard is true and every bound it reads is a bound
  // The fresh terms, named as in the guard ("lower(x)", "is_const(y)"), so that a
  // counterexample can show them.
  std::vector<std::pair<std::string, z3::expr>> named;
};

GuardTerms translate_guard(const Semantics& semantics, const Guard& guard, const std::vector<PatternVar>& vars,
                           std::span<const z3::expr> var_terms);

}  // namespace eqsat::verify
