// simplify_expr's shortcuts: what they skip must not change what it finds.
#include "passes/simplify_expr.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

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

}  // namespace
}  // namespace eqsat
