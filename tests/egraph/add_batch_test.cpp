// New nodes by the batch (egraph/add_batch.cpp): EGraph::add_all_to adds each node of
// a batch to its target class, as add_to of each in turn would, its hash-cons and list
// work cut into parts and shards that run on several threads. After the rebuild the
// e-graph holds the same classes and nodes as after add_to one by one, and it is the
// same, ids included, for any number of threads.
#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <map>
#include <optional>
#include <random>
#include <span>
#include <vector>

#include "egraph/egraph.h"
#include "tests/egraph/build_exprs.h"

namespace eqsat {
namespace {

using ::eqsat::testing::binary_node;

// Each term's class (the terms of `then` after those of `terms`), as the position of
// the first term in the same class: equal for two e-graphs that put the terms into the
// same classes, whatever their ids.
std::vector<std::size_t> partition_of(const EGraph& egraph, std::span<const ClassId> terms,
                                      std::span<const ClassId> then = {}) {
  std::vector<std::size_t> first;
  std::map<ClassId, std::size_t> seen;  // a class's first term
  for (std::size_t k = 0; k < terms.size() + then.size(); ++k) {
    const ClassId term = k < terms.size() ? terms[k] : then[k - terms.size()];
    first.push_back(seen.emplace(egraph.find(term), k).first->second);
  }
  return first;
}

// A random e-graph of about 40,000 sums, differences and products over a few variables
// (two of them bounded, so that some nodes know an interval) and two constants, and a
// batch of 30,000 entries for it: new nodes over its classes (some twice, to other
// classes or to the same one), nodes it holds already, and sums of the two constants
// (whose value the analysis finds).
struct GraphAndBatch {
  EGraph egraph;
  std::vector<ClassId> ids;  // ids[k]: the class of the k-th term added
  std::vector<ClassId> targets;
  std::vector<ENode> nodes;

  explicit GraphAndBatch(unsigned seed) {
    std::mt19937 rng(seed);
    const Op ops[] = {Op::Add, Op::Sub, Op::Mul};
    egraph.set_var_interval("a", Interval::range(0, 15));
    egraph.set_var_interval("b", Interval::range(-4, 4));
    for (const char* name : {"a", "b", "c", "d", "e", "f"}) ids.push_back(egraph.add_var(name, DType::Index));
    const ClassId two = egraph.add_constant(Value::integer(DType::Index, 2));
    const ClassId three = egraph.add_constant(Value::integer(DType::Index, 3));
    ids.push_back(two);
    ids.push_back(three);
    auto random_node = [&] { return binary_node(ops[rng() % 3], ids[rng() % ids.size()], ids[rng() % ids.size()]); };
    while (egraph.num_nodes() < 40000) ids.push_back(egraph.add(random_node()));
    egraph.rebuild();
    while (nodes.size() < 30000) {
      const ClassId target = ids[rng() % ids.size()];
      switch (rng() % 8) {
        case 0:  // a node of the e-graph, perhaps of another class
          nodes.push_back(egraph.eclass(ids[8 + rng() % (ids.size() - 8)]).nodes.front());
          targets.push_back(target);
          break;
        case 1:  // a constant sum (2 + 3 is 5)
          nodes.push_back(binary_node(Op::Add, two, three));
          targets.push_back(target);
          break;
        case 2:  // a new node twice: to another class, then to the same one
          nodes.push_back(random_node());
          targets.push_back(target);
          nodes.push_back(nodes.back());
          targets.push_back(ids[rng() % ids.size()]);
          nodes.push_back(nodes.back());
          targets.push_back(target);
          break;
        default:
          nodes.push_back(random_node());
          targets.push_back(target);
      }
    }
  }

