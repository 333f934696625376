#include "passes/stall_watch.h"

#include <algorithm>

#include "extract/extractor.h"

namespace eqsat {

namespace {

// One iteration without improvement stops a run from max_nodes / kNodeLimitShare e-nodes
// on, and never below kMinNodes (a run given a small node limit is stopped by it): far
// above what a case that saturates grows to, and early enough that a runaway stops after
// a few percent of the work the node limit would let it do.
constexpr std::size_t kNodeLimitShare = 20;
constexpr std::size_t kMinNodes = 256;

}  // namespace

StallWatch::StallWatch(const CostProfile& costs, ClassId root, std::size_t max_nodes)
    : costs_(costs), root_(root), impatient_from_nodes_(std::max(max_nodes / kNodeLimitShare, kMinNodes)) {}

bool StallWatch::stalled(const EGraph& egraph) {
  const TreeExtractor& extractor = last_.emplace(egraph, costs_);
  last_epoch_ = egraph.change_epoch();
  last_nodes_ = egraph.num_nodes();
  last_classes_ = egraph.num_classes();
  const ClassId root = egraph.find(root_);
  const Cost cost = extractor.cost(root);
  const uint64_t size = extractor.size(root);
  const bool improved = !seen_ || cost < best_cost_ || (cost == best_cost_ && size < best_size_);
  seen_ = true;
  if (improved) {
    best_cost_ = cost;
    best_size_ = size;
    unimproved_ = 0;
    return false;
  }
  ++unimproved_;
  fired_ = unimproved_ >= kPatience || egraph.num_nodes() >= impatient_from_nodes_;
  return fired_;
}

std::optional<TreeExtractor> StallWatch::take_extractor(const EGraph& egraph, bool saturated) {
  std::optional<TreeExtractor> taken;
  if (last_ && saturated && egraph.change_epoch() == last_epoch_ + 1 && egraph.num_nodes() == last_nodes_ &&
      egraph.num_classes() == last_classes_ && !egraph.needs_rebuild())
    taken.emplace(std::move(*last_));
  last_.reset();
  return taken;
}

}  // namespace eqsat
