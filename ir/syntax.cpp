// The syntax parser: Python's grammar for the spec's subset,
//
//   expr    := 'not' expr | expr infix expr | unary     (infix by Python precedence:
//              or < and < not < comparisons < | < ^ < & < << >> < + - < * / // %)
//   unary   := ('-' | '+' | '~') unary | primary
//   primary := literal | name | name '(' args ')' | '(' expr ')'
//
// with infix operators left-associative and comparisons chaining, parsed by
// precedence climbing over the op table's precedences.
#include "ir/syntax.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <charconv>
#include <limits>
#include <optional>

#include "ir/lexer.h"

namespace eqsat {

namespace {

// Nodes are mutable while the parser builds them (to mark a name's BOOL context).
using Node = std::shared_ptr<Syntax>;

// The calls of the language. cast and const take a dtype and have no Op of their own.
struct Function {
  std::string_view name;
  SyntaxKind kind;
  Op op;
  int arity;
};
constexpr std::array<Function, 9> kFunctions = {{
    {"min", SyntaxKind::Apply, Op::Min, 2},
    {"max", SyntaxKind::Apply, Op::Max, 2},
    {"abs", SyntaxKind::Apply, Op::Abs, 1},
    {"select", SyntaxKind::Apply, Op::Select, 3},
    {"where", SyntaxKind::Apply, Op::Select, 3},
    {"truncdiv", SyntaxKind::Apply, Op::TruncDiv, 2},
    {"truncmod", SyntaxKind::Apply, Op::TruncMod, 2},
    {"cast", SyntaxKind::Cast, Op::Cast, 2},
    {"const", SyntaxKind::Const, Op::Const, 2},
}};

const Function* find_function(std::string_view name) {
  if (name.substr(0, 3) == "pl.") name.remove_prefix(3);
  for (const Function& f : kFunctions) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

// Python keywords other than the ones the language uses: never a variable name.
constexpr std::array<std::string_view, 30> kReservedWords = {
    "None", "as",     "assert",   "async",   "await", "break",  "class",  "continue", "def",    "del",
    "elif", "else",   "except",   "finally", "for",   "from",   "global", "if",       "import", "in",
    "is",   "lambda", "nonlocal", "pass",    "raise", "return", "try",    "while",    "with",   "yield",
};

bool is_reserved(std::string_view name) {
  return name == "and" || name == "or" || name == "not" ||
         std::find(kReservedWords.begin(), kReservedWords.end(), name) != kReservedWords.end();
}

// The infix operation spelled by `token` (names too: `and`, `or`).
std::optional<Op> infix_op(const Token& token) {
  if (token.kind != TokenKind::Symbol && token.kind != TokenKind::Name) return std::nullopt;
  return infix_op_spelled(token.text);
}

// The decimal exponent of a float literal's leading significant digit ("0.05e3" -> 1):
// tells an underflow (negative) from an overflow when from_chars reports out of range.
long long decimal_exponent(std::string_view text) {
  const std::size_t e = text.find_first_of("eE");
  const std::string_view mantissa = text.substr(0, e);
  long long exponent = 0;
  if (e != std::string_view::npos) {
    std::string_view digits = text.substr(e + 1);
    const bool negative = !digits.empty() && digits[0] == '-';
    if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) digits.remove_prefix(1);
    for (char c : digits) exponent = std::min(exponent * 10 + (c - '0'), 1'000'000'000LL);
    if (negative) exponent = -exponent;
  }
  const std::size_t point = std::min(mantissa.find('.'), mantissa.size());
  const std::size_t first = mantissa.find_first_of("123456789");
  if (first == std::string_view::npos) return 0;
  const long long position = first < point ? (long long)(point - first) - 1 : -(long long)(first - point);
  return exponent + position;
}

class SyntaxParser {
 public:
  explicit SyntaxParser(std::vector<Token> tokens) : tokens_(std::move(tokens)) {}

  Result<SyntaxPtr> run() {
    if (peek().kind == TokenKind::End) return Error{"empty expression", 1};
    Node root = parse_expression();
    if (root && peek().kind != TokenKind::End) fail(trailing_message(peek()), peek().column);
    if (error_) return *error_;
    return SyntaxPtr(root);
  }

 private:
  const Token& peek(std::size_t ahead = 0) const { return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)]; }
  const Token& advance() {
    const Token& token = tokens_[pos_];
    if (pos_ + 1 < tokens_.size()) ++pos_;
    return token;
  }

