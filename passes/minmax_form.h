// Offsets moved across INDEX min and max: the normal form in which Halide's
// simplifier compares `min(x + 1, y)` with `min(x, y - 1)`.
//
// Rules see one node at a time; the terms two operands of a min share, or the
// terms around a min that cancel with one of its operands, are not siblings of
// one node. Here, over INDEX (where adding to both sides keeps the order):
//   - a chain of one operation is read as a list of operands, through offsets
//     (`min(x, min(x, y) + 1)` is min of x, x + 1 and y + 1), and an operand
//     that another with the same terms dominates is dropped (x + 1 above):
//     `min(x, y + 1)`;
//   - common terms leave a min or max: `min(x + y + z, x + w)` is
//     `min(y + z, w) + x`, and so does the constant of the operand written first
//     (the one whose other terms print first; never a constant one), so that `min(x + 1, y)` becomes
//     `min(x, y - 1) + 1` and meets `min(x, y - 1)`;
//   - terms of a sum around a min (or max) with coefficient 1 or -1 that cancel
//     a term of one of its operands move into it: `min(x + y, z) + w - x` is
//     `min(y, z - x) + w`.
// The result is read by the linear normal form (passes/linear_form.h), so
// `min(x + 1, y) - min(x, y - 1)` is `1`.
//
// Why it is sound: min(a, b) + k = min(a + k, b + k) and -min(a, b) =
// max(-a, -b) for mathematical integers; nothing is evaluated that the input
// does not evaluate. Fixed-width integers are left alone (the sum can wrap).
#pragma once

#include "ir/expr.h"

namespace eqsat {

// Whether the constant of a min's first operand leaves it. Moved out, offsets of
// one min meet (`min(x, y - 1) + 1`); kept, the form is smaller where they need
// not (`min(b + 1, c) + a`). simplify_expr adds both forms.
enum class MinMaxConstants { MoveOut, Keep };

// `expr` with its INDEX min/max offsets in normal form, then linearly
// normalized. Returns `expr` itself when there is no min or max to move across.
// With MoveOut and `moved_constant` given, sets it to whether a first operand's
// constant was moved out of a min or max: when not, the Keep form is the same (a
// caller wanting both need not compute it).
Expr normalize_minmax_offsets(const Expr &expr, MinMaxConstants constants = MinMaxConstants::MoveOut,
                              bool *moved_constant = nullptr);

}  // namespace eqsat
