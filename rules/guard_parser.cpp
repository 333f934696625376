#include "rules/guard_parser.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>

namespace eqsat {

namespace {

struct GuardToken {
  enum class Kind : uint8_t { End, Number, Name, Symbol };
  Kind kind = Kind::End;
  std::string_view text;
  int column = 0;  // 1-based
};

// Symbols of the guard language, longest first so that "<=" wins over "<".
constexpr std::string_view kSymbols[] = {"//", "==", "!=", "<=", ">=", "<", ">", "+",
                                         "-",  "*",  "%",  "&",  "(",  ")", ","};

Result<std::vector<GuardToken>> tokenize_guard(std::string_view text) {
  std::vector<GuardToken> tokens;
  std::size_t i = 0;
  while (i < text.size()) {
    const char ch = text[i];
    const int column = static_cast<int>(i) + 1;
    if (std::isspace(static_cast<unsigned char>(ch))) {
      ++i;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(ch))) {
      std::size_t end = i;
      while (end < text.size() && std::isalnum(static_cast<unsigned char>(text[end]))) ++end;
      tokens.push_back({GuardToken::Kind::Number, text.substr(i, end - i), column});
      i = end;
      continue;
    }
    if (std::isalpha(static_cast<unsigned char>(ch)) || ch == '_') {
      std::size_t end = i;
      while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) ++end;
      tokens.push_back({GuardToken::Kind::Name, text.substr(i, end - i), column});
      i = end;
      continue;
    }
    bool matched = false;
    for (std::string_view symbol : kSymbols) {
      if (text.substr(i, symbol.size()) == symbol) {
        tokens.push_back({GuardToken::Kind::Symbol, text.substr(i, symbol.size()), column});
        i += symbol.size();
        matched = true;
        break;
      }
    }
    if (matched) continue;
    if (ch == '/') return Error{"a guard divides with '//' (floor division)", column};
    return Error{std::string("unexpected character '") + ch + "' in the guard", column};
  }
  tokens.push_back({GuardToken::Kind::End, {}, static_cast<int>(text.size()) + 1});
  return tokens;
}

std::string describe_token(const GuardToken& token) {
  if (token.kind == GuardToken::Kind::End) return "end of the guard";
  return "'" + std::string(token.text) + "'";
}

// A parsed sub-expression: its node and whether it is a truth value or a number.
struct Operand {
  uint32_t node = 0;
  bool truth = false;
};

std::optional<Op> comparison_op(std::string_view text) {
  if (text == "==") return Op::Eq;
  if (text == "!=") return Op::Ne;
  if (text == "<") return Op::Lt;
  if (text == "<=") return Op::Le;
  if (text == ">") return Op::Gt;
  if (text == ">=") return Op::Ge;
  return std::nullopt;
}

class GuardParser {
 public:
  GuardParser(std::vector<GuardToken> tokens, const std::vector<PatternVar>& vars)
      : tokens_(std::move(tokens)), vars_(vars) {}

  Result<Guard> run(std::string_view text) {
    std::optional<Operand> root = parse_or();
    if (root && peek().kind != GuardToken::Kind::End) {
      fail("unexpected " + describe_token(peek()) + " after the end of the guard", peek().column);
    }
    if (root && !root->truth) fail("a guard must be a condition (a comparison, and, or, not)", 1);
    if (error_) return *error_;
    guard_.root = root->node;
    guard_.text = std::string(text);
    return std::move(guard_);
  }

 private:
  const GuardToken& peek() const { return tokens_[pos_]; }
  const GuardToken& advance() {
    const GuardToken& token = tokens_[pos_];
    if (pos_ + 1 < tokens_.size()) ++pos_;
    return token;
  }
  bool at(std::string_view text) const {
    return peek().kind != GuardToken::Kind::End && peek().kind != GuardToken::Kind::Number && peek().text == text;
  }

  std::optional<Operand> fail(std::string message, int column) {
    if (!error_) error_ = Error{std::move(message), column};
    return std::nullopt;
  }

  bool expect(std::string_view symbol) {
    if (at(symbol)) {
      advance();
      return true;
    }
    fail("expected '" + std::string(symbol) + "', found " + describe_token(peek()), peek().column);
    return false;
  }

  uint32_t add(GuardNode node) {
    guard_.nodes.push_back(std::move(node));
    return static_cast<uint32_t>(guard_.nodes.size() - 1);
  }

  uint32_t apply(Op op, std::initializer_list<uint32_t> children) {
    GuardNode node;
    node.kind = GuardNode::Kind::Apply;
    node.op = op;
    for (uint32_t child : children) node.children.push_back(child);
    return add(std::move(node));
  }