  // Records the first error; every parse function returns nullptr after one.
  Node fail(std::string message, int column) {
    if (!error_) error_ = Error{std::move(message), column};
    return nullptr;
  }

  static std::string trailing_message(const Token& token) {
    if (token.is(")")) return "unmatched ')'";
    std::string message = "unexpected " + describe(token) + " after the end of the expression";
    if (token.is("if")) message += " (conditional expressions are not supported; use select)";
    return message;
  }

  // Counts nesting of parentheses, calls and prefix operators, which is what makes the
  // parser itself recurse.
  class Nesting {
   public:
    explicit Nesting(SyntaxParser& parser) : parser_(parser) { ++parser_.depth_; }
    ~Nesting() { --parser_.depth_; }
    bool too_deep() const { return parser_.depth_ > kMaxNesting; }

   private:
    SyntaxParser& parser_;
  };

  Node make(SyntaxKind kind, int column, std::string text) {
    auto node = std::make_shared<Syntax>();
    node->kind = kind;
    node->column = column;
    node->text = std::move(text);
    return node;
  }

  Node apply(Op op, const Token& at, std::vector<Node> args) {
    Node node = make(SyntaxKind::Apply, at.column, std::string(at.text));
    node->op = op;
    // and/or/not take only BOOL: tell the VarTyper about names standing there.
    if (op == Op::And || op == Op::Or || op == Op::Not) {
      for (const Node& arg : args) mark_bool_context(arg);
    }
    return attach(node, std::move(args));
  }

  static void mark_bool_context(const Node& node) {
    if (node->kind == SyntaxKind::Name) node->bool_context = true;
  }

  Node attach(Node node, std::vector<Node> args) {
    for (const Node& arg : args) node->height = std::max(node->height, arg->height + 1);
    node->args.assign(args.begin(), args.end());
    if (node->height > kMaxTreeHeight) return fail("expression nested too deeply", node->column);
    return node;
  }

  // A whole expression: the input, a call argument, or the inside of parentheses.
  Node parse_expression() {
    Nesting nesting(*this);
    if (nesting.too_deep()) return fail("expression nested too deeply", peek().column);
    return parse_binary(Prec::Or);
  }

  // Precedence climbing: an expression whose infix operators bind at least as tightly
  // as `min`. The right operand of a left-associative operator must bind tighter.
  // (One frame per operator nesting rather than one per precedence level keeps the
  // stack shallow for deeply parenthesised input.)
  Node parse_binary(Prec min) {
    // `not` binds looser than comparisons: `x + not p` is not Python.
    Node left = min <= Prec::Not && peek().is("not") ? parse_not() : parse_unary();
    while (left) {
      const std::optional<Op> op = infix_op(peek());
      if (!op || op_info(*op).prec < min) break;
      if (is_comparison(*op)) {
        left = parse_comparison_chain(left);
        continue;
      }
      const Token& at = advance();
      Node right = parse_binary(tighter(op_info(*op).prec));
      if (!right) return nullptr;
      left = apply(*op, at, {left, right});
    }
    return left;
  }

  Node parse_not() {
    Nesting nesting(*this);
    if (nesting.too_deep()) return fail("expression nested too deeply", peek().column);
    const Token& at = advance();
    Node operand = parse_binary(Prec::Not);
    if (!operand) return nullptr;
    return apply(Op::Not, at, {operand});
  }

