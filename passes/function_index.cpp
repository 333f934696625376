#include "passes/function_index.h"

#include <algorithm>

namespace eqsat {

FunctionIndex::FunctionIndex(const Function& function) {
  for (const Param& p : function.params) {
    ++def_count_[p.name];
    defs_[p.name].push_back(-1);
    for_each_type_expr(p.type, [&](const Expr& e) {
      for_each_name(e, [&](const std::string& n) {
        auto [it, fresh] = uses_.try_emplace(n, -1, -1);
        if (!fresh) it->second.first = -1;
      });
    });
  }
  walk(function.body);
}

void FunctionIndex::walk(const Block& block) {
  for (const Stmt& s : block) {
    const int id = next_++;
    for_each_definition(s, [&](const std::string& n) {
      ++def_count_[n];
      defs_[n].push_back(id);  // ids grow: each list stays sorted
    });
    for_each_read(s, [&](const std::string& n) {
      auto [it, fresh] = uses_.try_emplace(n, id, id);
      if (!fresh) {
        it->second.first = std::min(it->second.first, id);
        it->second.second = std::max(it->second.second, id);
      }
    });
    walk(s.body);
    walk(s.orelse);
    spans_[&s] = StmtSpan{id, next_};
  }
}

bool FunctionIndex::multi_assigned(const std::string& name) const {
  auto it = def_count_.find(name);
  return it != def_count_.end() && it->second > 1;
}

std::optional<StmtSpan> FunctionIndex::span(const Stmt& s) const {
  auto it = spans_.find(&s);
  if (it == spans_.end()) return std::nullopt;
  return it->second;
}

bool FunctionIndex::defined_within(const std::string& name, StmtSpan span) const {
  auto it = defs_.find(name);
  if (it == defs_.end()) return false;
  auto pos = std::lower_bound(it->second.begin(), it->second.end(), span.begin);
  return pos != it->second.end() && *pos < span.end;
}

bool FunctionIndex::used_only_within(const std::string& name, int begin, int end) const {
  auto it = uses_.find(name);
  if (it == uses_.end()) return true;
  return it->second.first >= begin && it->second.second < end;
}

}  // namespace eqsat
