// Looking up the instances of a right side for many matches at once
// (egraph/instance_lookup.h): the same answers as one lookup at a time.
#include "egraph/instance_lookup.h"

#include <gtest/gtest.h>

#include <optional>

#include "egraph/runner.h"
#include "tests/egraph/build_exprs.h"

namespace eqsat {
namespace {

using testing::bin;
using testing::lit;
using testing::var;
using State = InstanceFound::State;

const std::vector<PatternVar> kXyz = {
    {"x", DType::Index, false}, {"y", DType::Index, false}, {"z", DType::Index, false}};

Pattern pattern(const Expr& expr) { return Pattern::from_expr(expr, kXyz); }

std::vector<InstanceFound> find_one(const EGraph& g, const Pattern& p, std::vector<ClassId> subst, ClassId target) {
  std::vector<InstanceFound> found;
  subst.resize(kXyz.size());
  find_instances(g, p, subst, kXyz.size(), std::vector<ClassId>{target}, found);
  return found;
}

TEST(FindInstances, SaysWhereTheRightSideIsAndWhatItsApplyNeeds) {
  EGraph g;
  const ClassId a = g.add_var("a", DType::Index), b = g.add_var("b", DType::Index);
  const ClassId c = g.add_var("c", DType::Index);
  const ClassId a_plus_b = g.add_expr(bin(Op::Add, var("a"), var("b")));
  const ClassId a_times_b = g.add_expr(bin(Op::Mul, var("a"), var("b")));
  const ClassId sum = g.add_expr(bin(Op::Add, bin(Op::Add, var("a"), var("b")), var("c")));
  g.rebuild();
  const Pattern add_xy = pattern(bin(Op::Add, var("x"), var("y")));
  const Pattern nested = pattern(bin(Op::Add, bin(Op::Add, var("x"), var("y")), var("z")));
  const Pattern with_zero = pattern(bin(Op::Add, var("x"), lit(0)));

  // a + b is in the class of a + b (built-in commutativity: b + a is the same node).
  EXPECT_EQ(find_one(g, add_xy, {b, a}, a_plus_b)[0].state, State::InClass);
  // ... and not in the class of a * b, but in another class, which the apply merges.
  std::vector<InstanceFound> found = find_one(g, add_xy, {a, b}, a_times_b);
  EXPECT_EQ(found[0].state, State::Elsewhere);
  EXPECT_EQ(found[0].ids[0], a_plus_b);
  // (a + b) + c under the nesting: in `sum`'s class; with c and a swapped, a + b's
  // operands are there but the root (c + b) + a is not: its operands are given.
  EXPECT_EQ(find_one(g, nested, {a, b, c}, sum)[0].state, State::InClass);
  EXPECT_EQ(find_one(g, nested, {c, b, a}, sum)[0].state, State::Missing) << "c + b is not in the e-graph";
  found = find_one(g, nested, {b, a, b}, sum);
  EXPECT_EQ(found[0].state, State::RootMissing) << "(b + a) + b is not in the e-graph, b + a is";
  EXPECT_EQ(found[0].ids[0], a_plus_b);
  EXPECT_EQ(found[0].ids[1], b);
  // A constant not in the e-graph: nothing above it is.
  EXPECT_EQ(find_one(g, with_zero, {a}, a)[0].state, State::Missing);
}

// In the middle of an apply, after merges and before the rebuild, the hash-cons still
// files nodes under the operands they had: a lookup under the canonical operands finds
// what the merges put in place when it is filed so, and misses it otherwise (it is then
// applied, and the rebuild merges the copy back), but never finds what is not there.
TEST(FindInstancesAfterMerges, FindsWhatTheMergesPutInPlaceAndNothingThatIsNot) {
  EGraph g;
  const ClassId a = g.add_var("a", DType::Index), b = g.add_var("b", DType::Index);
  const ClassId c = g.add_var("c", DType::Index), d = g.add_var("d", DType::Index);
  const ClassId a_plus_b = g.add_expr(bin(Op::Add, var("a"), var("b")));
  const ClassId c_times_b = g.add_expr(bin(Op::Mul, var("c"), var("b")));
  const ClassId d_times_b = g.add_expr(bin(Op::Mul, var("d"), var("b")));
  g.rebuild();
  const Pattern add_xy = pattern(bin(Op::Add, var("x"), var("y")));
  const Pattern mul_xy = pattern(bin(Op::Mul, var("x"), var("y")));
  auto after_merges = [&](const Pattern& p, std::vector<ClassId> subst, ClassId target) {
    for (ClassId& id : subst) id = g.find(id);
    subst.resize(kXyz.size());
    std::vector<InstanceFound> found;
    find_instances_after_merges(g, p, subst, kXyz.size(), std::vector<ClassId>{g.find(target)}, found);
    return found[0];
  };
  // Before any merge, c + b is nowhere: its root is missing.
  EXPECT_EQ(after_merges(add_xy, {c, b}, c_times_b).state, State::RootMissing);
  // a and c merged (a, with as many parents, stays the root): c + b is now a + b, filed
  // under a and b, so it is found, in another class than c * b.
  ASSERT_TRUE(g.merge(a, c));
  ASSERT_EQ(g.find(c), a);
  InstanceFound found = after_merges(add_xy, {c, b}, c_times_b);
  EXPECT_EQ(found.state, State::Elsewhere);
  EXPECT_EQ(found.ids[0], g.find(a_plus_b));
  // ... and once that class is merged too, it is in place.
  ASSERT_TRUE(g.merge(a_plus_b, c_times_b));
  EXPECT_EQ(after_merges(add_xy, {c, b}, c_times_b).state, State::InClass);
  // c * b is filed under c, no longer canonical: a lookup of a * b misses it (only the
  // rebuild files it anew), and says the root is missing, never that it is elsewhere.
  EXPECT_EQ(after_merges(mul_xy, {a, b}, c_times_b).state, State::RootMissing);
  // d * b, which no merge touched, is where it was.
  EXPECT_EQ(after_merges(mul_xy, {d, b}, d_times_b).state, State::InClass);
  g.rebuild();
  EXPECT_EQ(find_one(g, mul_xy, {a, b}, c_times_b)[0].state, State::InClass) << "filed anew by the rebuild";
}

// The classes of the nodes of `p`'s instance under `subst`, looked up one at a time
// (nullopt where a node is not in the e-graph).
std::vector<std::optional<ClassId>> instance_classes(const EGraph& g, const Pattern& p,
                                                     std::span<const ClassId> subst) {
  std::vector<std::optional<ClassId>> classes(p.nodes.size());
  for (std::size_t i = 0; i < p.nodes.size(); ++i) {
    const PatternNode& node = p.nodes[i];
    if (node.kind == PatternNode::Kind::Var) {
      classes[i] = subst[node.var];
    } else if (node.kind == PatternNode::Kind::Const) {
      classes[i] = g.lookup_constant(p.value_of(node));
    } else {
      ENode e;
      e.op = node.op;
      e.dtype = node.dtype;
      bool known = true;
      for (uint32_t child : node.children) {
        known = known && classes[child].has_value();
        if (known) e.children.push_back(*classes[child]);
      }
      if (known) classes[i] = g.lookup(e);
    }
    if (classes[i]) classes[i] = g.find(*classes[i]);
  }
  return classes;
}

// Over every match of every workload rule in e-graphs part of the way to saturation
// (thousands of matches per call, so blocks of them are taken in turn), what
// find_instances says is what lookups one at a time give.
void expect_the_same_as_one_lookup_at_a_time(bool builtin_commutativity, std::size_t iteration_limit) {
  const Expr x = var("x"), y = var("y"), z = var("z");
  std::vector<Rewrite> rules;
  auto rule = [&](const char* name, const Expr& lhs, const Expr& rhs) {
    Rewrite r;
    r.name = name;
    r.vars = kXyz;
    r.lhs = pattern(lhs);
    r.rhs = pattern(rhs);
    rules.push_back(std::move(r));
  };
  rule("comm-add", bin(Op::Add, x, y), bin(Op::Add, y, x));
  rule("assoc-add", bin(Op::Add, x, bin(Op::Add, y, z)), bin(Op::Add, bin(Op::Add, x, y), z));
  rule("distribute", bin(Op::Mul, x, bin(Op::Add, y, z)), bin(Op::Add, bin(Op::Mul, x, y), bin(Op::Mul, x, z)));
  rule("factor", bin(Op::Add, bin(Op::Mul, x, y), bin(Op::Mul, x, z)), bin(Op::Mul, x, bin(Op::Add, y, z)));
  rule("add-zero", bin(Op::Add, x, y), bin(Op::Add, bin(Op::Add, x, lit(0)), y));
  for (std::size_t iterations = 1; iterations <= iteration_limit; ++iterations) {
    EGraph g;
    g.set_builtin_commutativity(builtin_commutativity);
    const Expr a = var("a"), b = var("b"), c = var("c"), d = var("d"), e = var("e"), f = var("f");
    const Expr sum = bin(Op::Add, bin(Op::Add, bin(Op::Add, bin(Op::Add, e, a), c), f), b);
    g.add_expr(bin(Op::Add, bin(Op::Mul, bin(Op::Add, a, b), bin(Op::Add, c, d)), sum));
    RunLimits limits;
    limits.max_iterations = iterations;
    run_rewrites(g, std::span<const Rewrite>(rules.data(), 4), limits);
    for (const Rewrite& r : rules) {
      std::vector<ClassId> substs, targets;
      for (ClassId id : g.class_ids()) {
        std::vector<Subst> matches;
        collect_matches(g, r.lhs, r.vars, id, matches);
        for (const Subst& s : matches) {
          substs.insert(substs.end(), s.begin(), s.end());
          targets.push_back(id);
        }
      }
      std::vector<InstanceFound> found;
      find_instances(g, r.rhs, substs, kXyz.size(), targets, found);
      ASSERT_EQ(found.size(), targets.size());
      std::size_t states[4] = {};
      for (std::size_t m = 0; m < targets.size(); ++m) {
        const std::span<const ClassId> subst(substs.data() + m * kXyz.size(), kXyz.size());
        const std::vector<std::optional<ClassId>> classes = instance_classes(g, r.rhs, subst);
        const std::optional<ClassId> root = classes[r.rhs.root];
        const PatternNode& root_node = r.rhs.root_node();
        bool operands_known = true;
        for (uint32_t child : root_node.children) operands_known = operands_known && classes[child].has_value();
        const InstanceFound& answer = found[m];
        ++states[static_cast<int>(answer.state)];
        EXPECT_EQ(answer.state == State::InClass, instance_in_class(g, r.rhs, subst, targets[m]))
            << r.name << " #" << m;
        switch (answer.state) {
          case State::InClass:
            EXPECT_EQ(root, targets[m]);
            break;
          case State::Elsewhere:
            EXPECT_EQ(root, answer.ids[0]) << r.name << " #" << m;
            EXPECT_NE(answer.ids[0], targets[m]);
            break;
          case State::RootMissing:
            EXPECT_TRUE(operands_known && !root) << r.name << " #" << m;
            for (std::size_t k = 0; k < root_node.children.size(); ++k) {
              EXPECT_EQ(answer.ids[k], classes[root_node.children[k]]) << r.name << " #" << m;
            }
            break;
          case State::Missing:
            EXPECT_FALSE(operands_known) << r.name << " #" << m;
            break;
        }
      }
      if (iterations == iteration_limit && r.name == "assoc-add") {
        // The e-graph is far enough along that every answer occurs, over several blocks.
        EXPECT_GT(targets.size(), 2048u) << "iterations: " << iteration_limit;
        for (std::size_t count : states) EXPECT_GT(count, 0u);
      }
    }
  }
}

TEST(FindInstances, SaysWhatLookupsOneAtATimeSay) { expect_the_same_as_one_lookup_at_a_time(false, 6); }

TEST(FindInstances, SaysWhatLookupsOneAtATimeSayWithBuiltInCommutativity) {
  expect_the_same_as_one_lookup_at_a_time(true, 4);
}

}  // namespace
}  // namespace eqsat
