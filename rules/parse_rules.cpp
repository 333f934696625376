// The rule-file parser. The language itself is documented in rules/rule.h.
//
// Parsing a rule file has three stages:
//   1. lines:     physical lines to logical rules (comments stripped, continuation
//                 lines joined), remembering where each piece came from so that an
//                 error anywhere in a rule names its file, line and column;
//   2. header:    `NAME [SCOPE]:`, then the split into left side, right side, guard;
//   3. instances: for each dtype of the scope, both sides go through the expression
//                 parser (ir/parse.h) with pattern variables typed by that dtype, and
//                 the guard through rules/guard_parser.h; the checks that make a rule
//                 well-formed (bound variables, one dtype per variable, no dtype change,
//                 a left side that is an operation) are made here.
#include <algorithm>
#include <cctype>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "ir/parse.h"
#include "ir/syntax.h"
#include "rules/guard_parser.h"
#include "rules/rule.h"

namespace eqsat {

namespace {

// ------------------------------------------------------------------ stage 1: lines

// Where a stretch of a logical rule's text came from.
struct Piece {
  std::size_t offset = 0;  // in LogicalRule::text
  int line = 0;            // 1-based, in the file
  int column = 0;          // 1-based column of the piece's first character
};

struct LogicalRule {
  std::string text;  // the rule's physical lines, comments removed, joined by spaces
  std::vector<Piece> pieces;
  std::string comment;
  int line = 0;
};

bool is_blank(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); });
}

std::string_view trim_right(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return text;
}

std::size_t first_non_space(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  return i;
}

std::string located(std::string_view file, int line, int column, std::string_view reason) {
  return std::string(file) + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + std::string(reason);
}

// Errors carry the whole "file:line:column: reason" in the message (line and column
// stay 0, so Error::describe() prints the message as it is).
Error error_at(std::string_view file, int line, int column, std::string_view reason) {
  return Error{located(file, line, column, reason)};
}

Result<std::vector<LogicalRule>> split_lines(std::string_view text, std::string_view file) {
  std::vector<LogicalRule> rules;
  std::vector<std::string> pending_comment;
  bool open = false;  // whether a continuation line may extend rules.back()
  int line_number = 0;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);

    const std::size_t hash = line.find('#');
    const std::string_view code = trim_right(line.substr(0, hash));
    if (is_blank(code)) {
      open = false;
      if (hash == std::string_view::npos) {
        pending_comment.clear();  // a blank line ends a comment block
      } else {
        std::string_view comment = line.substr(hash + 1);
        if (!comment.empty() && comment.front() == ' ') comment.remove_prefix(1);
        pending_comment.emplace_back(trim_right(comment));
      }
      continue;
    }
    const std::size_t indent = first_non_space(code);
    if (indent > 0) {
      if (!open) {
        return error_at(file, line_number, static_cast<int>(indent) + 1,
                        "a line starting with whitespace continues a rule, but no rule line precedes it");
      }
      LogicalRule& rule = rules.back();
      rule.text += ' ';
      rule.pieces.push_back({rule.text.size(), line_number, static_cast<int>(indent) + 1});
      rule.text += code.substr(indent);
      continue;
    }
    LogicalRule rule;
    rule.line = line_number;
    rule.text = std::string(code);
    rule.pieces.push_back({0, line_number, 1});
    for (std::size_t i = 0; i < pending_comment.size(); ++i) {
      rule.comment += (i > 0 ? "\n" : "") + pending_comment[i];
    }
    pending_comment.clear();
    rules.push_back(std::move(rule));
    open = true;
  }
  return rules;
}

// ------------------------------------------------------------------ stage 2: header

// A stretch of the logical text: [begin, end).
struct Span {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string_view of(std::string_view text) const { return text.substr(begin, end - begin); }
  bool empty() const { return begin == end; }
};

Span trimmed(std::string_view text, Span span) {
  while (span.begin < span.end && std::isspace(static_cast<unsigned char>(text[span.begin]))) ++span.begin;
  while (span.end > span.begin && std::isspace(static_cast<unsigned char>(text[span.end - 1]))) --span.end;
  return span;
}

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The position of the word `word` in `text` at or after `from`, as a whole word.
std::size_t find_word(std::string_view text, std::string_view word, std::size_t from) {
  for (std::size_t at = text.find(word, from); at != std::string_view::npos; at = text.find(word, at + 1)) {
    const bool starts = at == 0 || !is_name_char(text[at - 1]);
    const bool ends = at + word.size() == text.size() || !is_name_char(text[at + word.size()]);
    if (starts && ends) return at;
  }
  return std::string_view::npos;
}

