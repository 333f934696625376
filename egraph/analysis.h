// The analyses every e-class carries: its dtype, its constant value when known, an
// integer interval, a congruence (x ≡ r mod m; INDEX only) and whether it is total.
// They are one semilattice per class: `make` computes the data of a new node from its
// children, `join` combines the data of two merged classes and says whether the result
// differs from what the class had.
#pragma once

#include <optional>

#include "egraph/congruence.h"
#include "egraph/interval.h"
#include "ir/value.h"

namespace eqsat {

struct ClassData {
  DType dtype = DType::Index;
  std::optional<Value> constant;  // the class is equal to this constant
  Interval interval;              // every value of the class lies in it (integers, BOOL)
  Congruence congruence;          // every value of the class satisfies it (INDEX only)
  // The class holds a term defined for every input: a variable, a constant, or an
  // operation that is never undefined (not is_partial, ir/definedness.h) on total
  // classes. Under the e-graph's nnan or ninf (EGraph::set_fast_math) a float
  // variable, a poison literal and float arithmetic are not total. The guard
  // `total(x)` reads it: `x and y => y and x` needs y total, since `and`/`or`
  // short-circuit (docs/rules.md).
  bool total = false;

  friend bool operator==(const ClassData&, const ClassData&) = default;
};

// What changed when `incoming` was joined into `into`.
struct JoinResult {
  bool changed = false;        // `into` is more precise than before
  bool contradiction = false;  // the two sides had different constants
};

// Joins the facts of `incoming` into `into` (both describe the same value).
JoinResult join_class_data(ClassData& into, const ClassData& incoming);

}  // namespace eqsat
