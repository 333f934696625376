#include "ir/lexer.h"

#include <array>

namespace eqsat {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex_digit(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_name_char(char c) { return is_name_start(c) || is_digit(c); }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// Longest match first, so that "//" is not read as two "/".
constexpr std::array<std::string_view, 7> kTwoCharSymbols = {"//", "<<", ">>", "<=", ">=", "==", "!="};
constexpr std::string_view kOneCharSymbols = "+-*/%&|^~<>(),";

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  Result<std::vector<Token>> run() {
    std::vector<Token> tokens;
    while (true) {
      while (pos_ < text_.size() && is_space(text_[pos_])) ++pos_;
      if (pos_ == text_.size()) break;
      Result<Token> token = next();
      if (!token) return token.error();
      tokens.push_back(*token);
    }
    tokens.push_back(Token{TokenKind::End, text_.substr(pos_), column(pos_)});
    return tokens;
  }

 private:
  int column(std::size_t pos) const { return int(pos) + 1; }
  char peek(std::size_t ahead = 0) const { return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0'; }
  Token take(TokenKind kind, std::size_t start) {
    return Token{kind, text_.substr(start, pos_ - start), column(start)};
  }

  Result<Token> next() {
    const char c = peek();
    if (is_digit(c) || (c == '.' && is_digit(peek(1)))) return number();
    if (is_name_start(c)) return name();
    return symbol();
  }

  // Python's number syntax without underscores, octal, binary or imaginary literals.
  Result<Token> number() {
    const std::size_t start = pos_;
    TokenKind kind = TokenKind::Integer;
    if (peek() == '0' && (peek(1) == 'x' || peek(1) == 'X') && is_hex_digit(peek(2))) {
      pos_ += 2;
      while (is_hex_digit(peek())) ++pos_;
    } else {
      while (is_digit(peek())) ++pos_;
      if (peek() == '.') {
        kind = TokenKind::Real;
        ++pos_;
        while (is_digit(peek())) ++pos_;
      }
      const bool sign = peek(1) == '+' || peek(1) == '-';
      if ((peek() == 'e' || peek() == 'E') && is_digit(peek(sign ? 2 : 1))) {
        kind = TokenKind::Real;
        pos_ += sign ? 2 : 1;
        while (is_digit(peek())) ++pos_;
      }
    }
    // "3x", "1e", "0b1": Python rejects a number run straight into a name.
    if (is_name_char(peek())) {
      while (is_name_char(peek()) || peek() == '.') ++pos_;
      return Error{"malformed number '" + std::string(text_.substr(start, pos_ - start)) + "'", column(start)};
    }
    Token token = take(kind, start);
    if (kind == TokenKind::Integer && has_leading_zero(token.text)) {
      return Error{"leading zeros are not allowed in '" + std::string(token.text) + "' (Python syntax)", token.column};
    }
    return token;
  }

  // Python forbids "007" (it once meant octal) but allows "0" and "00".
  static bool has_leading_zero(std::string_view digits) {
    if (digits.size() < 2 || digits[0] != '0' || digits[1] == 'x' || digits[1] == 'X') return false;
    return digits.find_first_not_of('0') != std::string_view::npos;
  }

  // An identifier, or a dotted chain of them ("pl.min"): the parser decides what a
  // dotted name may be.
  Token name() {
    const std::size_t start = pos_;
    while (is_name_char(peek())) ++pos_;
    while (peek() == '.' && is_name_start(peek(1))) {
      ++pos_;
      while (is_name_char(peek())) ++pos_;
    }
    return take(TokenKind::Name, start);
  }

  Result<Token> symbol() {
    const std::size_t start = pos_;
    const std::string_view rest = text_.substr(pos_);
    if (rest.substr(0, 2) == "**") {
      return Error{"'**' (power) is not supported", column(start)};
    }
    for (std::string_view sym : kTwoCharSymbols) {
      if (rest.substr(0, 2) == sym) {
        pos_ += 2;
        return take(TokenKind::Symbol, start);
      }
    }
    if (kOneCharSymbols.find(rest[0]) != std::string_view::npos) {
      pos_ += 1;
      return take(TokenKind::Symbol, start);
    }
    return Error{unexpected_character(rest[0]), column(start)};
  }

  static std::string unexpected_character(char c) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x80) return "unexpected non-ASCII character";
    if (byte < 0x20 || byte == 0x7f) return "unexpected control character";
    return std::string("unexpected character '") + c + "'";
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace

Result<std::vector<Token>> tokenize(std::string_view text) { return Lexer(text).run(); }

std::string describe(const Token& token) {
  if (token.kind == TokenKind::End) return "end of input";
  return "'" + std::string(token.text) + "'";
}

}  // namespace eqsat