struct ScopeWord {
  std::string_view word;
  std::vector<DType> dtypes;
};

const std::vector<ScopeWord>& scope_words() {
  static const std::vector<ScopeWord> words = {
      {"index", {DType::Index}},
      {"int", {DType::Int8, DType::Int16, DType::Int32, DType::Int64}},
      {"uint", {DType::UInt8, DType::UInt16, DType::UInt32, DType::UInt64}},
      {"float", {DType::FP16, DType::BF16, DType::FP32, DType::FP64}},
      {"bool", {DType::Bool}},
  };
  return words;
}

bool is_const_only_name(std::string_view name) {
  return !name.empty() && name[0] == 'c' && std::all_of(name.begin() + 1, name.end(), [](char ch) {
    return std::isdigit(static_cast<unsigned char>(ch));
  });
}

// A rule as parsed, its instances not yet placed in the array it will share with the
// rules loaded with it (see seal).
struct ParsedRule {
  Rule rule;
  std::vector<Rewrite> instances;  // parallel to rule.dtypes
};

class RuleParser {
 public:
  RuleParser(const LogicalRule& logical, std::string_view file) : logical_(logical), file_(file) {}

  Result<ParsedRule> run() {
    if (std::optional<Error> error = parse_header()) return *error;
    std::vector<Rewrite> instances;
    instances.reserve(rule_.dtypes.size());
    for (DType dtype : rule_.dtypes) {
      Result<Rewrite> rewrite = instantiate(dtype);
      if (!rewrite) return rewrite.error();
      instances.push_back(std::move(rewrite).value());
    }
    return ParsedRule{std::move(rule_), std::move(instances)};
  }

 private:
  std::string_view text() const { return logical_.text; }

  Error error(std::size_t offset, std::string_view reason) const {
    const Piece* piece = &logical_.pieces.front();
    for (const Piece& p : logical_.pieces) {
      if (p.offset <= offset) piece = &p;
    }
    return error_at(file_, piece->line, piece->column + static_cast<int>(offset - piece->offset), reason);
  }

  std::optional<Error> parse_header() {
    const std::string_view t = text();
    std::size_t pos = 0;
    while (pos < t.size() && (std::islower(static_cast<unsigned char>(t[pos])) ||
                              std::isdigit(static_cast<unsigned char>(t[pos])) || t[pos] == '-')) {
      ++pos;
    }
    if (pos == 0) return error(0, "expected a rule name ([a-z0-9-]+) at the start of the line");
    rule_.name = std::string(t.substr(0, pos));
    rule_.file = std::string(file_);
    rule_.line = logical_.line;
    rule_.comment = logical_.comment;
    if (pos < t.size() && (is_name_char(t[pos]) || t[pos] == '.')) {
      return error(pos, std::string("invalid character '") + t[pos] + "' in the rule name (names are [a-z0-9-]+)");
    }
    while (pos < t.size() && std::isspace(static_cast<unsigned char>(t[pos]))) ++pos;
    if (pos == t.size() || t[pos] != '[') return error(pos, "expected '[' and the rule's scope after its name");
    const std::size_t open = pos;
    const std::size_t close = t.find(']', open);
    if (close == std::string_view::npos) return error(open, "missing ']' after the scope");
    const Span scope = trimmed(t, {open + 1, close});
    rule_.scope_text = std::string(scope.of(t));
    if (std::optional<Error> bad = parse_scope(scope)) return bad;
    if (rule_.dtypes.empty()) return error(open, "empty scope: name the dtypes the rule holds for");

    pos = close + 1;
    while (pos < t.size() && std::isspace(static_cast<unsigned char>(t[pos]))) ++pos;
    if (pos < t.size() && t[pos] == '{') {
      Result<std::size_t> after = parse_fast_math_flags(pos);
      if (!after) return after.error();
      pos = *after;
      while (pos < t.size() && std::isspace(static_cast<unsigned char>(t[pos]))) ++pos;
    }
    if (pos == t.size() || t[pos] != ':') {
      return error(pos, rule_.fast_math.none() ? "expected ':' (or '{' and fast-math flags) after the scope"
                                               : "expected ':' after the fast-math flags");
    }
    const std::size_t body = pos + 1;
    const std::size_t arrow = t.find("=>", body);
    if (arrow == std::string_view::npos) return error(body, "expected '=>' between the left and the right side");
    const std::size_t if_pos = find_word(t, "if", arrow + 2);
    lhs_ = trimmed(t, {body, arrow});
    rhs_ = trimmed(t, {arrow + 2, if_pos == std::string_view::npos ? t.size() : if_pos});
    arrow_ = arrow;
    if (lhs_.empty()) return error(body, "empty left side");
    if (rhs_.empty()) return error(arrow + 2, "empty right side");
    if (if_pos != std::string_view::npos) {
      guard_ = trimmed(t, {if_pos + 2, t.size()});
      if (guard_->empty()) return error(if_pos, "empty guard after 'if'");
      rule_.guard_text = std::string(guard_->of(t));
    }
    rule_.lhs_text = std::string(lhs_.of(t));
    rule_.rhs_text = std::string(rhs_.of(t));
    return std::nullopt;
  }

