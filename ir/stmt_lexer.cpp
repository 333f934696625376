#include "ir/stmt_lexer.h"

#include <array>
#include <optional>

namespace eqsat {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_name_char(char c) { return is_name_start(c) || is_digit(c); }

constexpr std::array<std::string_view, 9> kLongSymbols = {"...", "//", "<<", ">>", "<=", ">=", "==", "!=", "->"};
constexpr std::string_view kShortSymbols = "+-*/%&|^~<>()[],:=@";

class StmtLexer {
 public:
  explicit StmtLexer(std::string_view source) : src_(source) {}

  Result<std::vector<StmtToken>> run() {
    indents_.push_back(0);
    while (pos_ < src_.size()) {
      if (at_line_start_ && depth_ == 0) {
        if (auto error = indentation()) return *error;
        if (pos_ >= src_.size()) break;
      }
      const char c = src_[pos_];
      if (c == '\n') {
        newline();
        continue;
      }
      if (c == ' ' || c == '\r' || c == '\t' || c == '\f') {
        ++pos_;
        continue;
      }
      if (c == '#') {
        while (pos_ < src_.size() && src_[pos_] != '\n') ++pos_;
        continue;
      }
      if (c == '\\' && pos_ + 1 < src_.size() && src_[pos_ + 1] == '\n') {
        pos_ += 2;
        next_line();
        continue;
      }
      if (auto error = token()) return *error;
    }
    if (!tokens_.empty() && tokens_.back().kind != StmtTokenKind::Newline) push(StmtTokenKind::Newline, pos_, 0);
    while (indents_.size() > 1) {
      indents_.pop_back();
      push(StmtTokenKind::Dedent, pos_, 0);
    }
    push(StmtTokenKind::End, pos_, 0);
    return tokens_;
  }

 private:
  int column(std::size_t pos) const { return int(pos - line_start_) + 1; }

  void push(StmtTokenKind kind, std::size_t start, std::size_t length) {
    tokens_.push_back(StmtToken{kind, src_.substr(start, length), start, line_, column(start)});
  }

  void next_line() {
    ++line_;
    line_start_ = pos_;
  }

  void newline() {
    ++pos_;
    // Inside brackets a line break is white space; a blank line ends nothing.
    if (depth_ == 0 && !tokens_.empty() && tokens_.back().kind != StmtTokenKind::Newline &&
        tokens_.back().kind != StmtTokenKind::Dedent && tokens_.back().kind != StmtTokenKind::Indent) {
      push(StmtTokenKind::Newline, pos_ - 1, 0);
    }
    next_line();
    at_line_start_ = true;
  }

  // At the start of a logical line: measure its indentation, skipping blank and
  // comment-only lines, and emit Indent or Dedents.
  std::optional<Error> indentation() {
    std::size_t p = pos_;
    int width = 0;
    while (p < src_.size() && (src_[p] == ' ' || src_[p] == '\t' || src_[p] == '\r')) {
      if (src_[p] == '\t') return Error{"tabs are not allowed in indentation; use spaces", column(p), line_};
      if (src_[p] == ' ') ++width;
      ++p;
    }
    if (p >= src_.size() || src_[p] == '\n' || src_[p] == '#') {
      pos_ = p;  // blank or comment-only: no layout
      return std::nullopt;
    }
    at_line_start_ = false;
    pos_ = p;
    if (width > indents_.back()) {
      indents_.push_back(width);
      push(StmtTokenKind::Indent, p, 0);
    } else {
      while (width < indents_.back()) {
        indents_.pop_back();
        push(StmtTokenKind::Dedent, p, 0);
      }
      if (width != indents_.back()) {
        return Error{"unindent does not match any outer indentation level", column(p), line_};
      }
    }
    return std::nullopt;
  }

  std::optional<Error> token() {
    const std::size_t start = pos_;
    const char c = src_[pos_];
    const char next = pos_ + 1 < src_.size() ? src_[pos_ + 1] : '\0';
    if (is_digit(c) || (c == '.' && is_digit(next))) {
      number();
      push(StmtTokenKind::Number, start, pos_ - start);
      return std::nullopt;
    }
    if (is_name_start(c)) {
      while (pos_ < src_.size() && is_name_char(src_[pos_])) ++pos_;
      while (pos_ + 1 < src_.size() && src_[pos_] == '.' && is_name_start(src_[pos_ + 1])) {
        ++pos_;
        while (pos_ < src_.size() && is_name_char(src_[pos_])) ++pos_;
      }
      push(StmtTokenKind::Name, start, pos_ - start);
      return std::nullopt;
    }
    const std::string_view rest = src_.substr(pos_);
    for (std::string_view sym : kLongSymbols) {
      if (rest.substr(0, sym.size()) == sym) {
        pos_ += sym.size();
        push(StmtTokenKind::Symbol, start, sym.size());
        return std::nullopt;
      }
    }
    if (kShortSymbols.find(c) != std::string_view::npos) {
      if (c == '(' || c == '[') ++depth_;
      if ((c == ')' || c == ']') && depth_ > 0) --depth_;
      ++pos_;
      push(StmtTokenKind::Symbol, start, 1);
      return std::nullopt;
    }
    if (c == '"' || c == '\'') {
      const std::size_t close = src_.find_first_of(std::string{c, '\n'}, pos_ + 1);
      if (close == std::string_view::npos || src_[close] != c) {
        return Error{"this string is not closed on its line", column(start), line_};
      }
      pos_ = close + 1;
      push(StmtTokenKind::String, start, pos_ - start);
      return std::nullopt;
    }
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x80) return Error{"unexpected non-ASCII character", column(start), line_};
    return Error{std::string("unexpected character '") + c + "'", column(start), line_};
  }

  // The extent of a number; the expression parser checks its form. A name run into it
  // ("3x") is included so that the expression parser reports it.
  void number() {
    const std::size_t start = pos_;
    const bool hex = src_.substr(start, 2) == "0x" || src_.substr(start, 2) == "0X";
    while (pos_ < src_.size()) {
      const char c = src_[pos_];
      if (is_name_char(c) || c == '.') {
        ++pos_;
        continue;
      }
      // The sign of an exponent: 1e-3 (but 0x1e-3 is 0x1e minus 3).
      const char before = src_[pos_ - 1];
      const bool exponent_sign = !hex && (c == '-' || c == '+') && (before == 'e' || before == 'E') &&
                                 pos_ + 1 < src_.size() && is_digit(src_[pos_ + 1]);
      if (!exponent_sign) break;
      ++pos_;
    }
  }

  std::string_view src_;
  std::size_t pos_ = 0;
  std::size_t line_start_ = 0;
  int line_ = 1;
  int depth_ = 0;
  bool at_line_start_ = true;
  std::vector<int> indents_;
  std::vector<StmtToken> tokens_;
};

}  // namespace

Result<std::vector<StmtToken>> tokenize_statements(std::string_view source) { return StmtLexer(source).run(); }

std::string describe(const StmtToken& token) {
  switch (token.kind) {
    case StmtTokenKind::Newline:
      return "end of line";
    case StmtTokenKind::Indent:
      return "an indented block";
    case StmtTokenKind::Dedent:
      return "the end of a block";
    case StmtTokenKind::End:
      return "end of input";
    default:
      return "'" + std::string(token.text) + "'";
  }
}

}  // namespace eqsat
