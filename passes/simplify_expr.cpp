#include "passes/simplify_expr.h"

#include "extract/extract.h"

namespace eqsat {

SimplifyResult simplify_expr(const Expr& input, const Facts& facts, std::span<const Rewrite> rules,
                             const SimplifyOptions& options) {
  static const CostProfile kUnit = CostProfile::unit();
  const CostProfile& costs = options.costs ? *options.costs : kUnit;

  EGraph egraph;
  assert_facts(egraph, facts);
  ClassId root = egraph.add_expr(input);
  RunReport report = run_rewrites(egraph, rules, options.limits);

  Extraction best = extract_best(egraph, costs, root, options.extract);
  return SimplifyResult{best.expr, best.cost.weighted, best.optimal, std::move(report)};
}

}  // namespace eqsat
