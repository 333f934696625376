// Runs that grow without getting better stop early (passes/stall_watch.h), with the
// result the node limit gave.
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

TEST(StallWatch, LooksFromATwentiethOfTheNodeLimitAndNeverBelow256Nodes) {
  const CostProfile unit = CostProfile::unit();
  EXPECT_EQ(StallWatch(unit, ClassId{0}, 10000).from_nodes(), 500u);
  EXPECT_EQ(StallWatch(unit, ClassId{0}, 100000).from_nodes(), 5000u);
  EXPECT_EQ(StallWatch(unit, ClassId{0}, 1000).from_nodes(), 256u);
}

TEST(StallWatch, ASmallEGraphIsNeverStopped) {
  const CostProfile unit = CostProfile::unit();
  ClassId root;
  EGraph egraph = graph_with("y * 1 + 0", 10, root);
  StallWatch watch(unit, root, 10000);
  for (int i = 0; i < 5; ++i) EXPECT_FALSE(watch.stalled(egraph));
  EXPECT_FALSE(watch.fired());
}

TEST(StallWatch, ALargeEGraphStopsAtTheFirstIterationThatDidNotImproveTheRoot) {
  const CostProfile unit = CostProfile::unit();
  ClassId root;
  EGraph egraph = graph_with("y * 1 + 0", 200, root);  // 4 nodes per filler term
  ASSERT_GE(egraph.num_nodes(), 500u);
  StallWatch watch(unit, root, 10000);
  EXPECT_FALSE(watch.stalled(egraph));  // the first look only measures
  // An iteration that made the root cheaper: `y * 1 + 0` is `y`.
  egraph.merge(root, egraph.add_expr(parse("y")));
  egraph.rebuild();
  EXPECT_FALSE(watch.stalled(egraph));
  EXPECT_FALSE(watch.fired());
  // One that did not: more terms, the root still `y`.
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
    SimplifyOptions unwatched;
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

// A case that saturates is not touched: its e-graph stays far below the watch's size.
TEST(StallWatch, ACaseThatSaturatesIsNotStopped) {
  const SimplifyResult result = simplify_expr(parse("(x * 8 + 9) // 4 - x * 2"), {}, catalogue());
  EXPECT_NE(result.report.stop_reason, StopReason::Stalled);
  EXPECT_EQ(print(result.output), "2");
}

}  // namespace
}  // namespace eqsat
