// Congruence in rounds (egraph/rebuild_rounds.cpp): a large rebuild re-canonicalizes
// its pending parents a batch at a time, the hash-cons work cut into parts of the table
// (NodeMemo's `_in_part` operations) that run on several threads. The e-graph it leaves
// has the same classes and nodes as the one-entry-at-a-time loop would, and is the
// same, ids included, for any number of threads.
#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <map>
#include <optional>
#include <random>
#include <utility>
#include <vector>

#include "egraph/egraph.h"
#include "egraph/node_memo.h"
#include "tests/egraph/build_exprs.h"

namespace eqsat {
namespace {

ENode sum_of(uint32_t a, uint32_t b) { return testing::binary_node(Op::Add, ClassId(a), ClassId(b)); }

// A table with parts: 65,536 slots, parts of 1,024.
NodeMemo memo_with_parts() {
  NodeMemo memo;
  memo.reserve_more(40000);
  EXPECT_TRUE(memo.has_parts());
  return memo;
}

TEST(NodeMemoParts, OperationsInAPartDoWhatThePlainOnesDo) {
  NodeMemo memo = memo_with_parts();
  for (uint32_t i = 0; i < 20000; ++i) {
    const ENode node = sum_of(i, i + 1);
    const auto placed = memo.emplace_in_part(memo.home_of(node), node, ClassId(i));
    ASSERT_TRUE(placed.has_value());  // runs this short never reach two parts on
    EXPECT_EQ(*placed, std::make_pair(ClassId(i), true));
  }
  memo.adjust_size(20000);
  EXPECT_EQ(memo.size(), 20000u);
  // Present: found, not inserted again.
  const ENode again = sum_of(7, 8);
  EXPECT_EQ(memo.emplace_in_part(memo.home_of(again), again, ClassId(99)),
            std::make_optional(std::make_pair(ClassId(7), false)));
  // Erased in a part, then missing; the others are still found (the backward shift
  // kept every run whole).
  for (uint32_t i = 0; i < 20000; i += 2) {
    const ENode node = sum_of(i, i + 1);
    EXPECT_EQ(memo.erase_in_part(memo.home_of(node), node), std::make_optional(true));
    EXPECT_EQ(memo.erase_in_part(memo.home_of(node), node), std::make_optional(false));
  }
  memo.adjust_size(-10000);
  EXPECT_EQ(memo.size(), 10000u);
  for (uint32_t i = 0; i < 20000; ++i) {
    const ClassId found = memo.find(sum_of(i, i + 1));  // invalid if absent
    if (i % 2 == 0) {
      EXPECT_FALSE(found.valid()) << i;
    } else {
      EXPECT_EQ(found, ClassId(i)) << i;
    }
  }
}

TEST(NodeMemoParts, AnOperationThatWouldReachTwoPartsOnIsRefusedAndChangesNothing) {
  NodeMemo memo = memo_with_parts();
  const std::size_t part_slots = memo.slots() / NodeMemo::kParts;
  // 1,200 nodes whose homes lie in the last 64 slots of part 0 make one run of
  // occupied slots from there through part 1 into part 2.
  std::vector<ENode> filling;
  for (uint32_t i = 0; filling.size() < 1200; ++i) {
    const ENode node = sum_of(i, 1u << 20);
    const std::size_t home = memo.home_of(node);
    if (home < part_slots - 64 || home >= part_slots) continue;
    memo.emplace(node, ClassId(i));
    filling.push_back(node);
  }
  // A new node at home in the last slots of part 0: its probe runs through part 1
  // into part 2, which the threads of the parts of the other parity may be writing.
  for (uint32_t i = 0;; ++i) {
    const ENode node = sum_of(i, 1u << 21);
    const std::size_t home = memo.home_of(node);
    if (home < part_slots - 8 || home >= part_slots) continue;
    const std::size_t before = memo.size();
    EXPECT_EQ(memo.emplace_in_part(home, node, ClassId(1)), std::nullopt);
    EXPECT_FALSE(memo.find(node).valid());
    EXPECT_EQ(memo.size(), before);
    // The plain operation makes it.
    EXPECT_TRUE(memo.emplace(node, ClassId(1)).second);
    break;
  }
  // Erasing a node whose home is in part 0: the shift back would read up to the end
  // of the run, in part 2.
  EXPECT_EQ(memo.erase_in_part(memo.home_of(filling[0]), filling[0]), std::nullopt);
  EXPECT_TRUE(memo.find(filling[0]).valid());
}

// A random e-graph of about 40,000 sums, differences and products over a few
// variables (ids[k] is the class of the k-th term added), with `merges` random pairs
// of its classes merged.
struct RandomGraph {
  EGraph egraph;
  std::vector<ClassId> ids;
  std::vector<std::pair<ClassId, ClassId>> merges;

