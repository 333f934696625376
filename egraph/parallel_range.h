// Running a loop body over [0, n) on TBB threads, or on the calling thread alone.
//
// The e-graph's batch steps (the rebuild's repair and congruence rounds, the apply's
// batch of new nodes) split their work by index: each index's work is independent of
// the others', so the result is the same however the range is cut. Below `grain`
// indices, or with one thread, the loop runs in place: starting tasks would cost more
// than it saves. Called from within the task arena of the run (runner.cpp), the TBB
// loop uses that arena's threads.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <cstddef>

namespace eqsat {

template <class Body>
void for_range(unsigned threads, std::size_t n, std::size_t grain, Body&& body) {
  if (threads > 1 && n > grain) {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, grain), [&](const tbb::blocked_range<std::size_t>& range) {
      for (std::size_t i = range.begin(); i != range.end(); ++i) body(i);
    });
  } else {
    for (std::size_t i = 0; i < n; ++i) body(i);
  }
}

}  // namespace eqsat
