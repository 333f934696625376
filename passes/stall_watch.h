// Stopping a saturation that only grows: once the e-graph is large, a run whose
// iterations no longer make the simplified expression cheaper is stopped.
//
// Some rule sets never saturate on some terms, yet find the best form early. A class
// that is its own `c + c1` (the class of `x % 2 + 1` holds `(x % 2 + 1) // 2 + 1`) lets
// `x // c1 + c2 => (x + c1*c2) // c1` and `(x + c1) + c2 => x + (c1 + c2)` make a new
// constant and a new class every iteration, the e-graph growing 2-3x per iteration up
// to the node limit: tvm's `(x + 1) // 2 - x // 2` is `x % 2` after 5 iterations and
// then spent 0.5 s growing to 10,000 e-nodes for nothing. egg's backoff scheduler
// slows such rules down but keeps the run going (to the iteration limit instead).
//
// The watch is asked after each iteration (run_rewrites' `reached`). Small e-graphs are
// never stopped: it looks only from a twentieth of the node limit on, and from 256
// e-nodes at least (500 e-nodes by default; no case of the external corpora outside these runaways grows past 210).
// From there it extracts the root's best tree (cost, then size, the extractor's order) after each iteration, and stops
// the run at the first iteration that did not improve it. What the run found so far is kept: the result is the one the
// node limit would give whenever the best form does not change in the last iterations, which is what a runaway looks
// like. A run that keeps improving is not stopped.
#pragma once

#include <cstddef>
#include <cstdint>

#include "egraph/class_id.h"
#include "egraph/egraph.h"
#include "extract/cost.h"

namespace eqsat {

class StallWatch {
 public:
  // Watches the class `root` of runs limited to `max_nodes` e-nodes.
  StallWatch(const CostProfile& costs, ClassId root, std::size_t max_nodes);

  // Whether the run should stop: the e-graph is past the watch's size and its last
  // iteration did not make the root's best tree cheaper (or smaller at the same cost).
  // Call once per iteration, on a rebuilt e-graph.
  bool stalled(const EGraph& egraph);

  // Whether stalled() ever said true.
  bool fired() const { return fired_; }

  // From how many e-nodes on the watch looks.
  std::size_t from_nodes() const { return from_nodes_; }

 private:
  const CostProfile& costs_;
  ClassId root_;
  std::size_t from_nodes_;
  bool seen_ = false;  // whether best_cost_/best_size_ hold a measurement
  Cost best_cost_ = Cost::infinite();
  uint64_t best_size_ = 0;
  bool fired_ = false;
};

}  // namespace eqsat