  // `{nsz nnan}` (or `{nsz, nnan}`) at `open`: the flags the rule needs, for float
  // scopes only. Returns the position after the '}'.
  Result<std::size_t> parse_fast_math_flags(std::size_t open) {
    const std::string_view t = text();
    const std::size_t close = t.find('}', open);
    if (close == std::string_view::npos) return error(open, "missing '}' after the fast-math flags");
    std::size_t pos = open + 1;
    while (pos < close) {
      if (std::isspace(static_cast<unsigned char>(t[pos])) || t[pos] == ',') {
        ++pos;
        continue;
      }
      std::size_t end = pos;
      while (end < close && !std::isspace(static_cast<unsigned char>(t[end])) && t[end] != ',') ++end;
      const std::string_view word = t.substr(pos, end - pos);
      const std::optional<FastMathFlag> flag = parse_fast_math_flag(word);
      if (!flag) {
        return error(pos, "unknown fast-math flag '" + std::string(word) + "' (expected nsz, nnan, ninf or reassoc)");
      }
      if (rule_.fast_math.has(*flag)) return error(pos, "fast-math flag '" + std::string(word) + "' given twice");
      rule_.fast_math |= *flag;
      pos = end;
    }
    if (rule_.fast_math.none()) {
      return error(open, "empty fast-math flags: name the flags the rule needs, or omit the braces");
    }
    for (DType dtype : rule_.dtypes) {
      if (!is_float(dtype)) {
        return error(open, "fast-math flags relax float semantics only, but the scope has " +
                               std::string(dtype_name(dtype)) + " (split the rule)");
      }
    }
    return close + 1;
  }

  std::optional<Error> parse_scope(Span scope) {
    const std::string_view t = text();
    bool in_scope[kNumDTypes] = {};
    std::size_t pos = scope.begin;
    while (pos < scope.end) {
      if (std::isspace(static_cast<unsigned char>(t[pos]))) {
        ++pos;
        continue;
      }
      std::size_t end = pos;
      while (end < scope.end && !std::isspace(static_cast<unsigned char>(t[end]))) ++end;
      const std::string_view word = t.substr(pos, end - pos);
      const auto known =
          std::find_if(scope_words().begin(), scope_words().end(), [&](const ScopeWord& w) { return w.word == word; });
      if (known != scope_words().end()) {
        for (DType dtype : known->dtypes) in_scope[static_cast<int>(dtype)] = true;
      } else if (std::optional<DType> dtype = parse_dtype(word)) {
        in_scope[static_cast<int>(*dtype)] = true;
      } else {
        return error(pos, "unknown scope word '" + std::string(word) +
                              "' (expected index, int, uint, float, bool or a dtype such as INT32)");
      }
      pos = end;
    }
    for (int t_index = 0; t_index < kNumDTypes; ++t_index) {
      if (in_scope[t_index]) rule_.dtypes.push_back(static_cast<DType>(t_index));
    }
    return std::nullopt;
  }

