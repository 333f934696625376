// Evaluating an expression on concrete values: the reference semantics of the
// expression language (shared/spec/expressions.md), for tests and fuzzers that check
// a rewrite by running both sides.
//
//   evaluate(x + y * 2, {{"x", 3}, {"y", 4}})  ->  11
//   evaluate(x // y,    {{"x", 3}, {"y", 0}})  ->  nullopt (division by zero)
//
// Every operation is the constant folder's (`fold`, ir/fold.h), so the dtypes behave
// exactly as they do when the optimizer folds constants: INTn/UINTn wrap, INDEX never
// overflows, floats are IEEE 754 rounded to their dtype.
//
// nullopt means "no defined value": integer division or modulo by zero, a shift by a
// negative amount or by >= the bit width, a float-to-integer cast of NaN, an infinity
// or a value out of range, and the few results the folder declines to compute (an INDEX
// result of magnitude >= 2^100; a float min/max with a NaN operand or with zeros of
// both signs, which the spec leaves open). Undefinedness propagates upwards, except
// through the branch that is not taken: `select(c, t, f)` evaluates only the branch
// `c` picks, and `a and b` / `a or b` do not evaluate `b` when `a` decides, as in
// Python. A variable missing from the environment, or bound to a value of another
// dtype, also gives nullopt.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "ir/expr.h"
#include "ir/value.h"

namespace eqsat {

// Values of the variables, by name. Each value must have the variable's dtype.
using Env = std::map<std::string, Value, std::less<>>;

std::optional<Value> evaluate(const Expr& expr, const Env& env);

}  // namespace eqsat
