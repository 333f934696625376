#include "ir/evaluate.h"

#include <vector>

#include "ir/fold.h"

namespace eqsat {

std::optional<Value> evaluate(const Expr& expr, const Env& env) {
  switch (expr.op()) {
    case Op::Const:
      return expr.value();
    case Op::Var: {
      auto found = env.find(expr.name());
      if (found == env.end() || found->second.dtype != expr.dtype()) return std::nullopt;
      return found->second;
    }
    case Op::Select: {
      // Only the branch taken needs a value: select(i < n, a // i, 0) is defined at i = 0.
      std::optional<Value> condition = evaluate(expr.arg(0), env);
      if (!condition || condition->dtype != DType::Bool) return std::nullopt;
      return evaluate(condition->i != 0 ? expr.arg(1) : expr.arg(2), env);
    }
    case Op::And:
    case Op::Or: {
      // Python's short circuit: the left operand alone decides `False and _`, `True or _`.
      std::optional<Value> left = evaluate(expr.arg(0), env);
      if (!left || left->dtype != DType::Bool) return std::nullopt;
      const bool decided = expr.op() == Op::And ? left->i == 0 : left->i != 0;
      if (decided) return left;
      std::optional<Value> right = evaluate(expr.arg(1), env);
      if (!right || right->dtype != DType::Bool) return std::nullopt;
      return right;
    }
    default:
      break;
  }
  std::vector<Value> args;
  args.reserve(expr.args().size());
  for (const Expr& arg : expr.args()) {
    std::optional<Value> value = evaluate(arg, env);
    if (!value) return std::nullopt;
    args.push_back(*value);
  }
  return fold(expr.op(), expr.dtype(), args);
}

}  // namespace eqsat
