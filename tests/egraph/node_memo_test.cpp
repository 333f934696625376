// The hash-cons table (egraph/node_memo.h) as it grows: it doubles in malloc's heap,
// leaves the heap for a mapping of its own of 16,384 slots at once, then doubles in
// place (its storage keeps its pages, egraph/large_arrays.h, and every entry moves to
// its new home) up to one in huge pages; after every growth each node is found with
// its class and no other is.
#include "egraph/node_memo.h"

#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <utility>
#include <vector>

#include "egraph/large_arrays.h"
#include "tests/egraph/build_exprs.h"

namespace eqsat {
namespace {

ENode node_of(Op op, uint32_t a, uint32_t b) { return testing::binary_node(op, ClassId(a), ClassId(b)); }

// `count` distinct nodes, in an order with no pattern to it.
std::vector<ENode> distinct_nodes(uint32_t count) {
  std::vector<ENode> nodes;
  for (uint32_t i = 0; i < count; ++i) nodes.push_back(node_of(i % 3 == 0 ? Op::Mul : Op::Add, i, i * 7 + 1));
  std::shuffle(nodes.begin(), nodes.end(), std::mt19937(2026));
  return nodes;
}

// Whether the first `count` nodes are found, nodes[i] with class i, and the others
// are not.
::testing::AssertionResult holds_exactly(const NodeMemo& memo, const std::vector<ENode>& nodes, std::size_t count) {
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const ClassId found = memo.find(nodes[i]);
    const ClassId expected = i < count ? ClassId(static_cast<uint32_t>(i)) : ClassId();
    if (found != expected) {
      return ::testing::AssertionFailure() << "node " << i << " of " << count << " in a table of " << memo.slots()
                                           << " slots: found " << found.value << ", expected " << expected.value;
    }
  }
  return ::testing::AssertionSuccess();
}

TEST(NodeMemo, EveryDoublingKeepsEachEntryAndAddsNone) {
  // 200,000 entries: the table grows from 64 slots to 524,288 (12 MB), through every
  // kind of storage (under 64 KB, a populated mapping, huge pages from 2 MB): it
  // doubles up to 2,048 slots (48 KB), whose next doubling would leave the heap, goes
  // to 16,384 slots (384 KB, the size below which a table is never shrunk) instead,
  // and doubles from there on.
  const std::vector<ENode> nodes = distinct_nodes(200000);
  NodeMemo memo;
  std::vector<std::size_t> sizes;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const std::size_t before = memo.slots();
    ASSERT_EQ(memo.emplace(nodes[i], ClassId(static_cast<uint32_t>(i))),
              std::make_pair(ClassId(static_cast<uint32_t>(i)), true));
    if (memo.slots() != before && before > 0) {
      sizes.push_back(memo.slots());
      // It grew when a new entry would have filled it past three quarters.
      EXPECT_EQ(i, before * 3 / 4);
      std::vector<ENode> inserted(nodes.begin(), nodes.begin() + static_cast<std::ptrdiff_t>(i + 1));
      ASSERT_TRUE(holds_exactly(memo, inserted, i + 1));
    }
  }
  EXPECT_EQ(sizes, (std::vector<std::size_t>{128, 256, 512, 1024, 2048, 16384, 32768, 65536, 131072, 262144, 524288}));
  EXPECT_EQ(memo.size(), nodes.size());
  ASSERT_TRUE(holds_exactly(memo, nodes, nodes.size()));
  // Not in the table: nodes of another operation.
  for (uint32_t i = 0; i < 1000; ++i) EXPECT_FALSE(memo.find(node_of(Op::Sub, i, i)).valid());
}

TEST(NodeMemo, ErasuresAfterDoublingsKeepTheOthersFound) {
  const std::vector<ENode> nodes = distinct_nodes(50000);
  NodeMemo memo;
  for (std::size_t i = 0; i < nodes.size(); ++i) memo.emplace(nodes[i], ClassId(static_cast<uint32_t>(i)));
  for (std::size_t i = 0; i < nodes.size(); i += 2) memo.erase(nodes[i]);
  EXPECT_EQ(memo.size(), nodes.size() / 2);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    EXPECT_EQ(memo.find(nodes[i]), i % 2 ? ClassId(static_cast<uint32_t>(i)) : ClassId()) << "node " << i;
  }
}

TEST(NodeMemo, ReservingForManyDoublesAsOftenAsItTakes) {
  const std::vector<ENode> nodes = distinct_nodes(1500);
  NodeMemo memo;
  for (std::size_t i = 0; i < nodes.size(); ++i) memo.emplace(nodes[i], ClassId(static_cast<uint32_t>(i)));
  EXPECT_EQ(memo.slots(), 2048u);
  // 2,048 -> 131,072 slots at once: out of the heap to 16,384, then three doublings.
  memo.reserve_more(100000);
  EXPECT_EQ(memo.slots(), 131072u);
  EXPECT_TRUE(holds_exactly(memo, nodes, nodes.size()));
}