  // Operands of `what` must be numbers (want_truth false) or truth values.
  bool check_kind(const Operand& operand, bool want_truth, std::string_view what, int column) {
    if (operand.truth == want_truth) return true;
    fail(want_truth ? "'" + std::string(what) + "' needs a condition, not a number"
                    : "'" + std::string(what) + "' needs a number, not a condition",
         column);
    return false;
  }

  std::optional<Operand> parse_or() {
    std::optional<Operand> left = parse_and();
    while (left && at("or")) {
      const int column = advance().column;
      std::optional<Operand> right = parse_and();
      if (!right) return std::nullopt;
      if (!check_kind(*left, true, "or", column) || !check_kind(*right, true, "or", column)) return std::nullopt;
      left = Operand{apply(Op::Or, {left->node, right->node}), true};
    }
    return left;
  }

  std::optional<Operand> parse_and() {
    std::optional<Operand> left = parse_not();
    while (left && at("and")) {
      const int column = advance().column;
      std::optional<Operand> right = parse_not();
      if (!right) return std::nullopt;
      if (!check_kind(*left, true, "and", column) || !check_kind(*right, true, "and", column)) return std::nullopt;
      left = Operand{apply(Op::And, {left->node, right->node}), true};
    }
    return left;
  }

  std::optional<Operand> parse_not() {
    if (at("not")) {
      const int column = advance().column;
      std::optional<Operand> operand = parse_not();
      if (!operand || !check_kind(*operand, true, "not", column)) return std::nullopt;
      return Operand{apply(Op::Not, {operand->node}), true};
    }
    return parse_comparison();
  }

  std::optional<Operand> parse_comparison() {
    std::optional<Operand> left = parse_bitand();
    std::optional<Operand> chain;  // the conjunction of the comparisons so far
    while (left && peek().kind == GuardToken::Kind::Symbol && comparison_op(peek().text)) {
      const GuardToken& token = advance();
      const Op op = *comparison_op(token.text);
      std::optional<Operand> right = parse_bitand();
      if (!right) return std::nullopt;
      if (!check_kind(*left, false, token.text, token.column) || !check_kind(*right, false, token.text, token.column)) {
        return std::nullopt;
      }
      Operand compared{apply(op, {left->node, right->node}), true};
      chain = chain ? Operand{apply(Op::And, {chain->node, compared.node}), true} : compared;
      left = right;  // `a < b < c`: b is shared by both comparisons
    }
    return chain ? chain : left;
  }

  // A left-associative level of binary number operators.
  template <class Next>
  std::optional<Operand> parse_binary(Next next, std::initializer_list<std::pair<std::string_view, Op>> ops) {
    std::optional<Operand> left = (this->*next)();
    for (;;) {
      if (!left || peek().kind != GuardToken::Kind::Symbol) return left;
      auto it = std::find_if(ops.begin(), ops.end(), [&](const auto& entry) { return entry.first == peek().text; });
      if (it == ops.end()) return left;
      const GuardToken& token = advance();
      std::optional<Operand> right = (this->*next)();
      if (!right) return std::nullopt;
      if (!check_kind(*left, false, token.text, token.column) || !check_kind(*right, false, token.text, token.column)) {
        return std::nullopt;
      }
      left = Operand{apply(it->second, {left->node, right->node}), false};
    }
  }

  std::optional<Operand> parse_bitand() { return parse_binary(&GuardParser::parse_sum, {{"&", Op::BitAnd}}); }
  std::optional<Operand> parse_sum() {
    return parse_binary(&GuardParser::parse_product, {{"+", Op::Add}, {"-", Op::Sub}});
  }
  std::optional<Operand> parse_product() {
    return parse_binary(&GuardParser::parse_unary, {{"*", Op::Mul}, {"//", Op::FloorDiv}, {"%", Op::FloorMod}});
  }

  std::optional<Operand> parse_unary() {
    if (at("-")) {
      const GuardToken& token = advance();
      // A minus written before a literal is part of it (as in the expression syntax).
      if (peek().kind == GuardToken::Kind::Number) return parse_number(true);
      std::optional<Operand> operand = parse_unary();
      if (!operand || !check_kind(*operand, false, "-", token.column)) return std::nullopt;
      return Operand{apply(Op::Neg, {operand->node}), false};
    }
    return parse_primary();
  }

  std::optional<Operand> parse_number(bool negative) {
    const GuardToken& token = advance();
    std::optional<Int> value = parse_int(token.text);
    if (!value || *value > (Int(1) << 100)) {
      return fail("invalid integer literal '" + std::string(token.text) + "'", token.column);
    }
    GuardNode node;
    node.kind = GuardNode::Kind::Literal;
    node.literal = negative ? -*value : *value;
    return Operand{add(std::move(node)), false};
  }

