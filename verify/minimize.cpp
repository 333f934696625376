#include "verify/minimize.h"

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace eqsat::verify {

namespace {

// Every tree obtained from `expr` by one replacement, smallest first: the whole term by
// a constant, by an operand, then the same inside each operand.
void shrink_candidates(const Expr& expr, std::vector<Expr>& out) {
  const DType dtype = expr.dtype();
  if (!expr.is_const()) {
    if (dtype == DType::Bool) {
      out.push_back(Expr::constant(Value::boolean(false)));
      out.push_back(Expr::constant(Value::boolean(true)));
    } else if (is_float(dtype)) {
      out.push_back(Expr::constant(Value::floating(dtype, 0.0)));
      out.push_back(Expr::constant(Value::floating(dtype, 1.0)));
    } else {
      out.push_back(Expr::constant(Value::integer(dtype, 0)));
      out.push_back(Expr::constant(Value::integer(dtype, 1)));
    }
  }
  for (const Expr& arg : expr.args()) {
    if (arg.dtype() == dtype) out.push_back(arg);
  }
  for (std::size_t i = 0; i < expr.args().size(); ++i) {
    std::vector<Expr> inner;
    shrink_candidates(expr.arg(i), inner);
    for (Expr& replacement : inner) {
      std::vector<Expr> args = expr.args();
      args[i] = std::move(replacement);
      out.push_back(Expr::make(expr.op(), dtype, std::move(args)));
    }
  }
}

std::vector<RandomCase> case_candidates(const RandomCase& current) {
  std::vector<RandomCase> out;
  for (std::size_t i = 0; i < current.facts.assumptions.size(); ++i) {
    RandomCase smaller = current;
    smaller.facts.assumptions.erase(smaller.facts.assumptions.begin() + static_cast<std::ptrdiff_t>(i));
    out.push_back(std::move(smaller));
  }
  for (const auto& [name, bound] : current.facts.bounds) {
    RandomCase smaller = current;
    smaller.facts.bounds.erase(name);
    out.push_back(std::move(smaller));
  }
  std::vector<Expr> inputs;
  shrink_candidates(current.input, inputs);
  for (Expr& input : inputs) {
    RandomCase smaller = current;
    smaller.input = std::move(input);
    out.push_back(std::move(smaller));
  }
  return out;
}

void collect_names(const Expr& expr, std::set<std::string>& names) {
  if (expr.op() == Op::Var) names.insert(expr.name());
  for (const Expr& arg : expr.args()) collect_names(arg, names);
}

// Declarations and bounds of variables that no longer occur say nothing about the case.
void drop_unused_variables(RandomCase& c) {
  std::set<std::string> used;
  collect_names(c.input, used);
  for (const Expr& assumption : c.facts.assumptions) collect_names(assumption, used);
  std::erase_if(c.facts.var_dtypes, [&](const auto& entry) { return !used.count(entry.first); });
  std::erase_if(c.facts.bounds, [&](const auto& entry) { return !used.count(entry.first); });
}

}  // namespace

RandomCase minimize_case(RandomCase failing, const FailurePredicate& fails, std::size_t max_attempts) {
  std::size_t attempts = 0;
  bool shrunk = true;
  while (shrunk && attempts < max_attempts) {
    shrunk = false;
    for (RandomCase& candidate : case_candidates(failing)) {
      if (attempts++ >= max_attempts) break;
      if (fails(candidate)) {
        failing = std::move(candidate);
        shrunk = true;
        break;
      }
    }
  }
  drop_unused_variables(failing);
  return failing;
}

}  // namespace eqsat::verify
