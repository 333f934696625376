// Small builders for typed expressions in e-graph tests: var("x"), lit(3), bin(Op::Add, a, b),
// and for e-nodes over classes: binary_node(Op::Add, a, b).
#pragma once

#include "egraph/enode.h"
#include "ir/expr.h"

namespace eqsat::testing {

inline Expr var(const char* name, DType dtype = DType::Index) { return Expr::var(name, dtype); }
inline Expr lit(Int v, DType dtype = DType::Index) { return Expr::constant(Value::integer(dtype, v)); }
// A binary node; comparisons are BOOL, everything else has its operands' dtype.
inline Expr bin(Op op, Expr a, Expr b) {
  DType dtype = is_comparison(op) ? DType::Bool : a.dtype();
  return Expr::make(op, dtype, {std::move(a), std::move(b)});
}

// An INDEX e-node of a binary operation on classes a and b.
inline ENode binary_node(Op op, ClassId a, ClassId b) {
  ENode node;
  node.op = op;
  node.dtype = DType::Index;
  node.children = {a, b};
  return node;
}

}  // namespace eqsat::testing
