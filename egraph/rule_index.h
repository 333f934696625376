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

#include "egraph/match_program.h"
#include "egraph/rewrite.h"
#include "ir/dtype.h"
#include "ir/fast_math.h"
#include "ir/op.h"

namespace eqsat {

// What the classes under the root of a rewrite's left side must hold for it to match:
// for each operand, a set of bits (see class_summary_bit) of which the operand's class
// must have one (0: anything). Only a necessary condition, checked before matching.
struct RootShape {
  std::array<uint64_t, 3> operand_needs{};
  // The operands of a commutative operation may be matched in either order: each need
  // is then met if some operand's class meets it.
  bool any_order = false;
};

// The bit of an operation in a class summary (the operations of the class's nodes),
// and the bit for "the class's value is a known constant".
inline uint64_t class_summary_bit(Op op) { return uint64_t{1} << static_cast<unsigned>(op); }
inline constexpr uint64_t kKnownConstantBit = uint64_t{1} << 63;
static_assert(kNumOps < 63, "a class summary has one bit per operation and one for constants");

// Whether operands whose classes hold `held` (their class summaries, in operand order)
// meet what `shape` needs: the check before running a rewrite's matcher on a node.
inline bool operands_meet(const RootShape& shape, const std::array<uint64_t, 3>& held) {
  bool met = true;
  if (shape.any_order) {
    const uint64_t any = held[0] | held[1] | held[2];
    for (uint64_t need : shape.operand_needs) met = met && (need == 0 || (any & need) != 0);
  } else {
    for (std::size_t i = 0; i < held.size(); ++i)
      met = met && (shape.operand_needs[i] == 0 || (held[i] & shape.operand_needs[i]) != 0);
  }
  return met;
}

// The root of a rewrite's left side and the fast-math flags it needs, by position: what
// the runner reads to decide which rewrites an iteration searches where, kept apart
// from the rewrites (large records, a cache miss or two apiece) in one small array.
struct RuleRoot {
  Op op = Op::Var;
  DType dtype = DType::Index;
  bool rooted = false;  // the left side is an operation (not a variable or a constant)
  FastMath fast_math;
  // The union of its RootShape's operand needs. Each need is one bit, so the rewrite
  // can match only in an e-graph some of whose classes hold every bit of it: the
  // runner's first test, one mask per rewrite (see may_match_somewhere).
  uint64_t needs = 0;

  // Whether its RootShape needs something of some operand.
  bool constrained() const { return needs != 0; }
};

// Whether a rewrite with root `root` may match in an e-graph whose classes together
// hold `held_anywhere` (the union of their summaries): each operand need is a single
// bit, which some class must hold.
inline bool may_match_somewhere(const RuleRoot& root, uint64_t held_anywhere) {
  return (root.needs & ~held_anywhere) == 0;
}

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
  // The shape of the rewrite at `position` (operand needs all 0 for an unrooted one).
  const RootShape& shape(std::size_t position) const { return shapes_[position]; }
  // The root of the rewrite at `position`.
  const RuleRoot& root(std::size_t position) const { return roots_[position]; }
  // The bucket (rooted_at or unrooted list) holding the rewrite at `position`, a number
  // below num_buckets().
  uint32_t bucket_of(std::size_t position) const {
    const RuleRoot& r = roots_[position];
    return static_cast<uint32_t>(r.rooted ? op_slot(r.op, r.dtype) : unrooted_slot(r.dtype));
  }
  static constexpr std::size_t num_buckets() { return kBuckets; }
  // The left side of the rewrite at `position`, compiled for the search.
  const MatchProgram& program(std::size_t position) const { return programs_[position]; }

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
  std::vector<RootShape> shapes_;       // by position
  std::vector<RuleRoot> roots_;         // by position
  std::vector<MatchProgram> programs_;  // by position
};

}  // namespace eqsat
