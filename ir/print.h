// The printer: an `Expr` to text in the spec's syntax that parses back to the same
// expression (same ops, dtypes and values), with the fewest parentheses Python needs.
#pragma once

#include <string>

#include "ir/expr.h"

namespace eqsat {

std::string print(const Expr& expr);
// The same, for text that `parse_expr(text, typer, expected)` reads back: a constant of
// dtype `expected` is written as a bare literal (`5`, not `const(5, INT32)`).
std::string print(const Expr& expr, DType expected);

}  // namespace eqsat