  // Names an instance in messages when the scope has several dtypes.
  std::string in_instance(std::string reason, DType dtype) const {
    if (rule_.dtypes.size() > 1) reason += " (in the " + std::string(dtype_name(dtype)) + " instance)";
    return reason;
  }

  Error expr_error(Span side, const Error& parse_error, DType dtype) const {
    const std::size_t column = parse_error.column > 0 ? static_cast<std::size_t>(parse_error.column) : 1;
    return error(side.begin + column - 1, in_instance(parse_error.message, dtype));
  }

  // The pattern variables of the left side in order of first appearance.
  static void collect_vars(const Expr& expr, std::vector<std::pair<std::string, std::vector<DType>>>& seen) {
    if (expr.op() == Op::Var) {
      auto it = std::find_if(seen.begin(), seen.end(), [&](const auto& entry) { return entry.first == expr.name(); });
      if (it == seen.end()) {
        seen.push_back({expr.name(), {expr.dtype()}});
      } else if (std::find(it->second.begin(), it->second.end(), expr.dtype()) == it->second.end()) {
        it->second.push_back(expr.dtype());
      }
      return;
    }
    for (const Expr& arg : expr.args()) collect_vars(arg, seen);
  }

  // `text` (free of pattern variables) typed where a `dtype` value is expected.
  static std::optional<Expr> retype_literals(std::string_view text, DType dtype) {
    constexpr std::string_view kHint = "__rule_dtype__";
    const std::string wrapped = "select(True, (" + std::string(text) + "), " + std::string(kHint) + ")";
    VarTyper typer = [&](std::string_view name, bool) -> std::optional<DType> {
      if (name == kHint) return dtype;
      return std::nullopt;
    };
    Result<Expr> expr = parse_expr(wrapped, typer);
    if (!expr || expr->op() != Op::Select || expr->arg(1).dtype() != dtype) return std::nullopt;
    return expr->arg(1);
  }

  // One dtype instance: both sides parsed with the pattern variables typed by `dtype`.
  Result<Rewrite> instantiate(DType dtype) {
    Result<Expr> lhs = parse_lhs(dtype);
    if (!lhs) return lhs.error();
    Rewrite rewrite;
    rewrite.name = rule_.name;
    rewrite.fast_math = rule_.fast_math;
    Result<std::vector<PatternVar>> vars = pattern_vars(*lhs, dtype);
    if (!vars) return vars.error();
    rewrite.vars = std::move(vars).value();
    Result<Expr> rhs = parse_rhs(rewrite.vars, lhs->dtype(), dtype);
    if (!rhs) return rhs.error();
    rewrite.lhs = Pattern::from_expr(*lhs, rewrite.vars);
    rewrite.rhs = Pattern::from_expr(*rhs, rewrite.vars);
    if (guard_) {
      Result<Guard> guard = parse_guard(guard_->of(text()), rewrite.vars);
      if (!guard) {
        const std::size_t column = guard.error().column > 0 ? static_cast<std::size_t>(guard.error().column) : 1;
        return error(guard_->begin + column - 1, guard.error().message);
      }
      rewrite.guard = std::move(guard).value();
    }
    return rewrite;
  }

  Result<Expr> parse_lhs(DType dtype) const {
    VarTyper typer = [dtype](std::string_view, bool bool_context) -> std::optional<DType> {
      return bool_context ? DType::Bool : dtype;
    };
    const Result<SyntaxPtr>& syntax = syntax_of(lhs_, lhs_syntax_);
    if (!syntax) return expr_error(lhs_, syntax.error(), dtype);
    Result<Expr> lhs = type_syntax(**syntax, typer);
    if (!lhs) return expr_error(lhs_, lhs.error(), dtype);
    if (lhs->op() == Op::Var || lhs->op() == Op::Const) {
      return error(lhs_.begin, std::string("the left side is a bare ") +
                                   (lhs->op() == Op::Var ? "variable" : "constant") +
                                   ": a rule must match an operation");
    }
    return lhs;
  }

