#include "ir/expr.h"

#include <cassert>
#include <memory>

#include "ir/pool_allocator.h"

namespace eqsat {

Expr Expr::var(std::string name, DType dtype) {
  return Expr(std::allocate_shared<const ExprNode>(PoolAllocator<ExprNode>(),
                                                   ExprNode{Op::Var, dtype, std::move(name), {}, {}}));
}

Expr Expr::constant(Value value) {
  return Expr(
      std::allocate_shared<const ExprNode>(PoolAllocator<ExprNode>(), ExprNode{Op::Const, value.dtype, {}, value, {}}));
}

Expr Expr::make(Op op, DType dtype, std::vector<Expr> args) {
  assert(int(args.size()) == op_info(op).arity && "wrong number of operands");
  assert(op != Op::Var && op != Op::Const && "use Expr::var / Expr::constant for leaves");
  return Expr(
      std::allocate_shared<const ExprNode>(PoolAllocator<ExprNode>(), ExprNode{op, dtype, {}, {}, std::move(args)}));
}

std::size_t Expr::tree_size() const {
  std::size_t n = 1;
  for (const Expr& a : args()) n += a.tree_size();
  return n;
}

bool operator==(const Expr& a, const Expr& b) {
  if (a.node_ == b.node_) return true;
  if (!a.node_ || !b.node_) return false;
  if (a.op() != b.op() || a.dtype() != b.dtype()) return false;
  if (a.op() == Op::Var) return a.name() == b.name();
  if (a.op() == Op::Const) return a.value() == b.value();
  if (a.args().size() != b.args().size()) return false;
  for (std::size_t i = 0; i < a.args().size(); ++i) {
    if (a.arg(i) != b.arg(i)) return false;
  }
  return true;
}

}  // namespace eqsat