// Every operation, in random order, against a map: plain insertions, erasures and
// assignments, their forms in parts (refused ones redone plainly, as the e-graph's
// batches do), doublings and halvings in between, and assignments in parts from a home
// computed before the table doubled: those find the node or refuse, and never revive a
// slot a moved node left its key in (egraph/add_batch.cpp's add_all once did).
TEST(NodeMemo, RandomOperationsAgreeWithAMap) {
  std::mt19937 rng(23);
  NodeMemo memo;
  std::map<std::pair<uint32_t, uint32_t>, ClassId> reference;
  auto random_key = [&] { return std::pair<uint32_t, uint32_t>(rng() % 500, rng() % 500); };
  auto node = [](std::pair<uint32_t, uint32_t> key) { return node_of(Op::Add, key.first, key.second); };
  uint32_t next_id = 0;
  std::size_t refused = 0, stale_assigned = 0;
  for (int step = 0; step < 300000; ++step) {
    const auto key = random_key();
    const ENode n = node(key);
    const auto it = reference.find(key);
    switch (rng() % 10) {
      case 0:
      case 1:
      case 2: {  // insert, plainly or in a part
        const ClassId id(next_id++);
        std::pair<ClassId, bool> got;
        if (memo.has_parts() && rng() % 2) {
          const auto placed = memo.emplace_in_part(memo.home_of(n), n, id);
          if (placed) {
            got = *placed;
            memo.adjust_size(placed->second ? 1 : 0);
          } else {
            ++refused;
            got = memo.emplace(n, id);
          }
        } else {
          got = memo.emplace(n, id);
        }
        if (it == reference.end()) {
          ASSERT_EQ(got, std::make_pair(id, true)) << step;
          reference.emplace(key, id);
        } else {
          ASSERT_EQ(got, std::make_pair(it->second, false)) << step;
        }
        break;
      }
      case 3:
      case 4: {  // erase, plainly or in a part
        if (memo.has_parts() && rng() % 2) {
          const auto erased = memo.erase_in_part(memo.home_of(n), n);
          if (erased) {
            ASSERT_EQ(*erased, it != reference.end()) << step;
            memo.adjust_size(*erased ? -1 : 0);
          } else {
            ++refused;
            memo.erase(n);
          }
        } else {
          memo.erase(n);
        }
        if (it != reference.end()) reference.erase(it);
        break;
      }
      case 5: {                            // give a present node another class
        if (it == reference.end()) break;  // (present: the table has slots)
        const ClassId id(next_id++);
        if (!memo.has_parts() || !memo.assign_in_part(memo.home_of(n), n, id)) memo.assign(n, id);
        it->second = id;
        break;
      }
      case 6: {  // the same from homes taken before the table doubles
        if (reference.empty() || !memo.has_parts() || memo.slots() >= (std::size_t{1} << 19) || rng() % 50 != 0) break;
        std::vector<std::pair<std::pair<uint32_t, uint32_t>, std::size_t>> homes;
        for (int k = 0; k < 64; ++k) {
          auto pick = reference.lower_bound(random_key());
          if (pick == reference.end()) pick = reference.begin();
          homes.emplace_back(pick->first, memo.home_of(node(pick->first)));
        }
        memo.reserve_more(memo.slots());  // at least one doubling
        for (const auto& [picked, home] : homes) {
          const ClassId id(next_id++);
          if (memo.assign_in_part(home, node(picked), id)) {
            ++stale_assigned;
          } else {
            memo.assign(node(picked), id);
          }
          reference[picked] = id;
        }
        break;
      }
      case 7:
        if (rng() % 200 == 0) memo.shrink();
        break;
      default:
        ASSERT_EQ(memo.find(n), it == reference.end() ? ClassId() : it->second) << step;
    }
    ASSERT_EQ(memo.size(), reference.size()) << step;
  }
  for (const auto& [key, id] : reference) ASSERT_EQ(memo.find(node(key)), id);
  EXPECT_GT(refused + stale_assigned, 0u);  // the fallbacks were taken
}

TEST(NodeMemo, ACopyHoldsTheSameEntries) {
  const std::vector<ENode> nodes = distinct_nodes(20000);
  NodeMemo memo;
  for (std::size_t i = 0; i < nodes.size(); ++i) memo.emplace(nodes[i], ClassId(static_cast<uint32_t>(i)));
  const NodeMemo copy = memo;
  memo.erase(nodes[0]);
  EXPECT_TRUE(holds_exactly(copy, nodes, nodes.size()));
  EXPECT_FALSE(memo.find(nodes[0]).valid());
}