  std::optional<uint32_t> variable(const GuardToken& token) {
    for (std::size_t i = 0; i < vars_.size(); ++i) {
      if (vars_[i].name == token.text) return static_cast<uint32_t>(i);
    }
    fail("the guard uses '" + std::string(token.text) + "', which the left side does not bind", token.column);
    return std::nullopt;
  }

  std::optional<Operand> parse_primary() {
    const GuardToken& token = peek();
    switch (token.kind) {
      case GuardToken::Kind::End:
        return fail("expected a value, found the end of the guard", token.column);
      case GuardToken::Kind::Number:
        return parse_number(false);
      case GuardToken::Kind::Symbol:
        if (token.text == "(") {
          advance();
          std::optional<Operand> inner = parse_or();
          if (!inner || !expect(")")) return std::nullopt;
          return inner;
        }
        return fail("expected a value, found " + describe_token(token), token.column);
      case GuardToken::Kind::Name:
        break;
    }
    const GuardToken name = advance();
    if (name.text == "is_const" || name.text == "total") {
      if (!expect("(")) return std::nullopt;
      if (peek().kind != GuardToken::Kind::Name) {
        return fail("'" + std::string(name.text) + "' takes a pattern variable", peek().column);
      }
      std::optional<uint32_t> var = variable(advance());
      if (!var || !expect(")")) return std::nullopt;
      GuardNode node;
      node.kind = name.text == "total" ? GuardNode::Kind::Total : GuardNode::Kind::IsConst;
      node.var = *var;
      return Operand{add(std::move(node)), true};
    }
    if (name.text == "lower" || name.text == "upper" || name.text == "modulus" || name.text == "remainder") {
      if (!expect("(")) return std::nullopt;
      if (peek().kind != GuardToken::Kind::Name) {
        return fail("'" + std::string(name.text) + "' takes a pattern variable", peek().column);
      }
      std::optional<uint32_t> var = variable(advance());
      if (!var || !expect(")")) return std::nullopt;
      GuardNode node;
      node.kind = name.text == "lower"     ? GuardNode::Kind::Lower
                  : name.text == "upper"   ? GuardNode::Kind::Upper
                  : name.text == "modulus" ? GuardNode::Kind::Modulus
                                           : GuardNode::Kind::Remainder;
      node.var = *var;
      return Operand{add(std::move(node)), false};
    }
    if (name.text == "min" || name.text == "max" || name.text == "abs") {
      const int arity = name.text == "abs" ? 1 : 2;
      if (!expect("(")) return std::nullopt;
      std::vector<uint32_t> args;
      for (int i = 0; i < arity; ++i) {
        if (i > 0 && !expect(",")) return std::nullopt;
        std::optional<Operand> arg = parse_or();
        if (!arg || !check_kind(*arg, false, name.text, name.column)) return std::nullopt;
        args.push_back(arg->node);
      }
      if (!expect(")")) return std::nullopt;
      const Op op = name.text == "abs" ? Op::Abs : name.text == "min" ? Op::Min : Op::Max;
      GuardNode node;
      node.kind = GuardNode::Kind::Apply;
      node.op = op;
      for (uint32_t arg : args) node.children.push_back(arg);
      return Operand{add(std::move(node)), false};
    }
    if (name.text == "and" || name.text == "or" || name.text == "not") {
      return fail("expected a value, found '" + std::string(name.text) + "'", name.column);
    }
    if (name.text == "True" || name.text == "False") {
      return fail("a guard has no True/False literals; write the condition itself", name.column);
    }
    if (at("(")) return fail("unknown guard function '" + std::string(name.text) + "'", name.column);
    std::optional<uint32_t> var = variable(name);
    if (!var) return std::nullopt;
    if (!vars_[*var].const_only) {
      return fail("'" + std::string(name.text) +
                      "' is not a constant-only variable (c, c0, c1, ...): its value is unknown, use "
                      "lower(" +
                      std::string(name.text) + ")/upper(" + std::string(name.text) + ")",
                  name.column);
    }
    GuardNode node;
    node.kind = GuardNode::Kind::ValueOf;
    node.var = *var;
    return Operand{add(std::move(node)), false};
  }

  std::vector<GuardToken> tokens_;
  std::size_t pos_ = 0;
  const std::vector<PatternVar>& vars_;
  Guard guard_;
  std::optional<Error> error_;
};

}  // namespace

Result<Guard> parse_guard(std::string_view text, const std::vector<PatternVar>& vars) {
  Result<std::vector<GuardToken>> tokens = tokenize_guard(text);
  if (!tokens) return tokens.error();
  if (tokens->size() == 1) return Error{"empty guard", 1};
  return GuardParser(std::move(tokens).value(), vars).run(text);
}

}  // namespace eqsat
