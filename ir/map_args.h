// Rebuilding a node with its operands rewritten, the step every expression pass
// repeats at each node it does not handle itself.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "ir/expr.h"

namespace eqsat {

// `expr` with each operand replaced by `rewrite(operand)`; `expr` itself (the same
// node) when every result equals its operand (structurally). The new operand list is
// made only at the first operand that changed: most nodes a pass visits do not
// change, and a list per node visited was one allocation each.
template <class Rewrite>
Expr map_args(const Expr &expr, Rewrite &&rewrite) {
  const std::vector<Expr> &old = expr.args();
  std::vector<Expr> args;
  for (std::size_t i = 0; i < old.size(); ++i) {
    Expr rewritten = rewrite(old[i]);
    if (args.empty()) {
      if (rewritten == old[i]) continue;
      args.reserve(old.size());
      args.assign(old.begin(), old.begin() + static_cast<std::ptrdiff_t>(i));
    }
    args.push_back(std::move(rewritten));
  }
  return args.empty() ? expr : Expr::make(expr.op(), expr.dtype(), std::move(args));
}

}  // namespace eqsat
