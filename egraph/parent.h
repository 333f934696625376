// Parent entries: a node that uses a class, with the class that holds the node.
//
// Every class lists its parents, so that a merge can re-canonicalize the nodes that
// pointed at the absorbed class (and re-analyse them when facts change). An e-graph
// holds about two entries per node, and a rebuild copies the parent lists of merged
// classes into its work lists, so the entry's size is a large part of peak memory. A
// parent always has operands, and a node with operands has no payload (egraph/enode.h):
// leaving out the payload and the node's change epoch (which only class lists use)
// makes an entry 20 bytes, where an (ENode, ClassId) pair takes 28.
#pragma once

#include <cassert>
#include <cstdint>

#include "egraph/class_id.h"
#include "egraph/enode.h"

namespace eqsat {

class ParentEntry {
 public:
  ParentEntry(const ENode& node, ClassId holder) : op_(node.op), dtype_(node.dtype), holder_(holder) {
    assert(!node.is_leaf() && node.payload == 0 && "a parent is a node with operands, which has no payload");
    arity_ = static_cast<uint8_t>(node.children.size());
    for (std::size_t i = 0; i < node.children.size(); ++i) children_[i] = node.children[i];
  }

  // The node as it was recorded (its `added_at` is 0).
  ENode node() const {
    ENode node;
    node.op = op_;
    node.dtype = dtype_;
    for (uint8_t i = 0; i < arity_; ++i) node.children.push_back(children_[i]);
    return node;
  }
  // The class that holds the node (canonical when recorded).
  ClassId holder() const { return holder_; }

  // By node (in ENode's order), then by holder: the order of the (node, class) pairs.
  friend bool operator<(const ParentEntry& a, const ParentEntry& b) {
    if (a.op_ != b.op_) return a.op_ < b.op_;
    if (a.dtype_ != b.dtype_) return a.dtype_ < b.dtype_;
    for (uint8_t i = 0; i < a.arity_ && i < b.arity_; ++i) {
      if (a.children_[i] != b.children_[i]) return a.children_[i] < b.children_[i];
    }
    if (a.arity_ != b.arity_) return a.arity_ < b.arity_;
    return a.holder_ < b.holder_;
  }
  friend bool operator==(const ParentEntry& a, const ParentEntry& b) {
    if (a.op_ != b.op_ || a.dtype_ != b.dtype_ || a.arity_ != b.arity_ || a.holder_ != b.holder_) return false;
    for (uint8_t i = 0; i < a.arity_; ++i) {
      if (a.children_[i] != b.children_[i]) return false;
    }
    return true;
  }

 private:
  Op op_;
  DType dtype_;
  uint8_t arity_ = 0;
  ClassId children_[NodeChildren::kCapacity];
  ClassId holder_;
};

static_assert(sizeof(ParentEntry) == 20, "parent entries are held by the hundred thousand: keep them small");

}  // namespace eqsat
