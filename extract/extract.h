// Choosing the extractor: what simplify-expr, batch, simplify, explain and dot call.
//
//   tree  the tree-optimal bottom-up extractor (extract/extractor.h): the default and
//         the fastest; optimal when the profile's DAG weight is 0
//   dag   the DAG-aware extractor (extract/dag_extractor.h): counts a shared subterm
//         once, exact on small e-graphs, greedy on large ones
#pragma once

#include <optional>
#include <string_view>

#include "egraph/egraph.h"
#include "extract/cost.h"
#include "extract/dag_extractor.h"
#include "extract/extractor.h"
#include "extract/selection.h"

namespace eqsat {

enum class ExtractorKind { Tree, Dag };

std::optional<ExtractorKind> parse_extractor_kind(std::string_view name);  // "tree", "dag"
std::string_view extractor_kind_name(ExtractorKind kind);

struct ExtractOptions {
  ExtractorKind kind = ExtractorKind::Tree;
  DagOptions dag;
};

struct Extraction {
  Expr expr;           // invalid when every term of the root uses a forbidden operation
  SelectionCost cost;  // cost.weighted is the profile's cost of `expr`
  bool optimal = false;
  Selection selection;
};

Extraction extract_best(const EGraph& egraph, const CostProfile& profile, ClassId root,
                        const ExtractOptions& options = {});

// The tree extractor's answer, from one already made over `egraph` (as it is) with
// `profile`: what extract_best gives with ExtractorKind::Tree.
Extraction extract_tree(const EGraph& egraph, const CostProfile& profile, const TreeExtractor& tree, ClassId root);
// The same, with the root's term already built by `tree.extract(root)` (the e-graph
// unchanged since): it is not built again.
Extraction extract_tree(const EGraph& egraph, const CostProfile& profile, const TreeExtractor& tree, ClassId root,
                        const Extracted& extracted);

}  // namespace eqsat
