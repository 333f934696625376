// New nodes by the batch: the part of a large apply that adds the right sides' root
// nodes to the classes of their matches, made a batch at a time so that its hash-cons
// and list work runs on several threads.
//
// add_to takes one node at a time: canonicalize it, look it up, and either merge its
// target class with the class it is found in or insert it into the hash-cons, append it
// to its target class's node list and to its operands' parent lists, and join its
// analysis data into the class. Each waits for memory: the hash-cons slot, the class
// records, the ends of their lists. A batch (up to kBatchEntries nodes) does the same in
// phases:
//
//   1. canonicalize every node and find its target's class against the union-find as it
//      is, its hash-cons home, and what its analysis data knows (reads only: in
//      parallel);
//   2. insert the nodes into the hash-cons by parts (egraph/part_order.h): of equal
//      nodes the first in the batch's order goes in, the others find its class;
//   3. append every inserted node to its class's node list and to its operands' parent
//      lists, the classes shared out by id among kShards shards: the appends are sorted
//      by shard first (in the batch's order within each, so every list grows in the
//      batch's order), and each shard makes its own, fetching the class records and
//      list ends a few appends ahead (they are far apart in memory: waiting for them
//      was most of this phase);
//   4. serially, in the batch's order: join the data of the inserted nodes that know
//      more than their dtype into their classes, merge the target of every node found
//      with the class it was found in (unless phase 2 found it in the target's class
//      already), and add the nodes whose analysis finds a constant with add_to (they
//      bring their constant leaf along, see EGraph::add).
//
// The merges come after every inserted node is listed as a parent of its operands, so
// a merge of an operand queues the nodes above it for the rebuild as it would have
// queued them had they been added one by one; the e-graph after the rebuild holds the
// same classes and nodes as after add_to of each node in turn, and only the ids chosen
// as roots may differ. What each entry changed: an inserted node is a change; a node
// found is one if the merge joined two classes. (add_to in the batch's order could say
// otherwise for a node whose operand an earlier entry merged: it would find it by that
// merge, where the batch inserts it and the rebuild finds the congruence.)
//
// add_all is the batch form of `add`, for the new inner nodes of right sides (the
// runner makes them a level at a time, then their roots with add_all_to). Its phases 1
// and 2 are the same, with a placeholder (the entry's number) as each node's value in
// the hash-cons, so that a later equal node finds which entry it equals; then,
// serially in the batch's order, every inserted node gets a new class (ids in that
// order), its slot gets the class by parts, it joins its operands' parent lists by
// shards, and last the nodes of known value are added with `add`.
//
// Every decision depends on the e-graph and the batch only: the parts, the shards and
// the orders are the same for any number of threads, so the result is too
// (tests/egraph/add_batch_test.cpp). The runner makes its batches on its threads only
// where a line one core writes is cheap for the other to read (egraph/core_handoff.h):
// each phase reads what the one before it wrote, and on hosts where that costs twice
// a miss to memory the split loses more than it saves.
#include <algorithm>
#include <array>
#include <optional>
#include <vector>

#include "egraph/egraph.h"
#include "egraph/parallel_range.h"

