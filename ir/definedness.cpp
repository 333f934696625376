#include "ir/definedness.h"

namespace eqsat {

bool is_partial(Op op) {
  if (is_integer_division(op)) return true;
  switch (op) {
    case Op::Div:
    case Op::Shl:
    case Op::Shr:
    case Op::Cast:
      return true;
    default:
      return false;
  }
}

bool may_be_undefined(const Expr& expr) {
  if (is_partial(expr.op())) return true;
  for (const Expr& arg : expr.args()) {
    if (may_be_undefined(arg)) return true;
  }
  return false;
}

}  // namespace eqsat
