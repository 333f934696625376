// The standard e-graph workloads (../shared/spec/egraph-workloads.md) run through
// eqsat's engine with the rules of bench/workloads.rules, built-in commutativity off
// and the simple scheduler: every iteration must start from exactly the e-node and
// e-class counts the spec gives and find exactly its number of matches, and saturated
// `sum n` must have 2^n - 1 classes and 3^n - 2^(n+1) + 1 + n nodes. Any engine that
// implements e-graphs correctly goes through these numbers.
#include "tools/workloads.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "egraph/core_handoff.h"
#include "egraph/heap_pages.h"
#include "egraph/runner.h"
#include "ir/parse.h"
#include "rules/rule.h"
#include "tests/support/huge_pages.h"
#include "tests/support/sweep.h"
#include "tests/tools/run_eqsat.h"
#include "tools/engine.h"

namespace eqsat::testing {
namespace {

const std::string kRules = std::string(EQSAT_SOURCE_DIR) + "/bench/workloads.rules";
const std::string kLock = std::string(EQSAT_SOURCE_DIR) + "/bench/workloads.lock";

// The workload rules, loaded as every command loads them: only if the lock proves them.
const std::vector<Rewrite>& workload_rewrites() {
  static const std::vector<Rewrite> rewrites = [] {
    cli::EngineFlags flags;
    flags.rule_files = {kRules};
    flags.rule_lock_files = {kLock};
    Result<cli::Simplifier> simplifier = cli::Simplifier::from_flags(flags);
    EXPECT_TRUE(simplifier.ok()) << (simplifier ? "" : simplifier.error().describe());
    return simplifier ? simplifier->rewrites() : std::vector<Rewrite>{};
  }();
  return rewrites;
}

RunReport run_workload(const std::string& term, const RunLimits& limits, const Scheduler& scheduler = {}) {
  Result<Expr> expr = parse_expr(term, index_by_default([](std::string_view) { return std::nullopt; }));
  EXPECT_TRUE(expr.ok()) << term;
  EGraph egraph;
  egraph.set_builtin_commutativity(false);
  egraph.add_expr(*expr);
  return run_rewrites(egraph, workload_rewrites(), limits, scheduler);
}

RunLimits sum_limits() { return RunLimits{1000, 1000000, 600.0}; }
RunLimits pos_limits(std::size_t iterations) { return RunLimits{iterations, 500000, 600.0}; }

// Per iteration: e-nodes and e-classes at its start, matches its search found.
struct Counts {
  std::size_t nodes, classes, matches;
  friend bool operator==(const Counts&, const Counts&) = default;
};
std::ostream& operator<<(std::ostream& out, const Counts& c) {
  return out << c.nodes << '/' << c.classes << '/' << c.matches;
}

std::vector<Counts> counts_of(const RunReport& report) {
  std::vector<Counts> counts;
  for (const IterationStats& it : report.per_iteration) counts.push_back({it.nodes, it.classes, it.matches});
  return counts;
}

TEST(Workloads, TheApplyMakesFewCongruentCopies) {
  // An apply merges the classes of the matches whose right side exists elsewhere before
  // it makes any node (egraph/runner.cpp, merges_first): two matches that make the same
  // node then find each other's, and the rebuild has few congruent copies to merge back.
  // Applied in match order, `pos 3`'s ninth apply left 12,590 e-nodes, 1.98x the 6,350
  // the rebuild kept; `sum 10`'s seventh 154,432, 2.86x the 54,062 kept.
  for (const auto& [term, limits, most] :
       {std::tuple{cli::pos_workload(3), pos_limits(30), 1.6}, std::tuple{cli::sum_workload(10), sum_limits(), 1.6}}) {
    const RunReport report = run_workload(term, limits);
    ASSERT_EQ(report.stop_reason, StopReason::Saturated) << term;
    double worst = 0;
    for (std::size_t i = 0; i + 1 < report.per_iteration.size(); ++i) {
      const IterationStats& it = report.per_iteration[i];
      EXPECT_GE(it.nodes_after_apply, report.per_iteration[i + 1].nodes) << term << " iteration " << i;
      worst = std::max(worst, double(it.nodes_after_apply) / double(report.per_iteration[i + 1].nodes));
    }
    EXPECT_LT(worst, most) << term << ": an apply left that many times the e-nodes its rebuild kept";
    EXPECT_EQ(report.per_iteration.back().nodes_after_apply, report.nodes) << term << ": the last changes nothing";
  }
}

TEST(Workloads, StartTermsAreLeftDeep) {
  EXPECT_EQ(cli::sum_workload(4), "((a0 + a1) + a2) + a3");
  EXPECT_EQ(cli::pos_workload(3), "((a + b) * (c + d)) * (e + f)");
  EXPECT_EQ(*cli::workload_term("sum 2"), "a0 + a1");
  EXPECT_EQ(*cli::workload_term("pos:1"), "a + b");
  EXPECT_FALSE(cli::workload_term("sum x").ok());
  EXPECT_FALSE(cli::workload_term("product 3").ok());
}

TEST(Workloads, Sum6GoesThroughTheSpecCounts) {
  const RunReport report = run_workload(cli::sum_workload(6), sum_limits());
  EXPECT_EQ(report.stop_reason, StopReason::Saturated);
  EXPECT_EQ(counts_of(report), (std::vector<Counts>{{11, 11, 5},
                                                    {16, 11, 18},
                                                    {32, 19, 60},
                                                    {100, 45, 268},
                                                    {292, 97, 854},
                                                    {544, 103, 2018},
                                                    {604, 69, 2654},
                                                    {608, 63, 2702}}));
  EXPECT_EQ(report.nodes, 608u);
  EXPECT_EQ(report.classes, 63u);
}

TEST(Workloads, Sum9GoesThroughTheSpecCounts) {
  const RunReport report = run_workload(cli::sum_workload(9), sum_limits());
  EXPECT_EQ(report.stop_reason, StopReason::Saturated);
  EXPECT_EQ(counts_of(report), (std::vector<Counts>{{17, 17, 8},
                                                    {25, 17, 30},
                                                    {53, 31, 114},
                                                    {193, 87, 788},
                                                    {945, 365, 5218},
                                                    {4445, 1299, 27658},
                                                    {12757, 2063, 101956},
                                                    {19053, 1535, 203258},
                                                    {18677, 515, 223306},
                                                    {18669, 511, 223290}}));
}

TEST(Workloads, Pos3GoesThroughTheSpecCounts) {
  const RunReport report = run_workload(cli::pos_workload(3), pos_limits(30));
  EXPECT_EQ(report.stop_reason, StopReason::Saturated);
  EXPECT_EQ(counts_of(report), (std::vector<Counts>{{11, 11, 7},
                                                    {22, 15, 27},
                                                    {39, 21, 80},
                                                    {100, 45, 248},
                                                    {236, 81, 624},
                                                    {474, 143, 1374},
                                                    {894, 263, 3078},
                                                    {1932, 495, 8608},
                                                    {4896, 1107, 27730},
                                                    {6350, 687, 46474},
                                                    {6518, 309, 54342},
                                                    {6536, 309, 54644}}));
}

// 2^n - 1 classes (one per non-empty subset of the summands) and
// 3^n - 2^(n+1) + 1 + n nodes (one `x + y` per ordered split of each subset, plus leaves).
TEST(Workloads, SaturatedSumsHaveTheClosedFormSizes) {
  for (int n : kFullSweeps ? std::vector<int>{9, 10} : std::vector<int>{9}) {
    const RunReport report = run_workload(cli::sum_workload(n), sum_limits());
    std::size_t pow2 = std::size_t{1} << n, pow3 = 1;
    for (int i = 0; i < n; ++i) pow3 *= 3;
    EXPECT_EQ(report.stop_reason, StopReason::Saturated) << "sum " << n;
    EXPECT_EQ(report.classes, pow2 - 1) << "sum " << n;
    EXPECT_EQ(report.nodes, pow3 - 2 * pow2 + 1 + n) << "sum " << n;
  }
}

// egg's BackoffScheduler bans explosive rules for a while, but a saturated result is
// the same e-graph: saturation only counts when no rule is banned.
TEST(Workloads, BackoffSaturatesToTheSameGraph) {
  Scheduler backoff;
  backoff.kind = Scheduler::Kind::Backoff;
  backoff.match_limit = 100;
  backoff.ban_length = 2;
  const RunReport report = run_workload(cli::sum_workload(6), sum_limits(), backoff);
  EXPECT_EQ(report.stop_reason, StopReason::Saturated);
  EXPECT_EQ(report.nodes, 608u);
  EXPECT_EQ(report.classes, 63u);
  std::size_t banned = 0;
  for (const IterationStats& it : report.per_iteration) banned += it.banned;
  EXPECT_GT(banned, 0u) << "a match limit of 100 must ban some rule on sum 6";
  EXPECT_EQ(report.per_iteration.back().banned, 0u) << "the last iteration searches every rule";
}

// The search may run on several threads, but matches are applied in one fixed order:
// the runs, and the e-graphs they leave (class ids included), are identical.
TEST(Workloads, ParallelSearchGivesTheSameRunAndEGraph) {
  Scheduler backoff;
  backoff.kind = Scheduler::Kind::Backoff;
  backoff.match_limit = 2000;
  backoff.ban_length = 2;
  struct Case {
    std::string term;
    RunLimits limits;
    Scheduler scheduler;
  };
  // sum 9 and pos 3 are large enough that their later iterations search, and drop the
  // matches whose right side is in place already, on several threads; sum 10's
  // rebuilds also go by rounds, and sum 10 and pos 4 add the new root nodes of their
  // later iterations by the batch (EGraph::add_all_to).
  for (const Case& c :
       {Case{cli::sum_workload(9), sum_limits(), {}}, Case{cli::pos_workload(3), pos_limits(30), {}},
        Case{cli::sum_workload(10), sum_limits(), {}}, Case{cli::pos_workload(4), pos_limits(8), backoff}}) {
    Result<Expr> expr = parse_expr(c.term, index_by_default([](std::string_view) { return std::nullopt; }));
    ASSERT_TRUE(expr.ok()) << c.term;
    EGraph one, two;
    RunReport reports[2];
    unsigned threads = 1;
    for (EGraph* egraph : {&one, &two}) {
      egraph->set_builtin_commutativity(false);
      egraph->add_expr(*expr);
      reports[threads - 1] = run_rewrites(*egraph, workload_rewrites(), c.limits, c.scheduler, {}, threads);
      ++threads;
    }
    EXPECT_EQ(counts_of(reports[0]), counts_of(reports[1])) << c.term;
    for (std::size_t i = 0; i < reports[0].per_iteration.size() && i < reports[1].per_iteration.size(); ++i) {
      EXPECT_EQ(reports[0].per_iteration[i].applied, reports[1].per_iteration[i].applied)
          << c.term << " iteration " << i;
    }
    EXPECT_EQ(reports[0].rule_fires, reports[1].rule_fires) << c.term;
    for (std::size_t i = 0; i < reports[0].per_iteration.size() && i < reports[1].per_iteration.size(); ++i) {
      EXPECT_EQ(reports[0].per_iteration[i].merges, reports[1].per_iteration[i].merges) << c.term << " iteration " << i;
      EXPECT_EQ(reports[0].per_iteration[i].banned, reports[1].per_iteration[i].banned) << c.term << " iteration " << i;
    }
    // sum 10's rebuilds are large enough to go by rounds (egraph/rebuild_rounds.cpp),
    // whose hash-cons work runs on the two threads.
    if (c.term == cli::sum_workload(10)) {
      EXPECT_GT(two.congruence_rounds(), 0u);
    }
    ASSERT_EQ(one.class_ids(), two.class_ids()) << c.term;
    for (ClassId id : one.class_ids()) {
      EXPECT_TRUE(one.eclass(id).nodes == two.eclass(id).nodes) << c.term << " class " << id.value;
    }
  }
}

// The apply's batches of new nodes run on the run's threads where a line one thread
// writes is cheap for the other to read, else on the run's own thread
// (egraph/core_handoff.h): either way on two threads, sum 10's run and e-graph (class
// ids included) are the ones of a run on one thread, and the report says which way
// the batches ran.
TEST(Workloads, TheApplysBatchesGiveTheSameRunOnTheRunsThreadsOrOnOne) {
  Result<Expr> expr =
      parse_expr(cli::sum_workload(10), index_by_default([](std::string_view) { return std::nullopt; }));
  ASSERT_TRUE(expr.ok());
  auto run = [&](EGraph& egraph, unsigned threads) {
    egraph.set_builtin_commutativity(false);
    egraph.add_expr(*expr);
    return run_rewrites(egraph, workload_rewrites(), sum_limits(), {}, {}, threads);
  };
  const double measured = handoff_round_trip_nanoseconds();
  EGraph one;
  const RunReport on_one = run(one, 1);
  EXPECT_EQ(on_one.apply_batch_threads, 1u);
  for (const double round_trip : {100.0, 430.0}) {
    assume_handoff_round_trip_nanoseconds(round_trip);
    EGraph two;
    const RunReport on_two = run(two, 2);
    EXPECT_EQ(on_two.apply_batch_threads, round_trip < kCheapHandoffNanoseconds ? 2u : 1u) << round_trip;
    EXPECT_EQ(counts_of(on_one), counts_of(on_two)) << round_trip;
    EXPECT_EQ(on_one.rule_fires, on_two.rule_fires) << round_trip;
    ASSERT_EQ(one.class_ids(), two.class_ids()) << round_trip;
    for (ClassId id : one.class_ids()) {
      EXPECT_TRUE(one.eclass(id).nodes == two.eclass(id).nodes) << round_trip << " class " << id.value;
    }
  }
  assume_handoff_round_trip_nanoseconds(measured);
}

// An e-graph's classes by rank in id order, each with its nodes, whose children are
// given by rank: equal for e-graphs that differ only in their class ids.
std::vector<std::vector<std::vector<uint32_t>>> shape(const EGraph& egraph) {
  const std::vector<ClassId> ids = egraph.class_ids();
  std::map<ClassId, uint32_t> rank;
  for (ClassId id : ids) rank.emplace(id, static_cast<uint32_t>(rank.size()));
  std::vector<std::vector<std::vector<uint32_t>>> classes;
  for (ClassId id : ids) {
    std::vector<std::vector<uint32_t>> nodes;
    for (const ENode& node : egraph.eclass(id).nodes) {
      std::vector<uint32_t> flat = {static_cast<uint32_t>(node.op), node.payload};
      for (ClassId child : node.children) flat.push_back(rank.at(egraph.find(child)));
      nodes.push_back(flat);
    }
    classes.push_back(nodes);
  }
  return classes;
}

// An e-graph up to its class ids: each class named by its least term (fewest nodes,
// then least text), which no other class holds, with its nodes written over the names
// of their operands' classes, in sorted order. Equal for two e-graphs that differ only
// in which ids the merges kept as roots (an apply that makes its merges first keeps
// others than one that applies its matches in order), unlike `shape`.
std::map<std::string, std::vector<std::string>> by_least_terms(const EGraph& egraph) {
  const std::vector<ClassId> ids = egraph.class_ids();
  // The least term of every class, to a fixpoint: a node's term is its operation and
  // payload over its operands' least terms.
  std::map<ClassId, std::pair<std::size_t, std::string>> least;
  // A node's text over its operands' least terms (each known).
  auto node_text = [&](const ENode& node) {
    std::string text = std::to_string(static_cast<int>(node.op)) + ":" + std::to_string(node.payload) + "(";
    for (ClassId child : node.children) text += least.at(egraph.find(child)).second + ",";
    return text + ")";
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (ClassId id : ids) {
      for (const ENode& node : egraph.eclass(id).nodes) {
        std::size_t size = 1;
        bool known = true;
        for (ClassId child : node.children) {
          const auto it = least.find(egraph.find(child));
          known = known && it != least.end();
          if (known) size += it->second.first;
        }
        if (!known) continue;
        const auto it = least.find(id);
        if (it != least.end() && size > it->second.first) continue;  // not least, whatever its text
        std::pair<std::size_t, std::string> term{size, node_text(node)};
        if (it == least.end() || term < it->second) {
          least[id] = std::move(term);
          changed = true;
        }
      }
    }
  }
  std::map<std::string, std::vector<std::string>> classes;
  for (ClassId id : ids) {
    std::vector<std::string> nodes;
    for (const ENode& node : egraph.eclass(id).nodes) nodes.push_back(node_text(node));
    std::sort(nodes.begin(), nodes.end());
    EXPECT_TRUE(classes.emplace(least.at(id).second, nodes).second) << "two classes hold the same least term";
  }
  return classes;
}

// The simple scheduler applies only the matches its last search did not find (those
// were applied then, so applying them again would change nothing): the runner's
// semi-naive apply (egraph/runner.cpp). The backoff scheduler, with a limit no rule
// reaches, applies every match it finds. Both go through the same counts and end with
// the same e-graph: the same classes in the same order, holding the same nodes. Only
// class ids may differ, and merge counts: re-applying an old match whose right side
// sits under a hash-cons key that an earlier merge of the same iteration made stale
// makes a duplicate node in a fresh class and counts a merge, which the rebuild undoes.
TEST(Workloads, SemiNaiveApplyLeavesTheSameEGraph) {
  Scheduler every_match;
  every_match.kind = Scheduler::Kind::Backoff;
  every_match.match_limit = RunLimits::kNoLimit;
  for (const std::string& term : {cli::sum_workload(8), cli::pos_workload(3)}) {
    Result<Expr> expr = parse_expr(term, index_by_default([](std::string_view) { return std::nullopt; }));
    ASSERT_TRUE(expr.ok()) << term;
    EGraph semi_naive, full;
    RunReport reports[2];
    int k = 0;
    for (EGraph* egraph : {&semi_naive, &full}) {
      egraph->set_builtin_commutativity(false);
      egraph->add_expr(*expr);
      reports[k] = run_rewrites(*egraph, workload_rewrites(), sum_limits(), k == 0 ? Scheduler{} : every_match);
      ++k;
    }
    EXPECT_EQ(reports[0].stop_reason, StopReason::Saturated) << term;
    EXPECT_EQ(counts_of(reports[0]), counts_of(reports[1])) << term;
    EXPECT_EQ(semi_naive.check_invariants(), "") << term;
    EXPECT_TRUE(shape(semi_naive) == shape(full)) << term;
  }
}

// Before the apply, the runner drops the matches whose right side is in the e-graph
// already, in the class of the match (egraph/runner.cpp, drop_present). With
// explanations on, it drops none (and does not skip old matches either): every match
// is applied. Both runs go through the same counts and end with the same e-graph up to
// class ids; only the dropped matches are missing from the `applied` counts. (The
// filtered apply makes its merges first, so other ids stay roots: `by_least_terms`.)
TEST(Workloads, DroppingMatchesInPlaceLeavesTheSameEGraph) {
  // (Only e-graphs of 1,024 e-nodes or more are filtered: these grow past that.)
  for (const std::string& term : {cli::sum_workload(8), cli::pos_workload(3)}) {
    Result<Expr> expr = parse_expr(term, index_by_default([](std::string_view) { return std::nullopt; }));
    ASSERT_TRUE(expr.ok()) << term;
    EGraph filtered, every_match;
    every_match.enable_explanations();
    RunReport reports[2];
    int k = 0;
    for (EGraph* egraph : {&filtered, &every_match}) {
      egraph->set_builtin_commutativity(false);
      egraph->add_expr(*expr);
      reports[k++] = run_rewrites(*egraph, workload_rewrites(), sum_limits());
    }
    EXPECT_EQ(reports[0].stop_reason, StopReason::Saturated) << term;
    EXPECT_EQ(counts_of(reports[0]), counts_of(reports[1])) << term;
    std::size_t dropped = 0;
    for (const IterationStats& it : reports[0].per_iteration) dropped += it.matches - it.applied;
    EXPECT_GT(dropped, 0u) << term;
    for (const IterationStats& it : reports[1].per_iteration) EXPECT_EQ(it.applied, it.matches) << term;
    EXPECT_TRUE(by_least_terms(filtered) == by_least_terms(every_match)) << term;
  }
}

// An e-graph of a `sum` workload by what its classes sum: each class by the set of
// variables under it (a bit per symbol), with its nodes, whose children are given by
// theirs. Equal for e-graphs that differ only in their class ids, whichever classes the
// merges kept as roots (the apply's batch chooses them otherwise than one match at a
// time, so class ids, and `shape` above, differ from a run applying every match).
std::map<uint64_t, std::vector<std::vector<uint64_t>>> by_variables(const EGraph& egraph) {
  std::map<ClassId, uint64_t> variables;
  const std::vector<ClassId> ids = egraph.class_ids();
  for (bool labelled = true; labelled;) {
    labelled = false;
    for (ClassId id : ids) {
      if (variables.count(id)) continue;
      for (const ENode& node : egraph.eclass(id).nodes) {
        uint64_t under = node.children.empty() ? uint64_t{1} << (node.payload % 64) : 0;
        bool known = true;
        for (ClassId child : node.children) {
          const auto it = variables.find(egraph.find(child));
          known = known && it != variables.end();
          if (known) under |= it->second;
        }
        if (known) {
          variables[id] = under;
          labelled = true;
          break;
        }
      }
    }
  }
  std::map<uint64_t, std::vector<std::vector<uint64_t>>> classes;
  for (ClassId id : ids) {
    std::vector<std::vector<uint64_t>> nodes;
    for (const ENode& node : egraph.eclass(id).nodes) {
      std::vector<uint64_t> flat = {static_cast<uint64_t>(node.op), node.payload};
      for (ClassId child : node.children) flat.push_back(variables.at(egraph.find(child)));
      nodes.push_back(flat);
    }
    std::sort(nodes.begin(), nodes.end());
    EXPECT_TRUE(classes.emplace(variables.at(id), nodes).second) << "two classes sum the same variables";
  }
  return classes;
}

// After its merges, the apply of a large e-graph drops the matches that no longer need
// applying: copies of an earlier match once their classes are canonical, and those
// whose right side the merges put in place (egraph/runner.cpp, drop_placed_by_merges).
// The run goes through the same counts and ends with the same e-graph, up to class ids,
// as one that applies every match (explanations on); most of the matches the filter
// kept in sum 10's later iterations are dropped so, and the same on two threads.
TEST(Workloads, DroppingMatchesAfterTheMergesLeavesTheSameEGraph) {
  const std::string term = cli::sum_workload(10);
  Result<Expr> expr = parse_expr(term, index_by_default([](std::string_view) { return std::nullopt; }));
  ASSERT_TRUE(expr.ok()) << term;
  auto run = [&](EGraph& egraph, unsigned threads) {
    egraph.set_builtin_commutativity(false);
    egraph.add_expr(*expr);
    return run_rewrites(egraph, workload_rewrites(), sum_limits(), {}, {}, threads);
  };
  EGraph filtered, on_two_threads;
  const RunReport report = run(filtered, 1), two_threads = run(on_two_threads, 2);
  EXPECT_EQ(report.stop_reason, StopReason::Saturated);
  std::size_t kept = 0, dropped = 0;
  for (std::size_t i = 0; i < report.per_iteration.size(); ++i) {
    const IterationStats& it = report.per_iteration[i];
    kept += it.applied + it.dropped_after_merges;
    dropped += it.dropped_after_merges;
    EXPECT_EQ(it.dropped_after_merges, two_threads.per_iteration[i].dropped_after_merges) << "iteration " << i;
  }
  EXPECT_GT(dropped, kept / 3) << "of the matches the filter kept";
  EXPECT_EQ(filtered.check_invariants(), "");
  EXPECT_TRUE(shape(filtered) == shape(on_two_threads));
  // (Explanations make the run 20 times slower: the sanitizer build leaves them out.)
  if (!kFullSweeps) return;
  EGraph every_match;
  every_match.enable_explanations();
  const RunReport applied_all = run(every_match, 1);
  EXPECT_EQ(counts_of(report), counts_of(applied_all));
  for (const IterationStats& it : applied_all.per_iteration) EXPECT_EQ(it.dropped_after_merges, 0u);
  EXPECT_TRUE(by_variables(filtered) == by_variables(every_match));
}

// The apply's batch (egraph/runner.cpp, fill_apply_batch and build_inner_nodes) on what
// the workloads' rules never make: right sides three levels deep with a constant among
// their new nodes, and matches it does not batch (a right side that is a constant the
// e-graph lacks, applied one at a time before the batch they came in). 5,000 small
// terms put the e-graph past the size from which every apply goes by the batch. On one
// thread and on two, the run goes through the same counts and ends with the same
// e-graph, up to class ids, as one that applies every match in order (explanations on).
TEST(Workloads, TheApplysBatchMakesDeepRightSidesConstantsAndSingles) {
  const std::string text =
      "sub-self [index]: x - x => 0\n"
      "spread [index]: x * (y + z) => x * y + (x * z) * 1\n"
      "comm-add [index]: x + y => y + x\n";
  const RuleText files[] = {{text, "batch.rules"}};
  Result<RuleSet> rules = parse_rule_set(files);
  ASSERT_TRUE(rules.ok()) << rules.error().describe();
  const std::vector<Rewrite> rewrites = rules->rewrites();
  auto run = [&](EGraph& egraph, unsigned threads) {
    egraph.set_builtin_commutativity(false);
    for (int i = 0; i < 5000; ++i) {
      const std::string a = "a" + std::to_string(i), b = "b" + std::to_string(i), c = "c" + std::to_string(i);
      for (const std::string& term : {a + " - " + a, a + " * (" + b + " + " + c + ")"}) {
        Result<Expr> expr = parse_expr(term, index_by_default([](std::string_view) { return std::nullopt; }));
        EXPECT_TRUE(expr.ok()) << term;
        egraph.add_expr(*expr);
      }
    }
    return run_rewrites(egraph, rewrites, RunLimits{3, 1000000, 600.0}, {}, {}, threads);
  };
  EGraph by_batch, on_two_threads, every_match;
  every_match.enable_explanations();
  const RunReport report = run(by_batch, 1), two_threads = run(on_two_threads, 2), applied_all = run(every_match, 1);
  EXPECT_EQ(report.apply_batch_threads, 1u) << "no apply went by the batch";
  EXPECT_EQ(applied_all.apply_batch_threads, 0u);
  EXPECT_EQ(counts_of(report), counts_of(applied_all));
  EXPECT_EQ(report.rule_fires.at("sub-self"), 5000u);
  EXPECT_EQ(by_batch.check_invariants(), "");
  EXPECT_TRUE(by_least_terms(by_batch) == by_least_terms(every_match));
  EXPECT_EQ(counts_of(report), counts_of(two_threads));
  EXPECT_TRUE(shape(by_batch) == shape(on_two_threads));
}

TEST(Workloads, IterationLimitStopsPos4) {
  const RunReport report = run_workload(cli::pos_workload(4), pos_limits(8));
  EXPECT_EQ(report.stop_reason, StopReason::IterationLimit);
  EXPECT_EQ(report.iterations, 8u);
  ASSERT_EQ(report.per_iteration.size(), 8u);
  EXPECT_EQ(report.per_iteration[0].nodes, 15u);  // 8 variables, 4 sums, 3 products
}

// The times of each iteration in a --report, by phase.
constexpr const char* kPhaseTimes[] = {"search_seconds", "filter_seconds", "apply_seconds", "rebuild_seconds"};

TEST(SaturateCommand, ReportsTheWorkloadAsJson) {
  ToolRun run = run_eqsat({"saturate", "--rules", kRules, "--no-default-rules", "--scheduler", "simple", "--node-limit",
                           "500000", "--iter-limit", "30", "--report", "--workload", "pos 3",
                           // No time limit: a sanitizer build takes longer than the default 5 s.
                           "--time-limit", "3600"});
  ASSERT_EQ(run.status, 0) << run.err;
  std::vector<Json> lines = json_lines(run.out);
  ASSERT_EQ(lines.size(), 1u) << run.out;
  const Json& report = lines[0];
  EXPECT_EQ(report["input"], "((a + b) * (c + d)) * (e + f)");
  EXPECT_EQ(report["builtin_commutativity"], false);
  EXPECT_EQ(report["stop_reason"], "saturated");
  EXPECT_EQ(report["iterations"], 12);
  EXPECT_EQ(report["nodes"], 6536);
  EXPECT_EQ(report["classes"], 309);
  EXPECT_EQ(report["apply_batch_threads"], 0);  // its e-graph never takes new nodes by the batch
  for (const char* key : {"seconds", "search_seconds", "apply_seconds", "rebuild_seconds", "ns_per_node",
                          "peak_rss_bytes", "bytes_per_node"}) {
    EXPECT_TRUE(report[key].is_number()) << key;
  }
  ASSERT_EQ(report["per_iteration"].size(), 12u);
  EXPECT_EQ(report["per_iteration"][1]["nodes"], 22);
  EXPECT_EQ(report["per_iteration"][1]["classes"], 15);
  EXPECT_EQ(report["per_iteration"][1]["matches"], 27);
  // Each iteration's time by phase, as egg reports it: the run's totals are their sums
  // (up to the printing's rounding).
  for (const char* phase : kPhaseTimes) {
    double sum = 0;
    for (const Json& iteration : report["per_iteration"]) {
      ASSERT_TRUE(iteration[phase].is_number()) << phase;
      EXPECT_GE(iteration[phase].get<double>(), 0.0) << phase;
      sum += iteration[phase].get<double>();
    }
    EXPECT_NEAR(sum, report[phase].get<double>(), 1e-4 + 1e-4 * sum) << phase;
  }
}

// Each iteration's apply split into its parts (egraph/runner.h, IterationStats): the
// merges made first once the matches are filtered (from 1,024 e-nodes), the drop after
// them and the batches' new inner and root nodes once the e-graph is large enough for
// batches (24,576 e-nodes: sum 10's last four iterations); 0 where a part did not run.
// The parts lie within the apply's time.
TEST(SaturateCommand, SplitsTheApplyIntoItsParts) {
  ToolRun run = run_eqsat({"saturate", "--rules", kRules, "--no-default-rules", "--report", "--workload", "sum 10",
                           "--node-limit", "1000000", "--iter-limit", "1000", "--time-limit", "3600"});
  ASSERT_EQ(run.status, 0) << run.err;
  std::vector<Json> lines = json_lines(run.out);
  ASSERT_EQ(lines.size(), 1u) << run.out;
  constexpr const char* kParts[] = {"merges_first_seconds", "drop_after_merges_seconds", "batch_inner_seconds",
                                    "batch_root_seconds"};
  std::size_t batched = 0;
  for (const Json& iteration : lines[0]["per_iteration"]) {
    const auto nodes = iteration["nodes"].get<std::size_t>();
    double parts = 0;
    for (const char* part : kParts) {
      ASSERT_TRUE(iteration[part].is_number()) << part;
      EXPECT_GE(iteration[part].get<double>(), 0.0) << part;
      parts += iteration[part].get<double>();
    }
    // (Six digits printed of each.)
    EXPECT_LE(parts, iteration["apply_seconds"].get<double>() * (1 + 1e-5) + 1e-9) << iteration.dump();
    const bool filtered = nodes >= 1024, batching = nodes >= 24576;
    EXPECT_EQ(iteration["merges_first_seconds"].get<double>() > 0, filtered) << iteration.dump();
    EXPECT_EQ(iteration["drop_after_merges_seconds"].get<double>() > 0, batching) << iteration.dump();
    // The last iteration finds nothing to apply: no batch.
    const bool batch = batching && iteration["applied"].get<std::size_t>() > 0;
    EXPECT_EQ(iteration["batch_root_seconds"].get<double>() > 0, batch) << iteration.dump();
    if (!batching) {
      EXPECT_EQ(iteration["batch_inner_seconds"].get<double>(), 0.0) << iteration.dump();
    }
    batched += batch;
  }
  EXPECT_EQ(batched, 3u);
}

TEST(SaturateCommand, BuiltinCommutativityMakesFewerNodes) {
  // With the catalogue and commutativity built in, a + b and b + a are one node.
  ToolRun run = run_eqsat({"saturate", "(a + b) + (b + a)"});
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_TRUE(Contains(run.out, "saturated: ")) << run.out;
  // Without it, the workload rules need their own lock (found next to the file).
  ToolRun plain = run_eqsat({"saturate", "--rules", kRules, "--no-default-rules", "--report", "a + b"});
  ASSERT_EQ(plain.status, 0) << plain.err;
  EXPECT_EQ(json_lines(plain.out)[0]["nodes"], 4);  // a, b, a + b, b + a
}

// The per-iteration counts of a --report (its times left out: they differ run to run).
Json iteration_counts(const Json& report) {
  Json counts = report["per_iteration"];
  for (Json& iteration : counts) {
    // The phases' times and the apply's parts (every key ending in `_seconds`).
    std::vector<std::string> times;
    for (const auto& [key, value] : iteration.items()) {
      if (key.ends_with("_seconds")) times.push_back(key);
    }
    for (const std::string& key : times) iteration.erase(key);
  }
  return counts;
}

// By default the heap takes huge pages once an e-graph reaches kLargeEGraphNodes
// (egraph/heap_pages.h): `sum 9` does (19,053 e-nodes at its eighth iteration), `pos 3`
// (6,536 at most) does not. --huge-pages gives them from the start, --no-huge-pages
// never. The run is the same either way, and on two threads.
TEST(SaturateCommand, HugePagesForLargeEGraphsUnlessToldOtherwiseAndTheRunIsTheSame) {
  auto saturate = [&](const std::string& workload, std::vector<std::string> before, std::vector<std::string> after) {
    std::vector<std::string> args = std::move(before);
    const std::vector<std::string> command = {
        "saturate", "--rules",      kRules, "--no-default-rules", "--report", "--workload", workload, "--node-limit",
        "1000000",  "--iter-limit", "1000", "--time-limit",       "3600"};
    args.insert(args.end(), command.begin(), command.end());
    args.insert(args.end(), after.begin(), after.end());
    ToolRun run = run_eqsat(args);
    EXPECT_EQ(run.status, 0) << run.err;
    std::vector<Json> lines = json_lines(run.out);
    return lines.size() == 1 ? lines[0] : Json();
  };
  ASSERT_GT(19053u, kLargeEGraphNodes);
  ASSERT_LT(6536u, kLargeEGraphNodes);
  const Json small = saturate("pos 3", {}, {});
  EXPECT_EQ(small["huge_pages"], false);
  EXPECT_EQ(saturate("pos 3", {"--no-huge-pages"}, {})["huge_pages"], false);
  // The flag goes before the command or among its options.
  for (const Json& report : {saturate("pos 3", {"--huge-pages"}, {}), saturate("pos 3", {}, {"--huge-pages"})}) {
    EXPECT_EQ(report["huge_pages"], heap_can_take_huge_pages());
    EXPECT_EQ(report["nodes"], small["nodes"]);
    EXPECT_EQ(iteration_counts(report), iteration_counts(small));
  }
  const Json large = saturate("sum 9", {}, {});
  EXPECT_EQ(large["huge_pages"], heap_can_take_huge_pages());
  const Json large_without = saturate("sum 9", {}, {"--no-huge-pages"});
  EXPECT_EQ(large_without["huge_pages"], false);
  EXPECT_EQ(large_without["nodes"], large["nodes"]);
  EXPECT_EQ(iteration_counts(large_without), iteration_counts(large));
  // On two threads, the heap's growth is populated by the thread the apply leaves idle
  // (egraph/heap_growth_helper.h): the same run.
  const Json large_on_two = saturate("sum 9", {}, {"--threads", "2"});
  EXPECT_EQ(large_on_two["huge_pages"], heap_can_take_huge_pages());
  EXPECT_EQ(large_on_two["nodes"], large["nodes"]);
  EXPECT_EQ(iteration_counts(large_on_two), iteration_counts(large));

  ToolRun both = run_eqsat({"--huge-pages", "--no-huge-pages", "saturate", "a"});
  EXPECT_EQ(both.status, 2);
  EXPECT_TRUE(Contains(both.err, "excludes")) << both.err;
}

// The report says which threads the apply's batches of new nodes ran on: none where
// the e-graph stays under kBatchMinNodes (24,576: sum 9), one on one thread, and on two
// threads two or one as the handoff of a cache line between them, measured once and
// reported, is cheap or not (egraph/core_handoff.h).
TEST(SaturateCommand, SaysWhichThreadsTheApplysBatchesRanOn) {
  auto saturate = [&](const std::string& workload, const std::string& threads) {
    ToolRun run =
        run_eqsat({"saturate", "--rules", kRules, "--no-default-rules", "--report", "--workload", workload,
                   "--node-limit", "1000000", "--iter-limit", "1000", "--time-limit", "3600", "--threads", threads});
    EXPECT_EQ(run.status, 0) << run.err;
    std::vector<Json> lines = json_lines(run.out);
    return lines.size() == 1 ? lines[0] : Json();
  };
  const Json small = saturate("sum 9", "2");
  EXPECT_EQ(small["apply_batch_threads"], 0);
  EXPECT_FALSE(small.contains("handoff_round_trip_ns"));
  const Json one = saturate("sum 10", "1");
  EXPECT_EQ(one["apply_batch_threads"], 1);
  EXPECT_FALSE(one.contains("handoff_round_trip_ns"));
  const Json two = saturate("sum 10", "2");
  // null where the other thread never answered (no round trip: not cheap).
  ASSERT_TRUE(two.contains("handoff_round_trip_ns")) << two.dump();
  const Json& round_trip = two["handoff_round_trip_ns"];
  ASSERT_TRUE(round_trip.is_number() || round_trip.is_null()) << two.dump();
  const bool cheap = round_trip.is_number() && round_trip.get<double>() < kCheapHandoffNanoseconds;
  EXPECT_EQ(two["apply_batch_threads"], cheap ? 2 : 1);
  EXPECT_EQ(iteration_counts(two), iteration_counts(one));
}

// --repeat R runs the saturation R times in the process, each on a fresh e-graph: the
// later runs reuse the memory the first gave back (what a compiler simplifying kernel
// after kernel sees). The report is of the run of median time, every run's total is
// listed, and the runs went alike, count for count, as a run made alone.
TEST(SaturateCommand, RepeatReportsTheRunOfMedianTime) {
  const std::vector<std::string> command = {"saturate", "--rules",      kRules,  "--no-default-rules",
                                            "--report", "--workload",   "sum 7", "--iter-limit",
                                            "1000",     "--time-limit", "3600"};
  ToolRun once = run_eqsat(command);
  ASSERT_EQ(once.status, 0) << once.err;
  const Json single = json_lines(once.out).at(0);
  EXPECT_FALSE(single.contains("repeat"));
  EXPECT_FALSE(single.contains("run_seconds"));

  std::vector<std::string> repeated_args = command;
  repeated_args.insert(repeated_args.end(), {"--repeat", "4"});
  ToolRun repeated = run_eqsat(repeated_args);
  ASSERT_EQ(repeated.status, 0) << repeated.err;
  const Json report = json_lines(repeated.out).at(0);
  EXPECT_EQ(report["repeat"], 4);
  ASSERT_EQ(report["run_seconds"].size(), 4u);
  std::vector<double> totals = report["run_seconds"].get<std::vector<double>>();
  std::sort(totals.begin(), totals.end());
  EXPECT_EQ(report["seconds"].get<double>(), totals[1]);  // the lower median of four
  EXPECT_EQ(report["nodes"], single["nodes"]);
  EXPECT_EQ(report["classes"], single["classes"]);
  EXPECT_EQ(report["rule_fires"], single["rule_fires"]);
  EXPECT_EQ(iteration_counts(report), iteration_counts(single));

  ToolRun summary = run_eqsat({"saturate", "--rules", kRules, "--no-default-rules", "--workload", "sum 6",
                               "--iter-limit", "1000", "--repeat", "3"});
  ASSERT_EQ(summary.status, 0) << summary.err;
  EXPECT_TRUE(Contains(summary.out, "saturated: 8 iterations, 608 e-nodes, 63 e-classes, ")) << summary.out;
  EXPECT_TRUE(Contains(summary.out, " ms (median of 3 runs)")) << summary.out;

  EXPECT_EQ(run_eqsat({"saturate", "--repeat", "0", "a + b"}).status, 2);
}

TEST(SaturateCommand, ErrorsSayWhatToDo) {
  EXPECT_TRUE(Contains(run_eqsat({"saturate"}).err, "give either EXPR or --workload"));
  EXPECT_TRUE(Contains(run_eqsat({"saturate", "--no-default-rules", "a + b"}).err, "give them with --rules"));
  EXPECT_TRUE(Contains(run_eqsat({"saturate", "--workload", "sum x"}).err, "expected a count"));
  EXPECT_EQ(run_eqsat({"saturate", "--scheduler", "greedy", "a"}).status, 2);
}

}  // namespace
}  // namespace eqsat::testing
