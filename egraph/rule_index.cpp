#include "egraph/rule_index.h"

namespace eqsat {

RuleIndex::RuleIndex(std::span<const Rewrite> rewrites) : data_(rewrites.data()), size_(rewrites.size()) {
  auto slot_of = [](const Rewrite& rewrite) {
    const PatternNode& root = rewrite.lhs.root_node();
    return root.kind == PatternNode::Kind::Op ? op_slot(root.op, root.dtype) : unrooted_slot(root.dtype);
  };
  // Counting sort by bucket: positions stay increasing within each.
  std::vector<std::size_t> slots(rewrites.size());
  for (std::size_t r = 0; r < rewrites.size(); ++r) {
    slots[r] = slot_of(rewrites[r]);
    ++starts_[slots[r] + 1];
  }
  for (std::size_t k = 0; k < kBuckets; ++k) starts_[k + 1] += starts_[k];
  positions_.resize(rewrites.size());
  std::array<uint32_t, kBuckets> next{};
  for (std::size_t k = 0; k < kBuckets; ++k) next[k] = starts_[k];
  for (std::size_t r = 0; r < rewrites.size(); ++r) positions_[next[slots[r]]++] = static_cast<uint32_t>(r);
}

}  // namespace eqsat
