// Constant folding with each dtype's exact semantics.
//
// Fixed-width integers wrap; INDEX never does (a result outside the 128-bit working
// range is not folded); `//` and `%` floor, truncdiv/truncmod truncate; floats are
// computed in IEEE 754 and rounded to the dtype. Undefined operations (integer
// division or modulo by zero, shifts by a negative amount or by >= the bit width)
// are not folded: the result is nullopt and the expression is kept.
#pragma once

#include <optional>
#include <span>

#include "ir/op.h"
#include "ir/value.h"

namespace eqsat {

// `result` is the dtype of the node (BOOL for comparisons, the target for Cast).
std::optional<Value> fold(Op op, DType result, std::span<const Value> args);

}  // namespace eqsat
