// Small builders for typed expressions in e-graph tests: var("x"), lit(3), bin(Op::Add, a, b).
#pragma once

#include "ir/expr.h"

namespace eqsat::testing {

inline Expr var(const char* name, DType dtype = DType::Index) { return Expr::var(name, dtype); }
inline Expr lit(Int v, DType dtype = DType::Index) { return Expr::constant(Value::integer(dtype, v)); }
// A binary node; comparisons are BOOL, everything else has its operands' dtype.
inline Expr bin(Op op, Expr a, Expr b) {
  DType dtype = is_comparison(op) ? DType::Bool : a.dtype();
  return Expr::make(op, dtype, {std::move(a), std::move(b)});
}

}  // namespace eqsat::testing
