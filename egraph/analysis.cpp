#include "egraph/analysis.h"

#include <cassert>

namespace eqsat {

JoinResult join_class_data(ClassData& into, const ClassData& incoming) {
  assert(into.dtype == incoming.dtype && "merged e-classes of different dtypes");
  JoinResult result;
  if (incoming.constant) {
    if (!into.constant) {
      into.constant = incoming.constant;
      result.changed = true;
    } else if (*into.constant != *incoming.constant) {
      // Only possible under contradictory assumptions (the facts have no model), where
      // any conclusion is vacuously sound. Keep the first value and report it.
      result.contradiction = true;
    }
  }
  Interval tighter = into.interval.intersect(incoming.interval);
  if (tighter != into.interval) {
    into.interval = tighter;
    result.changed = true;
  }
  Congruence finer = into.congruence.intersect(incoming.congruence);
  if (finer != into.congruence) {
    into.congruence = finer;
    result.changed = true;
  }
  if (incoming.total && !into.total) {
    into.total = true;
    result.changed = true;
  }
  return result;
}

}  // namespace eqsat
