#include "ir/term.h"

namespace eqsat {

Term Term::arith(Expr e) {
  Term t;
  t.kind = TermKind::Arith;
  t.expr = std::move(e);
  return t;
}

Term Term::opaque_name(std::string name) {
  Term t;
  t.kind = TermKind::Name;
  t.name = std::move(name);
  return t;
}

Term Term::call(std::string callee, std::vector<Term> args, std::vector<Keyword> kwargs) {
  Term t;
  t.kind = TermKind::Call;
  t.name = std::move(callee);
  t.args = std::move(args);
  t.kwargs = std::move(kwargs);
  return t;
}

bool operator==(const Term& a, const Term& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case TermKind::Arith:
      return a.expr == b.expr;
    case TermKind::Name:
      return a.name == b.name;
    case TermKind::Call:
      return a.name == b.name && a.args == b.args && a.kwargs == b.kwargs;
    case TermKind::Apply:
      return a.op == b.op && a.args == b.args;
    case TermKind::List:
    case TermKind::Tuple:
      return a.args == b.args;
    case TermKind::Ellipsis:
      return true;
  }
  return false;
}

bool contains_call(const Term& term) {
  if (term.kind == TermKind::Call) return true;
  for (const Term& arg : term.args) {
    if (contains_call(arg)) return true;
  }
  return false;
}

void for_each_name(const Expr& expr, const std::function<void(const std::string&)>& f) {
  if (expr.op() == Op::Var) {
    f(expr.name());
    return;
  }
  for (const Expr& arg : expr.args()) for_each_name(arg, f);
}

void for_each_name(const Term& term, const std::function<void(const std::string&)>& f) {
  switch (term.kind) {
    case TermKind::Arith:
      for_each_name(term.expr, f);
      return;
    case TermKind::Name:
      f(term.name);
      return;
    default:
      break;
  }
  for (const Term& arg : term.args) for_each_name(arg, f);
  for (const Keyword& kw : term.kwargs) for_each_name(kw.value, f);
}

Term map_term(const Term& term, const std::function<Term(const Expr&)>& f,
              const std::function<Term(const std::string&)>& g) {
  switch (term.kind) {
    case TermKind::Arith:
      return f(term.expr);
    case TermKind::Name:
      return g(term.name);
    default:
      break;
  }
  Term out = term;
  for (Term& arg : out.args) arg = map_term(arg, f, g);
  for (Keyword& kw : out.kwargs) kw.value = map_term(kw.value, f, g);
  return out;
}

}  // namespace eqsat
