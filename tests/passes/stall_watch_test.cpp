// Runs that go on without getting better stop early (passes/stall_watch.h), with the
// result they would have ended with.
#include "passes/stall_watch.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "egraph/egraph.h"
#include "extract/cost.h"
#include "ir/parse.h"
#include "ir/print.h"
#include "passes/simplify_expr.h"
#include "rules/rule.h"

namespace eqsat {
namespace {

const std::vector<Rewrite>& catalogue() {
  static const std::vector<Rewrite> rewrites = builtin_rules().rewrites();
  return rewrites;
}

Expr parse(const std::string& text) {
  Result<Expr> expr = parse_expr(text, Facts{}.var_typer());
  EXPECT_TRUE(expr) << text;
  return *expr;
}

// An e-graph of `root_text` and `filler` unrelated terms, rebuilt.
EGraph graph_with(const std::string& root_text, int filler, ClassId& root) {
  EGraph egraph;
  root = egraph.add_expr(parse(root_text));
  for (int i = 0; i < filler; ++i) egraph.add_expr(parse("z * " + std::to_string(i + 2) + " + w"));
  egraph.rebuild();
  return egraph;
}

TEST(StallWatch, OneIterationWithoutImprovementIsEnoughFromATwentiethOfTheNodeLimit) {
  const CostProfile unit = CostProfile::unit();
  EXPECT_EQ(StallWatch(unit, ClassId{0}, 10000).impatient_from_nodes(), 500u);
  EXPECT_EQ(StallWatch(unit, ClassId{0}, 100000).impatient_from_nodes(), 5000u);
  EXPECT_EQ(StallWatch(unit, ClassId{0}, 1000).impatient_from_nodes(), 256u);
}

TEST(StallWatch, ASmallEGraphGetsKPatienceIterationsWithoutImprovement) {
  const CostProfile unit = CostProfile::unit();
  ClassId root;
  EGraph egraph = graph_with("y * 1 + 0", 10, root);
  StallWatch watch(unit, root, 10000);
  EXPECT_FALSE(watch.stalled(egraph));  // the first look only measures
  for (int i = 1; i < StallWatch::kPatience; ++i) EXPECT_FALSE(watch.stalled(egraph)) << i;
  // An improvement starts the count again: `y * 1 + 0` is `y`.
  egraph.merge(root, egraph.add_expr(parse("y")));
  egraph.rebuild();
  EXPECT_FALSE(watch.stalled(egraph));
  for (int i = 1; i < StallWatch::kPatience; ++i) EXPECT_FALSE(watch.stalled(egraph)) << i;
  EXPECT_FALSE(watch.fired());
  EXPECT_TRUE(watch.stalled(egraph));
  EXPECT_TRUE(watch.fired());
}

TEST(StallWatch, ALargeEGraphStopsAtTheFirstIterationThatDidNotImproveTheRoot) {
  const CostProfile unit = CostProfile::unit();
  ClassId root;
  EGraph egraph = graph_with("y * 1 + 0", 200, root);  // 4 nodes per filler term
  ASSERT_GE(egraph.num_nodes(), 500u);
  StallWatch watch(unit, root, 10000);
  EXPECT_FALSE(watch.stalled(egraph));
  egraph.merge(root, egraph.add_expr(parse("y")));
  egraph.rebuild();
  EXPECT_FALSE(watch.stalled(egraph));
  EXPECT_FALSE(watch.fired());
  egraph.add_expr(parse("z * 1000 + w"));
  egraph.rebuild();
  EXPECT_TRUE(watch.stalled(egraph));
  EXPECT_TRUE(watch.fired());
}

// The runaways of the external corpora (tvm, tinygrad, Halide test cases): each found
// its result within a few iterations, then grew to the 10,000 e-node limit. Now each
// stops stalled, at a fraction of the limit, with the same result.
TEST(StallWatch, RunawaysStopStalledWithTheResultTheNodeLimitGave) {
  struct Runaway {
    const char* input;
    const char* bounds;  // "x" in [0, 100] or none
    const char* output;
  };
  const std::vector<Runaway> runaways = {
      {"(x + 1) // 2 - x // 2", "", "x % 2"},
      {"(x % 2 + 1) // 2", "", "x % 2"},
      {"(x % 2 + 5) // 2", "", "x % 2 + 2"},
      {"(x % 2 + 7) // 2 + x // 2", "", "(x + 7) // 2"},
      {"(x - 50) % 3 + (x - 50) // 3 * 3", "x", "x + -50"},
  };
  for (const Runaway& runaway : runaways) {
    Facts facts;
    if (*runaway.bounds) facts.bounds["x"] = Interval::range(0, 100);
    const Expr input = parse(runaway.input);
    SimplifyOptions watched;
    // No time limit to reach first: under a sanitizer a run to 10,000 e-nodes takes
    // longer than the default 5 s on a slow machine, and this test is about the nodes.
    watched.limits.max_seconds = 600;
    SimplifyOptions unwatched = watched;
    unwatched.stop_when_stalled = false;
    const SimplifyResult early = simplify_expr(input, facts, catalogue(), watched);
    const SimplifyResult late = simplify_expr(input, facts, catalogue(), unwatched);
    EXPECT_EQ(late.report.stop_reason, StopReason::NodeLimit) << runaway.input;
    EXPECT_EQ(early.report.stop_reason, StopReason::Stalled) << runaway.input;
    EXPECT_LT(early.report.nodes, watched.limits.max_nodes / 2) << runaway.input;
    EXPECT_EQ(print(early.output), runaway.output) << runaway.input;
    EXPECT_EQ(print(late.output), runaway.output) << runaway.input;
  }
}

// Halide's recombination with an addend is `x + y` from the first linear normal form on;
// the rules then rewrite its pieces for 9 iterations until they saturate. The watch
// stops the run once kPatience of them did not improve the result.
TEST(StallWatch, ARunThatNoLongerImprovesStopsBeforeItSaturates) {
  const Expr input = parse("x // 3 * 3 + y + x % 3");
  SimplifyOptions unwatched;
  unwatched.stop_when_stalled = false;
  const SimplifyResult early = simplify_expr(input, {}, catalogue());
  const SimplifyResult late = simplify_expr(input, {}, catalogue(), unwatched);
  EXPECT_EQ(late.report.stop_reason, StopReason::Saturated);
  EXPECT_EQ(early.report.stop_reason, StopReason::Stalled);
  EXPECT_LT(early.report.iterations, late.report.iterations);
  EXPECT_EQ(print(early.output), "x + y");
  EXPECT_EQ(print(late.output), "x + y");
}

}  // namespace
}  // namespace eqsat
