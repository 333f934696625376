// The printer: an `Expr` to text in the spec's syntax that parses back to the same
// expression (same ops, dtypes and values), with the fewest parentheses Python needs.
#pragma once

#include <string>

#include "ir/expr.h"

namespace eqsat {

std::string print(const Expr& expr);

}  // namespace eqsat