namespace eqsat {

namespace {

// Entries a batch takes: its lists are about 40 bytes an entry (AddLists).
constexpr std::size_t kBatchEntries = std::size_t{1} << 12;
// Shards of class ids for the list work (phase 3): each takes the classes whose ids,
// in blocks of 64 (so that a shard's dirty flags share no cache line with another's),
// fall to it. Fixed, so that the order of the dirty classes does not depend on the
// threads; more than the threads, so that uneven shards even out.
constexpr std::size_t kShards = 8;
// Entries at once that phase 1 hands to a thread.
constexpr std::size_t kGrain = 2048;

// What a node's analysis data knows (AddLists::kinds).
enum NodeKind : uint8_t {
  kPlain,     // only what its dtype implies: nothing to join into its class
  kFacts,     // more: joined into its class in phase 4
  kConstant,  // a constant, and the node is no constant leaf: added by add_to
};

std::size_t shard_of(ClassId id) { return (id.value >> 6) % kShards; }

// The hash-cons value of add_all's entry i until its class is made: kPlaceholder | i.
constexpr uint32_t kPlaceholder = uint32_t{1} << 31;

}  // namespace

// Phase 1 of both batches: canonical forms, homes and kinds of nodes[first, first + n)
// (reads only), into add_lists_.
void EGraph::prepare_batch(std::span<const ENode> nodes, std::size_t first, std::size_t n, unsigned threads) {
  AddLists& lists = add_lists_;
  memo_.reserve_more(n, threads);  // so that no insertion of the batch grows the table
  lists.forms.resize(n);
  lists.kinds.resize(n);
  lists.homes.resize(n);
  for_range(threads, n, kGrain, [&](std::size_t i) {
    const ENode form = canonicalize(nodes[first + i]);
    const ClassData data = make_data(form);
    const NodeKind kind = data.constant && form.op != Op::Const ? kConstant
                          : data == dtype_data(form.dtype)      ? kPlain
                                                                : kFacts;
    lists.forms[i] = form;
    lists.kinds[i] = kind;
    lists.homes[i] = kind == kConstant ? PartOrder::kNoHome : static_cast<uint32_t>(memo_.home_of(form));
  });
}

// Phase 2: the batch's forms into the hash-cons, forms[i] -> values[i], by parts; what
// a part refuses goes in afterwards, in order. (A table too small for parts takes the
// batch in order, on this thread: the same nodes go in and are found, so the result
// does not depend on the table's size, which a batch of cases' history sets.) Sets
// found[i] to the class a node was found with, else leaves it invalid. With
// `values_are_classes` (add_all_to's canonical targets), also sets found_at_home[i] if
// that class is values[i]'s: nothing merges before phase 4, and merges only join
// classes, so phase 4 has nothing to merge there. (`sum 11`'s batches find 218,000 of
// their 532,000 root nodes in their target's class: the finds, here one of many on the
// run's threads, waited for memory one at a time in phase 4.)
void EGraph::insert_batch(std::span<const ClassId> values, bool values_are_classes, unsigned threads) {
  AddLists& lists = add_lists_;
  const std::size_t n = lists.forms.size();
  lists.found.assign(n, ClassId());
  if (values_are_classes) lists.found_at_home.assign(n, 0);
  auto found = [&](uint32_t i, ClassId existing) {
    lists.found[i] = existing;
    if (values_are_classes) lists.found_at_home[i] = find(existing) == values[i];
  };
  auto insert = [&](uint32_t i) {
    const auto [existing, inserted] = memo_.emplace(lists.forms[i], values[i]);
    if (!inserted) found(i, existing);
  };
  if (!memo_.has_parts()) {
    for (uint32_t i = 0; i < n; ++i) {
      if (lists.homes[i] != PartOrder::kNoHome) insert(i);
    }
    return;
  }
  lists.order.sort(lists.homes, memo_.slots());
  auto fetch = [&](uint32_t i) {
    memo_.prefetch_home(lists.homes[i]);
    __builtin_prefetch(&lists.forms[i]);
  };
  const PartOrder::Outcome outcome = lists.order.run(threads, fetch, [&](uint32_t i) -> std::optional<int> {
    const auto placed = memo_.emplace_in_part(lists.homes[i], lists.forms[i], values[i]);
    if (!placed) return std::nullopt;
    if (!placed->second) found(i, placed->first);
    return placed->second ? 1 : 0;
  });
  memo_.adjust_size(outcome.grown);
  for (uint32_t i : outcome.refused) insert(i);
}

// Phase 3: every node the batch inserted into its operands' parent lists, with its class
// classes[i], and (with `into_classes`) into that class's node list, by shard of class
// ids. Nothing is merged meanwhile: classes and operands are canonical.
void EGraph::list_batch(std::span<const ClassId> classes, bool into_classes, unsigned threads) {
  AddLists& lists = add_lists_;
  const std::size_t n = lists.forms.size();
  const uint16_t epoch = static_cast<uint16_t>(epoch_);
  auto inserted = [&](std::size_t i) { return lists.kinds[i] != kConstant && !lists.found[i].valid(); };
  // The appends, sorted by the shard of the class whose list they go to, in the batch's
  // order within a shard (counted, then placed): entry * 4 + kToNodes for the class's
  // node list, entry * 4 + k for operand k's parent list.
  constexpr uint32_t kToNodes = 3;
  std::array<uint32_t, kShards + 1> start{};
  auto for_each_append = [&](auto&& visit) {
    for (std::size_t i = 0; i < n; ++i) {
      if (!inserted(i)) continue;
      const auto entry = static_cast<uint32_t>(i * 4);
      if (into_classes) visit(shard_of(classes[i]), entry + kToNodes);
      const ENode& form = lists.forms[i];
      for (uint32_t k = 0; k < form.children.size(); ++k) visit(shard_of(form.children[k]), entry + k);
    }
  };
  for_each_append([&](std::size_t shard, uint32_t) { ++start[shard + 1]; });
  for (std::size_t shard = 0; shard < kShards; ++shard) start[shard + 1] += start[shard];
  std::vector<uint32_t>& appends = lists.appends;
  appends.resize(start[kShards]);
  std::array<uint32_t, kShards> next;
  std::copy(start.begin(), start.end() - 1, next.begin());
  for_each_append([&](std::size_t shard, uint32_t append) { appends[next[shard]++] = append; });
  auto class_of_append = [&](uint32_t append) {
    return append % 4 == kToNodes ? classes[append / 4] : lists.forms[append / 4].children[append % 4];
  };
  lists.marked.resize(kShards);
  for_range(threads, kShards, 1, [&](std::size_t shard) {
    std::vector<ClassId>& marked = lists.marked[shard];
    marked.clear();
    auto mark = [&](ClassId id) {
      if (class_flags_[id.value] & kDirty) return;
      class_flags_[id.value] |= kDirty;
      marked.push_back(id);
    };
    // Each append waits for its class's record, then for the end of the list: the
    // records are fetched kAhead appends before, the ends half as far.
    constexpr uint32_t kAhead = 8;
    const uint32_t end = start[shard + 1];
    for (uint32_t a = start[shard]; a < end; ++a) {
      if (a + kAhead < end) __builtin_prefetch(&class_of(class_of_append(appends[a + kAhead])));
      if (a + kAhead / 2 < end) {
        const uint32_t ahead = appends[a + kAhead / 2];
        const EClass& eclass = class_of(class_of_append(ahead));
        __builtin_prefetch(ahead % 4 == kToNodes
                               ? static_cast<const void*>(eclass.nodes.data() + eclass.nodes.size())
                               : static_cast<const void*>(eclass.parents.data() + eclass.parents.size()),
                           1);
      }
      const uint32_t append = appends[a];
      const ENode& form = lists.forms[append / 4];
      const ClassId holder = classes[append / 4];
      if (append % 4 == kToNodes) {
        EClass& eclass = class_of(holder);
        ENode& node = eclass.nodes.emplace_back(form);
        node.added_at = node.formed_at = epoch;
        eclass.changed_at = epoch_;
        mark(holder);
      } else {
        const ClassId child = form.children[append % 4];
        class_of(child).parents.emplace_back(form, holder);
        mark(child);
      }
    }
  });
  for (const std::vector<ClassId>& marked : lists.marked) dirty_.insert(dirty_.end(), marked.begin(), marked.end());
}

void EGraph::add_all_to(std::span<const ClassId> targets, std::span<const ENode> nodes, std::vector<uint8_t>& changed,
                        unsigned threads) {
  assert(!explain_ && "with explanations on, every node is added with add_to");
  assert(targets.size() == nodes.size());
  changed.assign(nodes.size(), 0);
  AddLists& lists = add_lists_;
  for (std::size_t first = 0; first < nodes.size(); first += kBatchEntries) {
    const std::size_t n = std::min(kBatchEntries, nodes.size() - first);
    prepare_batch(nodes, first, n, threads);
    lists.roots.resize(n);
    for (std::size_t i = 0; i < n; ++i) lists.roots[i] = find(targets[first + i]);
    insert_batch(lists.roots, true, threads);
    list_batch(lists.roots, true, threads);
    // 4. Data, merges and constants, in the batch's order.
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t entry = first + i;
      if (lists.kinds[i] == kConstant) {
        changed[entry] = add_to(targets[entry], nodes[entry]);
      } else if (lists.found_at_home[i]) {
        changed[entry] = 0;
      } else if (lists.found[i].valid()) {
        changed[entry] = merge_classes(targets[entry], lists.found[i]);
      } else {
        if (lists.kinds[i] == kFacts) join_new_node(find(lists.roots[i]), make_data(lists.forms[i]));
        changed[entry] = 1;
      }
    }
  }
  // The lists of a large batch are not kept: the apply is where a run's memory peaks
  // (kept, they cost `sum 10` 6 bytes per e-node).
  if (lists.forms.capacity() > kGrain) lists = AddLists();
}

