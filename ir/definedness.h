// Which expressions can be undefined (shared/spec/expressions.md, "Semantics").
//
// Integer division and modulo by zero, a shift by a negative amount or by at least the
// width, and a float-to-integer cast of NaN, an infinity or an out-of-range value have
// no value. Everything else is defined wherever its operands are: INDEX never
// overflows, fixed-width integers wrap, and float operations follow IEEE 754 (`x / 0.0`
// is an infinity or NaN, a value like any other). Where `and`, `or` and `select` guard
// such a term, the order of their operands matters: `x == 0 or y // x > 1` is defined at
// x = 0, `y // x > 1 or x == 0` is not (the lazy reading, docs/verification.md).
//
// This is the one definition of "partial" the layers share: the e-graph's totality
// analysis (egraph/egraph.cpp), the extractor's operand order (extract/term_order.cpp),
// the condition context (passes/condition_context.cpp) and the verifier's common-subterm
// normal form (verify/common_subterms.cpp) all ask it. It matches the conditions the
// Z3 semantics (verify/z3_semantics.cpp) attaches to each operation.
#pragma once

#include "ir/expr.h"

namespace eqsat {

// Whether a node `op` of dtype `dtype`, whose first operand has dtype `operand`, is
// undefined for some defined operands: the integer divisions and modulos, the shifts,
// and a cast from a float to an integer or INDEX (a cast from a float to BOOL is
// `x != 0`, true for NaN; to another float it rounds).
bool is_partial(Op op, DType dtype, DType operand);

// Whether `expr` holds a partial operation anywhere.
bool may_be_undefined(const Expr& expr);

}  // namespace eqsat
