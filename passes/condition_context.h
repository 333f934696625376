// Substituting what a condition decides into the terms it guards, as Halide's
// simplifier does with its "facts in scope" and TVM's analyzer with its
// constraint context.
//
// A rewrite rule sees one node, so it cannot find that the inner select of
// `select(x < y, z, select(x < y, w, x) + 3)` is decided by the outer
// condition, nor that `x < y + 1 and x < y - 2` keeps only its second half:
// the two comparisons are not siblings of one node. Here the tree is walked
// with a context of known facts:
//   - the branches of `select(c, t, f)` are rewritten knowing c (t) or not c (f);
//   - the operands of a chain `a and b and ...` (`a or b or ...`) are rewritten
//     knowing that the operands to their left are true (false): the chain is
//     evaluated left to right and stops early, so an operand is only ever
//     evaluated where those hold. When no operand of the chain can be undefined
//     (no division, modulo, shift or cast in it; under nnan or ninf, no float
//     either), every other operand is known
//     as well: `a and b` equals `a' and b` where a' equals a wherever b holds.
// In a context, a BOOL subterm that equals a known fact (or its negation) is
// decided, and so is an integer comparison whose linear form (INDEX: the
// difference of its sides with collected coefficients, divided by their gcd;
// fixed-width: one side a constant) is bounded by the facts about the same
// form: with `x - y < -2` known, `x < y + 1` is True and `y <= x` False.
// A truncating division or modulo of INDEX by a constant whose numerator the
// facts show non-negative becomes the floor one (`select(x * 4 + y >= 8,
// truncmod(x * 4 + y - 8, 16), y)` reads `(x * 4 + y - 8) % 16` in its first
// branch), for the linear forms and the floor rules to fold.
//
// The result is equal to the input wherever the input is defined, under both
// readings of undefinedness (docs/verification.md): a subterm is only replaced
// by a constant where the facts that decide it hold, and only read there in the
// lazy reading. In the strict one a select computes both branches and a chain
// all its operands, so a value changed where a branch's facts fail must change
// nothing but what the select or chain discards: a divisor, a shift amount or a
// cast float, whose value decides whether its operation is defined, is
// rewritten with the facts that hold everywhere only (the assumptions).
// (`select(q, 0, 1 % select(q, 1, x))` must not become `select(q, 0, 1 % x)`,
// undefined at q, x = 0.) Under the fast-math flags nnan or ninf a NaN or an
// infinity is poison, and so are the operands of float arithmetic treated, and
// a float comparison is one that may be undefined (ir/definedness.h):
// `select(q, 0.0, 1.0 / select(q, 1.0, -0.0))` keeps its divisor under ninf.
// simplify_expr merges the result into the e-graph between rounds of
// saturation, next to the linear normal forms.
#pragma once

#include <vector>

#include "ir/expr.h"
#include "ir/fast_math.h"
#include "passes/linear_form.h"

namespace eqsat {

// `expr` with every subterm that its context decides replaced by True or False
// (and truncating divisions the context shows floor ones by their floor form).
// Returns `expr` itself when nothing is decided. The context starts with the
// `assumptions` (BOOL terms that hold wherever the result is used) and reads the
// intervals of INDEX atoms from `bounds` (none when empty). `flags`: the fast-math
// flags the result is used under (nnan and ninf make more terms partial).
Expr substitute_conditions(const Expr &expr, const std::vector<Expr> &assumptions = {}, BoundsOracle bounds = {},
                           FastMath flags = {});

}  // namespace eqsat
