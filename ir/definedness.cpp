#include "ir/definedness.h"

#include <cmath>

namespace eqsat {

bool is_partial(Op op, DType dtype, DType operand, FastMath flags) {
  if (is_integer_division(op)) return true;
  if (flags.floats_may_be_poison() && is_float(dtype)) {
    switch (op) {
      case Op::Add:
      case Op::Sub:
      case Op::Mul:
      case Op::Div:
      case Op::Cast:
        return true;
      default:
        break;
    }
  }
  switch (op) {
    case Op::Shl:
    case Op::Shr:
      return true;
    case Op::Cast:
      return is_float(operand) && !is_float(dtype) && dtype != DType::Bool;
    default:
      return false;
  }
}

bool constant_is_poison(const Value& value, FastMath flags) {
  if (!is_float(value.dtype)) return false;
  return (flags.has(FastMathFlag::Nnan) && std::isnan(value.f)) ||
         (flags.has(FastMathFlag::Ninf) && std::isinf(value.f));
}

bool variable_may_be_undefined(DType dtype, FastMath flags) { return flags.floats_may_be_poison() && is_float(dtype); }

bool leaf_may_be_undefined(const Expr& leaf, FastMath flags) {
  if (leaf.op() == Op::Const) return constant_is_poison(leaf.value(), flags);
  return variable_may_be_undefined(leaf.dtype(), flags);
}

bool may_be_undefined(const Expr& expr, FastMath flags) {
  if (expr.args().empty()) return leaf_may_be_undefined(expr, flags);
  if (is_partial(expr.op(), expr.dtype(), expr.arg(0).dtype(), flags)) return true;
  for (const Expr& arg : expr.args()) {
    if (may_be_undefined(arg, flags)) return true;
  }
  return false;
}

}  // namespace eqsat
