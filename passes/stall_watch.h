// Stopping a saturation that no longer makes the expression better.
//
// Rule sets like ours never saturate on some terms, yet find the best form early. A
// class that holds its own quotient plus a constant (the class of `x % 2 + 1` holds
// `(x % 2 + 1) // 2 + 1`) lets `x // c1 + c2 => (x + c1*c2) // c1` and
// `(x + c1) + c2 => x + (c1 + c2)` make a new constant and a new class every
// iteration, the e-graph growing 2-3x per iteration up to the node limit: tvm's
// `(x + 1) // 2 - x // 2` is `x % 2` after 5 iterations and then spent 0.5 s growing to
// 10,000 e-nodes for nothing. Others saturate, but only after many iterations that
// rewrite subterms of a root already in its best form (Halide's `x // 3 * 3 + y + x % 3`
// is `x + y` from the first linear normal form on, and saturates after 9 iterations).
// egg's backoff scheduler slows rules down but keeps such runs going.
//
// The watch is asked after each iteration (run_rewrites' `reached`). It extracts the
// root's best tree (cost, then size: the extractor's order) and stops the run when the
// last kPatience iterations did not improve it, or the last one did not once the
// e-graph is past a twentieth of the node limit (500 e-nodes by default, never fewer
// than 256; no case of the external corpora outside the runaways grows past 210), where
// each further iteration costs 2-3x the one before. What the run found so far is kept:
// the e-graph still holds everything the earlier iterations added.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "egraph/class_id.h"
#include "egraph/egraph.h"
#include "extract/cost.h"
#include "extract/extractor.h"

namespace eqsat {

class StallWatch {
 public:
  // Iterations in a row that may leave the root's best tree as it was (a small e-graph).
  static constexpr int kPatience = 4;

  // Watches the class `root` of runs limited to `max_nodes` e-nodes.
  StallWatch(const CostProfile& costs, ClassId root, std::size_t max_nodes);

  // Whether the run should stop (see above). Call once per iteration, on a rebuilt
  // e-graph; the first call only measures.
  bool stalled(const EGraph& egraph);

  // Whether stalled() ever said true.
  bool fired() const { return fired_; }

  // The tree extractor of the last measurement, when `egraph` is still as it was then
  // (nullopt otherwise). A run that ends saturated ends with an iteration that changed
  // nothing, begun by a measurement: its caller need not extract again. The e-graph is
  // taken as unchanged when exactly one search happened since (one change epoch: see
  // EGraph::change_epoch), `saturated` says that search's matches changed nothing, and
  // its counts of e-nodes and e-classes agree.
  std::optional<TreeExtractor> take_extractor(const EGraph& egraph, bool saturated);

  // From how many e-nodes on one iteration without improvement stops the run.
  std::size_t impatient_from_nodes() const { return impatient_from_nodes_; }

 private:
  const CostProfile& costs_;
  ClassId root_;
  std::size_t impatient_from_nodes_;
  bool seen_ = false;  // whether best_cost_/best_size_ hold a measurement
  Cost best_cost_ = Cost::infinite();
  uint64_t best_size_ = 0;
  int unimproved_ = 0;  // iterations in a row since the best tree last improved
  bool fired_ = false;
  std::optional<TreeExtractor> last_;  // the extractor of the last measurement
  uint32_t last_epoch_ = 0;            // the e-graph's change epoch, nodes and classes then
  std::size_t last_nodes_ = 0, last_classes_ = 0;
};

}  // namespace eqsat
