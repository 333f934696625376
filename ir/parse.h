// The expression parser: text in the spec's syntax to a typed `Expr`.
//
// Parsing follows Python's grammar and precedence for the subset in
// shared/spec/expressions.md. Literals have no dtype of their own: an integer
// literal takes the dtype of the operand it meets (INDEX when alone), a float literal
// the float dtype it meets (FP32 when alone). Errors carry the 1-based column.
#pragma once

#include <functional>
#include <optional>
#include <string_view>

#include "ir/error.h"
#include "ir/expr.h"

namespace eqsat {

struct Syntax;

// Answers the dtype of a variable name. `bool_context` is true when the name stands
// where only a BOOL is allowed (a select condition, an operand of and/or/not), which
// lets the rule loader type pattern variables. Returning nullopt makes the name an
// "unknown name" error.
using VarTyper = std::function<std::optional<DType>(std::string_view name, bool bool_context)>;

// Parses and type-checks one expression.
Result<Expr> parse_expr(std::string_view text, const VarTyper& var_dtype);
// The same, where the surrounding text expects `expected`: an open subtree (literals
// only, like `5` or `2 * 3`) takes that dtype, as an operand would. The statement
// parser uses it for `a: Scalar[INT32] = 5`. The result may still have another dtype
// (`x + 1` with x: INDEX stays INDEX); the caller checks.
Result<Expr> parse_expr(std::string_view text, const VarTyper& var_dtype, DType expected);

// The type check alone, of an expression parse_syntax (ir/syntax.h) made: parse_expr
// is parse_syntax and then this. The rule loader types each rule's text once per dtype
// and parses it once.
Result<Expr> type_syntax(const Syntax& syntax, const VarTyper& var_dtype);

// Convenience: every name is a variable of dtype INDEX unless listed in `vars`
// (the batch format's rule).
VarTyper index_by_default(std::function<std::optional<DType>(std::string_view)> vars);

}  // namespace eqsat
