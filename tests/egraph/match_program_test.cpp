// Matching programs (egraph/match_program.h): what a left side compiles to, and that a
// search that counts the matches an earlier search found lists exactly the others.
#include "egraph/match_program.h"

#include <gtest/gtest.h>

#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "egraph/runner.h"
#include "tests/egraph/build_exprs.h"

namespace eqsat {
namespace {

using testing::bin;
using testing::lit;
using testing::var;

const std::vector<PatternVar> kXyz = {
    {"x", DType::Index, false}, {"y", DType::Index, false}, {"z", DType::Index, false}};

Rewrite rewrite(std::string name, const Expr& lhs, const Expr& rhs) {
  Rewrite r;
  r.name = std::move(name);
  r.vars = kXyz;
  r.lhs = Pattern::from_expr(lhs, r.vars);
  r.rhs = Pattern::from_expr(rhs, r.vars);
  return r;
}

TEST(MatchProgram, ScansOperationsBindsVariablesAndCountsTheLinearRest) {
  const MatchProgram program(Pattern::from_expr(bin(Op::Mul, var("x"), bin(Op::Add, var("y"), var("z"))), kXyz), kXyz);
  // From the scan of `+` on, the rest only scans a class known already (r2) and binds
  // fresh variables: each `+` node there is one match.
  EXPECT_EQ(program.listing(),
            "0: scan r0 mul.INDEX -> r1 r2\n"
            "1: bind v0 = r1\n"
            "2: scan r2 add.INDEX -> r3 r4 (lists each node)  [counted from here]\n"
            "3: bind v1 = r3\n"
            "4: bind v2 = r4\n"
            "5: yield\n");
}

TEST(MatchProgram, ARepeatedVariableNarrowsTheScanOfItsSecondOccurrence) {
  const Expr lhs = bin(Op::Add, bin(Op::Mul, var("x"), var("y")), bin(Op::Mul, var("x"), var("z")));
  const MatchProgram program(Pattern::from_expr(lhs, kXyz), kXyz);
  // The second `*` is scanned only among the nodes whose first operand is x's class.
  EXPECT_EQ(program.listing(),
            "0: scan r0 add.INDEX -> r1 r2\n"
            "1: scan r1 mul.INDEX -> r3 r4 (first operands in 4's)\n"
            "2: bind v0 = r3\n"
            "3: bind v1 = r4\n"
            "4: scan r2 mul.INDEX -> r5 r6 (first operand v0) (lists each node)\n"
            "5: check v0 == r5\n"
            "6: bind v2 = r6\n"
            "7: yield\n");
}

TEST(MatchProgram, ListsEachNodeOfALastScanThatOnlyBindsWhatFollows) {
  const Expr x = var("x"), y = var("y"), z = var("z");
  auto lists_each_node = [](const Expr& lhs, const std::vector<PatternVar>& vars = kXyz) {
    return MatchProgram(Pattern::from_expr(lhs, vars), vars).listing().find("(lists each node)") != std::string::npos;
  };
  EXPECT_TRUE(lists_each_node(bin(Op::Add, x, y)));
  EXPECT_TRUE(lists_each_node(bin(Op::Add, x, bin(Op::Add, y, z))));
  // A bind after it that checks (a constant-only variable, a dtype), a constant, a
  // repeated variable it did not narrow its nodes to: each node is no match by itself.
  const std::vector<PatternVar> constant_y = {{"x", DType::Index, false}, {"y", DType::Index, true}};
  EXPECT_FALSE(lists_each_node(bin(Op::Add, x, y), constant_y));
  EXPECT_FALSE(lists_each_node(bin(Op::Lt, x, y)));
  EXPECT_FALSE(lists_each_node(bin(Op::Add, x, lit(0))));
  EXPECT_FALSE(lists_each_node(bin(Op::Add, x, x)));
  EXPECT_FALSE(lists_each_node(bin(Op::Mul, x, bin(Op::Add, y, x))));
}

TEST(MatchProgram, KnowsWhetherItReadsTwoLevelsOnly) {
  const Expr x = var("x"), y = var("y"), z = var("z");
  auto two_levels = [](const Expr& lhs, const std::vector<PatternVar>& vars = kXyz) {
    return MatchProgram(Pattern::from_expr(lhs, vars), vars).two_levels();
  };
  EXPECT_TRUE(two_levels(bin(Op::Add, x, y)));
  EXPECT_TRUE(two_levels(bin(Op::Mul, x, bin(Op::Add, y, z))));
  EXPECT_TRUE(two_levels(bin(Op::Add, bin(Op::Mul, x, y), bin(Op::Mul, x, z))));
  // The nodes of a third level; a known value (a constant, a constant-only variable).
  EXPECT_FALSE(two_levels(bin(Op::Add, x, bin(Op::Add, y, bin(Op::Add, z, x)))));
  EXPECT_FALSE(two_levels(bin(Op::Add, x, lit(0))));
  const std::vector<PatternVar> constant_y = {{"x", DType::Index, false}, {"y", DType::Index, true}};
  EXPECT_FALSE(two_levels(bin(Op::Add, x, y), constant_y));
}

TEST(MatchProgram, ChecksWhatTheOperationAboveDoesNotImply) {
  const std::vector<PatternVar> vars = {{"x", DType::Index, false}, {"c", DType::Index, true}};
  // A comparison's operands have a dtype of their own; a constant-only variable needs a
  // known value; a constant is looked up.
  const Expr lhs = bin(Op::Lt, bin(Op::Add, var("x"), var("c")), lit(4));
  EXPECT_EQ(MatchProgram(Pattern::from_expr(lhs, vars), vars).listing(),
            "0: scan r0 lt.BOOL -> r1 r2\n"
            "1: const r2 == 4\n"
            "2: scan r1 add.INDEX -> r3 r4\n"
            "3: bind v0 = r3\n"
            "4: bind v1 = r4 (constant)\n"
            "5: yield\n");
}

// The rules of the standard workloads that meet `+` and `*` (../shared/spec/egraph-workloads.md).
std::vector<Rewrite> workload_rules() {
  const Expr x = var("x"), y = var("y"), z = var("z");
  return {
      rewrite("comm-add", bin(Op::Add, x, y), bin(Op::Add, y, x)),
      rewrite("comm-mul", bin(Op::Mul, x, y), bin(Op::Mul, y, x)),
      rewrite("assoc-add", bin(Op::Add, x, bin(Op::Add, y, z)), bin(Op::Add, bin(Op::Add, x, y), z)),
      rewrite("distribute", bin(Op::Mul, x, bin(Op::Add, y, z)), bin(Op::Add, bin(Op::Mul, x, y), bin(Op::Mul, x, z))),
      rewrite("factor", bin(Op::Add, bin(Op::Mul, x, y), bin(Op::Mul, x, z)), bin(Op::Mul, x, bin(Op::Add, y, z))),
      rewrite("add-zero", bin(Op::Add, x, lit(0)), x),
  };
}

// The e-graph of (a + b) * (c + d) + (a + 0) after `iterations` iterations of `rules`.
EGraph saturated_part_way(const std::vector<Rewrite>& rules, bool builtin_commutativity, std::size_t iterations) {
  EGraph g;
  g.set_builtin_commutativity(builtin_commutativity);
  const Expr a = var("a"), b = var("b"), c = var("c"), d = var("d");
  g.add_expr(bin(Op::Add, bin(Op::Mul, bin(Op::Add, a, b), bin(Op::Add, c, d)), bin(Op::Add, a, lit(0))));
  RunLimits limits;
  limits.max_iterations = iterations;
  run_rewrites(g, rules, limits);
  return g;
}

// After each number of iterations of a saturation, every program run that counts the
// matches no newer than an epoch lists exactly the matches newer than it, and counts
// the others: what listing them all with their epochs and telling them apart gives.
// (Both read a match's root node by its `formed_at`, the others by their `added_at`;
// that this tells old matches right is expect_old_matches_were_there_before's.)
// The same with the scans' nodes found in a directory of the classes' runs (OpRuns).
void expect_counting_lists_the_newer_matches(bool builtin_commutativity) {
  const std::vector<Rewrite> rules = workload_rules();
  for (std::size_t iterations = 1; iterations <= 6; ++iterations) {
    EGraph g = saturated_part_way(rules, builtin_commutativity, iterations);
    const std::vector<ClassId> ids = g.class_ids();
    OpRuns runs;
    runs.clear(ids.back().value + 1);
    for (ClassId id : ids) runs.record(id, g.eclass(id).nodes.data(), g.eclass(id).nodes.size());
    for (ClassId id : g.class_ids()) {
      for (const ENode& node : g.eclass(id).nodes) {
        ASSERT_LE(node.added_at, g.eclass(id).changed_at) << "a class changed when a node took its place there";
        ASSERT_LE(node.formed_at, node.added_at) << "a node took its place in a class in a form it had";
      }
    }
    for (const Rewrite& rule : rules) {
      const MatchProgram program(rule.lhs, rule.vars);
      const std::size_t width = program.width();
      for (ClassId id : g.class_ids()) {
        std::vector<ClassId> all;
        std::vector<uint32_t> newest;
        const std::size_t total = program.run(g, id, MatchProgram::kListAll, all, &newest).listed;
        ASSERT_EQ(all.size(), total * width);
        for (uint32_t seen = 0; seen <= g.change_epoch(); ++seen) {
          std::vector<ClassId> expected;
          std::size_t old = 0;
          for (std::size_t m = 0; m < total; ++m) {
            if (newest[m] <= seen) {
              ++old;
            } else {
              expected.insert(expected.end(), all.begin() + m * width, all.begin() + (m + 1) * width);
            }
          }
          std::vector<ClassId> listed = {ClassId(7)};  // appended to
          const MatchProgram::Found found = program.run(g, id, seen, listed);
          listed.erase(listed.begin());
          EXPECT_EQ(found.counted, old) << rule.name << " in class " << id.value << " since " << seen;
          EXPECT_EQ(found.listed * width, expected.size());
          EXPECT_EQ(listed, expected) << rule.name << " in class " << id.value << " since " << seen;
          std::vector<ClassId> listed_by_runs;
          const MatchProgram::Found found_by_runs = program.run(g, id, seen, listed_by_runs, nullptr, &runs);
          EXPECT_EQ(found_by_runs.counted, old) << rule.name << " in class " << id.value << " since " << seen;
          EXPECT_EQ(listed_by_runs, expected) << rule.name << " in class " << id.value << " since " << seen;
        }
      }
    }
  }
}

TEST(MatchProgram, CountingListsExactlyTheNewerMatches) { expect_counting_lists_the_newer_matches(false); }

TEST(MatchProgram, CountingListsExactlyTheNewerMatchesWithBuiltInCommutativity) {
  expect_counting_lists_the_newer_matches(true);
}

// A match is its class and its substitution (ids of valid variables only).
using Match = std::pair<ClassId, std::vector<ClassId>>;

// Every match of `program` in `g`, canonical, with its epoch (MatchProgram::run).
std::vector<std::pair<Match, uint32_t>> all_matches(const EGraph& g, const MatchProgram& program) {
  std::vector<std::pair<Match, uint32_t>> matches;
  const std::size_t width = program.width();
  for (ClassId id : g.class_ids()) {
    std::vector<ClassId> ids;
    std::vector<uint32_t> newest;
    const std::size_t count = program.run(g, id, MatchProgram::kListAll, ids, &newest).listed;
    for (std::size_t m = 0; m < count; ++m) {
      std::vector<ClassId> subst;
      for (std::size_t v = 0; v < width; ++v) {
        if (ids[m * width + v].valid()) subst.push_back(g.find(ids[m * width + v]));
      }
      matches.push_back({{id, subst}, newest[m]});
    }
  }
  return matches;
}

// What semi-naive counting relies on, checked without the epochs' own bookkeeping: a
// match whose epoch is no newer than an earlier epoch `seen` was a match at `seen`
// (its substitution in a class now part of its class), so the search at `seen` found
// it. After each number of iterations of a saturation, every rule's matches are taken,
// then the e-graph changes (one or two more iterations, moving nodes by merges and
// re-canonicalizing others), and each match of the changed e-graph as old as `seen`
// must be one of those taken, mapped to the classes now.
void expect_old_matches_were_there_before(bool builtin_commutativity) {
  const std::vector<Rewrite> rules = workload_rules();
  std::size_t old_matches = 0;
  for (std::size_t iterations = 1; iterations <= 5; ++iterations) {
    for (std::size_t more = 1; more <= 2; ++more) {
      EGraph g = saturated_part_way(rules, builtin_commutativity, iterations);
      const uint32_t seen = g.change_epoch();
      std::vector<std::vector<Match>> before;
      for (const Rewrite& rule : rules) {
        before.emplace_back();
        for (const auto& [match, epoch] : all_matches(g, MatchProgram(rule.lhs, rule.vars))) {
          before.back().push_back(match);
        }
      }
      g.advance_change_epoch();  // what changes from here on is newer than `seen`
      RunLimits limits;
      limits.max_iterations = more;
      run_rewrites(g, rules, limits);
      for (std::size_t r = 0; r < rules.size(); ++r) {
        std::set<Match> then;
        for (const auto& [id, subst] : before[r]) {
          std::vector<ClassId> now;
          for (ClassId v : subst) now.push_back(g.find(v));
          then.insert({g.find(id), now});
        }
        for (const auto& [match, epoch] : all_matches(g, MatchProgram(rules[r].lhs, rules[r].vars))) {
          if (epoch > seen) continue;
          ++old_matches;
          EXPECT_TRUE(then.count(match)) << rules[r].name << " in class " << match.first.value << " is as old as epoch "
                                         << seen << " but was no match then (" << iterations << " + " << more
                                         << " iterations)";
        }
      }
    }
  }
  EXPECT_GT(old_matches, 0u);
}

TEST(MatchProgram, OldMatchesWereThereBefore) { expect_old_matches_were_there_before(false); }

TEST(MatchProgram, OldMatchesWereThereBeforeWithBuiltInCommutativity) { expect_old_matches_were_there_before(true); }

// A merge that moves a node without changing its form leaves it old at the root of a
// match (its `formed_at`) and new below the root (its `added_at`): the search after the
// merge counts the comm-add match of the moved `a + b`, which the search before found
// in the class it came from, but lists the assoc-add match of `d + e` that reads it
// below the root, where e's class did not hold it before.
TEST(MatchProgram, AMovedNodeIsOldAtTheRootAndNewBelowIt) {
  EGraph g;
  g.set_builtin_commutativity(false);
  const ClassId sum = g.add_expr(bin(Op::Add, var("a"), var("b")));
  const ClassId above = g.add_expr(bin(Op::Add, var("d"), var("e")));
  const ClassId a = g.add_var("a", DType::Index), b = g.add_var("b", DType::Index);
  const ClassId d = g.add_var("d", DType::Index), e = g.add_var("e", DType::Index);
  const uint32_t seen = g.change_epoch();  // a search here
  g.advance_change_epoch();
  // e's class has a parent and a + b's none: a + b moves into e's class.
  ASSERT_TRUE(g.merge(sum, e));
  g.rebuild();
  ASSERT_EQ(g.find(sum), e);
  const ENode* moved = nullptr;
  for (const ENode& node : g.eclass(e).nodes) moved = node.op == Op::Add ? &node : moved;
  ASSERT_NE(moved, nullptr);
  EXPECT_GT(moved->added_at, seen);
  EXPECT_LE(moved->formed_at, seen);

  const std::vector<Rewrite> rules = workload_rules();
  const MatchProgram comm_add(rules[0].lhs, rules[0].vars), assoc_add(rules[2].lhs, rules[2].vars);
  std::vector<ClassId> listed;
  const MatchProgram::Found at_root = comm_add.run(g, e, seen, listed);
  EXPECT_EQ(at_root.counted, 1u);
  EXPECT_EQ(at_root.listed, 0u);
  EXPECT_TRUE(listed.empty());
  const MatchProgram::Found below_root = assoc_add.run(g, above, seen, listed);
  EXPECT_EQ(below_root.counted, 0u);
  ASSERT_EQ(below_root.listed, 1u);
  EXPECT_EQ(listed, (std::vector<ClassId>{d, a, b}));
  // The epochs MatchProgram::run gives with every match follow the same rule.
  std::vector<uint32_t> newest;
  listed.clear();
  ASSERT_EQ(comm_add.run(g, e, MatchProgram::kListAll, listed, &newest).listed, 1u);
  EXPECT_LE(newest[0], seen);
  newest.clear();
  listed.clear();
  ASSERT_EQ(assoc_add.run(g, above, MatchProgram::kListAll, listed, &newest).listed, 1u);
  EXPECT_GT(newest[0], seen);
}

// The matches of `pattern` in class `id` found the slow way, independently of the
// programs: every node of the operation in the class, then its operands' classes in turn
// (`todo`, pattern node and class), a variable bound on its first occurrence and
// compared on the others, a constant found as its class's known value.
void reference_matches(const EGraph& g, const Pattern& pattern, std::vector<std::pair<uint32_t, ClassId>> todo,
                       std::vector<ClassId> subst, std::set<std::vector<ClassId>>& found) {
  if (todo.empty()) {
    found.insert(subst);
    return;
  }
  const auto [p, id] = todo.back();
  todo.pop_back();
  const PatternNode& pnode = pattern.nodes[p];
  if (pnode.kind == PatternNode::Kind::Var) {
    if (subst[pnode.var].valid() && subst[pnode.var] != id) return;
    subst[pnode.var] = id;
    reference_matches(g, pattern, std::move(todo), std::move(subst), found);
    return;
  }
  if (pnode.kind == PatternNode::Kind::Const) {
    const std::optional<Value>& known = g.data(g.eclass(id)).constant;
    if (known && *known == pattern.value_of(pnode))
      reference_matches(g, pattern, std::move(todo), std::move(subst), found);
    return;
  }
  for (const ENode& node : g.eclass(id).nodes) {
    if (node.op != pnode.op || node.dtype != pnode.dtype) continue;
    std::vector<std::pair<uint32_t, ClassId>> next = todo;
    for (std::size_t i = 0; i < pnode.children.size(); ++i) next.emplace_back(pnode.children[i], node.children[i]);
    reference_matches(g, pattern, std::move(next), subst, found);
  }
}

TEST(MatchProgram, FindsEveryMatchTheSlowWayFinds) {
  // Over e-graphs part way to saturation, the programs of the workload rules (those
  // whose last scan lists each node, `x + y`, `x + (y + z)`, `x * y + x * z`, and
  // `x + 0`) list each match of each class once, and no other.
  const std::vector<Rewrite> rules = workload_rules();
  for (std::size_t iterations = 1; iterations <= 5; ++iterations) {
    const EGraph g = saturated_part_way(rules, false, iterations);
    for (const Rewrite& rule : rules) {
      const MatchProgram program(rule.lhs, rule.vars);
      for (ClassId id : g.class_ids()) {
        std::vector<ClassId> ids;
        const std::size_t listed = program.run(g, id, MatchProgram::kListAll, ids).listed;
        std::set<std::vector<ClassId>> found;
        for (std::size_t m = 0; m < listed; ++m)
          found.emplace(ids.begin() + m * program.width(), ids.begin() + (m + 1) * program.width());
        EXPECT_EQ(found.size(), listed) << rule.name << ": a match listed twice";
        std::set<std::vector<ClassId>> expected;
        reference_matches(g, rule.lhs, {{rule.lhs.root, id}}, std::vector<ClassId>(program.width()), expected);
        EXPECT_EQ(found, expected) << rule.name << " in class " << id.value << " after " << iterations;
      }
    }
  }
}

TEST(MatchProgram, APartnerThatReadsBothOperandOrdersPassesNothingOver) {
  // (x - y) + (x * z) with the e-graph sorting `*`'s operands: the `*` node of the
  // match holds x's class second, so the `-` scan may not pass over its node for want
  // of a `*` node whose first operand is x.
  EGraph g;
  g.set_builtin_commutativity(true);
  const Expr a = var("a"), b = var("b"), c = var("c");
  g.add_expr(c);  // c's class id is below a's: the product is stored as c * a
  const ClassId root = g.add_expr(bin(Op::Add, bin(Op::Sub, a, b), bin(Op::Mul, c, a)));
  g.add_expr(bin(Op::Sub, c, b));  // a second `-` node, so that the scan has two
  g.merge(g.add_expr(bin(Op::Sub, c, b)), g.add_expr(bin(Op::Sub, a, b)));
  g.rebuild();
  const Expr x = var("x"), y = var("y"), z = var("z");
  const Pattern lhs = Pattern::from_expr(bin(Op::Add, bin(Op::Sub, x, y), bin(Op::Mul, x, z)), kXyz);
  const MatchProgram program(lhs, kXyz);
  ASSERT_NE(program.listing().find("first operands in"), std::string::npos) << program.listing();
  std::vector<ClassId> ids;
  const std::size_t listed = program.run(g, root, MatchProgram::kListAll, ids).listed;
  std::set<std::vector<ClassId>> found;
  for (std::size_t m = 0; m < listed; ++m) found.emplace(ids.begin() + m * 3, ids.begin() + (m + 1) * 3);
  const ClassId ca = g.find(g.add_var("a", DType::Index)), cb = g.find(g.add_var("b", DType::Index)),
                cc = g.find(g.add_var("c", DType::Index));
  EXPECT_EQ(found, (std::set<std::vector<ClassId>>{{ca, cb, cc}, {cc, cb, ca}}));
}

TEST(MatchProgram, FindsWhatTheSameSearchWithoutTheNarrowedScanFinds) {
  // x * y + x * z over classes where x's class is the first operand of some products and
  // the second of others: only the first kind match (built-in commutativity off).
  EGraph g;
  g.set_builtin_commutativity(false);
  const Expr a = var("a"), b = var("b"), c = var("c");
  const ClassId root = g.add_expr(bin(Op::Add, bin(Op::Mul, a, b), bin(Op::Mul, a, c)));
  const ClassId other = g.add_expr(bin(Op::Add, bin(Op::Mul, a, b), bin(Op::Mul, c, a)));
  g.merge(g.add_expr(bin(Op::Mul, a, c)), g.add_expr(bin(Op::Mul, b, b)));
  g.rebuild();
  const Rewrite factor = workload_rules()[4];
  std::vector<Subst> found;
  collect_matches(g, factor.lhs, factor.vars, root, found);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0][0], g.find(g.add_var("a", DType::Index)));
  EXPECT_EQ(found[0][2], g.find(g.add_var("c", DType::Index)));
  collect_matches(g, factor.lhs, factor.vars, other, found);
  EXPECT_TRUE(found.empty());
}

}  // namespace
}  // namespace eqsat