  // The variables of the left side, in order of first appearance, each with one dtype.
  Result<std::vector<PatternVar>> pattern_vars(const Expr& lhs, DType dtype) const {
    std::vector<std::pair<std::string, std::vector<DType>>> seen;
    collect_vars(lhs, seen);
    std::vector<PatternVar> vars;
    for (const auto& [name, dtypes] : seen) {
      if (dtypes.size() > 1) {
        const std::size_t at = find_word(lhs_.of(text()), name, 0);
        return error(lhs_.begin + (at == std::string_view::npos ? 0 : at),
                     in_instance("pattern variable '" + name + "' stands both where a BOOL is needed and where a " +
                                     std::string(dtype_name(dtype)) + " is",
                                 dtype));
      }
      vars.push_back(PatternVar{name, dtypes.front(), is_const_only_name(name)});
    }
    return vars;
  }

  Result<Expr> parse_rhs(const std::vector<PatternVar>& vars, DType lhs_dtype, DType dtype) const {
    const std::string_view rhs_text = rhs_.of(text());
    std::set<std::string, std::less<>> unbound;
    VarTyper typer = [&](std::string_view name, bool) -> std::optional<DType> {
      for (const PatternVar& var : vars) {
        if (var.name == name) return var.dtype;
      }
      unbound.emplace(name);
      return std::nullopt;
    };
    const Result<SyntaxPtr>& syntax = syntax_of(rhs_, rhs_syntax_);
    if (!syntax) return expr_error(rhs_, syntax.error(), dtype);
    Result<Expr> rhs = type_syntax(**syntax, typer);
    if (!rhs) {
      // An unknown name on the right is a variable the left side does not bind.
      const std::size_t at =
          std::min(rhs.error().column > 0 ? static_cast<std::size_t>(rhs.error().column) - 1 : 0, rhs_text.size());
      std::size_t end = at;
      while (end < rhs_text.size() && is_name_char(rhs_text[end])) ++end;
      const std::string_view name = rhs_text.substr(at, end - at);
      if (!name.empty() && unbound.count(name)) {
        return error(rhs_.begin + at, "variable '" + std::string(name) + "' on the right is not bound by the left");
      }
      return expr_error(rhs_, rhs.error(), dtype);
    }
    if (rhs->dtype() != lhs_dtype) {
      // A right side of literals only (`x - x => 0`) has no dtype of its own; the
      // parser typed it INDEX. Typed next to a value of the left side's dtype, it
      // takes that one, as it would standing in the left side's place.
      if (std::optional<Expr> retyped = retype_literals(rhs_text, lhs_dtype)) rhs = *retyped;
    }
    if (rhs->dtype() != lhs_dtype) {
      return error(arrow_,
                   in_instance("the rule changes the dtype: the left side is " + std::string(dtype_name(lhs_dtype)) +
                                   ", the right side " + std::string(dtype_name(rhs->dtype())),
                               dtype));
    }
    return rhs;
  }

  // The syntax of a side, parsed the first time an instance asks for it: a rule's
  // instances (one per dtype) type the same text, each its own way.
  const Result<SyntaxPtr>& syntax_of(Span side, std::optional<Result<SyntaxPtr>>& parsed) const {
    if (!parsed) parsed.emplace(parse_syntax(side.of(text())));
    return *parsed;
  }

  const LogicalRule& logical_;
  std::string_view file_;
  Rule rule_;
  Span lhs_;
  Span rhs_;
  mutable std::optional<Result<SyntaxPtr>> lhs_syntax_, rhs_syntax_;
  std::size_t arrow_ = 0;
  std::optional<Span> guard_;
};

}  // namespace

