#include "egraph/rule_index.h"

namespace eqsat {

RuleIndex::RuleIndex(std::span<const Rewrite> rewrites) : data_(rewrites.data()), size_(rewrites.size()) {
  auto slot_of = [](const Rewrite& rewrite) {
    const PatternNode& root = rewrite.lhs.root_node();
    return root.kind == PatternNode::Kind::Op ? op_slot(root.op, root.dtype) : unrooted_slot(root.dtype);
  };
  // Counting sort by bucket: positions stay increasing within each.
  std::vector<std::size_t> slots(rewrites.size());
  for (std::size_t r = 0; r < rewrites.size(); ++r) {
    slots[r] = slot_of(rewrites[r]);
    ++starts_[slots[r] + 1];
  }
  for (std::size_t k = 0; k < kBuckets; ++k) starts_[k + 1] += starts_[k];
  positions_.resize(rewrites.size());
  std::array<uint32_t, kBuckets> next{};
  for (std::size_t k = 0; k < kBuckets; ++k) next[k] = starts_[k];
  for (std::size_t r = 0; r < rewrites.size(); ++r) positions_[next[slots[r]]++] = static_cast<uint32_t>(r);

  programs_.reserve(rewrites.size());
  for (const Rewrite& rewrite : rewrites) programs_.emplace_back(rewrite.lhs, rewrite.vars);
  shapes_.resize(rewrites.size());
  roots_.resize(rewrites.size());
  for (std::size_t r = 0; r < rewrites.size(); ++r) {
    const Pattern& lhs = rewrites[r].lhs;
    const PatternNode& root = lhs.root_node();
    roots_[r] = RuleRoot{root.op, root.dtype, root.kind == PatternNode::Kind::Op, rewrites[r].fast_math};
    if (root.kind != PatternNode::Kind::Op) continue;
    RootShape& shape = shapes_[r];
    shape.any_order = commutes_in_every_reading(root.op, root.dtype);
    for (std::size_t i = 0; i < root.children.size() && i < shape.operand_needs.size(); ++i) {
      const PatternNode& operand = lhs.nodes[root.children[i]];
      const bool constant = operand.kind == PatternNode::Kind::Const ||
                            (operand.kind == PatternNode::Kind::Var && rewrites[r].vars[operand.var].const_only);
      if (operand.kind == PatternNode::Kind::Op) {
        shape.operand_needs[i] = class_summary_bit(operand.op);
      } else if (constant) {
        shape.operand_needs[i] = kKnownConstantBit;
      }
    }
    roots_[r].needs = shape.operand_needs[0] | shape.operand_needs[1] | shape.operand_needs[2];
  }
}

}  // namespace eqsat
