#include "verify/guard_terms.h"

#include <map>

namespace eqsat::verify {

namespace {

class GuardTranslator {
 public:
  GuardTranslator(const Semantics& semantics, const Guard& guard, const std::vector<PatternVar>& vars,
                  std::span<const z3::expr> var_terms)
      : sem_(semantics), ctx_(semantics.ctx()), guard_(guard), vars_(vars), var_terms_(var_terms),
        bounds_(ctx_.bool_val(true)) {}

  GuardTerms run() {
    z3::expr holds = eval(guard_.root);
    return {holds && bounds_, named_};
  }

 private:
  // A fresh named term, created once per name.
  z3::expr fresh(const std::string& name, const z3::sort& sort) {
    auto it = fresh_.find(name);
    if (it != fresh_.end()) return it->second;
    z3::expr term = ctx_.constant(("guard!" + name).c_str(), sort);
    fresh_.emplace(name, term);
    named_.emplace_back(name, term);
    return term;
  }

  z3::expr bound(bool is_lower, uint32_t var) {
    const PatternVar& v = vars_[var];
    const std::string name = std::string(is_lower ? "lower(" : "upper(") + v.name + ")";
    const bool first = !fresh_.count(name);
    z3::expr b = fresh(name, ctx_.int_sort());
    if (first) {
      if (std::optional<z3::expr> value = sem_.integer_value(var_terms_[var], v.dtype)) {
        bounds_ = bounds_ && (is_lower ? b <= *value : *value <= b);
      }
    }
    return b;
  }

  z3::expr eval(uint32_t index) {
    const GuardNode& node = guard_.nodes[index];
    switch (node.kind) {
      case GuardNode::Kind::Literal: return ctx_.int_val(to_string(node.literal).c_str());
      case GuardNode::Kind::ValueOf: {
        const PatternVar& v = vars_[node.var];
        if (std::optional<z3::expr> value = sem_.integer_value(var_terms_[node.var], v.dtype)) return *value;
        return fresh(v.name, ctx_.int_sort());  // a float constant: unknown at runtime
      }
      case GuardNode::Kind::Lower: return bound(true, node.var);
      case GuardNode::Kind::Upper: return bound(false, node.var);
      case GuardNode::Kind::IsConst: return fresh("is_const(" + vars_[node.var].name + ")", ctx_.bool_sort());
      case GuardNode::Kind::Apply: break;
    }
    std::vector<z3::expr> a;
    for (uint32_t child : node.children) a.push_back(eval(child));
    switch (node.op) {
      case Op::Not: return !a[0];
      case Op::And: return a[0] && a[1];
      case Op::Or: return a[0] || a[1];
      case Op::Neg: return -a[0];
      case Op::Abs: return z3::ite(a[0] < 0, -a[0], a[0]);
      case Op::Add: return a[0] + a[1];
      case Op::Sub: return a[0] - a[1];
      case Op::Mul: return a[0] * a[1];
      case Op::Min: return z3::ite(a[0] <= a[1], a[0], a[1]);
      case Op::Max: return z3::ite(a[0] >= a[1], a[0], a[1]);
      case Op::FloorDiv:
      case Op::FloorMod: {
        // The INDEX semantics are Python's floor division, as in the guard evaluator.
        Conditions ignored(ctx_);
        Semantics integers(ctx_, IndexModel::Integer);
        const DType types[] = {DType::Index, DType::Index};
        return integers.apply(node.op, DType::Index, a, types, ignored);
      }
      case Op::BitAnd: {
        // The evaluator's & is on 128-bit two's complement.
        const z3::expr r = z3::int2bv(128, a[0]) & z3::int2bv(128, a[1]);
        return z3::bv2int(r, true);
      }
      case Op::Eq: return a[0] == a[1];
      case Op::Ne: return a[0] != a[1];
      case Op::Lt: return a[0] < a[1];
      case Op::Le: return a[0] <= a[1];
      case Op::Gt: return a[0] > a[1];
      case Op::Ge: return a[0] >= a[1];
      default: throw std::logic_error("operation not allowed in a guard");
    }
  }

  const Semantics& sem_;
  z3::context& ctx_;
  const Guard& guard_;
  const std::vector<PatternVar>& vars_;
  std::span<const z3::expr> var_terms_;
  z3::expr bounds_;
  std::map<std::string, z3::expr> fresh_;
  std::vector<std::pair<std::string, z3::expr>> named_;
};

}  // namespace

GuardTerms translate_guard(const Semantics& semantics, const Guard& guard, const std::vector<PatternVar>& vars,
                           std::span<const z3::expr> var_terms) {
  return GuardTranslator(semantics, guard, vars, var_terms).run();
}

}  // namespace eqsat::verify
