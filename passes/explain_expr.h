// Why an expression simplified the way it did: `eqsat explain`.
//
// Runs what simplify_expr runs, with explanations recorded (egraph/explain.h), and
// reports the chosen form and its cost, the runner-up forms of the root class (each
// other node of the root with the chosen terms below it) and a chain of rule
// applications from the input to the result. The e-graph itself is available too,
// for `eqsat dot`.
#pragma once

#include <span>
#include <vector>

#include "egraph/explain.h"
#include "egraph/rewrite.h"
#include "passes/facts.h"
#include "passes/simplify_expr.h"

namespace eqsat {

struct RunnerUp {
  Expr expr;
  Cost cost;  // weighted, under the profile
};

struct Explanation {
  Expr input;
  Expr output;  // invalid when every form uses an operation the profile forbids
  SelectionCost cost;
  bool optimal = false;
  std::vector<RunnerUp> runner_ups;  // cheapest first, at most `max_runner_ups`
  Proof proof;                       // from `input` to `output`
  RunReport report;
};

struct ExplainOptions {
  std::size_t max_runner_ups = 5;
  std::size_t max_proof_steps = 1000;
};

Explanation explain_expr(const Expr& input, const Facts& facts, std::span<const Rewrite> rules,
                         const SimplifyOptions& options, const ExplainOptions& explain = {});

// The saturated e-graph of `input` and the chosen selection, for drawing.
struct SaturatedCase {
  EGraph egraph;
  ClassId root;
  Extraction extraction;
  RunReport report;
};
SaturatedCase saturate_expr(const Expr& input, const Facts& facts, std::span<const Rewrite> rules,
                            const SimplifyOptions& options);

}  // namespace eqsat
