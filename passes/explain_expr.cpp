#include "passes/explain_expr.h"

#include <algorithm>

#include "extract/extract.h"
#include "ir/print.h"

namespace eqsat {

namespace {

const CostProfile& profile_of(const SimplifyOptions& options) {
  static const CostProfile kDefault = CostProfile::unit();
  return options.costs ? *options.costs : kDefault;
}

// The exact term of the selection under `id`, written as selection_expr writes it
// (a constant operand of a commutative operation last, when the e-graph sorts operands
// so that both orders are one node): its id, for the proof's end.
ClassId add_selected(EGraph& egraph, const Selection& selection, ClassId id) {
  const ENode& chosen = *selection[egraph.find(id).value];
  ENode exact = chosen;
  for (ClassId& child : exact.children) child = add_selected(egraph, selection, child);
  auto is_const = [&](ClassId c) { return selection[egraph.find(c).value]->op == Op::Const; };
  if (exact.children.size() == 2 && egraph.sorts_operands(exact.op, exact.dtype) && is_const(exact.children[0]) &&
      !is_const(exact.children[1])) {
    std::swap(exact.children[0], exact.children[1]);
  }
  return egraph.add(std::move(exact));
}

std::vector<RunnerUp> runner_ups(const EGraph& egraph, const CostProfile& profile, const Selection& selection,
                                 ClassId root, std::size_t limit) {
  std::vector<RunnerUp> found;
  const ClassId canonical = egraph.find(root);
  const ENode* chosen = selection[canonical.value];
  for (const ENode& node : egraph.eclass(root).nodes) {
    if (&node == chosen) continue;
    Selection alternative = selection;
    alternative[canonical.value] = &node;
    SelectionCost cost = selection_cost(egraph, profile, alternative, root);
    if (!cost.usable) continue;  // uses a forbidden operation, or its operands need the root itself
    found.push_back(RunnerUp{selection_expr(egraph, alternative, root), cost.weighted});
  }
  // Cheapest first; equal costs in the order of the printed forms (deterministic).
  std::stable_sort(found.begin(), found.end(), [](const RunnerUp& a, const RunnerUp& b) {
    if (a.cost != b.cost) return a.cost < b.cost;
    return print(a.expr) < print(b.expr);
  });
  if (found.size() > limit) found.resize(limit);
  return found;
}

}  // namespace

SaturatedCase saturate_expr(const Expr& input, const Facts& facts, std::span<const Rewrite> rules,
                            const SimplifyOptions& options) {
  SaturatedCase result;
  assert_facts(result.egraph, facts);
  result.root = result.egraph.add_expr(input);
  result.report = run_rewrites(result.egraph, rules, options.limits);
  result.extraction = extract_best(result.egraph, profile_of(options), result.root, options.extract);
  return result;
}

Explanation explain_expr(const Expr& input, const Facts& facts, std::span<const Rewrite> rules,
                         const SimplifyOptions& options, const ExplainOptions& explain) {
  const CostProfile& profile = profile_of(options);
  EGraph egraph;
  egraph.enable_explanations();
  assert_facts(egraph, facts);
  const ClassId root = egraph.add_expr(input);
  Explanation result;
  result.input = input;
  result.report = run_rewrites(egraph, rules, options.limits);
  Extraction best = extract_best(egraph, profile, root, options.extract);
  result.output = best.expr;
  result.cost = best.cost;
  result.optimal = best.optimal;
  if (!best.cost.usable) return result;
  result.runner_ups = runner_ups(egraph, profile, best.selection, root, explain.max_runner_ups);

  const ClassId end = add_selected(egraph, best.selection, root);
  result.proof = egraph.explainer()->prove(egraph, root, end, explain.max_proof_steps);
  // `c < x` is written `x > c` (extract/selection.h): the same node, shown as a last step.
  const Expr& reached = result.proof.steps.empty() ? result.proof.start : result.proof.steps.back().term;
  if (!result.proof.truncated && reached != result.output) {
    ProofStep step;
    step.reason = "presentation";
    step.before = reached;
    step.after = result.output;
    step.term = result.output;
    result.proof.steps.push_back(std::move(step));
  }
  return result;
}

}  // namespace eqsat
