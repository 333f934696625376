// The statement parser: recursive descent over the layout tokens of ir/stmt_lexer.h.
//
// Values are parsed by precedence climbing into "pieces". A piece that is plain
// arithmetic (typed names, literals, the expression language's functions) is kept as a
// span of source text and handed whole to the expression parser (ir/parse.h) when it
// meets something that is not arithmetic (a call, a list) or ends; so every Arith leaf
// means exactly what the same text means to `eqsat simplify-expr`.
#include "ir/stmt_parse.h"

#include <algorithm>
#include <array>
#include <map>

#include "ir/parse.h"
#include "ir/stmt_lexer.h"

namespace eqsat {

namespace {

std::string_view without_pl(std::string_view name) {
  if (name.substr(0, 3) == "pl.") name.remove_prefix(3);
  return name;
}

// The functions of the expression language (ir/syntax.cpp): a call to one of them with
// arithmetic arguments is arithmetic.
bool is_expression_function(std::string_view name) {
  static constexpr std::array<std::string_view, 9> kNames = {"min",      "max",      "abs",  "select", "where",
                                                             "truncdiv", "truncmod", "cast", "const"};
  name = without_pl(name);
  return std::find(kNames.begin(), kNames.end(), name) != kNames.end();
}

bool is_reserved(std::string_view name) {
  static constexpr std::array<std::string_view, 33> kWords = {
      "None",     "as",     "assert",  "async",  "await", "break",  "class", "continue", "def", "del", "elif",
      "else",     "except", "finally", "for",    "from",  "global", "if",    "import",   "in",  "is",  "lambda",
      "nonlocal", "pass",   "raise",   "return", "try",   "while",  "with",  "yield",    "and", "or",  "not"};
  return std::find(kWords.begin(), kWords.end(), name) != kWords.end();
}

// The infix operation spelled by `token` (names too: `and`, `or`).
std::optional<Op> infix_op(const StmtToken& token) {
  if (token.kind != StmtTokenKind::Symbol && token.kind != StmtTokenKind::Name) return std::nullopt;
  return infix_op_spelled(token.text);
}

// A value being parsed: arithmetic text not yet typed (`pure`), or a built Term.
struct Piece {
  bool pure = false;
  std::size_t begin = 0, end = 0;  // pure: the source span
  Term term;                       // not pure
  int line = 0, column = 0;        // where it starts, for messages
};

// What the parser knows about a name: its type, or nothing (an opaque call result).
using Env = std::map<std::string, std::optional<Type>, std::less<>>;

class StmtParser {
 public:
  StmtParser(std::string_view source, std::vector<StmtToken> tokens) : src_(source), tokens_(std::move(tokens)) {
    line_starts_.push_back(0);
    for (std::size_t i = 0; i < src_.size(); ++i) {
      if (src_[i] == '\n') line_starts_.push_back(i + 1);
    }
  }

  Result<Program> run() {
    Program program;
    skip_newlines();
    if (peek().is("def") || peek().is("@")) {
      while (!error_ && peek().kind != StmtTokenKind::End) {
        // @fast_math is the IR's own (Function::fast_math); other decorators are kept for
        // the passes that read them (@costs: passes/function_costs.h).
        std::vector<Decorator> decorators;
        FastMath fast_math;
        while (!error_ && peek().is("@")) {
          if (peek(1).kind == StmtTokenKind::Name && without_pl(peek(1).text) == "fast_math") {
            parse_fast_math_decorator(fast_math);
          } else {
            decorators.push_back(parse_decorator());
          }
        }
        if (error_) break;
        if (!peek().is("def")) {
          fail_at(peek(), decorators.empty() && fast_math.none()
                              ? "expected 'def': a file with functions holds only functions"
                              : "expected 'def' after a decorator but found " + describe(peek()));
          break;
        }
        program.functions.push_back(parse_function());
        program.functions.back().decorators = std::move(decorators);
        program.functions.back().fast_math = fast_math;
        skip_newlines();
      }
    } else {
      Function fragment;
      env_.clear();
      while (!error_ && peek().kind != StmtTokenKind::End) {
        if (peek().is("def") || peek().is("@")) {
          fail_at(peek(), "a 'def' after top-level statements: write either functions or one fragment");
          break;
        }
        fragment.body.push_back(parse_statement());
        skip_newlines();
      }
      if (!error_) {
        if (auto e = check_yields(fragment.body, false)) fail(*e);
      }
      program.functions.push_back(std::move(fragment));
    }
    if (error_) return *error_;
    return program;
  }

