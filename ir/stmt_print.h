// The statement printer: a `Program` to the text of docs/ir.md, which the parser
// (ir/stmt_parse.h) reads back to the same program. Four spaces per level, no `pl.`
// prefixes; an empty body is `pass`.
#pragma once

#include <string>

#include "ir/stmt.h"

namespace eqsat {

std::string print_program(const Program& program);
std::string print_type(const Type& type);
std::string print_term(const Term& term);

}  // namespace eqsat