  // Each term's class, the batch's targets after the e-graph's terms (partition_of).
  std::vector<std::size_t> partition() const { return partition_of(egraph, ids, targets); }
};

// The same e-graph, ids included: classes, their nodes, parents and data.
void expect_same_egraph(const EGraph& one, const EGraph& two) {
  EXPECT_EQ(two.check_invariants(), "");
  ASSERT_EQ(one.class_ids(), two.class_ids());
  for (ClassId id : one.class_ids()) {
    EXPECT_TRUE(one.eclass(id).nodes == two.eclass(id).nodes) << id.value;
    EXPECT_TRUE(one.eclass(id).parents == two.eclass(id).parents) << id.value;
    EXPECT_TRUE(one.data(id) == two.data(id)) << id.value;
  }
}

TEST(AddBatch, LeavesTheClassesAndNodesThatAddToOneByOneLeaves) {
  GraphAndBatch batch(3), one_by_one(3);
  ASSERT_TRUE(batch.egraph.adds_by_parts());
  // The batch's first entry puts a + b (of two bounded variables) into the class of an
  // unbounded variable g, which only the batch's analysis can then bound.
  for (GraphAndBatch* graph : {&batch, &one_by_one}) {
    ASSERT_FALSE(graph->egraph.lookup(binary_node(Op::Add, graph->ids[0], graph->ids[1])).has_value());
    graph->nodes.insert(graph->nodes.begin(), binary_node(Op::Add, graph->ids[0], graph->ids[1]));
    graph->targets.insert(graph->targets.begin(), graph->egraph.add_var("g", DType::Index));
  }
  std::vector<uint8_t> changed;
  batch.egraph.add_all_to(batch.targets, batch.nodes, changed, 1);
  batch.egraph.rebuild();
  for (std::size_t i = 0; i < one_by_one.nodes.size(); ++i) {
    one_by_one.egraph.add_to(one_by_one.targets[i], one_by_one.nodes[i]);
  }
  one_by_one.egraph.rebuild();
  EXPECT_EQ(batch.egraph.check_invariants(), "");
  EXPECT_EQ(one_by_one.egraph.check_invariants(), "");
  EXPECT_EQ(batch.egraph.num_classes(), one_by_one.egraph.num_classes());
  EXPECT_EQ(batch.egraph.num_nodes(), one_by_one.egraph.num_nodes());
  EXPECT_EQ(batch.partition(), one_by_one.partition());
  // The analysis found the constant sums' value, and their classes hold its leaf.
  const std::optional<ClassId> five = batch.egraph.lookup_constant(Value::integer(DType::Index, 5));
  ASSERT_TRUE(five.has_value());
  EXPECT_EQ(batch.egraph.data(*five).constant, Value::integer(DType::Index, 5));
  // So did it the bounded variables' intervals: a + b, and so g, is within [-4, 19].
  const std::optional<ClassId> sum = batch.egraph.lookup(binary_node(Op::Add, batch.ids[0], batch.ids[1]));
  ASSERT_TRUE(sum.has_value());
  EXPECT_EQ(*sum, batch.egraph.find(batch.targets.front()));
  EXPECT_TRUE(batch.egraph.data(*sum).interval.within(Interval::range(-4, 19)));
}

TEST(AddBatch, SaysWhichEntriesMadeAChange) {
  GraphAndBatch graph(5);
  EGraph& egraph = graph.egraph;
  const ClassId a = graph.ids[0], b = graph.ids[1], c = graph.ids[2];
  // A node no class holds: made up of a class made for it.
  const ClassId fresh = egraph.add(binary_node(Op::Mul, egraph.add_var("g", DType::Index), a));
  egraph.rebuild();
  const ENode fresh_node = egraph.eclass(fresh).nodes.front();
  const ENode missing = binary_node(Op::Sub, fresh, fresh);
  ASSERT_FALSE(egraph.lookup(missing).has_value());
  const ClassId held_by_a = egraph.find(a);
  const std::vector<ClassId> targets = {
      a,      // the missing node, new: a change
      b,      // the same node to another class: a merge, a change
      a,      // the same node to the class it is in by now: none
      fresh,  // a node in its own class already: none
      c,      // a node of another class: a merge, a change
  };
  const std::vector<ENode> nodes = {missing, missing, missing, fresh_node, fresh_node};
  std::vector<uint8_t> changed;
  egraph.add_all_to(targets, nodes, changed, 1);
  EXPECT_EQ(changed, (std::vector<uint8_t>{1, 1, 0, 0, 1}));
  egraph.rebuild();
  EXPECT_EQ(egraph.check_invariants(), "");
  EXPECT_EQ(egraph.find(held_by_a), egraph.find(b));
  EXPECT_EQ(egraph.find(fresh), egraph.find(c));
  EXPECT_EQ(egraph.lookup(missing), egraph.find(a));
}

TEST(AddBatch, GivesTheSameEGraphOnAnyNumberOfThreads) {
  GraphAndBatch one(9), two(9);
  std::vector<uint8_t> changed_one, changed_two;
  one.egraph.add_all_to(one.targets, one.nodes, changed_one, 1);
  one.egraph.rebuild(1);
  tbb::task_arena arena(2);
  arena.execute([&] {
    two.egraph.add_all_to(two.targets, two.nodes, changed_two, 2);
    two.egraph.rebuild(2);
  });
  EXPECT_EQ(changed_one, changed_two);
  expect_same_egraph(one.egraph, two.egraph);
}

// add_all, the batch form of add: new nodes get new classes, in the batch's order; a
// node present, or equal to an earlier one of the batch, has that one's class.
TEST(AddBatch, AddAllGivesTheClassesThatAddOneByOneGives) {
  GraphAndBatch batch(13), one_by_one(13);
  std::vector<ClassId> classes;
  batch.egraph.add_all(batch.nodes, classes, 1);
  ASSERT_EQ(classes.size(), batch.nodes.size());
  std::vector<ClassId> expected;
  for (const ENode& node : one_by_one.nodes) expected.push_back(one_by_one.egraph.add(node));
  batch.egraph.rebuild();
  one_by_one.egraph.rebuild();
  // The batch's nodes fall into the same classes (ids may differ: the nodes of known
  // value are added last).
  EXPECT_EQ(partition_of(batch.egraph, classes), partition_of(one_by_one.egraph, expected));
  EXPECT_EQ(batch.egraph.check_invariants(), "");
  EXPECT_EQ(batch.egraph.num_classes(), one_by_one.egraph.num_classes());
  EXPECT_EQ(batch.egraph.num_nodes(), one_by_one.egraph.num_nodes());
  EXPECT_EQ(batch.partition(), one_by_one.partition());
  for (std::size_t i = 0; i < classes.size(); ++i) {
    EXPECT_EQ(batch.egraph.lookup(batch.nodes[i]), batch.egraph.find(classes[i])) << i;
  }
}

TEST(AddBatch, AddAllGivesTheSameEGraphOnAnyNumberOfThreads) {
  GraphAndBatch one(17), two(17);
  std::vector<ClassId> classes_one, classes_two;
  one.egraph.add_all(one.nodes, classes_one, 1);
  one.egraph.rebuild(1);
  tbb::task_arena arena(2);
  arena.execute([&] {
    two.egraph.add_all(two.nodes, classes_two, 2);
    two.egraph.rebuild(2);
  });
  EXPECT_EQ(classes_one, classes_two);
  expect_same_egraph(one.egraph, two.egraph);
}

// Batches at the sizes where the hash-cons changes: an e-graph just under three
// quarters of a table of 32,768 slots (too small for parts) or of 65,536 (parts),
// and batches that fill it past three quarters, in one chunk of the batch (4,096
// entries) or several. An insertion made alone (without parts, or refused by its
// part) may then double the table in the middle of a batch. Each batch form leaves
// the classes that the one-by-one form leaves, and the hash-cons finds every node's
// class. (With a table doubled during add_all's insertions, the homes computed before
// had pointed the recording of the nodes' classes at slots that nodes had moved out of,
// whose keys a doubling leaves behind: it revived such a slot and left the node's own
// slot with its placeholder, and the lookups that found it crashed.)
// (Not GraphAndBatch: without constants or bounds, add_all gives exactly the ids that add
// gives, which the test compares.)
struct SizedGraph {
  EGraph egraph;
  std::vector<ClassId> ids;
  std::vector<ENode> batch;
  std::vector<ClassId> targets;

