// simplify_expr's shortcuts: what they skip must not change what it finds.
#include "passes/simplify_expr.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "egraph/rewrite_applies.h"
#include "ir/parse.h"
#include "ir/print.h"
#include "rules/rule.h"

namespace eqsat {
namespace {

const std::vector<Rewrite>& catalogue() {
  static const std::vector<Rewrite> rewrites = builtin_rules().rewrites();
  return rewrites;
}

Expr parse(const std::string& text, const Facts& facts = {}) {
  Result<Expr> expr = parse_expr(text, facts.var_typer());
  EXPECT_TRUE(expr) << text;
  return *expr;
}

TEST(SimplifyExprFastPath, ALeafNothingIsKnownAboutIsItsOwnBestFormWithoutSaturating) {
  for (const char* text : {"x", "5", "True"}) {
    SimplifyResult result = simplify_expr(parse(text), {}, catalogue());
    EXPECT_EQ(print(result.output), text);
    EXPECT_EQ(result.report.stop_reason, StopReason::Minimal) << text;
    EXPECT_EQ(result.report.iterations, 0u) << text;
    EXPECT_TRUE(result.report.rule_fires.empty()) << text;
  }
}

// The rule index is only a way to find the rules that can match: the caller's, none,
// or one of other rules (ignored) give the same results.
TEST(SimplifyExprRuleIndex, SameResultsWithTheCallersIndexWithoutOneOrWithAStaleOne) {
  const RuleIndex index(catalogue());
  const std::vector<Rewrite> copy = catalogue();  // other storage: an index of it is stale here
  const RuleIndex stale(copy);
  for (const char* text : {"(x * 3 + y) - (y + x * 2)", "min(x + 1, y) - min(x, y - 1)",
                           "select(x < y, z, select(x < y, w, x) + 3)", "(x * 8 + 9) // 4 - x * 2"}) {
    const Expr input = parse(text);
    SimplifyOptions options;
    const SimplifyResult plain = simplify_expr(input, {}, catalogue(), options);
    for (const RuleIndex* given : {&index, &stale}) {
      options.rule_index = given;
      const SimplifyResult indexed = simplify_expr(input, {}, catalogue(), options);
      EXPECT_EQ(print(indexed.output), print(plain.output)) << text;
      EXPECT_EQ(indexed.report.rule_fires, plain.report.rule_fires) << text;
      EXPECT_EQ(indexed.report.nodes, plain.report.nodes) << text;
    }
  }
}

// A chain of sums gets one normal form, its outermost sum's, not one per prefix: the
// e-graph stays linear in the chain's length (every prefix formed, 200 variables made
// 10,191 e-nodes and stopped at the node limit before the first iteration).
TEST(SimplifyExprNormalForms, ALongSumIsFormedOnceNotPerPrefix) {
  std::string text = "a0";
  for (int i = 1; i < 200; ++i) text += " + a" + std::to_string(i);
  const SimplifyResult result = simplify_expr(parse(text), {}, catalogue());
  EXPECT_EQ(result.report.stop_reason, StopReason::Saturated);
  EXPECT_LT(result.report.nodes, 4u * 200u);
  const std::string output = print(result.output);
  std::size_t pluses = 0;
  for (std::size_t at = output.find(" + "); at != std::string::npos; at = output.find(" + ", at + 1)) ++pluses;
  EXPECT_EQ(pluses, 199u) << output;  // the same 200 terms, in the normal form's order
}

// What a prefix's own form found, the outermost form finds: terms that cancel across
// the chain, and a sum below another operation (formed there, as the outermost sum).
TEST(SimplifyExprNormalForms, TermsOfAPrefixStillCancelAndFold) {
  for (const auto& [text, expected] : std::vector<std::pair<std::string, std::string>>{
           {"((a + b) - a) + c", "b + c"},
           {"(a + b - a) // 2 + c", "b // 2 + c"},
           {"((x * 3 + y) - (y + x * 2)) + z - x", "z"},
       }) {
    EXPECT_EQ(print(simplify_expr(parse(text), {}, catalogue()).output), expected) << text;
  }
}

// A sum with one quotient is also that quotient with the sum's terms in its
// numerator, where they cancel: Halide's simplifier writes these so.
TEST(SimplifyExprNormalForms, TermsCancelInsideTheQuotientTheyMoveInto) {
  for (const auto& [text, expected] : std::vector<std::pair<std::string, std::string>>{
           {"2 * x + (2 * x + y) // 5", "(x * 12 + y) // 5"},
           {"x + (y + w - x) // 2", "(w + x + y) // 2"},
           {"x + y // 2", "y // 2 + x"},  // moved in, it would be larger
       }) {
    EXPECT_EQ(print(simplify_expr(parse(text), {}, catalogue()).output), expected) << text;
  }
}

// some_rewrite_applies answers the search's question without a run: a match whose
// guard holds. A match whose guard fails, or a rule whose fast-math flag is not
// granted, does not count.
TEST(SomeRewriteApplies, AMatchCountsOnlyWhereItsGuardHoldsAndItsFlagsAreGranted) {
  const char* text =
      "add-zero [index]: x + 0 => x\n"
      "sub-big [index]: x - c => x + (0 - c)  if c > 100\n"
      "mul-zero-float [float] {nnan}: x * 0.0 => 0.0\n";
  const RuleText file{text, "test.rules"};
  Result<RuleSet> set = parse_rule_set(std::span<const RuleText>(&file, 1));
  ASSERT_TRUE(set) << set.error().describe();
  const std::vector<Rewrite> rules = set->rewrites();
  const RuleIndex index(rules);
  Facts facts;
  facts.var_dtypes["f"] = DType::FP32;
  auto applies = [&](const std::string& expr, FastMath granted = {}) {
    EGraph egraph;
    egraph.add_expr(parse(expr, facts));
    egraph.rebuild();
    return some_rewrite_applies(egraph, rules, index, granted);
  };
  EXPECT_TRUE(applies("y * (x + 0)"));
  EXPECT_FALSE(applies("x + 1"));
  EXPECT_TRUE(applies("x - 200"));
  EXPECT_FALSE(applies("x - 3"));  // matched, but c > 100 is false
  EXPECT_FALSE(applies("f * 0.0"));
  EXPECT_TRUE(applies("f * 0.0", FastMath::all()));
}

// The fast path: an expression in its simplest form comes back without a run, as the
// full path gives it, and says so in the report (saturated after 0 iterations).
TEST(SimplifyExprFastPath, AnExpressionInItsSimplestFormComesBackWithoutARun) {
  SimplifyOptions full;
  full.canonical_fast_path = false;
  for (const char* text : {"x + 3", "x * z + w", "x // 4 + y", "select(x < y, x, y * 2)", "min(x, y) + 1"}) {
    const SimplifyResult fast = simplify_expr(parse(text), {}, catalogue());
    EXPECT_EQ(print(fast.output), text);
    EXPECT_EQ(fast.report.stop_reason, StopReason::Saturated) << text;
    EXPECT_EQ(fast.report.iterations, 0u) << text;
    const SimplifyResult slow = simplify_expr(parse(text), {}, catalogue(), full);
    EXPECT_EQ(slow.output, fast.output) << text;
    EXPECT_EQ(slow.cost, fast.cost) << text;
    EXPECT_EQ(slow.report.iterations, 1u) << text;
  }
  // Not in its simplest form: a rule applies (`x - x // 2`), or a normal form adds a
  // term (`x * 2 + x`, whose root then holds x * 3, or `x + 0`, whose root then holds
  // the leaf x: stopped before any iteration, as minimal).
  for (const char* text : {"x - x // 2", "x * 2 + x", "x + 0"}) {
    const RunReport report = simplify_expr(parse(text), {}, catalogue()).report;
    EXPECT_FALSE(report.stop_reason == StopReason::Saturated && report.iterations == 0) << text;
  }
}

// Where the best term is the input with a commutative operation's operands in the
// extractor's order, the next round would add that term's normal forms, which may
// change the answer: the fast path leaves such an input to the full path.
TEST(SimplifyExprFastPath, AnInputTheExtractorReordersTakesTheFullPath) {
  Facts facts;
  facts.var_dtypes["x"] = DType::Int32;
  const Expr input = parse("cast(x + 1, INT64) == cast(x, INT64) + 1", facts);
  SimplifyOptions full;
  full.canonical_fast_path = false;
  const SimplifyResult fast = simplify_expr(input, facts, catalogue());
  const SimplifyResult slow = simplify_expr(input, facts, catalogue(), full);
  EXPECT_EQ(print(fast.output), print(slow.output));
  EXPECT_GT(fast.report.iterations, 0u);
}

}  // namespace
}  // namespace eqsat