 private:
  // ---- tokens and errors ----
  const StmtToken& peek(std::size_t ahead = 0) const { return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)]; }
  const StmtToken& advance() {
    const StmtToken& t = tokens_[pos_];
    if (pos_ + 1 < tokens_.size()) ++pos_;
    return t;
  }
  void skip_newlines() {
    while (peek().kind == StmtTokenKind::Newline) advance();
  }
  void fail(Error e) {
    if (!error_) error_ = std::move(e);
  }
  void fail_at(const StmtToken& t, std::string message) { fail(Error{std::move(message), t.column, t.line}); }
  bool expect(std::string_view symbol) {
    if (peek().is(symbol)) {
      advance();
      return true;
    }
    fail_at(peek(), "expected '" + std::string(symbol) + "' but found " + describe(peek()));
    return false;
  }
  bool expect_newline() {
    if (peek().kind == StmtTokenKind::Newline || peek().kind == StmtTokenKind::End) {
      if (peek().kind == StmtTokenKind::Newline) advance();
      return true;
    }
    fail_at(peek(), "expected the end of the line but found " + describe(peek()));
    return false;
  }
  std::string expect_name(const char* what) {
    const StmtToken& t = peek();
    if (t.kind != StmtTokenKind::Name || is_reserved(t.text) || t.text.find('.') != std::string_view::npos) {
      fail_at(t, std::string("expected ") + what + " but found " + describe(t));
      return "";
    }
    advance();
    return std::string(t.text);
  }
  // (line, column) of a source offset.
  std::pair<int, int> position(std::size_t offset) const {
    auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
    const std::size_t line = std::size_t(it - line_starts_.begin());
    return {int(line), int(offset - line_starts_[line - 1]) + 1};
  }

  // ---- functions and blocks ----
  // `@fast_math(nsz, nnan)` on its own line before a `def` (ir/stmt.h); `pl.` allowed.
  void parse_fast_math_decorator(FastMath& fast_math) {
    advance();  // @
    advance();  // fast_math
    if (!expect("(")) return;
    while (!error_ && !peek().is(")")) {
      const StmtToken& flag = peek();
      Result<FastMath> parsed = parse_fast_math(flag.kind == StmtTokenKind::Name ? flag.text : std::string_view("?"));
      if (flag.kind != StmtTokenKind::Name || !parsed) {
        fail_at(flag, "expected a fast-math flag (nsz, nnan, ninf, reassoc or all) but found " + describe(flag));
        return;
      }
      fast_math |= *parsed;
      advance();
      if (!peek().is(",")) break;
      advance();
    }
    if (!expect(")")) return;
    expect_newline();
    skip_newlines();
  }

  // '@' name ['(' [arg (',' arg)*] ')'] NEWLINE, arg: STRING | name '=' (NUMBER | name | STRING)
  Decorator parse_decorator() {
    Decorator d;
    d.line = peek().line;
    d.column = peek().column;
    advance();  // @
    d.name = std::string(without_pl(expect_name("a decorator name")));
    if (error_) return d;
    if (peek().is("(")) {
      advance();
      while (!error_ && !peek().is(")")) {
        DecoratorArg arg;
        arg.line = peek().line;
        arg.column = peek().column;
        if (peek().kind == StmtTokenKind::Name && peek(1).is("=")) {
          arg.key = std::string(advance().text);
          advance();  // =
        }
        const StmtToken& value = peek();
        if (value.kind == StmtTokenKind::String) {
          arg.value = std::string(value.text.substr(1, value.text.size() - 2));
          arg.is_string = true;
        } else if ((value.kind == StmtTokenKind::Number || value.kind == StmtTokenKind::Name) && !arg.key.empty()) {
          arg.value = std::string(value.text);
        } else {
          fail_at(value, std::string("expected ") + (arg.key.empty() ? "a string or key=value" : "a value") +
                             " in the decorator's arguments but found " + describe(value));
          return d;
        }
        advance();
        d.args.push_back(std::move(arg));
        if (!peek().is(",")) break;
        advance();
      }
      if (!expect(")")) return d;
    }
    expect_newline();
    skip_newlines();
    return d;
  }

  Function parse_function() {
    Function f;
    env_.clear();
    advance();  // def
    f.name = expect_name("a function name");
    if (error_ || !expect("(")) return f;
    while (!error_ && !peek().is(")")) {
      Param p;
      p.name = expect_name("a parameter name");
      if (error_ || !expect(":")) return f;
      p.type = parse_type();
      env_[p.name] = p.type;
      f.params.push_back(std::move(p));
      if (!peek().is(",")) break;
      advance();
    }
    if (error_ || !expect(")")) return f;
    if (peek().is("->")) {
      advance();
      f.result = parse_type();
    }
    if (error_ || !expect(":")) return f;
    f.body = parse_block();
    if (!error_) {
      if (auto e = check_yields(f.body, false)) fail(*e);
    }
    return f;
  }

  // NEWLINE INDENT statement+ DEDENT
  Block parse_block() {
    Block block;
    if (!expect_newline()) return block;
    skip_newlines();
    if (peek().kind != StmtTokenKind::Indent) {
      fail_at(peek(), "expected an indented block");
      return block;
    }
    advance();
    while (!error_ && peek().kind != StmtTokenKind::Dedent && peek().kind != StmtTokenKind::End) {
      block.push_back(parse_statement());
      skip_newlines();
    }
    if (peek().kind == StmtTokenKind::Dedent) advance();
    // A lone `pass` is how an empty body is written.
    if (block.size() == 1 && block[0].kind == StmtKind::Pass) block.clear();
    return block;
  }

