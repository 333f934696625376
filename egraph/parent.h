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

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <utility>

#include "egraph/class_id.h"
#include "egraph/enode.h"

namespace eqsat {

class ParentEntry {
 public:
  ParentEntry(const ENode& node, ClassId holder) : op_(node.op), dtype_(node.dtype), holder_(holder) {
    assert(!node.is_leaf() && node.payload == 0 && "a parent is a node with operands, which has no payload");
    arity_ = static_cast<uint8_t>(node.children.size());
    std::copy_n(node.children.places(), NodeChildren::kCapacity, children_);
  }

  // The node as it was recorded (its `added_at` is 0).
  ENode node() const {
    ENode node;
    node.op = op_;
    node.dtype = dtype_;
    node.children.assign_places(children_, arity_);
    return node;
  }
  // The class that holds the node (canonical when recorded).
  ClassId holder() const { return holder_; }
  Op op() const { return op_; }
  DType dtype() const { return dtype_; }
  // Passes every class id of the entry (the operands and the holder) through `find`,
  // then puts the two operands in id order if `sort_operands`: the entry of the
  // canonical node, made in place (a rebuild's repair does it to every parent entry of
  // every class it repairs, and a round trip through an ENode stalled on its copies).
  template <class Find>
  void canonicalize(const Find& find, bool sort_operands) {
    for (uint8_t i = 0; i < arity_; ++i) children_[i] = find(children_[i]);
    if (sort_operands && children_[1] < children_[0]) std::swap(children_[0], children_[1]);
    holder_ = find(holder_);
  }

  // By node (in ENode's order), then by holder: the order of the (node, class) pairs.
  friend bool operator<(const ParentEntry& a, const ParentEntry& b) {
    if (a.op_ != b.op_) return a.op_ < b.op_;
    if (a.dtype_ != b.dtype_) return a.dtype_ < b.dtype_;
    // Unrolled for operands as many on both sides (always, in a well-formed e-graph: an
    // operation's arity is fixed), the same order as the loop below: the rebuild sorts
    // every parent list it repairs.
    if (a.arity_ == b.arity_) [[likely]] {
      if (a.children_[0] != b.children_[0]) return a.children_[0] < b.children_[0];  // a parent has operands
      if (a.arity_ >= 2 && a.children_[1] != b.children_[1]) return a.children_[1] < b.children_[1];
      if (a.arity_ == 3 && a.children_[2] != b.children_[2]) return a.children_[2] < b.children_[2];
      return a.holder_ < b.holder_;
    }
    for (uint8_t i = 0; i < a.arity_ && i < b.arity_; ++i) {
      if (a.children_[i] != b.children_[i]) return a.children_[i] < b.children_[i];
    }
    return a.arity_ < b.arity_;
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