void EGraph::add_all(std::span<const ENode> nodes, std::vector<ClassId>& classes, unsigned threads) {
  assert(!explain_ && "with explanations on, every node is added with add");
  classes.assign(nodes.size(), ClassId());
  AddLists& lists = add_lists_;
  for (std::size_t first = 0; first < nodes.size(); first += kBatchEntries) {
    const std::size_t n = std::min(kBatchEntries, nodes.size() - first);
    prepare_batch(nodes, first, n, threads);
    // The nodes go in under placeholders (entry i as kPlaceholder | i, above any class
    // id), so that a later equal node finds which entry it equals.
    lists.roots.resize(n);
    for (std::size_t i = 0; i < n; ++i) lists.roots[i] = ClassId(kPlaceholder | static_cast<uint32_t>(i));
    const std::size_t slots = memo_.slots();
    insert_batch(lists.roots, false, threads);
    // An insertion made alone (a table without parts, or one a part refused) may have
    // doubled the table: phase 4 looks the nodes up from their homes in it.
    if (memo_.slots() != slots) {
      for (std::size_t i = 0; i < n; ++i) {
        if (lists.homes[i] != PartOrder::kNoHome) lists.homes[i] = static_cast<uint32_t>(memo_.home_of(lists.forms[i]));
      }
    }
    const std::span<ClassId> batch_classes(classes.data() + first, n);
    // 3. Serially, in the batch's order: a class for each node inserted (so ids are
    // given in that order), the class found for the others.
    for (std::size_t i = 0; i < n; ++i) {
      if (lists.kinds[i] == kConstant) continue;
      const ClassId found = lists.found[i];
      if (!found.valid()) {
        const ENode& form = lists.forms[i];
        batch_classes[i] = new_class(form, lists.kinds[i] == kPlain ? dtype_data(form.dtype) : make_data(form));
      } else if (found.value & kPlaceholder) {
        batch_classes[i] = batch_classes[found.value & ~kPlaceholder];
      } else {
        batch_classes[i] = find(found);
      }
    }
    // 4. The inserted nodes' slots get their classes, by parts.
    for (std::size_t i = 0; i < n; ++i) {
      if (lists.found[i].valid()) lists.homes[i] = PartOrder::kNoHome;
    }
    if (memo_.has_parts()) {
      lists.order.sort(lists.homes, memo_.slots());
      auto fetch = [&](uint32_t i) { memo_.prefetch_home(lists.homes[i]); };
      const PartOrder::Outcome outcome = lists.order.run(threads, fetch, [&](uint32_t i) -> std::optional<int> {
        if (!memo_.assign_in_part(lists.homes[i], lists.forms[i], batch_classes[i])) return std::nullopt;
        return 0;
      });
      for (uint32_t i : outcome.refused) memo_.assign(lists.forms[i], batch_classes[i]);
    } else {
      for (std::size_t i = 0; i < n; ++i) {
        if (lists.homes[i] != PartOrder::kNoHome) memo_.assign(lists.forms[i], batch_classes[i]);
      }
    }
    // 5. Their operands' parent lists (each is in its class's node list already).
    list_batch(batch_classes, false, threads);
    // 6. The nodes of known value, as `add` makes them (with their constant leaf).
    for (std::size_t i = 0; i < n; ++i) {
      if (lists.kinds[i] == kConstant) batch_classes[i] = add(nodes[first + i]);
    }
  }
  if (lists.forms.capacity() > kGrain) lists = AddLists();
}

}  // namespace eqsat
