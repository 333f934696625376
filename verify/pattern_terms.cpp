#include "verify/pattern_terms.h"

#include <vector>

namespace eqsat::verify {

bool reads_operands_lazily(const Pattern& pattern) {
  for (const PatternNode& node : pattern.nodes) {
    if (node.kind == PatternNode::Kind::Op && (node.op == Op::And || node.op == Op::Or || node.op == Op::Select))
      return true;
  }
  return false;
}

z3::expr variable_defined(z3::context& ctx, const std::string& var_name) {
  return ctx.bool_const(("defined(" + var_name + ")").c_str());
}

PatternTerm translate_pattern(const Semantics& semantics, const Pattern& pattern, std::span<const z3::expr> vars,
                              std::span<const z3::expr> defined, bool rounding_defined) {
  const bool poison_sums_and_products = semantics.poison_sums_and_products() || !rounding_defined;
  z3::context& ctx = semantics.ctx();
  std::vector<PatternTerm> terms;
  terms.reserve(pattern.nodes.size());
  // With sums and products not poison (below): whether each node's value carries the
  // rounding of a float sum or product, a value reassoc leaves open.
  std::vector<char> carries_rounding;
  carries_rounding.reserve(pattern.nodes.size());
  // Children come before their parents, so one pass in node order suffices.
  for (const PatternNode& node : pattern.nodes) {
    switch (node.kind) {
      case PatternNode::Kind::Var: {
        z3::expr assumed = semantics.assumed_defined(vars[node.var], node.dtype);
        if (!defined.empty()) assumed = assumed && defined[node.var];
        terms.push_back({vars[node.var], assumed, assumed, ctx.bool_val(true)});
        carries_rounding.push_back(0);
        continue;
      }
      case PatternNode::Kind::Const: {
        Conditions cond(ctx);
        z3::expr value = semantics.constant(pattern.value_of(node), cond);
        const z3::expr assumed = semantics.assumed_defined(value, node.dtype);
        terms.push_back({value, assumed, assumed, cond.fits});
        carries_rounding.push_back(0);
        continue;
      }
      case PatternNode::Kind::Op:
        break;
    }
    std::vector<z3::expr> args;
    std::vector<DType> arg_dtypes;
    z3::expr strict = ctx.bool_val(true);
    z3::expr fits = ctx.bool_val(true);
    for (uint32_t child : node.children) {
      const PatternTerm& c = terms[child];
      args.push_back(c.value);
      arg_dtypes.push_back(pattern.nodes[child].dtype);
      strict = strict && c.defined_strict;
      fits = fits && c.fits;
    }
    Conditions cond(ctx);
    z3::expr value = semantics.apply(node.op, node.dtype, args, arg_dtypes, cond);

    auto lazy_of = [&](std::size_t i) -> const z3::expr& { return terms[node.children[i]].defined_lazy; };
    z3::expr lazy = ctx.bool_val(true);
    switch (node.op) {
      case Op::Select:
        lazy = lazy_of(0) && z3::ite(args[0], lazy_of(1), lazy_of(2));
        break;
      case Op::And:
        lazy = lazy_of(0) && z3::implies(args[0], lazy_of(1));
        break;
      case Op::Or:
        lazy = lazy_of(0) && z3::implies(!args[0], lazy_of(1));
        break;
      default:
        for (std::size_t i = 0; i < node.children.size(); ++i) lazy = lazy && lazy_of(i);
        break;
    }
    // Under nnan/ninf a NaN or infinite result is poison: undefined, like a division by
    // zero. Unless the semantics says otherwise for sums and products: then neither
    // their results are, nor a result that another operation passes on from an operand
    // that is NaN or infinite already (`min(f + g, 0.0)` with f + g overflowed), nor
    // the result of an operation over a value that carries a float sum's or product's
    // rounding: reassoc leaves open how the sum is associated, so its value within its
    // rounding, and what is computed from it with it. (`g / (1.0 + (h + -2.5))` on FP16
    // is finite at g = 33760, h = 0.985, and `g / (h + -1.5)` overflows there: the
    // input associated so overflows too; `eqsat fuzz --seed 39002 --first-case 1389
    // --cases 1 --max-depth 6 --fast-math all`.)
    const bool sum_or_product = node.op == Op::Add || node.op == Op::Sub || node.op == Op::Mul;
    bool rounded_operand = false;
    for (uint32_t child : node.children) rounded_operand = rounded_operand || carries_rounding[child];
    carries_rounding.push_back((sum_or_product && is_float(node.dtype)) || rounded_operand);
    z3::expr own = cond.defined && semantics.assumed_defined(value, node.dtype);
    if (!poison_sums_and_products) {
      if (sum_or_product || rounded_operand) {
        own = cond.defined;
      } else {
        z3::expr operands_ordinary = ctx.bool_val(true);
        for (std::size_t i = 0; i < args.size(); ++i)
          operands_ordinary = operands_ordinary && semantics.assumed_defined(args[i], arg_dtypes[i]);
        own = cond.defined && z3::implies(operands_ordinary, semantics.assumed_defined(value, node.dtype));
      }
    }
    terms.push_back({value, strict && own, lazy && own, fits && cond.fits});
  }
  return terms[pattern.root];
}

}  // namespace eqsat::verify