  // Yields stand only at the end of a loop body or an if arm (`in_region`), and the
  // targets written at them belong to the loop or the if.
  std::optional<Error> check_yields(const Block& block, bool in_region) {
    for (std::size_t i = 0; i < block.size(); ++i) {
      const Stmt& s = block[i];
      if (s.kind == StmtKind::Yield && (!in_region || i + 1 != block.size())) {
        return Error{"a yield must be the last statement of a loop body or an if arm", 1, s.line};
      }
    }
    return std::nullopt;
  }

  // Moves the targets of a body's trailing `r = yield_(...)` to the statement.
  std::vector<std::string> take_yield_targets(Block& body) {
    if (body.empty() || body.back().kind != StmtKind::Yield) return {};
    return std::exchange(body.back().targets, {});
  }

  Stmt parse_statement() {
    const StmtToken& t = peek();
    if (t.is("for")) return parse_for();
    if (t.is("while")) return parse_while();
    if (t.is("if")) return parse_if();
    if (t.is("with")) return parse_scope();
    Stmt s;
    if (t.kind == StmtTokenKind::Indent) {
      fail_at(t, "unexpected indentation");
      return s;
    }
    s.line = t.line;
    if (t.is("pass")) {
      advance();
      s.kind = StmtKind::Pass;
      expect_newline();
      return s;
    }
    if (t.is("return")) {
      advance();
      s.kind = StmtKind::Return;
      if (peek().kind != StmtTokenKind::Newline && peek().kind != StmtTokenKind::End) s.values = parse_term_list();
      expect_newline();
      return s;
    }
    if (t.kind == StmtTokenKind::Name && !is_reserved(t.text) && is_assignment_ahead()) return parse_assign();
    if (t.kind == StmtTokenKind::Name && is_reserved(t.text)) {
      fail_at(t, "unexpected '" + std::string(t.text) + "'");
      return s;
    }
    Piece piece = parse_term();
    if (error_) return s;
    if (piece.pure || piece.term.kind != TermKind::Call) {
      fail(Error{"a statement must be an assignment, a call or a control-flow statement", t.column, t.line});
      return s;
    }
    if (without_pl(piece.term.name) == "yield_") {
      s.kind = StmtKind::Yield;
      s.values = yield_values(piece.term);
    } else {
      s.kind = StmtKind::Eval;
      s.value = std::move(piece.term);
    }
    expect_newline();
    return s;
  }

  std::vector<Term> yield_values(const Term& call) {
    if (!call.kwargs.empty()) fail_at(peek(), "yield_ takes no keyword arguments");
    return call.args;
  }

  // NAME (',' NAME)* ('=' | ':')
  bool is_assignment_ahead() const {
    std::size_t i = 0;
    while (true) {
      if (peek(i).kind != StmtTokenKind::Name) return false;
      ++i;
      if (peek(i).is("=") || peek(i).is(":")) return true;
      if (!peek(i).is(",")) return false;
      ++i;
    }
  }

  Stmt parse_assign() {
    Stmt s;
    s.kind = StmtKind::Assign;
    s.line = peek().line;
    const StmtToken first = peek();
    while (true) {
      s.targets.push_back(expect_name("a variable name"));
      if (error_) return s;
      if (!peek().is(",")) break;
      advance();
    }
    if (peek().is(":")) {
      if (s.targets.size() != 1) {
        fail_at(peek(), "only a single target may have a type annotation");
        return s;
      }
      advance();
      s.annotation = parse_type();
    }
    if (error_ || !expect("=")) return s;
    const StmtToken& value_token = peek();
    Piece value = parse_term();
    if (error_) return s;
    if (!value.pure && value.term.kind == TermKind::Call && without_pl(value.term.name) == "yield_") {
      s.kind = StmtKind::Yield;
      if (s.annotation) fail(Error{"a yield's targets take no annotation", first.column, first.line});
      s.values = yield_values(value.term);
      expect_newline();
      return s;
    }
    std::optional<DType> hint;
    if (s.annotation && s.annotation->kind != TypeKind::Tuple) hint = s.annotation->dtype;
    s.value = to_term(value, hint);
    if (error_) return s;
    if (s.annotation && s.value.is_arith() && s.annotation->kind != TypeKind::Tuple &&
        s.value.expr.dtype() != s.annotation->dtype) {
      fail(Error{"the value has dtype " + std::string(dtype_name(s.value.expr.dtype())) + " but '" + s.targets[0] +
                     "' is declared " + std::string(dtype_name(s.annotation->dtype)),
                 value_token.column, value_token.line});
      return s;
    }
    if (s.targets.size() == 1) {
      env_[s.targets[0]] = s.annotation ? std::optional<Type>(*s.annotation) : term_type(s.value);
    } else {
      for (std::size_t i = 0; i < s.targets.size(); ++i) {
        std::optional<Type> type;
        if (s.value.kind == TermKind::Tuple && s.value.args.size() == s.targets.size())
          type = term_type(s.value.args[i]);
        env_[s.targets[i]] = type;
      }
    }
    expect_newline();
    return s;
  }

