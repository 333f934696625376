#include "passes/simplify_expr.h"

#include "extract/extractor.h"

namespace eqsat {

SimplifyResult simplify_expr(const Expr& input, const Facts& facts, std::span<const Rewrite> rules,
                             const SimplifyOptions& options) {
  static const CostProfile kUnit = CostProfile::unit();
  const CostProfile& costs = options.costs ? *options.costs : kUnit;

  EGraph egraph;
  assert_facts(egraph, facts);
  ClassId root = egraph.add_expr(input);
  RunReport report = run_rewrites(egraph, rules, options.limits, {}, options.fast_math);

  TreeExtractor extractor(egraph, costs);
  Extracted best = extractor.extract(root);
  return SimplifyResult{best.expr, best.cost, std::move(report)};
}

}  // namespace eqsat
