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
//      lists, the classes shared out by id among kShards shards, each shard taking the
//      batch in order (so every list grows in the batch's order);
//   4. serially, in the batch's order: join the data of the inserted nodes that know
//      more than their dtype into their classes, merge the target of every node found
//      with the class it was found in, and add the nodes whose analysis finds a
//      constant with add_to (they bring their constant leaf along, see EGraph::add).
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
// Every decision depends on the e-graph and the batch only: the parts, the shards and
// the orders are the same for any number of threads, so the result is too.
#include <algorithm>
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

}  // namespace

void EGraph::add_all_to(std::span<const ClassId> targets, std::span<const ENode> nodes, std::vector<uint8_t>& changed,
                        unsigned threads) {
  assert(!explain_ && "with explanations on, every node is added with add_to");
  assert(targets.size() == nodes.size());
  changed.assign(nodes.size(), 0);
  AddLists& lists = add_lists_;
  for (std::size_t first = 0; first < nodes.size(); first += kBatchEntries) {
    const std::size_t n = std::min(kBatchEntries, nodes.size() - first);
    memo_.reserve_more(n);  // so that no insertion of the batch grows the table
    const uint16_t epoch = static_cast<uint16_t>(epoch_);

    // 1. Canonical forms, classes, homes and kinds (reads only).
    lists.forms.resize(n);
    lists.roots.resize(n);
    lists.kinds.resize(n);
    lists.homes.resize(n);
    for_range(threads, n, kGrain, [&](std::size_t i) {
      const ENode form = canonicalize(nodes[first + i]);
      const ClassData data = make_data(form);
      const NodeKind kind = data.constant && form.op != Op::Const ? kConstant
                            : data == dtype_data(form.dtype)      ? kPlain
                                                                  : kFacts;
      lists.forms[i] = form;
      lists.roots[i] = find(targets[first + i]);
      lists.kinds[i] = kind;
      lists.homes[i] = kind == kConstant ? PartOrder::kNoHome : static_cast<uint32_t>(memo_.home_of(form));
    });

    // 2. Into the hash-cons, by parts; what a part refuses goes in afterwards, in order.
    // (A table too small for parts takes the batch in order, on this thread: the same
    // nodes go in and are found, so the result does not depend on the table's size,
    // which a batch of cases' history sets.)
    lists.found.assign(n, ClassId());
    auto insert = [&](uint32_t i) {
      const auto [existing, inserted] = memo_.emplace(lists.forms[i], lists.roots[i]);
      if (!inserted) lists.found[i] = existing;
    };
    if (memo_.has_parts()) {
      lists.order.sort(lists.homes, memo_.slots());
      auto fetch = [&](uint32_t i) {
        memo_.prefetch_home(lists.homes[i]);
        __builtin_prefetch(&lists.forms[i]);
      };
      const PartOrder::Outcome outcome = lists.order.run(threads, fetch, [&](uint32_t i) -> std::optional<int> {
        const auto placed = memo_.emplace_in_part(lists.homes[i], lists.forms[i], lists.roots[i]);
        if (!placed) return std::nullopt;
        if (!placed->second) lists.found[i] = placed->first;
        return placed->second ? 1 : 0;
      });
      memo_.adjust_size(outcome.grown);
      for (uint32_t i : outcome.refused) insert(i);
    } else {
      for (uint32_t i = 0; i < n; ++i) {
        if (lists.homes[i] != PartOrder::kNoHome) insert(i);
      }
    }

    // 3. The inserted nodes into their classes' node lists and their operands' parent
    // lists, by shard of class ids. Nothing is merged yet: roots and operands are the
    // canonical classes of phase 1.
    auto inserted = [&](std::size_t i) { return lists.kinds[i] != kConstant && !lists.found[i].valid(); };
    lists.marked.resize(kShards);
    for_range(threads, kShards, 1, [&](std::size_t shard) {
      std::vector<ClassId>& marked = lists.marked[shard];
      marked.clear();
      auto mark = [&](ClassId id) {
        if (is_dirty_[id.value]) return;
        is_dirty_[id.value] = 1;
        marked.push_back(id);
      };
      for (std::size_t i = 0; i < n; ++i) {
        if (!inserted(i)) continue;
        const ENode& form = lists.forms[i];
        const ClassId root = lists.roots[i];
        if (shard_of(root) == shard) {
          EClass& eclass = class_of(root);
          ENode& node = eclass.nodes.emplace_back(form);
          node.added_at = node.formed_at = epoch;
          eclass.changed_at = epoch_;
          mark(root);
        }
        for (ClassId child : form.children) {
          if (shard_of(child) != shard) continue;
          class_of(child).parents.emplace_back(form, root);
          mark(child);
        }
      }
    });
    for (const std::vector<ClassId>& marked : lists.marked) dirty_.insert(dirty_.end(), marked.begin(), marked.end());

    // 4. Data, merges and constants, in the batch's order.
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t entry = first + i;
      if (lists.kinds[i] == kConstant) {
        changed[entry] = add_to(targets[entry], nodes[entry]);
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

}  // namespace eqsat
