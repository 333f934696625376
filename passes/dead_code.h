// Dead code elimination for the Simplify pass, conservative by construction:
//
//   - an assignment whose targets nobody reads (anywhere in the function) is removed if
//     its value calls nothing: a call may have side effects, so an assignment from a
//     call is always kept;
//   - with `prune_slots`, a loop-carried slot whose variable is read neither in the body
//     nor (as the result) after the loop is removed with its initial value and its
//     yielded value, and an `if` result nobody reads is removed with the values both arms
//     yield for it; never when one of those values calls something;
//   - a yield left with no values is removed (the body repair).
//
// Statements are swept last to first, so a chain of dead assignments goes in one sweep;
// sweeps repeat until nothing changes.
#pragma once

#include "ir/stmt.h"

namespace eqsat {

struct DeadCodeStats {
  int statements_removed = 0;
  int slots_pruned = 0;
};

void eliminate_dead_code(Function& function, bool prune_slots, DeadCodeStats& stats);

}  // namespace eqsat
