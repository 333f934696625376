// Which expressions can be undefined (shared/spec/expressions.md, "Semantics").
//
// Division and modulo by zero, a shift by a negative amount or by at least the width,
// and a float-to-integer cast of NaN, an infinity or an out-of-range value have no
// value. An expression with none of these operations is defined everywhere (INDEX never
// overflows). Where `and`, `or` and `select` guard such a term, the order of their
// operands matters: `x == 0 or y // x > 1` is defined at x = 0, `y // x > 1 or x == 0`
// is not (the lazy reading, docs/verification.md).
#pragma once

#include "ir/expr.h"

namespace eqsat {

// Whether `op` is undefined on some operands: the divisions, shifts and casts (a cast
// is counted whatever its dtypes, which is safe: a conservative answer).
bool is_partial(Op op);

// Whether `expr` holds a partial operation anywhere.
bool may_be_undefined(const Expr& expr);

}  // namespace eqsat
