// Splits the statement language into tokens, Python's way (private to ir/: the first
// stage of ir/stmt_parse.h).
//
// Like Python's tokenizer it turns layout into tokens: a Newline ends each logical line,
// an Indent/Dedent pair brackets a more deeply indented block, and line breaks inside
// brackets are plain white space. `#` starts a comment. Indentation is spaces only.
// Number tokens are only delimited here; the expression parser (ir/parse.h) reads them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ir/error.h"

namespace eqsat {

// String: a quoted text on one line, without escapes; only decorators take one (its
// `text` includes the quotes).
enum class StmtTokenKind : uint8_t { Name, Number, String, Symbol, Newline, Indent, Dedent, End };

struct StmtToken {
  StmtTokenKind kind = StmtTokenKind::End;
  std::string_view text;   // a view into the source
  std::size_t offset = 0;  // of the first character in the source
  int line = 1;            // 1-based
  int column = 1;          // 1-based

  bool is(std::string_view s) const {
    return (kind == StmtTokenKind::Symbol || kind == StmtTokenKind::Name) && text == s;
  }
};

Result<std::vector<StmtToken>> tokenize_statements(std::string_view source);

// "'x'", "end of line", "end of input", "indentation".
std::string describe(const StmtToken& token);

}  // namespace eqsat
