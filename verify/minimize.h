// Shrinks a failing case to a small one that still fails, for a reproducer a person can
// read: greedy delta debugging over the expression tree and the facts.
//
// Each step tries, in a fixed order, to replace a subterm by one of its operands of the
// same dtype or by a small constant (0, 1, False, True), and to drop an assumption or
// a bound; the first candidate that still fails is taken, and the search restarts from
// it. It stops when no candidate fails, or after `max_attempts` calls of `fails`.
// Declarations and bounds of variables that no longer occur are dropped at the end.
#pragma once

#include <cstddef>
#include <functional>

#include "verify/random_case.h"

namespace eqsat::verify {

using FailurePredicate = std::function<bool(const RandomCase&)>;

RandomCase minimize_case(RandomCase failing, const FailurePredicate& fails, std::size_t max_attempts = 2000);

}  // namespace eqsat::verify
