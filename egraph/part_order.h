// The order in which a batch of hash-cons operations runs part by part, on several
// threads (NodeMemo's parts, egraph/node_memo.h).
//
// The e-graph's batch steps (the rebuild's congruence rounds, egraph/rebuild_rounds.cpp,
// and the apply's batch of new nodes, egraph/add_batch.cpp) each make many insertions
// and erasures whose slots are rarely in cache. They first find every operation's home
// slot, then sort the operations by stretch of home slots (a stable counting sort:
// within a stretch, the batch's order), and run them part by part: the even parts at
// once, then the odd ones, each part's operations in that order on one thread. Two
// operations on the same node have the same home, so they run in the batch's order;
// the table is walked forward, a stretch at a time, rather than at random; and which
// operations run, and in what order within a part, depends on the batch only, never on
// the number of threads.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "egraph/node_memo.h"
#include "egraph/parallel_range.h"

namespace eqsat {

class PartOrder {
 public:
  // The home of an operation that has nothing to do (left out of the order).
  static constexpr uint32_t kNoHome = static_cast<uint32_t>(-1);

  // Orders operations 0 .. homes.size() - 1 by their homes (slots of a table of
  // `slots` slots, cut into NodeMemo::kParts parts), leaving out those with kNoHome.
  void sort(std::span<const uint32_t> homes, std::size_t slots) {
    const unsigned shift = static_cast<unsigned>(std::countr_zero(slots / kStretches));
    start_.fill(0);
    for (uint32_t home : homes) {
      if (home != kNoHome) ++start_[(home >> shift) + 1];
    }
    for (std::size_t s = 0; s < kStretches; ++s) start_[s + 1] += start_[s];
    order_.resize(start_[kStretches]);
    std::array<uint32_t, kStretches> next;
    std::copy(start_.begin(), start_.end() - 1, next.begin());
    for (std::size_t op = 0; op < homes.size(); ++op) {
      if (homes[op] != kNoHome) order_[next[homes[op] >> shift]++] = static_cast<uint32_t>(op);
    }
  }

  // What a run left to do: the change of the table's size, which the parts cannot
  // share a count of (NodeMemo::adjust_size), and the operations a part refused, by
  // part and then in order, to be made afterwards with the plain forms.
  struct Outcome {
    std::ptrdiff_t grown = 0;
    std::vector<uint32_t> refused;
  };

  // Calls run(op) for every operation, part by part as above, on `threads` threads (in
  // the calling task arena): it returns the change of the table's size it made (-1, 0
  // or 1), or nullopt if its part refused it. The operations wait for memory: before
  // each, fetch(op) is called for the one kFetchAhead places on in its part, so that
  // its slot and the batch's records of it are on their way meanwhile.
  template <class Fetch, class Run>
  Outcome run(unsigned threads, Fetch&& fetch, Run&& run) const {
    std::array<std::ptrdiff_t, NodeMemo::kParts> grown{};
    std::array<std::vector<uint32_t>, NodeMemo::kParts> refused;
    auto run_part = [&](std::size_t part) {
      const uint32_t* op = order_.data() + start_[part * kStretchesPerPart];
      const uint32_t* const end = order_.data() + start_[(part + 1) * kStretchesPerPart];
      for (; op != end; ++op) {
        if (end - op > kFetchAhead) fetch(op[kFetchAhead]);
        const std::optional<int> change = run(*op);
        if (change) {
          grown[part] += *change;
        } else {
          refused[part].push_back(*op);
        }
      }
    };
    for (std::size_t parity = 0; parity < 2; ++parity) {
      for_range(threads, NodeMemo::kParts / 2, 1, [&](std::size_t k) { run_part(2 * k + parity); });
    }
    Outcome outcome;
    for (std::size_t part = 0; part < NodeMemo::kParts; ++part) {
      outcome.grown += grown[part];
      outcome.refused.insert(outcome.refused.end(), refused[part].begin(), refused[part].end());
    }
    return outcome;
  }

  // Frees the order's storage if a large batch grew it.
  void release_if_large() {
    if (order_.capacity() * sizeof(uint32_t) > (std::size_t{64} << 10)) std::vector<uint32_t>().swap(order_);
  }

 private:
  // Stretches of slots per part: within a stretch operations keep the batch's order.
  static constexpr std::size_t kStretchesPerPart = 64;
  static constexpr std::size_t kStretches = NodeMemo::kParts * kStretchesPerPart;
  static constexpr std::ptrdiff_t kFetchAhead = 8;

  std::array<uint32_t, kStretches + 1> start_{};
  std::vector<uint32_t> order_;
};

}  // namespace eqsat