  explicit RandomGraph(unsigned seed) {
    std::mt19937 rng(seed);
    const Op ops[] = {Op::Add, Op::Sub, Op::Mul};
    for (const char* name : {"a", "b", "c", "d", "e", "f"}) ids.push_back(egraph.add_var(name, DType::Index));
    while (egraph.num_nodes() < 40000) {
      ENode node;
      node.op = ops[rng() % 3];
      node.dtype = DType::Index;
      node.children = {ids[rng() % ids.size()], ids[rng() % ids.size()]};
      ids.push_back(egraph.add(node));
    }
    egraph.rebuild();
    for (int i = 0; i < 10000; ++i) merges.emplace_back(ids[rng() % ids.size()], ids[rng() % ids.size()]);
  }

  // Each term's class, as the position of the first term in the same class: equal for
  // two e-graphs that hold the same classes, whatever their ids.
  std::vector<std::size_t> partition() const {
    std::vector<std::size_t> first;
    std::map<ClassId, std::size_t> seen;  // a class's first term
    for (std::size_t k = 0; k < ids.size(); ++k) first.push_back(seen.emplace(egraph.find(ids[k]), k).first->second);
    return first;
  }
};

TEST(CongruenceRounds, LeaveTheClassesTheOneAtATimeLoopLeaves) {
  RandomGraph rounds(7), loop(7);
  for (auto [a, b] : rounds.merges) rounds.egraph.merge(a, b);
  rounds.egraph.rebuild();  // one large rebuild: by rounds
  EXPECT_GT(rounds.egraph.congruence_rounds(), 0u);
  for (auto [a, b] : loop.merges) {
    loop.egraph.merge(a, b);
    loop.egraph.rebuild();  // a merge at a time: a few entries, the loop
  }
  EXPECT_EQ(loop.egraph.congruence_rounds(), 0u);
  EXPECT_EQ(rounds.egraph.check_invariants(), "");
  EXPECT_EQ(loop.egraph.check_invariants(), "");
  EXPECT_EQ(rounds.egraph.num_classes(), loop.egraph.num_classes());
  EXPECT_EQ(rounds.egraph.num_nodes(), loop.egraph.num_nodes());
  EXPECT_EQ(rounds.partition(), loop.partition());
}

TEST(CongruenceRounds, GiveTheSameEGraphOnAnyNumberOfThreads) {
  RandomGraph one(11), two(11);
  for (auto [a, b] : one.merges) one.egraph.merge(a, b);
  one.egraph.rebuild(1);
  for (auto [a, b] : two.merges) two.egraph.merge(a, b);
  tbb::task_arena arena(2);
  arena.execute([&] { two.egraph.rebuild(2); });
  EXPECT_GT(two.egraph.congruence_rounds(), 0u);
  EXPECT_EQ(two.egraph.check_invariants(), "");
  ASSERT_EQ(one.egraph.class_ids(), two.egraph.class_ids());
  for (ClassId id : one.egraph.class_ids()) {
    EXPECT_TRUE(one.egraph.eclass(id).nodes == two.egraph.eclass(id).nodes) << id.value;
    EXPECT_TRUE(one.egraph.eclass(id).parents == two.egraph.eclass(id).parents) << id.value;
  }
}

}  // namespace
}  // namespace eqsat
