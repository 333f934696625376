// An index from values to their positions in a table the caller keeps: how the
// e-graph finds the number of a variable name or a constant it interned before, and
// how the runner's apply finds an earlier copy of a match (drop_placed_by_merges).
//
// Open addressing over (hash, position) pairs, with the caller comparing the value at a
// candidate position: the index stores no values, so it makes no allocation per entry,
// and `clear` keeps its storage. A batch interns a handful of names and constants per
// case and then clears them all; a node-based hash map allocated (and freed) every
// entry of every case, a few percent of a small case's instructions.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace eqsat {

class InternIndex {
 public:
  static constexpr uint32_t kAbsent = UINT32_MAX;

  // The position whose value `equals` accepts among those inserted with hash `hash`,
  // or kAbsent. `equals(position)` compares the caller's value at `position`.
  template <class Equals>
  uint32_t find(std::size_t hash, Equals&& equals) const {
    if (slots_.empty()) return kAbsent;
    const uint32_t folded = fold(hash);
    for (std::size_t i = folded & mask_;; i = (i + 1) & mask_) {
      const Slot& slot = slots_[i];
      if (slot.position == kAbsent) return kAbsent;
      if (slot.hash == folded && equals(slot.position)) return slot.position;
    }
  }

  // Records `position` under `hash`; its value must not be present yet (find first).
  void insert(std::size_t hash, uint32_t position) {
    // At most three quarters full, so that a probe stays short and always ends.
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();
    place(Slot{fold(hash), position});
    ++size_;
  }

  // Forgets every entry and sizes the table for `entries` in all, so that inserting them
  // never grows it: for a caller that knows how many it will insert. Keeps the storage
  // it has (a table no larger than before is not allocated anew).
  void reset_for(std::size_t entries) {
    slots_.assign(std::max(kMinSlots, std::bit_ceil(entries * 4 / 3 + 1)), Slot{});
    mask_ = slots_.size() - 1;
    size_ = 0;
  }

  // Forgets every entry. The storage is kept unless a large case grew it.
  void clear() {
    if (slots_.size() > kKeptSlots) {
      std::vector<Slot>().swap(slots_);
      mask_ = 0;
    } else {
      std::fill(slots_.begin(), slots_.end(), Slot{});
    }
    size_ = 0;
  }

 private:
  struct Slot {
    uint32_t hash = 0;
    uint32_t position = kAbsent;
  };
  static constexpr std::size_t kMinSlots = 16;
  static constexpr std::size_t kKeptSlots = 1024;

  // The high bits of a multiplicative hash: the callers' hashes (std::hash of a
  // string, hash_value of a constant) need not spread their low bits.
  static uint32_t fold(std::size_t hash) {
    return static_cast<uint32_t>((uint64_t{hash} * 0x9E3779B97F4A7C15ull) >> 32);
  }

  void place(Slot slot) {
    std::size_t i = slot.hash & mask_;
    while (slots_[i].position != kAbsent) i = (i + 1) & mask_;
    slots_[i] = slot;
  }

  void grow() {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(std::max(kMinSlots, old.size() * 2), Slot{});
    mask_ = slots_.size() - 1;
    for (const Slot& slot : old) {
      if (slot.position != kAbsent) place(slot);
    }
  }

  std::vector<Slot> slots_;  // a power of two of them, or none
  std::size_t mask_ = 0;
  std::size_t size_ = 0;
};

}  // namespace eqsat
