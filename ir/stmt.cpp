#include "ir/stmt.h"

namespace eqsat {

const char* loop_kind_name(LoopKind kind) {
  switch (kind) {
    case LoopKind::Sequential:
      return "range";
    case LoopKind::Parallel:
      return "parallel";
    case LoopKind::Unroll:
      return "unroll";
    case LoopKind::Pipeline:
      return "pipeline";
  }
  return "range";
}

bool operator==(const Stmt& a, const Stmt& b) {
  return a.kind == b.kind && a.targets == b.targets && a.annotation == b.annotation && a.value == b.value &&
         a.loop_var == b.loop_var && a.loop_kind == b.loop_kind && a.start == b.start && a.stop == b.stop &&
         a.step == b.step && a.attrs == b.attrs && a.carried == b.carried && a.results == b.results &&
         a.values == b.values && a.scope_name == b.scope_name && a.body == b.body && a.orelse == b.orelse;
}

void for_each_read(const Stmt& s, const std::function<void(const std::string&)>& f) {
  switch (s.kind) {
    case StmtKind::Assign:
    case StmtKind::Eval:
    case StmtKind::If:
    case StmtKind::While:
      for_each_name(s.value, f);
      break;
    default:
      break;
  }
  if (s.annotation) for_each_type_expr(*s.annotation, [&](const Expr& e) { for_each_name(e, f); });
  if (s.kind == StmtKind::For) {
    for_each_name(s.start, f);
    for_each_name(s.stop, f);
    for_each_name(s.step, f);
  }
  for (const Keyword& kw : s.attrs) for_each_name(kw.value, f);
  for (const Carried& c : s.carried) for_each_name(c.init, f);
  for (const Term& t : s.values) for_each_name(t, f);
}

void for_each_definition(const Stmt& s, const std::function<void(const std::string&)>& f) {
  for (const std::string& t : s.targets) f(t);
  if (s.kind == StmtKind::For) f(s.loop_var);
  for (const Carried& c : s.carried) f(c.name);
  for (const std::string& r : s.results) f(r);
}

std::size_t count_stmts(const Block& block) {
  std::size_t n = 0;
  for (const Stmt& s : block) n += 1 + count_stmts(s.body) + count_stmts(s.orelse);
  return n;
}

}  // namespace eqsat
