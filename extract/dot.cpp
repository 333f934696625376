#include "extract/dot.h"

#include <sstream>

#include "ir/value.h"

namespace eqsat {

namespace {

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

std::string node_label(const EGraph& egraph, const ENode& node) {
  switch (node.op) {
    case Op::Var:
      return egraph.symbol_name(node.payload);
    case Op::Const:
      return value_text(egraph.constant_value(node.payload));
    case Op::Cast:
      return "cast " + std::string(dtype_name(node.dtype));
    default: {
      const OpInfo& info = op_info(node.op);
      return std::string(info.symbol.empty() ? info.name : info.symbol);
    }
  }
}

std::string class_label(ClassId id, const ClassData& data) {
  std::ostringstream label;
  label << "c" << id.value << " " << dtype_name(data.dtype);
  if (data.constant) {
    label << " = " << value_text(*data.constant);
  } else if (!data.interval.is_all() && !(data.interval == Interval::of_dtype(data.dtype)) &&
             (is_integer(data.dtype) || data.dtype == DType::Bool)) {
    label << " in " << data.interval.to_string();
  }
  return label.str();
}

}  // namespace

std::string egraph_to_dot(const EGraph& egraph, const Selection& selection, ClassId root, bool all_classes) {
  root = egraph.find(root);
  std::ostringstream out;
  out << "digraph egraph {\n"
      << "  compound=true;\n"
      << "  node [shape=box, fontname=\"monospace\"];\n";
  std::vector<ClassId> ids = egraph.class_ids();
  if (!all_classes) {
    // The classes reachable from the root through any node, in id order.
    std::vector<bool> reached(ids.empty() ? 0 : ids.back().value + 1, false);
    std::vector<ClassId> work = {root};
    reached[root.value] = true;
    while (!work.empty()) {
      const ClassId id = work.back();
      work.pop_back();
      for (const ENode& node : egraph.eclass(id).nodes) {
        for (ClassId child : node.children) {
          const ClassId c = egraph.find(child);
          if (!reached[c.value]) {
            reached[c.value] = true;
            work.push_back(c);
          }
        }
      }
    }
    std::erase_if(ids, [&](ClassId id) { return !reached[id.value]; });
  }
  // Only the chosen nodes of the extracted term are marked (the selection also holds a
  // choice for classes the term does not use).
  std::vector<bool> in_term(selection.size(), false);
  std::vector<ClassId> stack = {root};
  while (!stack.empty()) {
    const ClassId id = egraph.find(stack.back());
    stack.pop_back();
    if (id.value >= selection.size() || in_term[id.value] || !selection[id.value]) continue;
    in_term[id.value] = true;
    for (ClassId child : selection[id.value]->children) stack.push_back(child);
  }
  auto chosen_node = [&](ClassId id) -> const ENode* {
    return id.value < selection.size() && in_term[id.value] ? selection[id.value] : nullptr;
  };
  for (ClassId id : ids) {
    const EClass& eclass = egraph.eclass(id);
    out << "  subgraph cluster_" << id.value << " {\n"
        << "    label=\"" << escape(class_label(id, egraph.data(eclass))) << "\";\n"
        << "    style=" << (id == root ? "\"rounded,bold\"; peripheries=2" : "rounded") << ";\n";
    const ENode* chosen = chosen_node(id);
    for (std::size_t k = 0; k < eclass.nodes.size(); ++k) {
      const ENode& node = eclass.nodes[k];
      out << "    n" << id.value << "_" << k << " [label=\"" << escape(node_label(egraph, node)) << "\"";
      if (&node == chosen) out << ", style=\"filled,bold\", fillcolor=\"lightblue\"";
      out << "];\n";
    }
    out << "  }\n";
  }
  for (ClassId id : ids) {
    const EClass& eclass = egraph.eclass(id);
    const ENode* chosen = chosen_node(id);
    for (std::size_t k = 0; k < eclass.nodes.size(); ++k) {
      const ENode& node = eclass.nodes[k];
      for (std::size_t i = 0; i < node.children.size(); ++i) {
        const ClassId child = egraph.find(node.children[i]);
        out << "  n" << id.value << "_" << k << " -> n" << child.value << "_0 [lhead=cluster_" << child.value;
        if (node.children.size() > 1) out << ", label=\"" << i << "\"";
        if (&node == chosen) out << ", style=bold, color=\"blue\"";
        out << "];\n";
      }
    }
  }
  out << "}\n";
  return out.str();
}

}  // namespace eqsat