  // for i in range(...):  for i, (a, b) in range(..., init_values=(x, y)):
  // for (a, b) in while_(cond, init_values=(x, y)):
  Stmt parse_for() {
    Stmt s;
    s.line = peek().line;
    advance();  // for
    std::string loop_var;
    std::vector<std::string> carried;
    bool has_carried = false;
    if (peek().kind == StmtTokenKind::Name) {
      loop_var = expect_name("a loop variable");
      if (peek().is(",")) {
        advance();
        has_carried = true;
        carried = parse_name_tuple();
      }
    } else if (peek().is("(")) {
      has_carried = true;
      carried = parse_name_tuple();
    } else {
      fail_at(peek(), "expected a loop variable but found " + describe(peek()));
    }
    if (error_ || !expect("in")) return s;
    const StmtToken iter = peek();
    const std::string_view kind = without_pl(iter.text);
    if (iter.kind != StmtTokenKind::Name || !peek(1).is("(")) {
      fail_at(iter, "expected range(...), parallel(...), unroll(...), pipeline(...) or while_(...)");
      return s;
    }
    if (kind == "while_") return parse_carried_while(std::move(s), loop_var, carried, iter);
    if (kind == "range")
      s.loop_kind = LoopKind::Sequential;
    else if (kind == "parallel")
      s.loop_kind = LoopKind::Parallel;
    else if (kind == "unroll")
      s.loop_kind = LoopKind::Unroll;
    else if (kind == "pipeline")
      s.loop_kind = LoopKind::Pipeline;
    else {
      fail_at(iter,
              "unknown loop '" + std::string(iter.text) + "': expected range, parallel, unroll, pipeline or while_");
      return s;
    }
    if (loop_var.empty()) {
      fail_at(iter,
              "a " + std::string(kind) + " loop needs a loop variable: for i, (...) in " + std::string(kind) + "(...)");
      return s;
    }
    s.kind = StmtKind::For;
    s.loop_var = loop_var;
    advance();
    advance();  // name (
    std::vector<Piece> positional;
    std::vector<std::pair<std::string, Piece>> keywords;
    parse_arguments(positional, keywords);
    if (error_) return s;
    if (positional.empty() || positional.size() > 3) {
      fail_at(iter, std::string(kind) + " takes 1 to 3 positional arguments (start, stop, step)");
      return s;
    }
    std::vector<Expr> bounds;
    for (const Piece& p : positional) bounds.push_back(to_index(p, "a loop bound"));
    if (error_) return s;
    if (bounds.size() == 1) bounds.insert(bounds.begin(), Expr::constant(Value::integer(DType::Index, 0)));
    if (bounds.size() == 2) bounds.push_back(Expr::constant(Value::integer(DType::Index, 1)));
    s.start = bounds[0];
    s.stop = bounds[1];
    s.step = bounds[2];
    std::vector<Term> inits = split_keywords(keywords, s.attrs);
    if (error_) return s;
    if (!bind_carried(s, carried, inits, has_carried, iter)) return s;
    env_[s.loop_var] = Type::scalar(DType::Index);
    if (!expect(":")) return s;
    s.body = parse_block();
    finish_loop(s);
    return s;
  }

  Stmt parse_carried_while(Stmt s, const std::string& loop_var, const std::vector<std::string>& carried,
                           const StmtToken& iter) {
    if (!loop_var.empty()) {
      fail_at(iter, "a while_ loop has no loop variable: for (a, b) in while_(cond, init_values=(...))");
      return s;
    }
    s.kind = StmtKind::While;
    advance();
    advance();  // while_ (
    // The carried names are in scope in the condition: bind them first, with the types
    // of their initial values, which come after it. So read the arguments twice.
    const std::size_t args_at = pos_;
    std::vector<Piece> positional;
    std::vector<std::pair<std::string, Piece>> keywords;
    parse_arguments(positional, keywords);
    if (error_) return s;
    std::vector<Keyword> attrs;
    std::vector<Term> inits = split_keywords(keywords, attrs);
    if (error_) return s;
    if (!bind_carried(s, carried, inits, true, iter)) return s;
    if (!attrs.empty()) {
      fail_at(iter, "while_ takes only a condition and init_values");
      return s;
    }
    if (positional.size() != 1) {
      fail_at(iter, "while_ takes one condition");
      return s;
    }
    const std::size_t after = pos_;
    pos_ = args_at;
    Piece cond = parse_term();
    s.value = to_term(cond, DType::Bool);
    pos_ = after;
    if (error_ || !expect(":")) return s;
    s.body = parse_block();
    finish_loop(s);
    return s;
  }

  Stmt parse_while() {
    Stmt s;
    s.kind = StmtKind::While;
    s.line = peek().line;
    advance();
    Piece cond = parse_term();
    if (error_) return s;
    s.value = to_term(cond, DType::Bool);
    if (error_ || !expect(":")) return s;
    s.body = parse_block();
    finish_loop(s);
    return s;
  }

