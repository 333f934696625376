// Congruence in rounds: the part of a large rebuild that re-canonicalizes the parents
// of merged classes, made a batch at a time so that its hash-cons work runs on several
// threads.
//
// The rebuild's pending loop takes one parent entry at a time: canonicalize its node,
// drop its stale key from the hash-cons, insert the canonical one, and merge its class
// with the class found there if any. Each step sees the merges of the steps before it.
// On the standard workloads that loop handles about a million entries per run (sum 11)
// and waits for memory at every one: the hash-cons slots of the two forms are rarely in
// cache. A round takes up to kRoundEntries entries and does their steps in phases:
//
//   1. canonicalize every entry's node against the union-find as it is (reads only:
//      in parallel), and find the home slots of its two forms;
//   2. put the hash-cons operations (erase the recorded form if it changed, insert the
//      canonical one) in the order of their home slots, keeping the order of the
//      entries among operations of one stretch of slots (a stable counting sort), and
//      run them part by part (NodeMemo's parts: the even parts at once, then the odd
//      ones); the few a part refuses run afterwards, in order;
//   3. merge, in the order of the entries, each entry's class with the class its form
//      was found in, and mark what changed, as the loop does.
//
// What a round does not see is a merge made by an earlier entry of the same round: an
// entry may then insert its form under an operand that is merged a moment later. That
// key is stale, as keys inserted by the loop can become (maybe_stale_ drops them at the
// end of the rebuild), and the entry is a parent of the merged operand, so the merge
// queues it again: the next round or the loop re-canonicalizes it and finds the
// congruence. So the e-graph after the rebuild holds the same classes and nodes as
// after the loop alone; only the ids chosen as roots may differ.
//
// Every decision depends on the e-graph and the entries only: the parts and the order
// are the same for any number of threads, the operations of one part run in order on
// one thread, and two parts running at once touch disjoint slots. So the result is the
// same for 1, 2 or N threads.
#include <algorithm>
#include <optional>
#include <vector>

#include "egraph/egraph.h"
#include "egraph/parallel_range.h"

namespace eqsat {

namespace {

// Entries a round takes: enough that its phases outweigh starting them, few enough
// that its lists (64 bytes an entry, 1 MB) stay small beside the e-graph: rounds of
// 2^16 entries raised the peak memory of `sum 10` from 554 to 585 bytes per e-node.
constexpr std::size_t kRoundEntries = std::size_t{1} << 14;
// Operations (and entries) ahead whose memory is fetched while one is made (phase 3).
constexpr std::ptrdiff_t kFetchAhead = 8;
// An entry whose recorded form is canonical has no erase to make.
constexpr uint32_t kNoHome = PartOrder::kNoHome;

}  // namespace

void EGraph::congruence_round(unsigned threads) {
  ++congruence_rounds_;
  RoundLists& round = round_;
  const std::size_t n = std::min(pending_.size(), kRoundEntries);
  round.entries.assign(pending_.end() - static_cast<std::ptrdiff_t>(n), pending_.end());
  pending_.erase(pending_.end() - static_cast<std::ptrdiff_t>(n), pending_.end());
  memo_.reserve_more(n, threads);  // so that no insertion of the round grows the table

  // 1. Canonical forms and home slots (reads the union-find and the table only).
  round.forms.resize(n);
  round.homes.resize(2 * n);
  for_range(threads, n, 4096, [&](std::size_t i) {
    const ENode recorded = round.entries[i].node();
    const ENode canonical = canonicalize(recorded);
    round.forms[i] = canonical;
    round.homes[2 * i] = canonical == recorded ? kNoHome : static_cast<uint32_t>(memo_.home_of(recorded));
    round.homes[2 * i + 1] = static_cast<uint32_t>(memo_.home_of(canonical));
  });

  // 2. The operations by stretch of home slots, in the entries' order within one
  // (operation 2i erases entry i's recorded form, 2i + 1 inserts its canonical one),
  // part by part (egraph/part_order.h); what a part refuses is made afterwards, in order.
  round.found.assign(n, ClassId());
  // An operation made with the plain forms, on this thread.
  auto plain = [&](uint32_t op) {
    const std::size_t entry = op / 2;
    if (op % 2 == 0) {
      memo_.erase(round.entries[entry].node());
    } else {
      const auto [existing, inserted] = memo_.emplace(round.forms[entry], round.entries[entry].holder());
      if (!inserted) round.found[entry] = existing;
    }
  };
  if (!memo_.has_parts()) {
    // A table too small for parts takes the operations in order: the same keys are
    // erased, inserted and found, so the result does not depend on the table's size,
    // which a batch of cases' history sets.
    for (uint32_t op = 0; op < 2 * n; ++op) {
      if (round.homes[op] != kNoHome) plain(op);
    }
  } else {
    round.order.sort(round.homes, memo_.slots());
    auto fetch = [&](uint32_t op) {
      memo_.prefetch_home(round.homes[op]);
      __builtin_prefetch(&round.entries[op / 2]);
      __builtin_prefetch(&round.forms[op / 2]);
    };
    const PartOrder::Outcome outcome = round.order.run(threads, fetch, [&](uint32_t op) -> std::optional<int> {
      const std::size_t entry = op / 2;
      const uint32_t home = round.homes[op];
      if (op % 2 == 0) {
        const std::optional<bool> erased = memo_.erase_in_part(home, round.entries[entry].node());
        if (!erased) return std::nullopt;
        return *erased ? -1 : 0;
      }
      const auto placed = memo_.emplace_in_part(home, round.forms[entry], round.entries[entry].holder());
      if (!placed) return std::nullopt;
      if (!placed->second) round.found[entry] = placed->first;
      return placed->second ? 1 : 0;
    });
    memo_.adjust_size(outcome.grown);
    for (uint32_t op : outcome.refused) plain(op);
  }

  // 3. Merges and marks, in the entries' order (the loop's, from the back).
  for (std::size_t i = n; i-- > 0;) {
    if (i >= kFetchAhead) union_find_.prefetch(round.entries[i - kFetchAhead].holder());
    if (i >= kFetchAhead / 2) {
      // The entry's union-find entry is in by now: fetch the class record and flags
      // settle_pending reads (a merge in between may change the root: a fetch wasted).
      const std::size_t ahead = i - kFetchAhead / 2;
      const ClassId holder = union_find_.find(round.entries[ahead].holder());
      __builtin_prefetch(&class_of(holder), 1);
      __builtin_prefetch(&class_flags_[holder.value], 1);
      for (ClassId child : round.forms[ahead].children) __builtin_prefetch(&class_flags_[child.value], 1);
    }
    settle_pending(round.entries[i].holder(), round.forms[i], round.found[i]);
  }
}

}  // namespace eqsat
