// What the reassoc fast-math flag permits, and why it is checked by shape, not by Z3.
//
// LLVM's `reassoc` is a permission: the optimizer may treat a floating-point + or * as
// associative, although it is not (reassociating changes the rounding, and can even
// overflow where the original did not: (MAX + MAX) - MAX is +inf, MAX + (MAX - MAX) is
// MAX). No statement about IEEE values is true of every reassociation, so Z3 has
// nothing to prove. We accept a rule that needs reassoc only when it is a *pure
// reassociation*: both sides are trees of one and the same operation, float + or
// float *, over the same multiset of leaves (pattern variables and literals). Such a
// rule is a product of associativity and commutativity steps, which is exactly what
// the flag grants; its lock entry says `assumed-reassoc` instead of naming a proof.
// Anything else (distributing, cancelling `(x + y) - y`) is refused.
#pragma once

#include <string>

#include "egraph/rewrite.h"

namespace eqsat::verify {

// Empty when `rewrite` is a pure reassociation; otherwise why not, for a person
// ("the right side uses '-'", "the leaves differ: ...").
std::string reassociation_problem(const Rewrite& rewrite);

}  // namespace eqsat::verify
