// Splits expression text into tokens (private to ir/: the parser's first stage).
//
// Tokens follow Python's lexical rules for the spec's subset: decimal and hex integer
// literals, float literals (`1.5`, `2.`, `.5`, `1e-3`), identifiers (a dotted name such
// as `pl.min` is one token), and the operator symbols. Keywords (`and`, `True`, ...) are
// names here; the parser gives them their meaning.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ir/error.h"

namespace eqsat {

enum class TokenKind : uint8_t {
  End,      // after the last character; its column is one past the input
  Integer,  // 12, 0x1F
  Real,     // 1.5, 2., .5, 1e-3
  Name,     // x, min, pl.INT32, and, True
  Symbol,   // + - * / // % & | ^ ~ << >> == != < <= > >= ( ) ,
};

struct Token {
  TokenKind kind = TokenKind::End;
  std::string_view text;  // a view into the parsed input
  int column = 0;         // 1-based column of the first character

  bool is(std::string_view symbol) const {
    return (kind == TokenKind::Symbol || kind == TokenKind::Name) && text == symbol;
  }
};

// The tokens of `text`, always ending with an End token.
Result<std::vector<Token>> tokenize(std::string_view text);

// How a token is named in messages: "'x'", "')'", or "end of input".
std::string describe(const Token& token);

}  // namespace eqsat