  SizedGraph(std::size_t nodes, std::size_t entries) {
    std::mt19937 rng(static_cast<unsigned>(nodes + entries));
    for (const char* name : {"a", "b", "c", "d", "e", "f", "g", "h"}) ids.push_back(egraph.add_var(name, DType::Index));
    auto random_node = [&] {
      return binary_node(rng() % 2 ? Op::Add : Op::Mul, ids[rng() % ids.size()], ids[rng() % ids.size()]);
    };
    while (egraph.num_nodes() < nodes) ids.push_back(egraph.add(random_node()));
    egraph.rebuild();
    while (batch.size() < entries) {
      batch.push_back(rng() % 16 == 0 && !batch.empty() ? batch[rng() % batch.size()] : random_node());
      targets.push_back(ids[rng() % ids.size()]);
    }
  }
};

TEST(AddBatch, BatchesThatFillTheTableMatchTheOneByOneForms) {
  struct Case {
    std::size_t nodes, entries, slots;
  };
  for (const Case& c : {Case{23000, 4000, 32768}, Case{23000, 9000, 32768}, Case{24000, 2000, 32768},
                        Case{48000, 3000, 65536}, Case{48500, 9000, 65536}}) {
    SCOPED_TRACE(::testing::Message() << c.nodes << " e-nodes, a batch of " << c.entries);
    {
      SizedGraph batch(c.nodes, c.entries), one_by_one(c.nodes, c.entries);
      ASSERT_EQ(batch.egraph.probe_slots(), c.slots);
      std::vector<ClassId> classes, expected;
      batch.egraph.add_all(batch.batch, classes, 1);
      for (const ENode& node : one_by_one.batch) expected.push_back(one_by_one.egraph.add(node));
      for (std::size_t i = 0; i < classes.size(); ++i) {
        ASSERT_EQ(batch.egraph.lookup(batch.batch[i]), batch.egraph.find(classes[i])) << i;
      }
      EXPECT_EQ(batch.egraph.num_nodes(), one_by_one.egraph.num_nodes());
      EXPECT_EQ(classes, expected);  // new classes in the batch's order, as add gives them
      batch.egraph.rebuild();
      EXPECT_EQ(batch.egraph.check_invariants(), "");
    }
    {
      SizedGraph batch(c.nodes, c.entries), one_by_one(c.nodes, c.entries);
      std::vector<uint8_t> changed;
      batch.egraph.add_all_to(batch.targets, batch.batch, changed, 1);
      for (std::size_t i = 0; i < one_by_one.batch.size(); ++i) {
        one_by_one.egraph.add_to(one_by_one.targets[i], one_by_one.batch[i]);
      }
      batch.egraph.rebuild();
      one_by_one.egraph.rebuild();
      EXPECT_EQ(batch.egraph.check_invariants(), "");
      EXPECT_EQ(batch.egraph.num_nodes(), one_by_one.egraph.num_nodes());
      EXPECT_EQ(batch.egraph.num_classes(), one_by_one.egraph.num_classes());
      EXPECT_EQ(partition_of(batch.egraph, batch.ids, batch.targets),
                partition_of(one_by_one.egraph, one_by_one.ids, one_by_one.targets));
    }
  }
}

}  // namespace
}  // namespace eqsat
