#include "extract/term_order.h"

#include <cassert>
#include <cstring>
#include <utility>

#include "ir/definedness.h"

namespace eqsat {

namespace {

// Compound terms, then variables, then constants.
int kind_rank(const ENode& node) {
  if (node.op == Op::Var) return 1;
  if (node.op == Op::Const) return 2;
  return 0;
}

template <typename T>
int three_way(const T& a, const T& b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

int compare_values(const Value& a, const Value& b) {
  if (int c = three_way(a.dtype, b.dtype)) return c;
  if (is_float(a.dtype)) {
    // By bit pattern: a total order in which NaN and both zeros have a place.
    uint64_t bits_a = 0, bits_b = 0;
    std::memcpy(&bits_a, &a.f, sizeof a.f);
    std::memcpy(&bits_b, &b.f, sizeof b.f);
    return three_way(bits_a, bits_b);
  }
  return three_way(a.i, b.i);
}

bool has_commutative_operands(const ENode& node) {
  return node.children.size() == 2 && is_commutative(node.op, node.dtype);
}

}  // namespace

TermOrder::TermOrder(const EGraph& egraph, const Selection& selection)
    : egraph_(egraph), selection_(selection), swapped_(selection.size(), 0), undefined_(selection.size(), 0) {}

bool TermOrder::may_be_undefined(ClassId id) {
  id = egraph_.find(id);
  uint8_t& known = undefined_[id.value];
  if (known == 0) {
    const ENode& node = *selection_[id.value];
    const FastMath flags = egraph_.fast_math();
    bool undefined;
    if (node.op == Op::Const) {
      undefined = constant_is_poison(egraph_.constant_value(node.payload), flags);
    } else if (node.children.empty()) {
      undefined = variable_may_be_undefined(node.dtype, flags);
    } else {
      undefined = is_partial(node.op, node.dtype, egraph_.eclass(node.children[0]).dtype, flags);
    }
    for (ClassId child : node.children) undefined = undefined || may_be_undefined(child);
    known = undefined ? 2 : 1;
  }
  return known == 2;
}

bool TermOrder::reorderable(const ENode& node) {
  if (!has_commutative_operands(node)) return false;
  if (node.op != Op::And && node.op != Op::Or) return true;
  return !may_be_undefined(node.children[0]) && !may_be_undefined(node.children[1]);
}

bool TermOrder::operands_swapped(ClassId id, const ENode& node) {
  uint8_t& known = swapped_[id.value];
  if (known == 0) known = reorderable(node) && compare(node.children[1], node.children[0]) < 0 ? 2 : 1;
  return known == 2;
}

NodeChildren TermOrder::presented_operands(const ENode& node) {
  NodeChildren operands = node.children;
  if (reorderable(node) && compare(operands[1], operands[0]) < 0) std::swap(operands[0], operands[1]);
  return operands;
}

int TermOrder::compare_heads(const ENode& a, const ENode& b) const {
  if (int c = three_way(kind_rank(a), kind_rank(b))) return c;
  if (a.op == Op::Var && b.op == Op::Var) {
    if (int c = egraph_.symbol_name(a.payload).compare(egraph_.symbol_name(b.payload))) return c < 0 ? -1 : 1;
    return three_way(a.dtype, b.dtype);
  }
  if (a.op == Op::Const && b.op == Op::Const) {
    return compare_values(egraph_.constant_value(a.payload), egraph_.constant_value(b.payload));
  }
  if (int c = three_way(a.op, b.op)) return c;
  if (int c = three_way(a.dtype, b.dtype)) return c;
  return three_way(a.children.size(), b.children.size());
}

int TermOrder::compare_operands(const NodeChildren& a, const NodeChildren& b) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (int c = compare(a[i], b[i])) return c;
  }
  return 0;
}

NodeChildren TermOrder::chosen_operands(ClassId id) {
  const ENode& node = *selection_[id.value];
  NodeChildren operands = node.children;
  if (operands_swapped(id, node)) std::swap(operands[0], operands[1]);
  return operands;
}

int TermOrder::compare(const ENode& a, const ENode& b) {
  if (int c = compare_heads(a, b)) return c;
  return compare_operands(presented_operands(a), presented_operands(b));
}

int TermOrder::compare(ClassId a, ClassId b) {
  a = egraph_.find(a);
  b = egraph_.find(b);
  if (a == b) return 0;
  assert(selection_[a.value] && selection_[b.value] && "compare the terms of chosen classes");
  if (int c = compare_heads(*selection_[a.value], *selection_[b.value])) return c;
  return compare_operands(chosen_operands(a), chosen_operands(b));
}

}  // namespace eqsat
