// Random, well-typed simplification cases for the differential fuzzer (tools/fuzz.h):
// an expression of a random dtype over a few variables, with random bounds and
// assumptions. Built to reach the places where simplifiers go wrong: wrap-around at
// the edges of fixed-width dtypes, signed zero and NaN, floor vs truncating division of
// negative numbers, division by zero, shifts by the bit width, signs that only a bound
// establishes.
//
// Deterministic: case `index` of seed `seed` is the same case on every machine and
// standard library (the generator draws from its own SplitMix64, not from <random>'s
// distributions, whose results differ between implementations).
#pragma once

#include <cstdint>

#include "ir/expr.h"
#include "passes/facts.h"

namespace eqsat::verify {

struct RandomCase {
  Facts facts;
  Expr input;
};

struct RandomCaseOptions {
  int max_depth = 4;  // operator nesting of the input
};

// Case number `index` of the run with seed `seed`.
RandomCase random_case(uint64_t seed, uint64_t index, const RandomCaseOptions& options = {});

}  // namespace eqsat::verify
