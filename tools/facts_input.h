// The two text forms of what is known about an expression's variables, turned into a
// passes/facts.h `Facts`:
//
//   batch format (one JSON object per case)   simplify-expr flags
//   "vars": {"x": "INT32"}                     --var x:INT32
//   "bounds": {"i": [0, 7], "n": [1, null]}    --bound i=0:7 --bound n=1:
//   "assume": ["n > 8", "i < n"]               --assume 'n > 8' --assume 'i < n'
//
// Declarations are read first, then bounds (integer variables only, lo <= hi), then
// assumptions (BOOL expressions typed under the declarations). Every error says where
// it came from: "vars: unknown dtype 'INT7' for 'x'", "assume[1]: column 3: ...",
// "--bound 'n=a:3': LO 'a' is not an integer".
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "ir/error.h"
#include "ir/expr.h"
#include "ir/fast_math.h"
#include "passes/facts.h"

namespace eqsat::cli {

// Reads the `vars`, `bounds` and `assume` members of a batch case (each optional; a
// null member counts as absent). Other members are ignored.
Result<Facts> facts_from_json(const nlohmann::ordered_json& case_object);

// The inverse: writes `vars` (the non-INDEX declarations), `bounds` and `assume` into
// `case_object`, each only when non-empty. Used for reproducers (tools/fuzz.h).
void facts_to_json(const Facts& facts, nlohmann::ordered_json& case_object);

// A batch case's optional "fast_math" member (an extension of the batch format,
// docs/expressions.md): the fast-math flags granted to this case, as an array of flag
// names, e.g. ["nsz", "nnan"] or ["all"]. Absent or null: none. Errors say
// "fast_math[1]: unknown fast-math flag 'nzs' ...".
Result<FastMath> fast_math_from_json(const nlohmann::ordered_json& case_object);
// Writes "fast_math" (the flags' names) into `case_object` when `flags` has any.
void fast_math_to_json(FastMath flags, nlohmann::ordered_json& case_object);

// The simplify-expr flags, as typed.
struct FactFlags {
  std::vector<std::string> vars;         // NAME:DTYPE
  std::vector<std::string> bounds;       // NAME=LO:HI, either side may be empty (open)
  std::vector<std::string> assumptions;  // BOOL expressions
};
Result<Facts> facts_from_flags(const FactFlags& flags);

// Parses `text` with the declared dtypes (undeclared names are INDEX); a parse or type
// error becomes "<where>: column N: <reason>".
Result<Expr> parse_under(const Facts& facts, std::string_view text, std::string_view where);

}  // namespace eqsat::cli
