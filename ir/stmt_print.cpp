// Each Arith leaf is printed with the dtype the parser pushes into it at that place
// (an annotated assignment's dtype, INDEX for loop bounds and dimensions, nothing
// elsewhere), so that constants read back with their dtypes.
#include "ir/stmt_print.h"

#include "ir/print.h"

namespace eqsat {

namespace {

std::string join(const std::vector<std::string>& items, const char* sep = ", ") {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += sep;
    out += items[i];
  }
  return out;
}

std::string index_text(const Expr& e) { return print(e, DType::Index); }

std::string index_list(const std::vector<Expr>& exprs) {
  std::vector<std::string> items;
  for (const Expr& e : exprs) items.push_back(index_text(e));
  return "[" + join(items) + "]";
}

// An operand of an Apply term, parenthesised unless it is atomic.
std::string operand_text(const Term& t) {
  if (t.kind == TermKind::Arith) {
    const Expr& e = t.expr;
    const std::string text = print(e);
    const bool atomic =
        e.op() == Op::Var || op_info(e.op()).is_call || e.op() == Op::Cast || (e.op() == Op::Const && text[0] != '-');
    return atomic ? text : "(" + text + ")";
  }
  if (t.kind == TermKind::Apply) return "(" + print_term(t) + ")";
  return print_term(t);
}

std::string term_text(const Term& t, std::optional<DType> hint) {
  if (t.kind == TermKind::Arith && hint) return print(t.expr, *hint);
  return print_term(t);
}

std::string keywords_text(const std::vector<Keyword>& kwargs) {
  std::vector<std::string> items;
  for (const Keyword& kw : kwargs) items.push_back(kw.name + "=" + print_term(kw.value));
  return join(items);
}

std::string terms_text(const std::vector<Term>& terms) {
  std::vector<std::string> items;
  for (const Term& t : terms) items.push_back(print_term(t));
  return join(items);
}

class StmtPrinter {
 public:
  std::string out;

  void block(const Block& b, int depth) {
    if (b.empty()) {
      line(depth, "pass");
      return;
    }
    for (const Stmt& s : b) stmt(s, depth, nullptr);
  }

  // `results`: the variables a trailing yield of this block assigns.
  void body(const Block& b, int depth, const std::vector<std::string>& results) {
    if (b.empty()) {
      line(depth, "pass");
      return;
    }
    for (std::size_t i = 0; i < b.size(); ++i) {
      stmt(b[i], depth, i + 1 == b.size() ? &results : nullptr);
    }
  }

  void function(const Function& f) {
    if (f.is_fragment()) {
      for (const Stmt& s : f.body) stmt(s, 0, nullptr);
      return;
    }
    for (const Decorator& d : f.decorators) {
      std::vector<std::string> args;
      for (const DecoratorArg& a : d.args) {
        std::string value = a.value;
        if (a.is_string) {
          const char quote = value.find('"') == std::string::npos ? '"' : '\'';
          value = quote + value + quote;
        }
        args.push_back(a.key.empty() ? value : a.key + "=" + value);
      }
      line(0, "@" + d.name + (args.empty() ? "" : "(" + join(args) + ")"));
    }
    std::vector<std::string> params;
    for (const Param& p : f.params) params.push_back(p.name + ": " + print_type(p.type));
    if (!f.fast_math.none()) line(0, "@fast_math(" + fast_math_text(f.fast_math, ", ") + ")");
    std::string header = "def " + f.name + "(" + join(params) + ")";
    if (f.result) header += " -> " + print_type(*f.result);
    line(0, header + ":");
    block(f.body, 1);
  }

 private:
  void line(int depth, const std::string& text) {
    out.append(std::size_t(depth) * 4, ' ');
    out += text;
    out += '\n';
  }

  void stmt(const Stmt& s, int depth, const std::vector<std::string>* results) {
    switch (s.kind) {
      case StmtKind::Pass:
        line(depth, "pass");
        return;
      case StmtKind::Assign: {
        std::string lhs = join(s.targets);
        std::optional<DType> hint;
        if (s.annotation) {
          lhs += ": " + print_type(*s.annotation);
          if (s.annotation->kind != TypeKind::Tuple) hint = s.annotation->dtype;
        }
        line(depth, lhs + " = " + term_text(s.value, hint));
        return;
      }
      case StmtKind::Eval:
        line(depth, print_term(s.value));
        return;
      case StmtKind::Yield: {
        std::string text = "yield_(" + terms_text(s.values) + ")";
        if (results && !results->empty()) text = join(*results) + " = " + text;
        line(depth, text);
        return;
      }
      case StmtKind::Return:
        line(depth, s.values.empty() ? "return" : "return " + terms_text(s.values));
        return;
      case StmtKind::Scope:
        line(depth, "with " + s.scope_name + "(" + keywords_text(s.attrs) + "):");
        block(s.body, depth + 1);
        return;
      case StmtKind::If:
        if_stmt(s, depth, "if ");
        return;
      case StmtKind::For:
        for_stmt(s, depth);
        return;
      case StmtKind::While:
        while_stmt(s, depth);
        return;
    }
  }

