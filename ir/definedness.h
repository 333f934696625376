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
//
// Under the fast-math flags nnan or ninf (ir/fast_math.h) a float that is NaN (or
// infinite) is poison, so more is partial: the float arithmetic that can make one from
// values that are not (`x + y`, `x - y`, `x * y`, `x / y`, and a cast to a float, which
// may overflow), and a float variable, which may be one. `p and f > 0.0` is defined at
// f = NaN, p = False under nnan; `f > 0.0 and p` is not. Negation, abs, min, max and
// select pass a value on and make no NaN or infinity of their own; a comparison has a
// BOOL result.
#pragma once

#include "ir/expr.h"
#include "ir/fast_math.h"

namespace eqsat {

// Whether a node `op` of dtype `dtype`, whose first operand has dtype `operand`, is
// undefined for some defined operands: the integer divisions and modulos, the shifts,
// and a cast from a float to an integer or INDEX (a cast from a float to BOOL is
// `x != 0`, true for NaN; to another float it rounds). Under nnan or ninf (`flags`),
// also float +, -, *, / and a cast to a float.
bool is_partial(Op op, DType dtype, DType operand, FastMath flags = {});

// Whether a leaf may be undefined under `flags`: a variable that may be
// (variable_may_be_undefined), a literal that is poison (constant_is_poison).
bool leaf_may_be_undefined(const Expr& leaf, FastMath flags);

// Whether a variable of `dtype` may be undefined under `flags`: a float one under nnan
// or ninf (it may be NaN or infinite). Never without them.
bool variable_may_be_undefined(DType dtype, FastMath flags);

// Whether a constant is poison under `flags`: NaN under nnan, an infinity under ninf.
bool constant_is_poison(const Value& value, FastMath flags);

// Whether `expr` holds a partial operation (or, under `flags`, a leaf that may be
// undefined) anywhere.
bool may_be_undefined(const Expr& expr, FastMath flags = {});

}  // namespace eqsat
