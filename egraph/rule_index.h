// Rewrites indexed by the operation and dtype at the root of their left side.
//
// A catalogue has a few thousand rewrites (a rule has an instance per dtype), but an
// e-graph of one small expression holds a handful of operations in a dtype or two:
// most rewrites cannot match anything in it. The runner asks the index for the
// rewrites whose root (operation, dtype) occurs in the e-graph, instead of looking at
// every rewrite in every iteration (a scan that touches each rewrite's pattern, a
// cache miss or two apiece, and was most of the time of a small case).
//
// The index keeps the position of each rewrite in the span it was built from, so the
// runner still searches and applies in rewrite order: results do not depend on it.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "egraph/rewrite.h"
#include "ir/dtype.h"
#include "ir/op.h"

namespace eqsat {

class RuleIndex {
 public:
  RuleIndex() = default;
  explicit RuleIndex(std::span<const Rewrite> rewrites);

  // Whether this index was built from exactly these rewrites (the same storage).
  bool indexes(std::span<const Rewrite> rewrites) const { return rewrites.data() == data_ && rewrites.size() == size_; }
  std::size_t size() const { return size_; }

  // Positions of the rewrites whose left side is an operation `op` of `dtype`, in
  // increasing order.
  std::span<const uint32_t> rooted_at(Op op, DType dtype) const { return bucket(op_slot(op, dtype)); }
  // Positions of the rewrites whose left side is a variable or a constant of `dtype`
  // (tried on every class), in increasing order.
  std::span<const uint32_t> unrooted(DType dtype) const { return bucket(unrooted_slot(dtype)); }

 private:
  // Buckets: one per (operation, dtype), then one per dtype for the other roots.
  static constexpr std::size_t kBuckets = (kNumOps + 1) * kNumDTypes;
  static std::size_t op_slot(Op op, DType dtype) {
    return static_cast<std::size_t>(op) * kNumDTypes + static_cast<std::size_t>(dtype);
  }
  static std::size_t unrooted_slot(DType dtype) { return kNumOps * kNumDTypes + static_cast<std::size_t>(dtype); }
  std::span<const uint32_t> bucket(std::size_t slot) const {
    if (positions_.empty()) return {};
    return std::span<const uint32_t>(positions_.data() + starts_[slot], positions_.data() + starts_[slot + 1]);
  }

  const Rewrite* data_ = nullptr;
  std::size_t size_ = 0;
  // All positions, bucket after bucket; bucket k is [starts_[k], starts_[k + 1]).
  std::vector<uint32_t> positions_;
  std::array<uint32_t, kBuckets + 1> starts_{};
};

}  // namespace eqsat
