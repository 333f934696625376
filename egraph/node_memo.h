// The hash-cons of an e-graph: canonical e-node -> its class.
//
// An open-addressing table (linear probing, deletion by backward shift, so no
// tombstones) of e-nodes stored inline. Compared with std::unordered_map it allocates
// nothing per entry and a lookup touches one or two cache lines, which matters because
// every node added and every node re-canonicalized by a rebuild is looked up. The
// table is never iterated, so its order (which depends on hashing) cannot leak into
// results. `clear` keeps the storage for the next case.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "egraph/class_id.h"
#include "egraph/enode.h"
#include "egraph/large_arrays.h"

namespace eqsat {

class NodeMemo {
 public:
  std::size_t size() const { return size_; }

  // The class recorded for `node`, invalid if absent. (A ClassId, not an optional
  // one: GCC builds a std::optional<ClassId> in memory a byte and a word at a time
  // and reads it back whole, a failed store forward on every lookup.)
  ClassId find(const ENode& node) const {
    if (slots_.empty()) return ClassId();
    return find_from(home(node), node);
  }

  // Lookups in two steps, for a caller with many to make (egraph/instance_lookup.h):
  // `home_of` is the slot where the lookup of `node` starts (the table must not be
  // empty: `slots()` > 0), computed once, so that the caller can fetch that slot a few
  // lookups ahead (`prefetch_home`) and then look up from it (`find_from`).
  std::size_t slots() const { return slots_.size(); }
  std::size_t home_of(const ENode& node) const { return home(node); }
  // home_of the node of an operation with these operands (payload 0), hashed from them
  // where they are, not from a node just written (a read of what was just stored).
  std::size_t home_of_operation(Op op, DType dtype, const ClassId* children, std::size_t arity) const {
    return home_of_hash(hash_node_fields(op, dtype, 0, children, arity));
  }
  void prefetch_home(std::size_t home) const { __builtin_prefetch(&slots_[home]); }
  ClassId find_from(std::size_t home, const ENode& node) const {
    for (std::size_t i = home;; i = (i + 1) & mask_) {
      const Slot& slot = slots_[i];
      if (!slot.id.valid()) return ClassId();
      if (slot.holds(node)) return slot.id;
    }
  }