// Reserved on two threads (in a task arena of two, as the apply's batches do), the
// table doubles as on one, its new halves written a 2 MB piece per thread, and holds
// the same entries.
TEST(NodeMemo, ReservingOnTwoThreadsMakesTheSameTable) {
  const std::vector<ENode> nodes = distinct_nodes(3000);
  NodeMemo one, two;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    one.emplace(nodes[i], ClassId(static_cast<uint32_t>(i)));
    two.emplace(nodes[i], ClassId(static_cast<uint32_t>(i)));
  }
  one.reserve_more(1000000);  // 4,096 -> 2,097,152 slots (48 MB, new halves of up to 24 MB)
  tbb::task_arena(2).execute([&] { two.reserve_more(1000000, 2); });
  ASSERT_EQ(two.slots(), one.slots());
  EXPECT_EQ(two.slots(), std::size_t{1} << 21);
  EXPECT_TRUE(holds_exactly(one, nodes, nodes.size()));
  EXPECT_TRUE(holds_exactly(two, nodes, nodes.size()));
  // Not in the table: nodes of another operation (the new halves hold empty slots only).
  for (uint32_t i = 0; i < 1000; ++i) EXPECT_FALSE(two.find(node_of(Op::Sub, i, i)).valid());
}

// A table three quarters full doubles by ranges of old slots, the large ones cut into
// pieces moved on the threads (NodeMemo::double_in_place): at this load many runs of
// occupied slots cross from one piece into the next, and their entries go in after the
// pieces. On one thread and on two, every entry is found with its class.
TEST(NodeMemo, DoublingAFullTableByPiecesKeepsEachEntry) {
  const std::vector<ENode> nodes = distinct_nodes(49000);  // 65,536 slots, just under three quarters
  NodeMemo one, two;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    one.emplace(nodes[i], ClassId(static_cast<uint32_t>(i)));
    two.emplace(nodes[i], ClassId(static_cast<uint32_t>(i)));
  }
  ASSERT_EQ(one.slots(), 65536u);
  // Past seven eighths: one doubling, whose top range of old slots (32,768) is pieced.
  one.reserve_more(10000);
  tbb::task_arena(2).execute([&] { two.reserve_more(10000, 2); });
  ASSERT_EQ(one.slots(), 131072u);
  ASSERT_EQ(two.slots(), 131072u);
  EXPECT_TRUE(holds_exactly(one, nodes, nodes.size()));
  EXPECT_TRUE(holds_exactly(two, nodes, nodes.size()));
  EXPECT_EQ(two.size(), nodes.size());
  for (uint32_t i = 0; i < 1000; ++i) EXPECT_FALSE(two.find(node_of(Op::Sub, i, i)).valid());
}

// GrowableArray keeps its elements through growths that cross its storage's kinds, its
// new elements written on `threads` threads.
template <MidSize kMidSize>
void grows_keeping_its_elements(unsigned threads) {
  GrowableArray<uint64_t, kMidSize> array;
  array.assign(100, 7);
  for (std::size_t i = 0; i < array.size(); ++i) array[i] = i;
  // 800 bytes -> 64 KB -> 1 MB -> 4 MB -> 16 MB.
  for (std::size_t size :
       {std::size_t{8} << 10, std::size_t{128} << 10, std::size_t{512} << 10, std::size_t{2} << 20}) {
    const std::size_t before = array.size();
    array.grow(size, 9, threads);
    ASSERT_EQ(array.size(), size);
    for (std::size_t i = 0; i < before; ++i) ASSERT_EQ(array[i], i) << "element " << i << " after growing to " << size;
    for (std::size_t i = before; i < size; ++i) ASSERT_EQ(array[i], 9u) << "new element " << i;
    for (std::size_t i = before; i < size; ++i) array[i] = i;
  }
}

TEST(GrowableArray, GrowsKeepingItsElementsThroughEveryKindOfStorage) {
  grows_keeping_its_elements<MidSize::Populated>(1);
  grows_keeping_its_elements<MidSize::Standard>(1);
}

// The new elements of a growth of 16 MB written on two threads, 2 MB a piece.
TEST(GrowableArray, GrowsOnTwoThreadsAsOnOne) {
  tbb::task_arena(2).execute([] {
    grows_keeping_its_elements<MidSize::Populated>(2);
    grows_keeping_its_elements<MidSize::Standard>(2);
  });
}

}  // namespace
}  // namespace eqsat
