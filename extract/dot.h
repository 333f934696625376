// The e-graph as a Graphviz digraph: `eqsat dot`.
//
// One cluster per e-class ("cluster_<id>", labelled with the class id, its dtype and
// what the analyses know: constant, interval), one box per e-node inside it ("n<id>_<k>",
// the k-th node of the class, labelled with its operation, variable or constant), and
// an edge from each node to each child class, drawn to the class's first node and
// clipped at the class's border (lhead), labelled with the operand's position when the
// operation has several. The nodes the extraction chose are filled and bold, and so are
// the edges between them; the root class has a double border.
#pragma once

#include <string>

#include "egraph/egraph.h"
#include "extract/selection.h"

namespace eqsat {

// `all_classes`: every class, not only those reachable from the root (facts add
// classes of their own, True and False among them).
std::string egraph_to_dot(const EGraph& egraph, const Selection& selection, ClassId root, bool all_classes = false);

}  // namespace eqsat
