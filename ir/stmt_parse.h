// The statement parser: the Python-like text of docs/ir.md to a `Program`.
//
// The language is the one the Simplify pass's specification writes its examples in:
// `def` functions with typed parameters, or a bare list of statements (a fragment);
// `pl.` prefixes are accepted everywhere and optional. Arithmetic is read by the
// expression parser (ir/parse.h), so it means exactly what docs/expressions.md says;
// calls, lists and tuples around it are read here (ir/term.h).
//
// A variable's dtype comes from where it is defined: a parameter's or an annotation's
// type, a loop variable (INDEX), the value assigned, a loop-carried initial value. A
// name never defined is an INDEX scalar (as in the batch format). A call's result has
// no known type unless annotated: it is an opaque name, passed around but not folded.
//
// Errors carry the line and column and the reason.
#pragma once

#include <string_view>

#include "ir/error.h"
#include "ir/stmt.h"

namespace eqsat {

Result<Program> parse_program(std::string_view source);

}  // namespace eqsat