  // `a < b < c` means `a < b and b < c`; the two comparisons share the node of b.
  Node parse_comparison_chain(Node first) {
    std::vector<Node> operands = {std::move(first)};
    std::vector<std::pair<Op, const Token*>> ops;
    for (std::optional<Op> op = infix_op(peek()); op && is_comparison(*op); op = infix_op(peek())) {
      ops.emplace_back(*op, &advance());
      operands.push_back(parse_binary(tighter(Prec::Compare)));
      if (!operands.back()) return nullptr;
    }
    Node chain;
    for (std::size_t i = 0; i < ops.size(); ++i) {
      const auto& [op, at] = ops[i];
      Node comparison = apply(op, *at, {operands[i], operands[i + 1]});
      if (!comparison) return nullptr;
      chain = i == 0 ? comparison : apply(Op::And, *at, {chain, comparison});
      if (!chain) return nullptr;
    }
    return chain;
  }

  Node parse_unary() {
    const Token& at = peek();
    if (!at.is("-") && !at.is("+") && !at.is("~")) return parse_primary();
    Nesting nesting(*this);
    if (nesting.too_deep()) return fail("expression nested too deeply", at.column);
    advance();
    // `-3` is the literal -3, not Neg(3): that is how -128 can be an INT8.
    const TokenKind next = peek().kind;
    if (at.is("-") && (next == TokenKind::Integer || next == TokenKind::Real)) {
      return literal(advance(), /*negative=*/true, at.column);
    }
    Node operand = parse_unary();
    if (!operand || at.is("+")) return operand;
    return apply(at.is("-") ? Op::Neg : Op::BitNot, at, {operand});
  }

  Node parse_primary() {
    const Token& token = peek();
    switch (token.kind) {
      case TokenKind::Integer:
      case TokenKind::Real:
        return literal(advance(), /*negative=*/false, token.column);
      case TokenKind::Name:
        return parse_name();
      case TokenKind::Symbol:
        if (token.is("(")) return parse_parenthesised();
        break;
      case TokenKind::End:
        break;
    }
    return fail("expected an expression but found " + describe(token), token.column);
  }

  Node parse_parenthesised() {
    advance();  // '('
    Node inner = parse_expression();
    if (!inner || !expect(")")) return nullptr;
    return inner;
  }

  bool expect(std::string_view symbol) {
    if (peek().is(symbol)) {
      advance();
      return true;
    }
    fail("expected '" + std::string(symbol) + "' but found " + describe(peek()), peek().column);
    return false;
  }

  Node parse_name() {
    const Token& token = peek();
    if (peek(1).is("(")) return parse_call();
    if (is_reserved(token.text)) {
      return fail("expected an expression but found " + describe(token), token.column);
    }
    advance();
    if (token.text == "True" || token.text == "False") {
      Node node = make(SyntaxKind::BoolLit, token.column, std::string(token.text));
      node->bool_value = token.text == "True";
      return node;
    }
    return make(SyntaxKind::Name, token.column, std::string(token.text));
  }

  // A literal token, with the minus sign written directly before it when `negative`.
  Node literal(const Token& token, bool negative, int column) {
    const std::string text = (negative ? "-" : "") + std::string(token.text);
    if (token.kind == TokenKind::Integer) {
      std::optional<Int> value = int_value(token.text, negative);
      if (!value) return fail("integer literal " + text + " is too large", column);
      Node node = make(SyntaxKind::IntLit, column, text);
      node->int_value = *value;
      return node;
    }
    const std::optional<double> value = float_value(token.text);
    if (!value) return fail("float literal " + text + " is out of range", column);
    Node node = make(SyntaxKind::FloatLit, column, text);
    node->float_value = negative ? -*value : *value;
    return node;
  }

  static std::optional<Int> int_value(std::string_view digits, bool negative) {
    if (digits.size() > 2 && (digits[1] == 'x' || digits[1] == 'X')) {
      Int value = 0;
      for (char c : digits.substr(2)) {
        const int digit = c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
        auto next = checked_mul(value, 16);
        if (next) next = negative ? checked_sub(*next, digit) : checked_add(*next, digit);
        if (!next) return std::nullopt;
        value = *next;
      }
      return value;
    }
    return parse_int((negative ? "-" : "") + std::string(digits));
  }

