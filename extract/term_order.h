// A total order on the terms a selection gives its classes, that depends on the terms
// alone, never on class ids.
//
// Class ids follow the order in which an input's subterms were first seen, so an order
// by ids makes the output depend on how the input was written: `x * y + y` came out
// as `y + x * y`, and simplified again as `y + y * x`. Extraction breaks its ties by
// this order instead, and commutative operands are written in it, so a term and its
// simplified form extract the same way (simplifying an output again gives it back).
//
// `and` and `or` are the exception: under the lazy reading their operand order decides
// where they are defined (ir/definedness.h), so when either operand may be undefined
// they are written as the e-graph stores them.
//
// The order: compound terms before variables, variables before constants (so constant
// operands come last: `x + 1`, `2 * x` is written `x * 2`); compound terms by
// operation, then dtype, then their operands as written; variables by name; constants
// by value.
#pragma once

#include <cstdint>
#include <vector>

#include "egraph/egraph.h"
#include "extract/selection.h"

namespace eqsat {

class TermOrder {
 public:
  // Every class reachable from the classes compared must be chosen in `selection`, and
  // the choice acyclic (a usable selection). Both must outlive this object; a class
  // whose choice changes must not be compared again.
  TermOrder(const EGraph& egraph, const Selection& selection);

  // < 0, 0 or > 0 as the term of `a` comes before, is the same as, or comes after the
  // term of `b`. After a rebuild two classes never have the same term, so 0 means
  // a == b. A comparison walks down the first path on which the terms differ.
  int compare(ClassId a, ClassId b);

  // The same order between two nodes whose operands are chosen in the selection (the
  // nodes themselves need not be chosen): the candidates of one class.
  int compare(const ENode& a, const ENode& b);

  // The node's operand classes in the order they are written: as stored, except that
  // the two operands of a commutative operation are put in term order (for `and` and
  // `or`, only where neither may be undefined).
  NodeChildren presented_operands(const ENode& node);

 private:
  // Per class, whether its chosen node's two commutative operands are written swapped:
  // 0 not known yet, 1 kept, 2 swapped. Each class is decided once.
  bool operands_swapped(ClassId id, const ENode& node);
  // The written operands of the chosen node of class `id` (decided once per class).
  NodeChildren chosen_operands(ClassId id);
  // The order of two nodes by all but their operands: kind, then name, value, or
  // operation, dtype and arity.
  int compare_heads(const ENode& a, const ENode& b) const;
  // Operand lists of the same length, element by element.
  int compare_operands(const NodeChildren& a, const NodeChildren& b);
  // Whether the node's two operands may be put in term order.
  bool reorderable(const ENode& node);
  // Whether the term of class `id` holds a partial operation, or under the e-graph's
  // nnan or ninf a float that may be poison (ir/definedness.h) (memoized: 0 not known
  // yet, 1 no, 2 yes).
  bool may_be_undefined(ClassId id);

  const EGraph& egraph_;
  const Selection& selection_;
  std::vector<uint8_t> swapped_;
  std::vector<uint8_t> undefined_;
};

}  // namespace eqsat
