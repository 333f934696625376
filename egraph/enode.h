// E-nodes: an operation with its dtype, a payload for leaves, and child classes.
#pragma once

#include <boost/container/small_vector.hpp>
#include <cstdint>
#include <functional>

#include "egraph/class_id.h"
#include "ir/dtype.h"
#include "ir/op.h"

namespace eqsat {

struct ENode {
  Op op = Op::Const;
  DType dtype = DType::Index;  // result dtype; for Cast the target
  uint32_t payload = 0;        // Var: symbol index; Const: constant index; else 0
  boost::container::small_vector<ClassId, 3> children;

  friend bool operator==(const ENode& a, const ENode& b) {
    return a.op == b.op && a.dtype == b.dtype && a.payload == b.payload && a.children == b.children;
  }
  // A fixed total order, used for deterministic iteration and tie-breaking.
  friend bool operator<(const ENode& a, const ENode& b) {
    if (a.op != b.op) return a.op < b.op;
    if (a.dtype != b.dtype) return a.dtype < b.dtype;
    if (a.payload != b.payload) return a.payload < b.payload;
    return std::lexicographical_compare(a.children.begin(), a.children.end(), b.children.begin(), b.children.end());
  }
  bool is_leaf() const { return children.empty(); }
};

struct ENodeHash {
  std::size_t operator()(const ENode& n) const noexcept {
    std::size_t h = (std::size_t(n.op) << 8) ^ std::size_t(n.dtype) ^ (std::size_t(n.payload) << 16);
    for (ClassId c : n.children) h = h * 0x9E3779B97F4A7C15ull + c.value;
    return h ^ (h >> 29);
  }
};

}  // namespace eqsat
