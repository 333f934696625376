// Integer intervals: the range analysis of the e-graph.
//
// An interval [lo, hi] says every value an expression can take lies in it; a missing
// side is unbounded. Transfer functions compute the interval of an operation from the
// intervals of its operands, soundly: for INDEX they never overflow (a bound that
// leaves the working range becomes unbounded), and for a fixed-width dtype a result
// that could cross the wrap point widens to the whole type. BOOL values are 0 and 1,
// so a comparison whose interval is [1, 1] is decided True. Floats have no interval
// (`Interval::all()`).
#pragma once

#include <optional>
#include <span>
#include <string>

#include "ir/dtype.h"
#include "ir/int128.h"
#include "ir/op.h"

namespace eqsat {

struct Interval {
  std::optional<Int> lo;  // nullopt: unbounded below
  std::optional<Int> hi;  // nullopt: unbounded above

  static Interval all() { return {}; }
  static Interval point(Int v) { return {v, v}; }
  static Interval range(std::optional<Int> lo, std::optional<Int> hi) { return {lo, hi}; }
  // What a dtype alone guarantees: [min, max] for fixed widths, [0, 1] for BOOL,
  // unbounded for INDEX and floats.
  static Interval of_dtype(DType dtype);

  bool is_point() const { return lo && hi && *lo == *hi; }
  bool contains(Int v) const { return (!lo || *lo <= v) && (!hi || v <= *hi); }
  bool is_all() const { return !lo && !hi; }
  // True when `other` describes every value this one does (this is a subset of it).
  bool within(const Interval& other) const;

  // The tighter of two facts about the same value. If they contradict (empty
  // intersection) the facts are unsatisfiable; we keep `*this` so that nothing is
  // concluded from a contradiction.
  Interval intersect(const Interval& other) const;
  // The smallest interval holding both (for select and merges of alternatives).
  Interval hull(const Interval& other) const;

  friend bool operator==(const Interval&, const Interval&) = default;
  std::string to_string() const;  // "[0, 7]", "[-inf, 3]", "[0, inf]"
};

// The interval of `op` applied to operands with intervals `args`.
//   result:   the node's dtype (BOOL for comparisons, the target for Cast)
//   operand:  the dtype of the operands (for Cast, the source dtype; for Select, the
//             branches' dtype)
// The result is always within Interval::of_dtype(result).
Interval interval_of(Op op, DType result, DType operand, std::span<const Interval> args);

}  // namespace eqsat