  void finish_loop(Stmt& s) {
    if (error_) return;
    s.results = take_yield_targets(s.body);
    if (auto e = check_yields(s.body, true)) return fail(*e);
    const bool yields = !s.body.empty() && s.body.back().kind == StmtKind::Yield;
    const std::size_t n = yields ? s.body.back().values.size() : 0;
    if (n != s.carried.size()) {
      fail(Error{
          "the loop carries " + std::to_string(s.carried.size()) + " value(s) but its body yields " + std::to_string(n),
          1, s.line});
      return;
    }
    if (!s.results.empty() && s.results.size() != s.carried.size()) {
      fail(Error{"the loop carries " + std::to_string(s.carried.size()) + " value(s) but yields to " +
                     std::to_string(s.results.size()) + " variable(s)",
                 1, s.line});
      return;
    }
    for (std::size_t i = 0; i < s.results.size(); ++i) env_[s.results[i]] = env_lookup(s.carried[i].name);
  }

  // '(' NAME (',' NAME)* [','] ')'
  std::vector<std::string> parse_name_tuple() {
    std::vector<std::string> names;
    if (!expect("(")) return names;
    while (!error_ && !peek().is(")")) {
      names.push_back(expect_name("a loop-carried variable"));
      if (!peek().is(",")) break;
      advance();
    }
    expect(")");
    return names;
  }

  // init_values=(...) gives the initial values; every other keyword is an attribute.
  std::vector<Term> split_keywords(std::vector<std::pair<std::string, Piece>>& keywords, std::vector<Keyword>& attrs) {
    std::vector<Term> inits;
    for (auto& [name, piece] : keywords) {
      Term value = to_term(piece, std::nullopt);
      if (error_) return inits;
      if (name == "init_values") {
        if (value.kind == TermKind::Tuple || value.kind == TermKind::List)
          inits = value.args;
        else
          inits = {value};
      } else {
        attrs.push_back(Keyword{name, value});
      }
    }
    return inits;
  }

  bool bind_carried(Stmt& s, const std::vector<std::string>& names, const std::vector<Term>& inits, bool has_carried,
                    const StmtToken& at) {
    if (names.size() != inits.size() || (has_carried && names.empty() && !inits.empty())) {
      fail_at(at, "the loop names " + std::to_string(names.size()) + " carried variable(s) but init_values has " +
                      std::to_string(inits.size()));
      return false;
    }
    for (std::size_t i = 0; i < names.size(); ++i) {
      s.carried.push_back(Carried{names[i], inits[i]});
      env_[names[i]] = term_type(inits[i]);
    }
    return true;
  }

  Stmt parse_if() {
    Stmt s;
    s.kind = StmtKind::If;
    s.line = peek().line;
    advance();  // if / elif
    Piece cond = parse_term();
    if (error_) return s;
    s.value = to_term(cond, DType::Bool);
    if (error_ || !expect(":")) return s;
    s.body = parse_block();
    if (error_) return s;
    skip_newlines();
    if (peek().is("elif")) {
      s.orelse.push_back(parse_if());
    } else if (peek().is("else")) {
      advance();
      if (!expect(":")) return s;
      s.orelse = parse_block();
    }
    if (error_) return s;
    std::vector<std::string> then_targets = take_yield_targets(s.body);
    std::vector<std::string> else_targets = take_yield_targets(s.orelse);
    if (then_targets != else_targets) {
      fail(Error{"the arms of an if must yield to the same variables", 1, s.line});
      return s;
    }
    const bool then_yields = !s.body.empty() && s.body.back().kind == StmtKind::Yield;
    const bool else_yields = !s.orelse.empty() && s.orelse.back().kind == StmtKind::Yield;
    if (then_yields != else_yields || (then_yields && s.body.back().values.size() != s.orelse.back().values.size())) {
      fail(Error{"both arms of an if with results must yield the same number of values", 1, s.line});
      return s;
    }
    if (then_yields && !then_targets.empty() && then_targets.size() != s.body.back().values.size()) {
      fail(Error{"an if yields " + std::to_string(s.body.back().values.size()) + " value(s) to " +
                     std::to_string(then_targets.size()) + " variable(s)",
                 1, s.line});
      return s;
    }
    if (auto e = check_yields(s.body, true)) return fail(*e), s;
    if (auto e = check_yields(s.orelse, true)) return fail(*e), s;
    s.results = std::move(then_targets);
    for (std::size_t i = 0; i < s.results.size(); ++i) env_[s.results[i]] = term_type(s.body.back().values[i]);
    return s;
  }

