#include "egraph/guard.h"

#include <cassert>
#include <optional>

namespace eqsat {

namespace {

// The value of a guard sub-expression: a number (nullopt when unknown) or a truth value.
struct GuardValue {
  std::optional<Int> number;
  Truth truth = Truth::Unknown;
};

Truth from_bool(bool b) { return b ? Truth::True : Truth::False; }

Truth compare(Op op, Int a, Int b) {
  switch (op) {
    case Op::Eq:
      return from_bool(a == b);
    case Op::Ne:
      return from_bool(a != b);
    case Op::Lt:
      return from_bool(a < b);
    case Op::Le:
      return from_bool(a <= b);
    case Op::Gt:
      return from_bool(a > b);
    case Op::Ge:
      return from_bool(a >= b);
    default:
      return Truth::Unknown;
  }
}

std::optional<Int> arithmetic(Op op, const std::optional<Int>& a, const std::optional<Int>& b) {
  if (!a || !b) return std::nullopt;
  switch (op) {
    case Op::Add:
      return checked_add(*a, *b);
    case Op::Sub:
      return checked_sub(*a, *b);
    case Op::Mul:
      return checked_mul(*a, *b);
    case Op::FloorDiv:
      return *b == 0 ? std::nullopt : std::optional<Int>(floor_div(*a, *b));
    case Op::FloorMod:
      return *b == 0 ? std::nullopt : std::optional<Int>(floor_mod(*a, *b));
    case Op::Min:
      return std::min(*a, *b);
    case Op::Max:
      return std::max(*a, *b);
    case Op::BitAnd:
      return *a & *b;
    default:
      return std::nullopt;
  }
}

class Evaluator {
 public:
  Evaluator(const EGraph& egraph, const Guard& guard, std::span<const ClassId> subst)
      : egraph_(egraph), guard_(guard), subst_(subst) {}

  GuardValue eval(uint32_t index) const {
    const GuardNode& node = guard_.nodes[index];
    switch (node.kind) {
      case GuardNode::Kind::Literal:
        return {node.literal, Truth::Unknown};
      case GuardNode::Kind::ValueOf: {
        const ClassData& data = egraph_.data(subst_[node.var]);
        if (!data.constant || is_float(data.dtype)) return {};
        return {data.constant->i, Truth::Unknown};
      }
      case GuardNode::Kind::Lower:
        return {egraph_.data(subst_[node.var]).interval.lo, Truth::Unknown};
      case GuardNode::Kind::Upper:
        return {egraph_.data(subst_[node.var]).interval.hi, Truth::Unknown};
      case GuardNode::Kind::Modulus:
      case GuardNode::Kind::Remainder: {
        // Guards read INDEX congruences only (docs/rules.md): a fixed-width
        // class's congruence is of its wrapped values.
        const ClassData& data = egraph_.data(subst_[node.var]);
        const Congruence c = data.dtype == DType::Index ? data.congruence : Congruence::unknown();
        if (c.is_constant()) return {};
        return {node.kind == GuardNode::Kind::Modulus ? c.modulus : c.remainder, Truth::Unknown};
      }
      case GuardNode::Kind::IsConst:
        return {std::nullopt, from_bool(egraph_.data(subst_[node.var]).constant.has_value())};
      case GuardNode::Kind::Total:
        return {std::nullopt, from_bool(egraph_.data(subst_[node.var]).total)};
      case GuardNode::Kind::Apply:
        return apply(node);
    }
    return {};
  }

 private:
  GuardValue apply(const GuardNode& node) const {
    switch (node.op) {
      case Op::Not: {
        Truth t = eval(node.children[0]).truth;
        return {std::nullopt, t == Truth::Unknown ? t : from_bool(t == Truth::False)};
      }
      case Op::And: {
        Truth a = eval(node.children[0]).truth;
        if (a == Truth::False) return {std::nullopt, Truth::False};
        Truth b = eval(node.children[1]).truth;
        if (b == Truth::False) return {std::nullopt, Truth::False};
        return {std::nullopt, (a == Truth::True && b == Truth::True) ? Truth::True : Truth::Unknown};
      }
      case Op::Or: {
        Truth a = eval(node.children[0]).truth;
        if (a == Truth::True) return {std::nullopt, Truth::True};
        Truth b = eval(node.children[1]).truth;
        if (b == Truth::True) return {std::nullopt, Truth::True};
        return {std::nullopt, (a == Truth::False && b == Truth::False) ? Truth::False : Truth::Unknown};
      }
      case Op::Neg: {
        auto a = eval(node.children[0]).number;
        return {a ? checked_sub(0, *a) : std::nullopt, Truth::Unknown};
      }
      case Op::Abs: {
        auto a = eval(node.children[0]).number;
        return {a ? (*a < 0 ? checked_sub(0, *a) : a) : std::nullopt, Truth::Unknown};
      }
      default:
        break;
    }
    auto a = eval(node.children[0]).number;
    auto b = eval(node.children[1]).number;
    if (is_comparison(node.op)) {
      if (!a || !b) return {};
      return {std::nullopt, compare(node.op, *a, *b)};
    }
    return {arithmetic(node.op, a, b), Truth::Unknown};
  }

  const EGraph& egraph_;
  const Guard& guard_;
  std::span<const ClassId> subst_;
};

}  // namespace

Truth evaluate_guard(const EGraph& egraph, const Guard& guard, std::span<const ClassId> subst) {
  return Evaluator(egraph, guard, subst).eval(guard.root).truth;
}

}  // namespace eqsat
