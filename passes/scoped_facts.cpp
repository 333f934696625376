#include "passes/scoped_facts.h"

namespace eqsat {

namespace {

bool mentions(const Expr& e, const std::string& name) {
  if (e.op() == Op::Var) return e.name() == name;
  for (const Expr& arg : e.args()) {
    if (mentions(arg, name)) return true;
  }
  return false;
}

}  // namespace

void ScopedFacts::set(const std::string& name, Known known) {
  Entry entry;
  entry.name = name;
  if (auto it = known_.find(name); it != known_.end()) entry.previous = it->second;
  // Facts about the old value of `name` no longer hold.
  bool any = false;
  for (const Expr& a : assumptions_) any = any || mentions(a, name);
  if (any) {
    entry.assumptions_replaced = true;
    entry.previous_assumptions = assumptions_;
    std::vector<Expr> kept;
    for (const Expr& a : assumptions_) {
      if (!mentions(a, name)) kept.push_back(a);
    }
    assumptions_ = std::move(kept);
  }
  log_.push_back(std::move(entry));
  if (known.constant || known.alias || known.interval) {
    known_[name] = std::move(known);
  } else {
    known_.erase(name);
  }
}

void ScopedFacts::bind_constant(const std::string& name, const Expr& value) { set(name, Known{value, {}, {}}); }
void ScopedFacts::bind_alias(const std::string& name, const Term& value) { set(name, Known{{}, value, {}}); }
void ScopedFacts::bind_interval(const std::string& name, const Interval& interval) {
  set(name, Known{{}, {}, interval});
}
void ScopedFacts::forget(const std::string& name) {
  if (known_.count(name) == 0) {
    bool any = false;
    for (const Expr& a : assumptions_) any = any || mentions(a, name);
    if (!any) return;
  }
  set(name, Known{});
}

void ScopedFacts::narrow(const std::string& name, const Interval& interval) {
  Entry entry;
  entry.name = name;
  Known known;
  if (auto it = known_.find(name); it != known_.end()) {
    entry.previous = it->second;
    known = it->second;
  }
  known.interval = known.interval ? known.interval->intersect(interval) : interval;
  log_.push_back(std::move(entry));
  known_[name] = std::move(known);
}

void ScopedFacts::assume(const Expr& condition) {
  assumptions_.push_back(condition);
  log_.push_back(Entry{});
}

void ScopedFacts::restore(std::size_t mark) {
  while (log_.size() > mark) {
    Entry& entry = log_.back();
    if (entry.name.empty()) {
      assumptions_.pop_back();
    } else {
      if (entry.assumptions_replaced) assumptions_ = std::move(entry.previous_assumptions);
      if (entry.previous) {
        known_[entry.name] = std::move(*entry.previous);
      } else {
        known_.erase(entry.name);
      }
    }
    log_.pop_back();
  }
}

const Expr* ScopedFacts::constant(const std::string& name) const {
  auto it = known_.find(name);
  return it != known_.end() && it->second.constant ? &*it->second.constant : nullptr;
}
const Term* ScopedFacts::alias(const std::string& name) const {
  auto it = known_.find(name);
  return it != known_.end() && it->second.alias ? &*it->second.alias : nullptr;
}
const Interval* ScopedFacts::interval(const std::string& name) const {
  auto it = known_.find(name);
  return it != known_.end() && it->second.interval ? &*it->second.interval : nullptr;
}

}  // namespace eqsat