  // with NAME(kw=value, ...):
  Stmt parse_scope() {
    Stmt s;
    s.kind = StmtKind::Scope;
    s.line = peek().line;
    advance();
    const StmtToken name = peek();
    if (name.kind != StmtTokenKind::Name || !peek(1).is("(")) {
      fail_at(name, "expected a scope such as spmd(core_num=8)");
      return s;
    }
    s.scope_name = std::string(without_pl(name.text));
    advance();
    advance();
    std::vector<Piece> positional;
    std::vector<std::pair<std::string, Piece>> keywords;
    parse_arguments(positional, keywords);
    if (error_) return s;
    if (!positional.empty()) {
      fail_at(name, "a scope takes keyword attributes only: " + s.scope_name + "(name=value, ...)");
      return s;
    }
    for (auto& [key, piece] : keywords) s.attrs.push_back(Keyword{key, to_term(piece, std::nullopt)});
    if (error_ || !expect(":")) return s;
    s.body = parse_block();
    if (!error_) {
      if (auto e = check_yields(s.body, false)) fail(*e);
    }
    return s;
  }

  std::vector<Term> parse_term_list() {
    std::vector<Term> terms;
    while (!error_) {
      Piece p = parse_term();
      if (error_) break;
      terms.push_back(to_term(p, std::nullopt));
      if (!peek().is(",")) break;
      advance();
    }
    return terms;
  }

  // ---- types ----
  Type parse_type() {
    Type type;
    const StmtToken t = peek();
    const std::string_view name = without_pl(t.text);
    if (t.kind != StmtTokenKind::Name || (name != "Scalar" && name != "Tensor" && name != "Tile" && name != "Tuple")) {
      fail_at(t, "expected a type (Scalar, Tensor, Tile or Tuple) but found " + describe(t));
      return type;
    }
    advance();
    if (!expect("[")) return type;
    if (name == "Scalar") {
      type.kind = TypeKind::Scalar;
      type.dtype = parse_dtype_token();
    } else if (name == "Tuple") {
      type.kind = TypeKind::Tuple;
      while (!error_) {
        type.elements.push_back(parse_type());
        if (!peek().is(",")) break;
        advance();
      }
    } else {
      type.kind = name == "Tensor" ? TypeKind::Tensor : TypeKind::Tile;
      type.shape = parse_index_list("a dimension");
      if (error_ || !expect(",")) return type;
      type.dtype = parse_dtype_token();
      while (!error_ && peek().is(",")) {
        advance();
        const StmtToken key = peek();
        std::string field = expect_name("stride=, valid_shape= or offset=");
        if (error_ || !expect("=")) return type;
        if (field == "stride")
          type.stride = parse_index_list("a stride");
        else if (field == "valid_shape")
          type.valid_shape = parse_index_list("a valid-shape dimension");
        else if (field == "offset")
          type.offset = to_index(parse_term(), "an offset");
        else
          fail_at(key, "unknown field '" + field + "' of a shaped type: expected stride, valid_shape or offset");
      }
    }
    expect("]");
    return type;
  }

  DType parse_dtype_token() {
    const StmtToken t = peek();
    std::optional<DType> dtype = t.kind == StmtTokenKind::Name ? parse_dtype(t.text) : std::nullopt;
    if (!dtype) {
      fail_at(t, "expected a dtype (INDEX, INT32, FP32, ...) but found " + describe(t));
      return DType::Index;
    }
    advance();
    return *dtype;
  }

  std::vector<Expr> parse_index_list(const char* what) {
    std::vector<Expr> exprs;
    if (!expect("[")) return exprs;
    while (!error_ && !peek().is("]")) {
      exprs.push_back(to_index(parse_term(), what));
      if (!peek().is(",")) break;
      advance();
    }
    expect("]");
    return exprs;
  }

  // ---- values ----
  std::optional<Type> env_lookup(std::string_view name) const {
    auto it = env_.find(name);
    if (it == env_.end()) return Type::scalar(DType::Index);  // a free name
    return it->second;
  }

  bool is_opaque(std::string_view name) const {
    auto it = env_.find(name);
    return it != env_.end() && !it->second;
  }

  // The type of a value, when the parser can tell: an Arith value is a scalar unless it
  // reads a shaped variable, whose shape it then has (arithmetic is elementwise).
  std::optional<Type> term_type(const Term& term) const {
    if (term.kind == TermKind::Name) return env_lookup(term.name);
    if (term.kind != TermKind::Arith) return std::nullopt;
    std::optional<Type> shaped;
    for_each_name(term.expr, [&](const std::string& n) {
      std::optional<Type> t = env_lookup(n);
      if (!shaped && t && t->is_shaped()) shaped = t;
    });
    Type type = shaped ? *shaped : Type::scalar(term.expr.dtype());
    type.dtype = term.expr.dtype();
    return type;
  }

  Piece pure_piece(std::size_t begin, std::size_t end, const StmtToken& at) {
    Piece p;
    p.pure = true;
    p.begin = begin;
    p.end = end;
    p.line = at.line;
    p.column = at.column;
    return p;
  }
  Piece term_piece(Term term, int line, int column) {
    Piece p;
    p.term = std::move(term);
    p.line = line;
    p.column = column;
    return p;
  }

