#include "extract/extract.h"

#include "extract/extractor.h"

namespace eqsat {

std::optional<ExtractorKind> parse_extractor_kind(std::string_view name) {
  if (name == "tree") return ExtractorKind::Tree;
  if (name == "dag") return ExtractorKind::Dag;
  return std::nullopt;
}

std::string_view extractor_kind_name(ExtractorKind kind) { return kind == ExtractorKind::Tree ? "tree" : "dag"; }

Extraction extract_best(const EGraph& egraph, const CostProfile& profile, ClassId root, const ExtractOptions& options) {
  Extraction result;
  if (options.kind == ExtractorKind::Dag) {
    DagExtracted dag = extract_dag(egraph, profile, root, options.dag);
    result.expr = dag.expr;
    result.cost = dag.cost;
    result.optimal = dag.optimal;
    result.selection = std::move(dag.selection);
    return result;
  }
  return extract_tree(egraph, profile, TreeExtractor(egraph, profile), root);
}

namespace {

// extract_tree with the root's term given (when valid) rather than built.
Extraction tree_extraction(const EGraph& egraph, const CostProfile& profile, const TreeExtractor& tree, ClassId root,
                           const Expr* built) {
  Extraction result;
  result.selection = tree.selection();
  result.cost = selection_cost(egraph, profile, result.selection, root);
  if (result.cost.usable) {
    result.expr = built && built->valid() ? *built : selection_expr(egraph, result.selection, root);
  }
  // Bottom-up choice is exact for the tree cost, and only for it.
  result.optimal = profile.weights().dag == 0;
  return result;
}

}  // namespace

Extraction extract_tree(const EGraph& egraph, const CostProfile& profile, const TreeExtractor& tree, ClassId root) {
  return tree_extraction(egraph, profile, tree, root, nullptr);
}

Extraction extract_tree(const EGraph& egraph, const CostProfile& profile, const TreeExtractor& tree, ClassId root,
                        const Extracted& extracted) {
  return tree_extraction(egraph, profile, tree, root, &extracted.expr);
}

}  // namespace eqsat
