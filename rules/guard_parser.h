// The guard language of the rule files: text to an egraph/guard.h `Guard`.
//
//   guard      := or_expr
//   or_expr    := and_expr ('or' and_expr)*
//   and_expr   := not_expr ('and' not_expr)*
//   not_expr   := 'not' not_expr | comparison
//   comparison := bitand (('==' | '!=' | '<' | '<=' | '>' | '>=') bitand)*
//   bitand     := sum ('&' sum)*
//   sum        := product (('+' | '-') product)*
//   product    := unary (('*' | '//' | '%') unary)*
//   unary      := '-' unary | primary
//   primary    := INTEGER | NAME | 'lower' '(' NAME ')' | 'upper' '(' NAME ')'
//               | 'modulus' '(' NAME ')' | 'remainder' '(' NAME ')'
//               | 'min' '(' sum ',' sum ')' | 'max' '(' ... ')' | 'abs' '(' sum ')'
//               | 'is_const' '(' NAME ')' | '(' guard ')'
//
// Python's precedence, so a guard reads the way it would in Python. A chain `a < b < c`
// means `a < b and b < c`. `//` and `%` floor. Every sub-expression is either a number
// or a truth value, and each operator takes the kind it needs (`and` of two numbers is
// an error, as is a guard that is a number). A NAME is the value of a constant-only
// pattern variable (`c`, `c1`, ...); any other pattern variable only has bounds, read
// with lower(x) and upper(x), and a congruence, read with modulus(x) and remainder(x)
// (x = k*modulus(x) + remainder(x)). is_const(x) is a condition: whether the analysis knows
// x's class to be a constant (it limits when a rule is tried, never what it claims).
#pragma once

#include <string_view>
#include <vector>

#include "egraph/guard.h"
#include "ir/error.h"

namespace eqsat {

// Parses `text` over the pattern variables `vars` (those bound by the rule's left
// side). Errors carry the 1-based column in `text`.
Result<Guard> parse_guard(std::string_view text, const std::vector<PatternVar>& vars);

}  // namespace eqsat
