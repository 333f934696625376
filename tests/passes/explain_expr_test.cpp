// Explanations: the chain of rules from an input to its simplified form, checked step
// by step; and recording them changes nothing about the result.
#include "passes/explain_expr.h"

#include <gtest/gtest.h>

#include <set>

#include "ir/parse.h"
#include "ir/print.h"
#include "rules/rule.h"

namespace eqsat {
namespace {

const std::vector<Rewrite>& rules() {
  static const std::vector<Rewrite> rewrites = builtin_rules().rewrites();
  return rewrites;
}

Expr parse_ok(const std::string& text, const Facts& facts = {}) {
  Result<Expr> e = parse_expr(text, facts.var_typer());
  EXPECT_TRUE(e.ok()) << text << ": " << (e.ok() ? "" : e.error().describe());
  return *e;
}

Expr subterm(const Expr& whole, const std::vector<int>& path) {
  Expr e = whole;
  for (int i : path) e = e.arg(i);
  return e;
}

Expr replaced(const Expr& whole, const std::vector<int>& path, std::size_t depth, const Expr& by) {
  if (depth == path.size()) return by;
  std::vector<Expr> args = whole.args();
  args[path[depth]] = replaced(args[path[depth]], path, depth + 1, by);
  return Expr::make(whole.op(), whole.dtype(), std::move(args));
}

// Whether one application of rule `name` (any dtype instance, its guard set aside: the
// guard held under what the saturated e-graph knew) makes `a` and `b` equal.
bool one_rule_step(const std::string& name, const Expr& a, const Expr& b) {
  std::vector<Rewrite> only;
  for (const Rewrite& r : rules()) {
    if (r.name != name) continue;
    Rewrite unguarded = r;
    unguarded.guard.reset();
    only.push_back(unguarded);
  }
  if (only.empty()) return false;
  EGraph egraph;
  const ClassId x = egraph.add_expr(a);
  const ClassId y = egraph.add_expr(b);
  RunLimits limits;
  limits.max_iterations = 1;
  run_rewrites(egraph, only, limits);
  return egraph.find(x) == egraph.find(y);
}

// Checks the whole chain: it starts at the input and ends at the output; every step
// rewrites the subterm at its path of the previous term; each names a rule of the
// catalogue (that relates its two sides) or a built-in reason that holds.
void expect_valid_chain(const Explanation& e, const Facts& facts) {
  ASSERT_TRUE(e.output.valid());
  EXPECT_FALSE(e.proof.truncated);
  EXPECT_EQ(print(e.proof.start), print(e.input));
  EXPECT_TRUE(e.proof.start == e.input);
  Expr current = e.proof.start;
  for (std::size_t i = 0; i < e.proof.steps.size(); ++i) {
    const ProofStep& s = e.proof.steps[i];
    SCOPED_TRACE("step " + std::to_string(i + 1) + " (" + s.reason + "): " + print(s.before) + " -> " + print(s.after));
    if (s.reason == "presentation") {
      // Only the last step, and only a comparison written the other way round.
      EXPECT_EQ(i + 1, e.proof.steps.size());
      EXPECT_TRUE(s.before == current);
      current = s.term;
      continue;
    }
    EXPECT_TRUE(subterm(current, s.path) == s.before);
    EXPECT_TRUE(replaced(current, s.path, 0, s.after) == s.term);
    EXPECT_EQ(s.before.dtype(), s.after.dtype());
    if (s.is_rule) {
      EXPECT_NE(builtin_rules().find(s.reason), nullptr) << "no rule named " << s.reason;
      EXPECT_TRUE(one_rule_step(s.reason, s.before, s.after));
    } else if (s.reason == "commute") {
      ASSERT_EQ(s.before.args().size(), 2u);
      EXPECT_TRUE(is_commutative(s.before.op(), s.before.dtype()));
      EXPECT_TRUE(s.after.arg(0) == s.before.arg(1) && s.after.arg(1) == s.before.arg(0));
    } else if (s.reason == "analysis") {
      // The analysis knew the value: a constant on one side.
      EXPECT_TRUE(s.after.is_const() || s.before.is_const());
    } else if (s.reason == "fact") {
      EXPECT_FALSE(facts.assumptions.empty() && facts.bounds.empty());
    } else {
      ADD_FAILURE() << "unknown reason " << s.reason;
    }
    current = s.term;
  }
  EXPECT_TRUE(current == e.output) << print(current) << " vs " << print(e.output);
}

TEST(Explain, ChainsFromInputToResult) {
  for (const char* input :
       {"(x + 3) * 4", "(x + 0) * 1 + (3 + 4)", "x - x + y", "(x * 8 + y) // 8", "min(a, a) + max(b, b)",
        "x * y + x * z", "(a + b) - b + 0", "select(x < x, y, z)", "4 * x + 2 * x"}) {
    SCOPED_TRACE(input);
    const Explanation e = explain_expr(parse_ok(input), {}, rules(), {});
    const SimplifyResult plain = simplify_expr(parse_ok(input), {}, rules());
    EXPECT_EQ(print(e.output), print(plain.output));
    EXPECT_EQ(e.cost.weighted, plain.cost);
    expect_valid_chain(e, {});
  }
}

TEST(Explain, ChainsUseFactsAndGuards) {
  Facts facts;
  facts.bounds["x"] = Interval{Int(0), Int(7)};
  facts.bounds["n"] = Interval{Int(1), std::nullopt};
  facts.assumptions.push_back(parse_ok("n > 8"));
  for (const char* input : {"x % 8", "x // 8 + n", "truncdiv(x, n)", "select(n > 2, x, 5)", "min(x, 9)"}) {
    SCOPED_TRACE(input);
    const Explanation e = explain_expr(parse_ok(input, facts), facts, rules(), {});
    expect_valid_chain(e, facts);
    EXPECT_EQ(print(e.output), print(simplify_expr(parse_ok(input, facts), facts, rules()).output));
  }
}

TEST(Explain, OneStepForOneRule) {
  const Explanation e = explain_expr(parse_ok("(x + 3) * 4"), {}, rules(), {});
  EXPECT_EQ(print(e.output), "x * 4 + 12");
  ASSERT_GE(e.proof.steps.size(), 1u);
  EXPECT_EQ(e.proof.steps[0].reason, "mul-add-const");
  EXPECT_TRUE(e.proof.steps[0].forward);
  expect_valid_chain(e, {});
}

TEST(Explain, NothingToDoIsAnEmptyChain) {
  const Explanation e = explain_expr(parse_ok("x + y"), {}, rules(), {});
  EXPECT_EQ(print(e.output), "x + y");
  EXPECT_TRUE(e.proof.steps.empty());
  EXPECT_TRUE(e.runner_ups.empty());
}

TEST(Explain, RunnerUpsAreTheRootsOtherFormsCheapestFirst) {
  const Explanation e = explain_expr(parse_ok("(x + 3) * 4"), {}, rules(), {});
  ASSERT_FALSE(e.runner_ups.empty());
  std::set<std::string> forms;
  Cost previous(0);
  for (const RunnerUp& r : e.runner_ups) {
    EXPECT_GE(r.cost, e.cost.weighted);
    EXPECT_GE(r.cost, previous);
    previous = r.cost;
    EXPECT_NE(print(r.expr), print(e.output));
    forms.insert(print(r.expr));
  }
  EXPECT_TRUE(forms.count("(x + 3) * 4")) << "the input's own form is a runner-up";
}

TEST(Explain, TheProofForestMatchesTheEGraph) {
  for (const char* input : {"(x + 3) * 4 - (x + 3) * 4", "x * y + x * z + (y + z) * x", "(a + b) * (b + a)"}) {
    SCOPED_TRACE(input);
    EGraph explained;
    explained.enable_explanations();
    const ClassId root = explained.add_expr(parse_ok(input));
    run_rewrites(explained, rules());
    EXPECT_EQ(explained.check_invariants(), "");
    EXPECT_TRUE(explained.explainer()->forest_matches(explained));
    // The same run without explanations: the same e-graph, size for size.
    EGraph plain;
    plain.add_expr(parse_ok(input));
    run_rewrites(plain, rules());
    EXPECT_EQ(explained.num_classes(), plain.num_classes());
    EXPECT_EQ(explained.num_nodes(), plain.num_nodes());
    (void)root;
  }
}

}  // namespace
}  // namespace eqsat