  // Starts fetching the slot where a lookup of `node` begins, so that a lookup soon
  // after does not wait for memory (the apply loop looks a few matches ahead).
  void prefetch(const ENode& node) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[home(node)]);
  }

  // Inserts node -> id unless the node is present; returns the class it maps to and
  // whether it was inserted.
  std::pair<ClassId, bool> emplace(const ENode& node, ClassId id) {
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();
    std::size_t i = home(node);
    for (;; i = (i + 1) & mask_) {
      Slot& slot = slots_[i];
      if (!slot.id.valid()) break;
      if (slot.holds(node)) return {slot.id, false};
    }
    slots_[i] = Slot{node, id};
    ++size_;
    return {id, true};
  }

  // Removes the node if present.
  void erase(const ENode& node) {
    if (slots_.empty()) return;
    std::size_t i = home(node);
    for (;; i = (i + 1) & mask_) {
      if (!slots_[i].id.valid()) return;
      if (slots_[i].holds(node)) break;
    }
    shift_back_from(i);
    --size_;
  }

  // --- Operations in parts, for a batch run on several threads (EGraph's congruence
  // rounds, egraph/rebuild_rounds.cpp). The table is cut into kParts parts of
  // consecutive slots, and an operation belongs to the part of its home slot. An
  // operation touches the slots from its home to the end of its run of occupied slots,
  // so operations of parts two apart touch disjoint slots as long as none reaches two
  // parts past its own: the `_in_part` forms refuse (change nothing and say so) an
  // operation that would, and then all even parts may run at once, then all odd ones.
  // A refused operation is made afterwards with the plain form. They leave size()
  // alone: the caller counts what they inserted and erased (adjust_size), since the
  // threads of a batch cannot share the count.
  static constexpr std::size_t kParts = 64;
  // Whether parts are long enough that an operation is rarely refused (runs of
  // occupied slots are short in a table at most three quarters full).
  bool has_parts() const { return slots_.size() >= kParts * kMinPartSlots; }
  std::size_t part_of(std::size_t home) const { return home >> part_shift_; }
  // Grows the table now if `more` insertions could fill it past seven eighths: the
  // `_in_part` forms never grow it. (A batch whose entries mostly replace a key by
  // another would otherwise double the table for nothing; a table filled past three
  // quarters by one grows at the next plain insertion.) The new half of a doubled
  // table is written on `threads` threads (GrowableArray::grow; in the calling task
  // arena): the apply's batches pass theirs.
  void reserve_more(std::size_t more, unsigned threads = 1) {
    std::size_t capacity = slots_.empty() ? kFirstSlots : slots_.size();
    while ((size_ + more) * 8 > capacity * 7) capacity = grown_capacity(capacity);
    if (capacity != slots_.size()) rehash(capacity, threads);
  }
  // emplace from `home` (home_of(node)), in its part: nullopt if refused.
  std::optional<std::pair<ClassId, bool>> emplace_in_part(std::size_t home, const ENode& node, ClassId id) {
    const std::size_t stop = part_stop(home);
    for (std::size_t i = home;; i = (i + 1) & mask_) {
      if (i == stop) return std::nullopt;
      Slot& slot = slots_[i];
      if (!slot.id.valid()) {
        slot = Slot{node, id};
        return std::pair{id, true};
      }
      if (slot.holds(node)) return std::pair{slot.id, false};
    }
  }
  // Sets the class of `node`, which the table holds, looking it up from `home` in its
  // part: false if refused (then `assign` does it). Like every lookup it ends at an
  // empty slot: such a slot may still hold the key of a node that a doubling or a
  // backward shift moved away (only its class is cleared), and the node is met before
  // any empty slot only from its own home. (From a home the table's doubling made
  // stale, a walk that went on revived a moved node's old slot: the NodeMemo and
  // AddBatch tests.)
  bool assign_in_part(std::size_t home, const ENode& node, ClassId id) {
    const std::size_t stop = part_stop(home);
    for (std::size_t i = home; i != stop; i = (i + 1) & mask_) {
      Slot& slot = slots_[i];
      if (!slot.id.valid()) return false;
      if (slot.holds(node)) {
        slot.id = id;
        return true;
      }
    }
    return false;
  }
  // Sets the class of `node`, which the table holds.
  void assign(const ENode& node, ClassId id) {
    for (std::size_t i = home(node);; i = (i + 1) & mask_) {
      Slot& slot = slots_[i];
      if (!slot.id.valid()) {
        assert(false && "assign: the table does not hold the node");
        return;
      }
      if (slot.holds(node)) {
        slot.id = id;
        return;
      }
    }
  }
  // erase from `home`, in its part: nullopt if refused, else whether it erased.
  std::optional<bool> erase_in_part(std::size_t home, const ENode& node) {
    const std::size_t stop = part_stop(home);
    std::size_t i = home;
    for (;; i = (i + 1) & mask_) {
      if (i == stop) return std::nullopt;
      if (!slots_[i].id.valid()) return false;
      if (slots_[i].holds(node)) break;
    }
    // The backward shift reads the run up to its end: that must lie before the stop.
    for (std::size_t j = (i + 1) & mask_;; j = (j + 1) & mask_) {
      if (j == stop) return std::nullopt;
      if (!slots_[j].id.valid()) break;
    }
    shift_back_from(i);
    return true;
  }
  void adjust_size(std::ptrdiff_t delta) {
    size_ = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(size_) + delta);
  }

  // Once the table is less than an eighth full, halves it while it is less than a
  // quarter full, down to kMinShrunkSlots: a rebuild that merged many nodes gives back
  // the space of the ones it dropped (a table at most half full then, so it does not
  // grow again at once). Not sooner: a saturation's apply adds about as many nodes as
  // its rebuild then merges away, iteration after iteration, and a table shrunk after
  // each rebuild was grown again by the next apply (a rehash each way, and the pages of
  // the grown table faulted in anew: 3-5% of a `sum 10` workload).
  void shrink() {
    std::size_t capacity = slots_.size();
    if (size_ * 8 >= capacity) return;
    while (capacity > kMinShrunkSlots && size_ * 4 < capacity) capacity /= 2;
    if (capacity != slots_.size()) rehash(capacity);
  }

  void clear() {
    for (Slot& slot : slots_) slot.id = ClassId();
    size_ = 0;
  }

 private:
  // A node and its class in 24 bytes, where an ENode and a ClassId take 28: the
  // node's change epoch (ENode::added_at), of no use here, is left out, and the class
  // takes the place of the padding.
  struct Slot {
    Op op = Op::Const;
    DType dtype = DType::Index;
    uint8_t arity = 0;
    uint32_t payload = 0;
    ClassId children[NodeChildren::kCapacity];
    ClassId id;  // invalid: empty slot

    Slot() = default;
    Slot(const ENode& node, ClassId eclass)
        : op(node.op),
          dtype(node.dtype),
          arity(static_cast<uint8_t>(node.children.size())),
          payload(node.payload),
          id(eclass) {
      std::copy_n(node.children.places(), NodeChildren::kCapacity, children);
    }
    // Whether this is `node` (as ENode's ==).
    bool holds(const ENode& node) const {
      if (op != node.op || dtype != node.dtype || payload != node.payload || arity != node.children.size()) {
        return false;
      }
      for (uint8_t i = 0; i < arity; ++i) {
        if (children[i] != node.children[i]) return false;
      }
      return true;
    }
  };
  static_assert(sizeof(Slot) == 24, "the hash-cons is the engine's largest table: keep its slots small");

  std::size_t home(const ENode& node) const { return home_of_hash(ENodeHash{}(node)); }
  // The home of the node a slot holds, hashed from the slot's fields: an ENode made of
  // them and hashed was built on the stack and read back whole, a failed store forward
  // per slot a rehash or an erasure moves.
  std::size_t home(const Slot& slot) const {
    return home_of_hash(hash_node_fields(slot.op, slot.dtype, slot.payload, slot.children, slot.arity));
  }
  std::size_t home_of_hash(std::size_t hash) const {
    // Fibonacci hashing: the high bits of the product spread every input bit.
    return static_cast<std::size_t>((hash * 0x9E3779B97F4A7C15ull) >> shift_);
  }

  // Empties slot `i`, moving later entries of its run of occupied slots into the hole
  // when their home allows (backward shift), so that every lookup still finds them.
  void shift_back_from(std::size_t i) {
    std::size_t hole = i;
    for (std::size_t j = (hole + 1) & mask_; slots_[j].id.valid(); j = (j + 1) & mask_) {
      const std::size_t want = home(slots_[j]);
      // Movable when `want` does not lie cyclically in (hole, j].
      const bool between = hole <= j ? (hole < want && want <= j) : (hole < want || want <= j);
      if (!between) {
        slots_[hole] = slots_[j];
        hole = j;
      }
    }
    slots_[hole].id = ClassId();
  }

  // The first slot an operation of the part of `home` may not touch: the start of the
  // part two further on (cyclically).
  std::size_t part_stop(std::size_t home) const { return ((part_of(home) + 2) % kParts) << part_shift_; }
  static constexpr std::size_t kMinPartSlots = 1024;

  // Tables smaller than this (448 KB) are never shrunk: the e-graphs of a batch's
  // cases reuse them.
  static constexpr std::size_t kMinShrunkSlots = std::size_t{1} << 14;

  // The first table: a case of a batch holds a few dozen nodes.
  static constexpr std::size_t kFirstSlots = 64;

  // The capacity a table of `slots` grows to: twice as many, except that a table that
  // would leave malloc's heap for a mapping of its own (LargeArrayAllocator, 64 KB and
  // up) goes straight to kMinShrunkSlots. Every growth of a mapped table is system
  // calls, and pages moved or fresh, that are slow on this project's machine class; a
  // table past 2,048 slots belongs to a saturation that will grow on; and a table of
  // kMinShrunkSlots is not shrunk anyway. `pos 3` then grows its table once from the
  // heap to 16,384 slots instead of three times (4,096, 8,192, 16,384), and runs in
  // about 0.89x the time (docs/performance.md, "The hash-cons's growth past the
  // heap"). A batch's e-graphs stay on the heap: one past kKeptNodes
  // (passes/simplify_expr.cpp) is not kept.
  static std::size_t grown_capacity(std::size_t slots) {
    if (slots < kMappedSlots && 2 * slots >= kMappedSlots) return std::max(2 * slots, kMinShrunkSlots);
    return 2 * slots;
  }
  // The fewest slots whose storage is a mapping of its own (LargeArrayAllocator takes
  // arrays of kPopulated bytes and more so), which doubles in place.
  static constexpr std::size_t kMappedSlots =
      (LargeArrayAllocator<Slot, MidSize::Populated>::kPopulated + sizeof(Slot) - 1) / sizeof(Slot);
  bool mapped() const { return slots_.size() >= kMappedSlots; }

  void grow() { rehash(slots_.empty() ? kFirstSlots : grown_capacity(slots_.size())); }

  void rehash(std::size_t capacity, unsigned threads = 1) {
    // A mapped table doubles where it is (its pages move); one on the heap is made
    // anew, as large as asked, and its entries put in again.
    if (mapped() && capacity > slots_.size()) {
      while (slots_.size() < capacity) double_in_place(threads);
      return;
    }
    Slots old = std::move(slots_);
    slots_.assign(capacity, Slot{});
    set_capacity(capacity);
    size_ = 0;
    for (const Slot& slot : old) {
      if (!slot.id.valid()) continue;
      std::size_t i = home(slot);
      while (slots_[i].id.valid()) i = (i + 1) & mask_;
      slots_[i] = slot;
      ++size_;
    }
  }

  void set_capacity(std::size_t capacity) {
    mask_ = capacity - 1;
    shift_ = 64 - static_cast<unsigned>(__builtin_ctzll(capacity));
    part_shift_ = capacity >= kParts ? static_cast<unsigned>(__builtin_ctzll(capacity / kParts)) : 0;
  }

  // Doubles the table where it is (GrowableArray::grow: its pages move, and only the
  // new half is touched for the first time), then moves each entry to its place under
  // the new homes. A home is the top bits of a hash, so an entry's new home is twice
  // its old one or one more, and no more than twice its old slot (the run of an entry
  // starts at or before its home). The entries move by ranges of old slots from the
  // top down, [lo, hi) with 2 lo >= hi: their new homes lie in [2 lo, 2 hi), which the
  // ranges before emptied and which holds none of this range's slots, so the range's
  // entries may move in any order, and a large range moves as pieces on `threads`
  // threads, piece [b, e) into its own stretch of slots [2 b, 2 e). An entry that does
  // not fit its piece's stretch (its home lies below it: its run started in the piece
  // before; or its probe leaves it), and the entries of the run at the start of the
  // table, which may have wrapped around from the end, go in last, in a fixed order,
  // once no old entry is left. The layout depends on the entries only, not on the
  // threads; the table is never iterated anyway.
  void double_in_place(unsigned threads) {
    const std::size_t old_capacity = slots_.size();
    slots_.grow(2 * old_capacity, Slot{}, threads);
    set_capacity(2 * old_capacity);
    std::vector<Slot>& last = regrow_last_;
    last.clear();
    std::size_t first_empty = 0;  // there is one: the table is at most seven eighths full
    for (; slots_[first_empty].id.valid(); ++first_empty) {
      last.push_back(slots_[first_empty]);
      slots_[first_empty].id = ClassId();
    }
    // Moves the entries of old slots [begin, end) into [2 begin, 2 end), and those
    // that do not fit there to `left`.
    auto move_piece = [this](std::size_t begin, std::size_t end, std::vector<Slot>& left) {
      const std::size_t stop = 2 * end;
      for (std::size_t old = begin; old < end; ++old) {
        if (!slots_[old].id.valid()) continue;
        const Slot slot = slots_[old];
        slots_[old].id = ClassId();
        std::size_t i = home(slot);
        if (i < 2 * begin) {
          left.push_back(slot);
          continue;
        }
        while (i < stop && slots_[i].id.valid()) ++i;
        if (i == stop) {
          left.push_back(slot);
        } else {
          slots_[i] = slot;
        }
      }
    };
    // (first_empty + 1: slot first_empty is empty.)
    for (std::size_t hi = old_capacity; hi > first_empty + 1;) {
      const std::size_t lo = std::max(first_empty, (hi + 1) / 2);
      if (hi - lo < kPiecedRangeSlots) {
        move_piece(lo, hi, last);
      } else {
        regrow_left_.resize(kRangePieces);
        auto bound = [&](std::size_t piece) { return lo + (hi - lo) * piece / kRangePieces; };
        for_range(threads, kRangePieces, 1, [&](std::size_t piece) {
          regrow_left_[piece].clear();
          move_piece(bound(piece), bound(piece + 1), regrow_left_[piece]);
        });
        for (const std::vector<Slot>& left : regrow_left_) last.insert(last.end(), left.begin(), left.end());
      }
      hi = lo;
    }
    for (const Slot& slot : last) {
      std::size_t i = home(slot);
      while (slots_[i].id.valid()) i = (i + 1) & mask_;
      slots_[i] = slot;
    }
  }
  // A range of old slots this long or longer moves as kRangePieces pieces (each 2,048
  // slots or more) in double_in_place.
  static constexpr std::size_t kPiecedRangeSlots = std::size_t{1} << 15;
  static constexpr std::size_t kRangePieces = 16;

  using Slots = GrowableArray<Slot, MidSize::Populated>;  // see egraph/large_arrays.h
  Slots slots_;
  // The entries double_in_place places last, and those each piece of a range leaves
  // to it: short lists, kept.
  std::vector<Slot> regrow_last_;
  std::vector<std::vector<Slot>> regrow_left_;
  std::size_t size_ = 0;
  std::size_t mask_ = 0;
  unsigned shift_ = 64;
  unsigned part_shift_ = 0;  // log2 of a part's slots (see kParts)
};

}  // namespace eqsat