  // Nearest double; a literal too small for a double is 0.0, as in Python, one too
  // large is an error (Python would make it inf, which we spell `const(inf, FP64)`).
  static std::optional<double> float_value(std::string_view text) {
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    // The lexer only makes tokens that from_chars reads in full.
    assert(end == text.data() + text.size() && "float token not read in full");
    if (ec == std::errc::result_out_of_range) {
      if (decimal_exponent(text) < 0) return 0.0;
      return std::nullopt;
    }
    return value;
  }

  // name '(' args ')', for the functions of the language.
  Node parse_call() {
    const Token& name = advance();
    const Function* function = find_function(name.text);
    if (!function) return fail("unknown function '" + std::string(name.text) + "'", name.column);
    advance();  // '(': each argument is an expression, which counts the nesting
    std::vector<Node> args;
    if (!peek().is(")")) {
      while (true) {
        Node arg = parse_expression();
        if (!arg) return nullptr;
        args.push_back(arg);
        if (!peek().is(",")) break;
        advance();
      }
    }
    if (!peek().is(")")) {
      return fail("expected ',' or ')' but found " + describe(peek()), peek().column);
    }
    advance();
    if (int(args.size()) != function->arity) {
      return fail("'" + std::string(function->name) + "' takes " + std::to_string(function->arity) + " argument" +
                      (function->arity == 1 ? "" : "s") + " but got " + std::to_string(args.size()),
                  name.column);
    }
    switch (function->kind) {
      case SyntaxKind::Cast:
      case SyntaxKind::Const:
        return typed_call(*function, name, std::move(args));
      default:
        break;
    }
    if (function->op == Op::Select) mark_bool_context(args[0]);
    Node node = make(SyntaxKind::Apply, name.column, std::string(function->name));
    node->op = function->op;
    return attach(node, std::move(args));
  }

  // cast(a, DTYPE) and const(literal, DTYPE).
  Node typed_call(const Function& function, const Token& name, std::vector<Node> args) {
    const Node& dtype_arg = args[1];
    std::optional<DType> dtype;
    if (dtype_arg->kind == SyntaxKind::Name) dtype = parse_dtype(dtype_arg->text);
    if (!dtype) {
      if (dtype_arg->kind == SyntaxKind::Name) {
        return fail("unknown dtype '" + dtype_arg->text + "'", dtype_arg->column);
      }
      return fail("the second argument of '" + std::string(function.name) + "' must be a dtype", dtype_arg->column);
    }
    if (function.kind == SyntaxKind::Const) {
      args[0] = const_literal(args[0]);
      if (!args[0]) return nullptr;
    }
    Node node = make(function.kind, name.column, std::string(function.name));
    node->dtype = *dtype;
    return attach(node, {args[0]});
  }

  // The value of const(v, DTYPE): a literal, or inf / -inf / nan (which have no literal
  // syntax in Python but are float values the printer must be able to write).
  Node const_literal(const Node& arg) {
    switch (arg->kind) {
      case SyntaxKind::IntLit:
      case SyntaxKind::FloatLit:
      case SyntaxKind::BoolLit:
        return arg;
      default:
        break;
    }
    const bool negated = arg->kind == SyntaxKind::Apply && arg->op == Op::Neg;
    const Syntax& name = negated ? *arg->args[0] : *arg;
    if (name.kind == SyntaxKind::Name && (name.text == "inf" || (name.text == "nan" && !negated))) {
      Node node = make(SyntaxKind::FloatLit, arg->column, (negated ? "-" : "") + name.text);
      const double value =
          name.text == "inf" ? std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
      node->float_value = negated ? -value : value;
      return node;
    }
    return fail(
        "the first argument of 'const' must be a literal (a number, True, False, inf, -inf or "
        "nan)",
        arg->column);
  }

  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
  int depth_ = 0;
  std::optional<Error> error_;
};

}  // namespace

Result<SyntaxPtr> parse_syntax(std::string_view text) {
  Result<std::vector<Token>> tokens = tokenize(text);
  if (!tokens) return tokens.error();
  return SyntaxParser(std::move(tokens).value()).run();
}

}  // namespace eqsat
