#include "ir/stmt.h"

namespace eqsat {

const char* loop_kind_name(LoopKind kind) {
  switch (kind) {
    case LoopKind::Sequential: return "range";
    case LoopKind::Parallel: return "parallel";
    case LoopKind::Unroll: return "unroll";
    case LoopKind::Pipeline: return "pipeline";
  }
  return "range";
}

bool operator==(const Stmt& a, const Stmt& b) {
  return a.kind == b.kind && a.targets == b.targets && a.annotation == b.annotation && a.value == b.value &&
         a.loop_var == b.loop_var && a.loop_kind == b.loop_kind && a.start == b.start && a.stop == b.stop &&
         a.step == b.step && a.attrs == b.attrs && a.carried == b.carried && a.results == b.results &&
         a.values == b.values && a.scope_name == b.scope_name && a.body == b.body && a.orelse == b.orelse;
}

std::size_t count_stmts(const Block& block) {
  std::size_t n = 0;
  for (const Stmt& s : block) n += 1 + count_stmts(s.body) + count_stmts(s.orelse);
  return n;
}

}  // namespace eqsat
