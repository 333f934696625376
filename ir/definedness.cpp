#include "ir/definedness.h"

namespace eqsat {

bool is_partial(Op op, DType dtype, DType operand) {
  if (is_integer_division(op)) return true;
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

bool may_be_undefined(const Expr& expr) {
  if (!expr.args().empty() && is_partial(expr.op(), expr.dtype(), expr.arg(0).dtype())) return true;
  for (const Expr& arg : expr.args()) {
    if (may_be_undefined(arg)) return true;
  }
  return false;
}

}  // namespace eqsat
