#include "verify/counterexample.h"

#include <algorithm>

#include "ir/fold.h"

namespace eqsat::verify {

namespace {

std::string side_text(const std::optional<Value>& v) { return v ? value_text(*v) : "undefined"; }

}  // namespace

std::string Counterexample::text(std::string_view lhs_name, std::string_view rhs_name) const {
  std::string out;
  for (std::size_t i = 0; i < vars.size(); ++i) {
    if (i > 0) out += ", ";
    const bool is_undefined = std::find(undefined.begin(), undefined.end(), vars[i].name) != undefined.end();
    out += vars[i].name + (is_undefined ? " undefined"
                                        : " = " + value_text(vars[i].value) + " (" +
                                              std::string(dtype_name(vars[i].value.dtype)) + ")");
  }
  if (!facts.empty()) {
    out += " with ";
    for (std::size_t i = 0; i < facts.size(); ++i) out += (i > 0 ? ", " : "") + facts[i];
  }
  return out + ": " + std::string(lhs_name) + " = " + side_text(lhs) + ", " + std::string(rhs_name) + " = " +
         side_text(rhs);
}

std::optional<Value> fold_pattern(const Pattern& pattern, std::span<const Value> vars) {
  std::vector<std::optional<Value>> values;
  values.reserve(pattern.nodes.size());
  for (const PatternNode& node : pattern.nodes) {
    switch (node.kind) {
      case PatternNode::Kind::Var:
        values.push_back(vars[node.var]);
        continue;
      case PatternNode::Kind::Const:
        values.push_back(pattern.value_of(node));
        continue;
      case PatternNode::Kind::Op:
        break;
    }
    std::vector<Value> args;
    bool defined = true;
    for (uint32_t child : node.children) {
      if (!values[child])
        defined = false;
      else
        args.push_back(*values[child]);
    }
    values.push_back(defined ? fold(node.op, node.dtype, args) : std::nullopt);
  }
  return values[pattern.root];
}

}  // namespace eqsat::verify
