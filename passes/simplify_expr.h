// Simplifying one expression: the path from text to the cheapest equal expression.
//
//   facts + expression  ->  e-graph  ->  saturate with the rules  ->  extract
//                            ^                                        |
//                            +---- linear normal forms of the best <--+  (a few rounds)
//
// This is what `eqsat simplify-expr` and each line of `eqsat batch` run.
#pragma once

#include <span>

#include "egraph/rewrite.h"
#include "egraph/runner.h"
#include "extract/cost.h"
#include "extract/extract.h"
#include "passes/facts.h"

namespace eqsat {

struct SimplifyOptions {
  RunLimits limits;
  const CostProfile* costs = nullptr;  // nullptr: the default profile (cost = node count)
  ExtractOptions extract;              // which extractor (default: tree)
  // Between rounds of saturation, add the linear normal forms (passes/linear_form.h) of
  // the best expression so far, and its form with the subterms its conditions decide
  // replaced by constants (passes/condition_context.h). Off only to see what the rules do alone (the
  // catalogue's examples show each rule by itself).
  bool linear_forms = true;
  // Stop a saturation whose last iterations did not make the expression cheaper
  // (passes/stall_watch.h; reported as `stalled`). Off: runs go on until they saturate
  // or reach a limit, as egg's do.
  bool stop_when_stalled = true;
  // The fast-math flags granted (ir/fast_math.h): rules needing others do not run.
  FastMath fast_math;
  // An index of the rules by the root of their left side (egraph/rule_index.h), built
  // once by a caller that simplifies many expressions with the same rules (the CLI's
  // Simplifier); nullptr, or an index of other rules: each saturation builds its own.
  const RuleIndex* rule_index = nullptr;
  // Skip the run for an expression in its simplest form already: when its normal
  // forms add nothing, no rule applies anywhere in it and its best term is itself, it
  // is the answer (reported saturated after 0 iterations). The answer is the one the
  // full path gives; off only to compare the two (tests/tools/fast_path_corpus_test.cpp).
  bool canonical_fast_path = true;
};

struct SimplifyResult {
  Expr output;           // invalid when every form uses an operation the profile forbids
  Cost cost;             // the profile's (weighted) cost of `output`
  bool optimal = false;  // the extractor proved no form in the e-graph cheaper
  RunReport report;
};

SimplifyResult simplify_expr(const Expr& input, const Facts& facts, std::span<const Rewrite> rules,
                             const SimplifyOptions& options = {});

}  // namespace eqsat
