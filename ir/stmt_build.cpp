#include "ir/stmt_build.h"

namespace eqsat::build {

Param param(std::string name, Type type) { return Param{std::move(name), std::move(type)}; }

Function function(std::string name, std::vector<Param> params, Block body, std::optional<Type> result) {
  Function f;
  f.name = std::move(name);
  f.params = std::move(params);
  f.body = std::move(body);
  f.result = std::move(result);
  return f;
}

Term call(std::string callee, std::vector<Term> args) { return Term::call(std::move(callee), std::move(args)); }

Stmt assign(std::string target, Term value) {
  Stmt s;
  s.kind = StmtKind::Assign;
  s.targets = {std::move(target)};
  s.value = std::move(value);
  return s;
}

Stmt assign(std::string target, const Expr& value) { return assign(std::move(target), Term::arith(value)); }

Stmt eval(Term call) {
  Stmt s;
  s.kind = StmtKind::Eval;
  s.value = std::move(call);
  return s;
}

Stmt for_range(std::string loop_var, Expr start, Expr stop, Expr step, Block body, LoopKind kind) {
  for (const Expr* bound : {&start, &stop, &step}) {
    if (!bound->valid() || bound->dtype() != DType::Index) throw TypeError("for_range: start, stop, step are INDEX");
  }
  Stmt s;
  s.kind = StmtKind::For;
  s.loop_var = std::move(loop_var);
  s.loop_kind = kind;
  s.start = std::move(start);
  s.stop = std::move(stop);
  s.step = std::move(step);
  s.body = body.empty() ? Block{Stmt{}} : std::move(body);  // an empty body is `pass`
  return s;
}

Stmt if_then(const Expr& condition, Block then_arm, Block else_arm) {
  if (!condition.valid() || condition.dtype() != DType::Bool) throw TypeError("if_then: the condition is BOOL");
  Stmt s;
  s.kind = StmtKind::If;
  s.value = Term::arith(condition);
  s.body = then_arm.empty() ? Block{Stmt{}} : std::move(then_arm);
  s.orelse = std::move(else_arm);
  return s;
}

Stmt return_values(std::vector<Term> values) {
  Stmt s;
  s.kind = StmtKind::Return;
  s.values = std::move(values);
  return s;
}

}  // namespace eqsat::build
