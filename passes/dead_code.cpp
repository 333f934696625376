#include "passes/dead_code.h"

#include <algorithm>
#include <unordered_map>

namespace eqsat {

namespace {

class DeadCode {
 public:
  DeadCode(Function& f, bool prune_slots, DeadCodeStats& stats) : f_(f), prune_(prune_slots), stats_(stats) {}

  void run() {
    while (true) {
      count_uses();
      changed_ = false;
      sweep(f_.body);
      if (!changed_) break;
    }
  }

 private:
  void add(const std::string& n) { ++uses_[n]; }
  void drop(const std::string& n) { --uses_[n]; }
  int uses(const std::string& n) const {
    auto it = uses_.find(n);
    return it == uses_.end() ? 0 : it->second;
  }

  void count_uses() {
    uses_.clear();
    auto reader = [this](const std::string& n) { add(n); };
    for (const Param& p : f_.params) for_each_type_expr(p.type, [&](const Expr& e) { for_each_name(e, reader); });
    if (f_.result) for_each_type_expr(*f_.result, [&](const Expr& e) { for_each_name(e, reader); });
    count_block(f_.body, reader);
  }
  void count_block(const Block& b, const std::function<void(const std::string&)>& reader) {
    for (const Stmt& s : b) {
      for_each_read(s, reader);
      count_block(s.body, reader);
      count_block(s.orelse, reader);
    }
  }

  void forget_reads(const Stmt& s) {
    for_each_read(s, [this](const std::string& n) { drop(n); });
  }
  void forget_block(const Block& b) {
    for (const Stmt& s : b) {
      forget_reads(s);
      forget_block(s.body);
      forget_block(s.orelse);
    }
  }
  void forget_term(const Term& t) {
    for_each_name(t, [this](const std::string& n) { drop(n); });
  }

  static bool yields(const Block& b) { return !b.empty() && b.back().kind == StmtKind::Yield; }

  bool removable(const Stmt& s) const {
    if (s.kind != StmtKind::Assign || contains_call(s.value)) return false;
    return std::all_of(s.targets.begin(), s.targets.end(), [this](const std::string& t) { return uses(t) == 0; });
  }

  void prune_loop(Stmt& s) {
    if (!yields(s.body)) return;
    Stmt& y = s.body.back();
    for (std::size_t k = s.carried.size(); k-- > 0;) {
      const bool result_dead = s.results.empty() || uses(s.results[k]) == 0;
      if (uses(s.carried[k].name) != 0 || !result_dead || contains_call(s.carried[k].init) ||
          contains_call(y.values[k]))
        continue;
      forget_term(s.carried[k].init);
      forget_term(y.values[k]);
      s.carried.erase(s.carried.begin() + long(k));
      y.values.erase(y.values.begin() + long(k));
      if (!s.results.empty()) s.results.erase(s.results.begin() + long(k));
      ++stats_.slots_pruned;
      changed_ = true;
    }
  }

  void prune_if(Stmt& s) {
    if (s.results.empty() || !yields(s.body) || !yields(s.orelse)) return;
    Stmt& a = s.body.back();
    Stmt& b = s.orelse.back();
    for (std::size_t k = s.results.size(); k-- > 0;) {
      if (uses(s.results[k]) != 0 || contains_call(a.values[k]) || contains_call(b.values[k])) continue;
      forget_term(a.values[k]);
      forget_term(b.values[k]);
      a.values.erase(a.values.begin() + long(k));
      b.values.erase(b.values.begin() + long(k));
      s.results.erase(s.results.begin() + long(k));
      ++stats_.slots_pruned;
      changed_ = true;
    }
  }

  // A yield with nothing left to yield goes (its statement has no slots left).
  void repair(Block& b) {
    if (yields(b) && b.back().values.empty()) {
      b.pop_back();
      changed_ = true;
    }
  }

  void sweep(Block& block) {
    Block kept;
    kept.reserve(block.size());
    for (std::size_t i = block.size(); i-- > 0;) {
      Stmt& s = block[i];
      if (prune_ && (s.kind == StmtKind::For || s.kind == StmtKind::While)) prune_loop(s);
      if (prune_ && s.kind == StmtKind::If) prune_if(s);
      sweep(s.body);
      sweep(s.orelse);
      if (s.kind == StmtKind::For || s.kind == StmtKind::While) {
        if (s.carried.empty()) repair(s.body);
      }
      if (s.kind == StmtKind::If && s.results.empty()) {
        repair(s.body);
        repair(s.orelse);
      }
      if (removable(s)) {
        forget_reads(s);
        ++stats_.statements_removed;
        changed_ = true;
        continue;
      }
      kept.push_back(std::move(s));
    }
    std::reverse(kept.begin(), kept.end());
    block = std::move(kept);
  }

  Function& f_;
  bool prune_;
  DeadCodeStats& stats_;
  std::unordered_map<std::string, int> uses_;
  bool changed_ = false;
};

}  // namespace

void eliminate_dead_code(Function& function, bool prune_slots, DeadCodeStats& stats) {
  DeadCode(function, prune_slots, stats).run();
}

}  // namespace eqsat
