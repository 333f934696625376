// E-nodes: an operation with its dtype, a payload for leaves, and child classes.
//
// An e-node is a small value (24 bytes): every operation has at most three operands
// (select), so the children are stored inline, never on the heap. E-graphs hold
// hundreds of thousands of them, in class lists, in parent lists and in the hash-cons,
// so their size and the absence of allocation are most of the engine's memory and a
// good part of its time.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <initializer_list>

#include "egraph/class_id.h"
#include "ir/dtype.h"
#include "ir/op.h"

namespace eqsat {

inline constexpr uint32_t kMaxNodeEpoch = 0xFFFF;

// Up to three children, inline: a fixed-capacity vector with the part of the
// std::vector interface nodes need. E-nodes hold child classes (NodeChildren), the
// nodes of a pattern hold indices of other pattern nodes (egraph/pattern.h). Its 13
// bytes of data leave 3 bytes of padding, which the node holding it fills (ENode's
// `formed_at`, PatternNode's kind, operation and dtype): a class with user-declared
// constructors is not "POD for the purpose of layout" (Itanium C++ ABI), so a
// [[no_unique_address]] member of its type lends its tail padding to the members
// after it.
template <class Id>
class InlineChildren {
 public:
  static constexpr std::size_t kCapacity = 3;

  InlineChildren() = default;
  InlineChildren(std::initializer_list<Id> ids) {
    for (Id id : ids) push_back(id);
  }
  InlineChildren& operator=(std::initializer_list<Id> ids) {
    size_ = 0;
    for (Id id : ids) push_back(id);
    return *this;
  }

  void push_back(Id id) {
    assert(size_ < kCapacity && "an operation has at most three operands");
    ids_[size_++] = id;
  }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  Id& operator[](std::size_t i) { return ids_[i]; }
  const Id& operator[](std::size_t i) const { return ids_[i]; }
  Id* begin() { return ids_; }
  Id* end() { return ids_ + size_; }
  const Id* begin() const { return ids_; }
  const Id* end() const { return ids_ + size_; }

  // All kCapacity places, the unused ones included (they hold default ids), and the
  // children set from such places, in place: a copy of a fixed size is two plain
  // moves, where a loop over size() is compiled to a `rep movs`, slow for 4 to 12
  // bytes (it was most of a rebuild's repair of parent lists). (In place, not a new
  // InlineChildren returned: that one is built in memory a place at a time and then
  // copied whole, which waits for the stores to drain.)
  using Places = Id[kCapacity];
  const Places& places() const { return ids_; }
  void assign_places(const Places& ids, std::size_t size) {
    assert(size <= kCapacity);
    std::copy_n(ids, kCapacity, ids_);
    size_ = static_cast<uint8_t>(size);
  }

  friend bool operator==(const InlineChildren& a, const InlineChildren& b) {
    return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
  }

 private:
  Id ids_[kCapacity] = {};
  uint8_t size_ = 0;
};

// The child classes of an e-node.
using NodeChildren = InlineChildren<ClassId>;

struct ENode {
  Op op = Op::Const;
  DType dtype = DType::Index;  // result dtype; for Cast the target
  // Two change epochs (EGraph::change_epoch, saturating at kMaxNodeEpoch), kept for
  // the runner's semi-naive search (egraph/runner.cpp, SearchMemory), which lists only
  // the matches that read something newer than the last search. Bookkeeping of a
  // class's node list, not part of the node's identity (==, < and the hash ignore
  // them); elsewhere (parent lists, the hash-cons) they are left out or 0.
  //   added_at:  since when the node stands in this class's list in this form:
  //              renewed when it is created, re-canonicalized, or moved by a merge.
  //   formed_at: since when the node has this form (operation, dtype, payload,
  //              children) in some class that is now part of this one: renewed when
  //              it is created or re-canonicalized, kept by merges. So
  //              formed_at <= added_at.
  // A match at the root of a pattern may read formed_at: a node moved by a merge
  // stood in the absorbed class with the same children at the last search, so every
  // match rooted at it that reads otherwise old nodes was found there, and its right
  // side put into that class, which is now part of this one. Below the root it may
  // not: the node above pointed at this class, which did not hold the moved node then.
  uint16_t added_at = 0;
  uint32_t payload = 0;  // Var: symbol index; Const: constant index; else 0
  // [[no_unique_address]] lets formed_at take the padding after the children's count
  // (NodeChildren is 13 bytes of data in 16): nodes stay 24 bytes.
  [[no_unique_address]] NodeChildren children;
  uint16_t formed_at = 0;

  friend bool operator==(const ENode& a, const ENode& b) {
    return a.op == b.op && a.dtype == b.dtype && a.payload == b.payload && a.children == b.children;
  }
  // A fixed total order, used for deterministic iteration and tie-breaking.
  friend bool operator<(const ENode& a, const ENode& b) {
    if (a.op != b.op) return a.op < b.op;
    if (a.dtype != b.dtype) return a.dtype < b.dtype;
    if (a.payload != b.payload) return a.payload < b.payload;
    // std::lexicographical_compare's order, unrolled for operands as many on both sides
    // (always, in a well-formed e-graph: an operation's arity is fixed): the rebuild's
    // sorts of class lists spend most of their time here.
    const std::size_t arity = a.children.size();
    if (arity != b.children.size()) [[unlikely]] {
      return std::lexicographical_compare(a.children.begin(), a.children.end(), b.children.begin(), b.children.end());
    }
    if (arity == 0) return false;
    if (a.children[0] != b.children[0]) return a.children[0] < b.children[0];
    if (arity == 1) return false;
    if (a.children[1] != b.children[1]) return a.children[1] < b.children[1];
    return arity == 3 && a.children[2] < b.children[2];
  }
  bool is_leaf() const { return children.empty(); }
};

static_assert(sizeof(ENode) == 24, "e-nodes are held by the hundred thousand: keep them small");

// The hash of the node with these fields: ENodeHash, for tables that keep nodes in a
// form of their own (egraph/node_memo.h hashes its slots without making ENodes of them).
inline std::size_t hash_node_fields(Op op, DType dtype, uint32_t payload, const ClassId* children, std::size_t arity) {
  std::size_t h = (std::size_t(op) << 8) ^ std::size_t(dtype) ^ (std::size_t(payload) << 16);
  for (std::size_t i = 0; i < arity; ++i) h = h * 0x9E3779B97F4A7C15ull + children[i].value;
  return h ^ (h >> 29);
}

struct ENodeHash {
  std::size_t operator()(const ENode& n) const noexcept {
    return hash_node_fields(n.op, n.dtype, n.payload, n.children.begin(), n.children.size());
  }
};

}  // namespace eqsat