  void if_stmt(const Stmt& s, int depth, const char* keyword) {
    line(depth, keyword + term_text(s.value, DType::Bool) + ":");
    body(s.body, depth + 1, s.results);
    if (s.orelse.empty()) return;
    // `elif` for an else arm that is just another if (without results of its own).
    if (s.results.empty() && s.orelse.size() == 1 && s.orelse[0].kind == StmtKind::If && s.orelse[0].results.empty()) {
      if_stmt(s.orelse[0], depth, "elif ");
      return;
    }
    line(depth, "else:");
    body(s.orelse, depth + 1, s.results);
  }

  std::string carried_text(const Stmt& s) {
    std::vector<std::string> names, inits;
    for (const Carried& c : s.carried) {
      names.push_back(c.name);
      inits.push_back(print_term(c.init));
    }
    const char* comma = s.carried.size() == 1 ? "," : "";
    return "(" + join(names) + comma + ")|(" + join(inits) + comma + ")";
  }

  void for_stmt(const Stmt& s, int depth) {
    std::vector<std::string> args = {index_text(s.start), index_text(s.stop)};
    const bool unit_step = s.step.is_const() && s.step.value() == Value::integer(DType::Index, 1);
    if (!unit_step) args.push_back(index_text(s.step));
    std::string target = s.loop_var;
    if (!s.carried.empty()) {
      const std::string both = carried_text(s);
      const std::size_t bar = both.find(")|(");
      target += ", " + both.substr(0, bar + 1);
      args.push_back("init_values=" + both.substr(bar + 2));
    }
    for (const Keyword& kw : s.attrs) args.push_back(kw.name + "=" + print_term(kw.value));
    line(depth, "for " + target + " in " + loop_kind_name(s.loop_kind) + "(" + join(args) + "):");
    body(s.body, depth + 1, s.results);
  }

  void while_stmt(const Stmt& s, int depth) {
    if (s.carried.empty()) {
      line(depth, "while " + term_text(s.value, DType::Bool) + ":");
    } else {
      const std::string both = carried_text(s);
      const std::size_t bar = both.find(")|(");
      line(depth, "for " + both.substr(0, bar + 1) + " in while_(" + term_text(s.value, DType::Bool) +
                      ", init_values=" + both.substr(bar + 2) + "):");
    }
    body(s.body, depth + 1, s.results);
  }
};

}  // namespace

std::string print_type(const Type& type) {
  switch (type.kind) {
    case TypeKind::Scalar:
      return "Scalar[" + std::string(dtype_name(type.dtype)) + "]";
    case TypeKind::Tuple: {
      std::vector<std::string> items;
      for (const Type& t : type.elements) items.push_back(print_type(t));
      return "Tuple[" + join(items) + "]";
    }
    case TypeKind::Tensor:
    case TypeKind::Tile:
      break;
  }
  std::string text = type.kind == TypeKind::Tensor ? "Tensor[" : "Tile[";
  text += index_list(type.shape) + ", " + std::string(dtype_name(type.dtype));
  if (type.stride) text += ", stride=" + index_list(*type.stride);
  if (type.valid_shape) text += ", valid_shape=" + index_list(*type.valid_shape);
  if (type.offset) text += ", offset=" + index_text(*type.offset);
  return text + "]";
}

std::string print_term(const Term& t) {
  switch (t.kind) {
    case TermKind::Arith:
      return print(t.expr);
    case TermKind::Name:
      return t.name;
    case TermKind::Ellipsis:
      return "...";
    case TermKind::List:
      return "[" + terms_text(t.args) + "]";
    case TermKind::Tuple:
      return "(" + terms_text(t.args) + (t.args.size() == 1 ? ",)" : ")");
    case TermKind::Call: {
      std::string args = terms_text(t.args);
      const std::string kws = keywords_text(t.kwargs);
      if (!kws.empty()) args += (args.empty() ? "" : ", ") + kws;
      return t.name + "(" + args + ")";
    }
    case TermKind::Apply:
      break;
  }
  const OpInfo& info = op_info(t.op);
  if (t.args.size() == 1) {
    if (t.op == Op::Not) return "not " + operand_text(t.args[0]);
    return std::string(info.symbol) + operand_text(t.args[0]);
  }
  return operand_text(t.args[0]) + " " + std::string(info.symbol) + " " + operand_text(t.args[1]);
}

std::string print_program(const Program& program) {
  StmtPrinter printer;
  for (std::size_t i = 0; i < program.functions.size(); ++i) {
    if (i > 0) printer.out += "\n\n";
    printer.function(program.functions[i]);
  }
  return printer.out;
}

}  // namespace eqsat