  // A piece as a Term: arithmetic text goes through the expression parser.
  Term to_term(const Piece& piece, std::optional<DType> hint) {
    if (!piece.pure) return piece.term;
    const std::string_view text = src_.substr(piece.begin, piece.end - piece.begin);
    VarTyper typer = [this](std::string_view name, bool) -> std::optional<DType> {
      std::optional<Type> t = env_lookup(name);
      if (!t || t->kind == TypeKind::Tuple) return std::nullopt;
      return t->dtype;
    };
    Result<Expr> expr = hint ? parse_expr(text, typer, *hint) : parse_expr(text, typer);
    if (!expr) {
      const auto [line, column] = position(piece.begin + std::size_t(std::max(expr.error().column, 1)) - 1);
      fail(Error{expr.error().message, column, line});
      return Term();
    }
    return Term::arith(*expr);
  }

  // An INDEX expression (a loop bound, a dimension). An opaque name stands here for an
  // INDEX value: that is what the place requires.
  Expr to_index(const Piece& piece, const char* what) {
    if (error_) return Expr();
    if (!piece.pure && piece.term.kind == TermKind::Name) return Expr::var(piece.term.name, DType::Index);
    if (!piece.pure) {
      fail(Error{std::string(what) + " must be an INDEX expression, not a call, list or tuple", piece.column,
                 piece.line});
      return Expr();
    }
    Term t = to_term(piece, DType::Index);
    if (error_) return Expr();
    if (t.expr.dtype() != DType::Index) {
      fail(Error{std::string(what) + " must be INDEX, got " + std::string(dtype_name(t.expr.dtype())), piece.column,
                 piece.line});
      return Expr();
    }
    return t.expr;
  }

  Piece parse_term() { return parse_binary(Prec::Or); }

  Piece combine(Op op, const Piece& left, const Piece& right, const StmtToken& at) {
    if (left.pure && right.pure) {
      Piece p = left;
      p.end = right.end;
      return p;
    }
    Term t;
    t.kind = TermKind::Apply;
    t.op = op;
    t.args = {to_term(left, std::nullopt), to_term(right, std::nullopt)};
    (void)at;
    return term_piece(std::move(t), left.line, left.column);
  }

  Piece parse_binary(Prec min) {
    Piece left = min <= Prec::Not && peek().is("not") ? parse_not() : parse_unary();
    while (!error_) {
      const std::optional<Op> op = infix_op(peek());
      if (!op || op_info(*op).prec < min) break;
      if (is_comparison(*op)) {
        left = parse_comparison_chain(left);
        continue;
      }
      const StmtToken at = advance();
      Piece right = parse_binary(tighter(op_info(*op).prec));
      if (error_) break;
      left = combine(*op, left, right, at);
    }
    return left;
  }

  Piece parse_not() {
    const StmtToken at = advance();
    Piece operand = parse_binary(Prec::Not);
    if (error_) return operand;
    if (operand.pure) return pure_piece(at.offset, operand.end, at);
    Term t;
    t.kind = TermKind::Apply;
    t.op = Op::Not;
    t.args = {operand.term};
    return term_piece(std::move(t), at.line, at.column);
  }

  Piece parse_comparison_chain(Piece first) {
    std::vector<Piece> operands = {first};
    std::vector<std::pair<Op, StmtToken>> ops;
    for (std::optional<Op> op = infix_op(peek()); op && is_comparison(*op); op = infix_op(peek())) {
      ops.emplace_back(*op, advance());
      operands.push_back(parse_binary(tighter(Prec::Compare)));
      if (error_) return first;
    }
    const bool pure = std::all_of(operands.begin(), operands.end(), [](const Piece& p) { return p.pure; });
    if (pure) {
      Piece p = first;
      p.end = operands.back().end;
      return p;
    }
    if (ops.size() > 1) {
      fail_at(ops[1].second, "a comparison chain over calls is not supported; write the comparisons with 'and'");
      return first;
    }
    return combine(ops[0].first, operands[0], operands[1], ops[0].second);
  }

  Piece parse_unary() {
    const StmtToken at = peek();
    if (!at.is("-") && !at.is("+") && !at.is("~")) return parse_primary();
    advance();
    Piece operand = parse_unary();
    if (error_) return operand;
    if (operand.pure) return pure_piece(at.offset, operand.end, at);
    if (at.is("+")) return operand;
    Term t;
    t.kind = TermKind::Apply;
    t.op = at.is("-") ? Op::Neg : Op::BitNot;
    t.args = {operand.term};
    return term_piece(std::move(t), at.line, at.column);
  }

  Piece parse_primary() {
    const StmtToken t = peek();
    if (t.kind == StmtTokenKind::String) {
      fail_at(t, "a string stands only in a decorator's arguments (@costs(\"div-expensive\"))");
      return Piece{};
    }
    if (t.kind == StmtTokenKind::Number) {
      advance();
      return pure_piece(t.offset, t.offset + t.text.size(), t);
    }
    if (t.is("...")) {
      advance();
      Term e;
      e.kind = TermKind::Ellipsis;
      return term_piece(std::move(e), t.line, t.column);
    }
    if (t.is("(")) return parse_parenthesised();
    if (t.is("[")) {
      advance();
      Term list;
      list.kind = TermKind::List;
      while (!error_ && !peek().is("]")) {
        Piece item = parse_term();
        if (error_) break;
        list.args.push_back(to_term(item, std::nullopt));
        if (!peek().is(",")) break;
        advance();
      }
      expect("]");
      return term_piece(std::move(list), t.line, t.column);
    }
    if (t.kind == StmtTokenKind::Name) return parse_name();
    fail_at(t, "expected a value but found " + describe(t));
    return Piece();
  }

