// What the Simplify pass knows at a point of a function, scoped to regions.
//
// Four kinds of facts, each about a name:
//   constant    the name holds this literal: uses are replaced by it
//   alias       the name stands for this term (a variable it was assigned, or a value a
//               folded `if` or loop yielded): uses are replaced by it
//   interval    the name's value lies in this interval (a loop range, a symbolic value's
//               range, a branch condition on it): used for deciding, never substituted
//   assumption  this BOOL expression holds (a branch condition)
//
// Every change is logged. `mark()` gives the log position on entering a region and
// `restore(mark)` undoes back to it on exit, so the enclosing facts come back exactly
// (a binding made in a loop body or a branch arm never leaks out of it).
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "egraph/interval.h"
#include "ir/term.h"

namespace eqsat {

class ScopedFacts {
 public:
  std::size_t mark() const { return log_.size(); }
  void restore(std::size_t mark);

  // Binding a name replaces what was known about it (and drops the assumptions that
  // mention it); `forget` only drops.
  void bind_constant(const std::string& name, const Expr& value);
  void bind_alias(const std::string& name, const Term& value);
  void bind_interval(const std::string& name, const Interval& interval);
  void forget(const std::string& name);
  // Narrows the interval of a name already known (a branch condition `i < 4`).
  void narrow(const std::string& name, const Interval& interval);
  void assume(const Expr& condition);

  const Expr* constant(const std::string& name) const;
  const Term* alias(const std::string& name) const;
  const Interval* interval(const std::string& name) const;
  const std::vector<Expr>& assumptions() const { return assumptions_; }

 private:
  struct Known {
    std::optional<Expr> constant;
    std::optional<Term> alias;
    std::optional<Interval> interval;
  };
  struct Entry {
    std::string name;  // empty: an assumption was pushed
    std::optional<Known> previous;
    std::vector<Expr> previous_assumptions;  // set when assumptions were dropped
    bool assumptions_replaced = false;
  };

  void set(const std::string& name, Known known);

  std::map<std::string, Known> known_;
  std::vector<Expr> assumptions_;
  std::vector<Entry> log_;
};

}  // namespace eqsat
