#include "verify/reassociation.h"

#include <algorithm>
#include <tuple>
#include <vector>

#include "ir/value.h"

namespace eqsat::verify {

namespace {

// A leaf of a reassociation tree, comparable: a variable by its number, a literal by
// its text (exact for floats: the printed value reads back to the same bits).
struct Leaf {
  bool is_var = false;
  uint32_t var = 0;
  std::string literal;
  friend bool operator<(const Leaf& a, const Leaf& b) {
    return std::tie(a.is_var, a.var, a.literal) < std::tie(b.is_var, b.var, b.literal);
  }
  friend bool operator==(const Leaf& a, const Leaf& b) {
    return a.is_var == b.is_var && a.var == b.var && a.literal == b.literal;
  }
};

// Collects the leaves of the tree of `op` nodes under `index`; returns a reason when a
// node is another operation.
std::string collect(const Pattern& pattern, uint32_t index, Op op, std::vector<Leaf>& leaves) {
  const PatternNode& node = pattern.nodes[index];
  switch (node.kind) {
    case PatternNode::Kind::Var:
      leaves.push_back({true, node.var, ""});
      return "";
    case PatternNode::Kind::Const:
      leaves.push_back({false, 0, value_text(pattern.value_of(node))});
      return "";
    case PatternNode::Kind::Op:
      break;
  }
  if (node.op != op) {
    return "it mixes '" + std::string(op_info(node.op).symbol) + "' with '" + std::string(op_info(op).symbol) + "'";
  }
  for (uint32_t child : node.children) {
    if (std::string problem = collect(pattern, child, op, leaves); !problem.empty()) return problem;
  }
  return "";
}

}  // namespace

std::string reassociation_problem(const Rewrite& rewrite) {
  const PatternNode& root = rewrite.lhs.root_node();
  if (root.kind != PatternNode::Kind::Op || (root.op != Op::Add && root.op != Op::Mul) || !is_float(root.dtype)) {
    return "the left side is not a float '+' or '*'";
  }
  std::vector<Leaf> lhs_leaves, rhs_leaves;
  if (std::string p = collect(rewrite.lhs, rewrite.lhs.root, root.op, lhs_leaves); !p.empty()) return "left side: " + p;
  if (std::string p = collect(rewrite.rhs, rewrite.rhs.root, root.op, rhs_leaves); !p.empty())
    return "right side: " + p;
  std::sort(lhs_leaves.begin(), lhs_leaves.end());
  std::sort(rhs_leaves.begin(), rhs_leaves.end());
  if (lhs_leaves != rhs_leaves) return "the two sides do not combine the same operands";
  return "";
}

}  // namespace eqsat::verify