namespace {

// A rule whose name an earlier rule has: "file:line:1: duplicate rule name ...".
Error duplicate_name_error(const Rule& rule, std::string_view earlier_file, int earlier_line) {
  return error_at(rule.file, rule.line, 1,
                  "duplicate rule name '" + rule.name + "' (first defined at " + std::string(earlier_file) + ":" +
                      std::to_string(earlier_line) + ")");
}

// The rules of one file, in order, each name once.
Result<std::vector<ParsedRule>> parse_file(std::string_view text, std::string_view file_name) {
  Result<std::vector<LogicalRule>> logical = split_lines(text, file_name);
  if (!logical) return logical.error();
  std::vector<ParsedRule> rules;
  rules.reserve(logical->size());
  std::map<std::string, int, std::less<>> lines_by_name;
  for (const LogicalRule& entry : *logical) {
    Result<ParsedRule> parsed = RuleParser(entry, file_name).run();
    if (!parsed) return parsed.error();
    const Rule& rule = parsed->rule;
    auto [it, inserted] = lines_by_name.emplace(rule.name, rule.line);
    if (!inserted) return duplicate_name_error(rule, file_name, it->second);
    rules.push_back(std::move(parsed).value());
  }
  return rules;
}

// Moves the instances of `parsed` into one array, in order, and gives each rule its
// stretch of it.
std::vector<Rule> seal(std::vector<ParsedRule> parsed) {
  std::size_t total = 0;
  for (const ParsedRule& p : parsed) total += p.instances.size();
  auto storage = std::make_shared<std::vector<Rewrite>>();
  storage->reserve(total);
  for (ParsedRule& p : parsed) std::move(p.instances.begin(), p.instances.end(), std::back_inserter(*storage));
  const std::shared_ptr<const std::vector<Rewrite>> shared = std::move(storage);
  std::vector<Rule> rules;
  rules.reserve(parsed.size());
  std::size_t first = 0;
  for (ParsedRule& p : parsed) {
    p.rule.rewrites = RuleInstances(shared, first, p.instances.size());
    first += p.instances.size();
    rules.push_back(std::move(p.rule));
  }
  return rules;
}

}  // namespace

Result<std::vector<Rule>> parse_rules(std::string_view text, std::string_view file_name) {
  Result<std::vector<ParsedRule>> parsed = parse_file(text, file_name);
  if (!parsed) return parsed.error();
  return seal(std::move(parsed).value());
}

namespace {

// Rule files parsed one after the other into one set.
class RuleSetParser {
 public:
  std::optional<Error> add_file(std::string_view text, std::string_view file_name) {
    Result<std::vector<ParsedRule>> parsed = parse_file(text, file_name);
    if (!parsed) return parsed.error();
    std::vector<ParsedRule> rules = std::move(parsed).value();
    for (ParsedRule& p : rules) {
      const Rule& rule = p.rule;
      auto [it, inserted] = first_by_name_.try_emplace(rule.name, rules_.size());
      if (!inserted) {
        const Rule& earlier = rules_[it->second].rule;
        return duplicate_name_error(rule, earlier.file, earlier.line);
      }
      rules_.push_back(std::move(p));
    }
    return std::nullopt;
  }

  RuleSet finish() && {
    RuleSet set;
    set.rules = seal(std::move(rules_));
    return set;
  }

 private:
  std::vector<ParsedRule> rules_;
  std::unordered_map<std::string, std::size_t> first_by_name_;  // position in rules_
};

}  // namespace

Result<RuleSet> parse_rule_set(std::span<const RuleText> files) {
  RuleSetParser parser;
  for (const RuleText& file : files) {
    if (std::optional<Error> error = parser.add_file(file.text, file.file_name)) return *error;
  }
  return std::move(parser).finish();
}

std::optional<Error> RuleSet::add(std::vector<Rule> more) {
  // The rules by name, to find a duplicate without a scan of the set per rule (a set
  // may hold the catalogue's ~370). The keys view the names in `rules`, so it is given
  // its final capacity first: a short name lives inside its string, which moves when
  // the vector grows.
  rules.reserve(rules.size() + more.size());
  std::unordered_map<std::string_view, std::size_t> by_name;
  by_name.reserve(rules.size() + more.size());
  for (std::size_t i = 0; i < rules.size(); ++i) by_name.try_emplace(rules[i].name, i);
  for (Rule& rule : more) {
    if (auto first = by_name.find(rule.name); first != by_name.end()) {
      const Rule& earlier = rules[first->second];
      return duplicate_name_error(rule, earlier.file, earlier.line);
    }
    rules.push_back(std::move(rule));
    by_name.try_emplace(rules.back().name, rules.size() - 1);
  }
  return std::nullopt;
}

Result<RuleSet> load_rule_files(const std::vector<std::string>& paths) {
  RuleSetParser parser;
  for (const std::string& path : paths) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{path + ": cannot open the rule file"};
    std::ostringstream text;
    text << in.rdbuf();
    if (std::optional<Error> error = parser.add_file(text.str(), path)) return *error;
  }
  return std::move(parser).finish();
}

}  // namespace eqsat
