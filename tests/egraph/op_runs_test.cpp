// The directory of each class's operation runs (egraph/op_runs.h): a run found there is
// the range of the class's sorted list that holds that operation and dtype.
#include "egraph/op_runs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "egraph/egraph.h"
#include "tests/egraph/build_exprs.h"

namespace eqsat {
namespace {

using testing::bin;
using testing::lit;
using testing::var;

// Every (operation, dtype) key: present in a class or not, before, between and after
// the class's runs.
std::vector<uint16_t> all_keys() {
  std::vector<uint16_t> keys;
  for (int op = 0; op < kNumOps; ++op) {
    for (int dtype = 0; dtype < kNumDTypes; ++dtype) keys.push_back(OpRuns::key(Op(op), DType(dtype)));
  }
  return keys;
}

void expect_runs_match_the_lists(const EGraph& g) {
  const std::vector<ClassId> ids = g.class_ids();
  OpRuns runs;
  runs.clear(ids.back().value + 1);
  for (ClassId id : ids) runs.record(id, g.eclass(id).nodes.data(), g.eclass(id).nodes.size());
  for (ClassId id : ids) {
    ASSERT_TRUE(runs.recorded(id));
    const ENode* nodes = g.eclass(id).nodes.data();
    const ENode* end = nodes + g.eclass(id).nodes.size();
    for (uint16_t key : all_keys()) {
      // The nodes of `key`, found by looking at every node.
      const ENode* first =
          std::find_if(nodes, end, [key](const ENode& n) { return OpRuns::key(n.op, n.dtype) == key; });
      const ENode* last = std::find_if(first, end, [key](const ENode& n) { return OpRuns::key(n.op, n.dtype) != key; });
      ASSERT_EQ(std::count_if(last, end, [key](const ENode& n) { return OpRuns::key(n.op, n.dtype) == key; }), 0)
          << "a class's nodes of one operation and dtype are one run";
      const ENode *lo = nullptr, *hi = nullptr;
      runs.range(id, nodes, key, lo, hi);
      EXPECT_EQ(hi - lo, last - first) << "class " << id.value << ", key " << key;
      if (first != last) {
        EXPECT_EQ(lo, first) << "class " << id.value << ", key " << key;
      }
    }
  }
}

TEST(OpRuns, GiveEachClassesRunOfEveryOperation) {
  // Classes of one node, of several operations and dtypes, and after merges.
  EGraph g;
  const Expr a = var("a"), b = var("b"), c = var("c");
  const ClassId sum = g.add_expr(bin(Op::Add, a, b));
  const ClassId product = g.add_expr(bin(Op::Mul, a, c));
  const ClassId quotient = g.add_expr(bin(Op::FloorDiv, bin(Op::Sub, a, c), lit(4)));
  g.add_expr(bin(Op::Lt, a, b));
  g.merge(sum, product);
  g.merge(sum, quotient);
  g.merge(g.add_var("c", DType::Index), g.add_expr(bin(Op::Max, a, b)));
  g.rebuild();
  ASSERT_GE(g.eclass(sum).nodes.size(), 3u);
  expect_runs_match_the_lists(g);
}

TEST(OpRuns, ForgetTheClassesOfTheirLastUse) {
  EGraph g;
  const ClassId sum = g.add_expr(bin(Op::Add, var("a"), var("b")));
  OpRuns runs;
  runs.clear(sum.value + 1);
  runs.record(sum, g.eclass(sum).nodes.data(), g.eclass(sum).nodes.size());
  EXPECT_TRUE(runs.recorded(sum));
  runs.clear(sum.value + 1);
  EXPECT_FALSE(runs.recorded(sum));
  EXPECT_FALSE(runs.recorded(ClassId(sum.value + 5)));
}

}  // namespace
}  // namespace eqsat