  Piece parse_parenthesised() {
    const StmtToken open = advance();
    if (peek().is(")")) {
      advance();
      Term tuple;
      tuple.kind = TermKind::Tuple;
      return term_piece(std::move(tuple), open.line, open.column);
    }
    Piece inner = parse_term();
    if (error_) return inner;
    if (peek().is(",")) {
      Term tuple;
      tuple.kind = TermKind::Tuple;
      tuple.args.push_back(to_term(inner, std::nullopt));
      while (!error_ && peek().is(",")) {
        advance();
        if (peek().is(")")) break;
        Piece item = parse_term();
        if (error_) return item;
        tuple.args.push_back(to_term(item, std::nullopt));
      }
      expect(")");
      return term_piece(std::move(tuple), open.line, open.column);
    }
    const StmtToken close = peek();
    if (!expect(")")) return inner;
    if (inner.pure) return pure_piece(open.offset, close.offset + 1, open);
    return inner;
  }

  Piece parse_name() {
    const StmtToken t = advance();
    if (peek().is("(")) return parse_call(t);
    if (t.text == "True" || t.text == "False") return pure_piece(t.offset, t.offset + t.text.size(), t);
    if (is_reserved(t.text)) {
      fail_at(t, "expected a value but found " + describe(t));
      return Piece();
    }
    // A dtype (an argument such as dtype=FP32) or a dotted name is not a variable.
    if (std::optional<DType> dtype = parse_dtype(t.text)) {
      return term_piece(Term::opaque_name(std::string(dtype_name(*dtype))), t.line, t.column);
    }
    if (t.text.find('.') != std::string_view::npos || is_opaque(t.text)) {
      return term_piece(Term::opaque_name(std::string(without_pl(t.text))), t.line, t.column);
    }
    return pure_piece(t.offset, t.offset + t.text.size(), t);
  }

  // NAME '(' args ')': arithmetic when NAME is a function of the expression language and
  // every argument is arithmetic; an opaque call otherwise.
  Piece parse_call(const StmtToken& name) {
    advance();  // (
    const bool typed_function = without_pl(name.text) == "cast" || without_pl(name.text) == "const";
    std::vector<Piece> positional;
    std::vector<std::pair<std::string, Piece>> keywords;
    parse_arguments(positional, keywords, typed_function);
    if (error_) return Piece();
    const StmtToken& close = tokens_[pos_ - 1];
    const bool pure = is_expression_function(name.text) && keywords.empty() &&
                      std::all_of(positional.begin(), positional.end(), [](const Piece& p) { return p.pure; });
    if (pure) return pure_piece(name.offset, close.offset + 1, name);
    Term call;
    call.kind = TermKind::Call;
    call.name = std::string(without_pl(name.text));
    for (const Piece& p : positional) call.args.push_back(to_term(p, std::nullopt));
    for (const auto& [key, p] : keywords) call.kwargs.push_back(Keyword{key, to_term(p, std::nullopt)});
    return term_piece(std::move(call), name.line, name.column);
  }

  // After '(': arguments up to and including ')'. In cast/const the dtype argument is
  // part of the arithmetic.
  void parse_arguments(std::vector<Piece>& positional, std::vector<std::pair<std::string, Piece>>& keywords,
                       bool typed_function = false) {
    while (!error_ && !peek().is(")")) {
      if (peek().kind == StmtTokenKind::Name && peek(1).is("=")) {
        const StmtToken key = advance();
        advance();
        keywords.emplace_back(std::string(key.text), parse_term());
      } else {
        if (!keywords.empty()) {
          fail_at(peek(), "a positional argument after a keyword argument");
          return;
        }
        if (typed_function && positional.size() == 1 && peek().kind == StmtTokenKind::Name &&
            (peek(1).is(")") || peek(1).is(","))) {
          const StmtToken dtype = advance();
          positional.push_back(pure_piece(dtype.offset, dtype.offset + dtype.text.size(), dtype));
        } else {
          positional.push_back(parse_term());
        }
      }
      if (!peek().is(",")) break;
      advance();
    }
    expect(")");
  }

  std::string_view src_;
  std::vector<StmtToken> tokens_;
  std::size_t pos_ = 0;
  std::vector<std::size_t> line_starts_;
  std::optional<Error> error_;
  Env env_;
};

}  // namespace

Result<Program> parse_program(std::string_view source) {
  Result<std::vector<StmtToken>> tokens = tokenize_statements(source);
  if (!tokens) return tokens.error();
  return StmtParser(source, std::move(tokens).value()).run();
}

}  // namespace eqsat
