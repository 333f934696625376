#include "passes/facts.h"

namespace eqsat {

VarTyper Facts::var_typer() const {
  return index_by_default([this](std::string_view name) -> std::optional<DType> {
    auto it = var_dtypes.find(std::string(name));
    if (it == var_dtypes.end()) return std::nullopt;
    return it->second;
  });
}

namespace {

// The interval `e op c` gives e, for an integer constant c; nullopt if none.
std::optional<Interval> interval_from_comparison(Op op, Int c, const Interval& current) {
  switch (op) {
    case Op::Lt: return Interval::range(std::nullopt, c - 1);
    case Op::Le: return Interval::range(std::nullopt, c);
    case Op::Gt: return Interval::range(c + 1, std::nullopt);
    case Op::Ge: return Interval::range(c, std::nullopt);
    case Op::Eq: return Interval::point(c);
    case Op::Ne:
      // Only excluding an edge value narrows an interval.
      if (current.lo && *current.lo == c) return Interval::range(c + 1, current.hi);
      if (current.hi && *current.hi == c) return Interval::range(current.lo, c - 1);
      return std::nullopt;
    default: return std::nullopt;
  }
}

Op mirrored(Op op) {
  switch (op) {
    case Op::Lt: return Op::Gt;
    case Op::Le: return Op::Ge;
    case Op::Gt: return Op::Lt;
    case Op::Ge: return Op::Le;
    default: return op;  // == and != are symmetric
  }
}

void refine_from_fact(EGraph& egraph, const Expr& fact) {
  if (fact.op() == Op::And) {
    refine_from_fact(egraph, fact.arg(0));
    refine_from_fact(egraph, fact.arg(1));
    return;
  }
  if (!is_comparison(fact.op())) return;
  const Expr& left = fact.arg(0);
  const Expr& right = fact.arg(1);
  if (!is_integer(left.dtype())) return;
  // Whichever side the analysis knows as a constant bounds the other side.
  ClassId left_class = egraph.add_expr(left);
  ClassId right_class = egraph.add_expr(right);
  auto constant_of = [&](ClassId id) { return egraph.data(id).constant; };
  if (auto c = constant_of(right_class)) {
    if (auto interval = interval_from_comparison(fact.op(), c->i, egraph.data(left_class).interval)) {
      egraph.refine_interval(left_class, *interval);
    }
  } else if (auto c2 = constant_of(left_class)) {
    if (auto interval = interval_from_comparison(mirrored(fact.op()), c2->i, egraph.data(right_class).interval)) {
      egraph.refine_interval(right_class, *interval);
    }
  }
}

}  // namespace

void assert_facts(EGraph& egraph, const Facts& facts) {
  for (const auto& [name, interval] : facts.bounds) egraph.set_var_interval(name, interval);
  ClassId true_class = egraph.add_constant(Value::boolean(true));
  for (const Expr& fact : facts.assumptions) {
    egraph.merge(egraph.add_expr(fact), true_class);
    refine_from_fact(egraph, fact);
  }
  egraph.rebuild();
}

}  // namespace eqsat
