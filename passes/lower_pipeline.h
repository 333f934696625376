// Pipeline-loop replication (seed 003's LowerPipelineLoops):
//
//   for i in pipeline(start, stop, step, stage=F):      for i in range(start, main_stop, F*step):
//       body(i)                                   =>        body(i)
//                                                           body(i + step)
//                                                           ...
//                                                           body(i + (F-1)*step)
//                                                       for i in range(main_stop, stop, step):
//                                                           body(i)                 # the tail
//
// where main_stop = start + (trips // F) * F * step covers the whole groups of F
// iterations and the tail runs the remaining trips % F. Replica k reads the index as
// `i + k*step`; its definitions get fresh names (the last replica keeps the original
// ones, so that a read after the loop sees the last iteration's values). Loop-carried
// values pass from replica to replica by assignment.
//
// Simplify then decides each replica's predicates from the main loop's range: a
// replica's `i + k*step == 0` folds to False when no iteration reaches zero, and stays
// when one does (pipeline(-2, 6, 2, stage=2) runs replica 1 at 0 and 4).
//
// Only loops with constant start, stop, step > 0 and stage >= 1 are replicated; the
// trip arithmetic is done in 128 bits and a loop whose bounds would leave that range is
// kept as written, so int64 edges neither overflow nor fold wrongly.
#pragma once

#include "ir/stmt.h"

namespace eqsat {

struct LowerPipelineStats {
  int loops_replicated = 0;
};

Function lower_pipeline_loops(const Function& function, LowerPipelineStats& stats);

}  // namespace eqsat
