// Constant folding, one section per family of dtypes:
//   integers (INDEX and INTn/UINTn)  arithmetic, division, bitwise, shifts
//   floats                           IEEE arithmetic, rounded to the dtype
//   BOOL                             logic
//   comparisons, select, cast        across families
//
// Conventions that are choices, not consequences of the spec:
// - fold never returns an INDEX constant of magnitude >= 2^100 (kIndexLimit): such a
//   constant is almost surely an artefact, and keeping constants far from the 128-bit
//   working range means their sums never overflow it.
// - Fixed-width signed INT_MIN // -1 (and truncdiv) wraps to INT_MIN, its modulo is 0:
//   the quotient 2^(n-1) computed exactly and wrapped to n bits, like every other
//   fixed-width result (and like SMT-LIB's bvsdiv).
// - cast to BOOL is `a != 0` (C, numpy); a NaN becomes True.
// - Float min/max are not folded when an operand is NaN or the operands are zeros of
//   different signs, where IEEE minNum/minimum and the C/Python idioms disagree.
// - Operand dtypes that no well-typed expression has (e.g. arithmetic on BOOL) are
//   not folded.
#include "ir/fold.h"

#include <algorithm>
#include <cmath>

#include "ir/float_format.h"

namespace eqsat {

namespace {

using Opt = std::optional<Value>;

constexpr Int kIndexLimit = Int(1) << 100;

// ---------------------------------------------------------------- integers

// Wraps a fixed-width result; for INDEX, refuses a 128-bit overflow.
Opt int_result(DType t, std::optional<Int> v) {
  if (!v) return std::nullopt;
  return Value::integer(t, *v);
}

// Fixed-width +, -, *: exact modulo 2^128, hence modulo 2^n after wrapping.
Int modular(Op op, Int a, Int b) {
  const UInt x = UInt(a), y = UInt(b);
  switch (op) {
    case Op::Add:
      return Int(x + y);
    case Op::Sub:
      return Int(x - y);
    default:
      return Int(x * y);
  }
}

Opt fold_int_divide(Op op, DType t, Int a, Int b) {
  if (b == 0) return std::nullopt;  // undefined
  const Int min128 = Int(UInt(1) << 127);
  // Only INDEX can hold the 128-bit minimum; its quotient by -1 does not fit.
  if (a == min128 && b == -1) return std::nullopt;
  switch (op) {
    case Op::FloorDiv:
      return int_result(t, floor_div(a, b));
    case Op::FloorMod:
      return int_result(t, floor_mod(a, b));
    case Op::TruncDiv:
      return int_result(t, a / b);
    default:
      return int_result(t, a % b);
  }
}

Opt fold_shift(Op op, DType t, Int a, Int s) {
  if (s < 0) return std::nullopt;  // undefined
  if (t == DType::Index) {
    if (op == Op::Shr) return Value::integer(t, s >= 127 ? (a < 0 ? -1 : 0) : a >> int(s));
    if (a == 0) return Value::integer(t, 0);
    if (s > 100) return std::nullopt;  // |a << s| >= 2^101
    return int_result(t, checked_mul(a, Int(1) << int(s)));
  }
  if (s >= bit_width(t)) return std::nullopt;  // undefined
  if (op == Op::Shl) return Value::integer(t, Int(UInt(a) << int(s)));
  // Arithmetic for signed dtypes; unsigned values are non-negative, so the same
  // shift is logical for them.
  return Value::integer(t, a >> int(s));
}

Opt fold_integer(Op op, DType t, const Value* args) {
  const Int a = args[0].i;
  const bool fixed = t != DType::Index;
  switch (op) {
    case Op::Add:
      return fixed ? Value::integer(t, modular(op, a, args[1].i)) : int_result(t, checked_add(a, args[1].i));
    case Op::Sub:
      return fixed ? Value::integer(t, modular(op, a, args[1].i)) : int_result(t, checked_sub(a, args[1].i));
    case Op::Mul:
      return fixed ? Value::integer(t, modular(op, a, args[1].i)) : int_result(t, checked_mul(a, args[1].i));
    case Op::Neg:
      return fixed ? Value::integer(t, modular(Op::Sub, 0, a)) : int_result(t, checked_sub(0, a));
    case Op::Abs:
      if (a >= 0) return args[0];
      return fixed ? Value::integer(t, modular(Op::Sub, 0, a)) : int_result(t, checked_sub(0, a));
    case Op::FloorDiv:
    case Op::FloorMod:
    case Op::TruncDiv:
    case Op::TruncMod:
      return fold_int_divide(op, t, a, args[1].i);
    case Op::Min:
      return Value::integer(t, std::min(a, args[1].i));
    case Op::Max:
      return Value::integer(t, std::max(a, args[1].i));
    // Two's complement on 128 bits is the infinite two's complement of every INDEX
    // value in range (~x = -x - 1); fixed widths wrap the result back.
    case Op::BitAnd:
      return Value::integer(t, a & args[1].i);
    case Op::BitOr:
      return Value::integer(t, a | args[1].i);
    case Op::BitXor:
      return Value::integer(t, a ^ args[1].i);
    case Op::BitNot:
      return Value::integer(t, ~a);
    default:
      return std::nullopt;
  }
}

// ---------------------------------------------------------------- floats

// Double arithmetic on exact operands, rounded once more to the dtype. For FP32, BF16
// and FP16 the double (53 bits >= 2p + 2) makes this second rounding innocuous for
// + - * /, so the result is the correctly rounded IEEE result of the dtype.
Opt fold_float(Op op, DType t, const Value* args) {
  const double a = args[0].f;
  switch (op) {
    case Op::Add:
      return Value::floating(t, a + args[1].f);
    case Op::Sub:
      return Value::floating(t, a - args[1].f);
    case Op::Mul:
      return Value::floating(t, a * args[1].f);
    case Op::Div:
      return Value::floating(t, a / args[1].f);  // x/0 is +-inf or NaN
    case Op::Neg:
      return Value::floating(t, -a);
    case Op::Abs:
      return Value::floating(t, std::fabs(a));
    case Op::Min:
    case Op::Max: {
      const double b = args[1].f;
      if (std::isnan(a) || std::isnan(b)) return std::nullopt;
      if (a == b && std::signbit(a) != std::signbit(b)) return std::nullopt;  // -0.0, +0.0
      const bool a_first = op == Op::Min ? a <= b : a >= b;
      return a_first ? args[0] : args[1];
    }
    default:
      return std::nullopt;  // // % truncdiv truncmod and bitwise: not float ops
  }
}

// ---------------------------------------------------------------- comparisons

template <typename T>
bool compare(Op op, T a, T b) {
  switch (op) {
    case Op::Eq:
      return a == b;
    case Op::Ne:
      return a != b;
    case Op::Lt:
      return a < b;
    case Op::Le:
      return a <= b;
    case Op::Gt:
      return a > b;
    default:
      return a >= b;
  }
}

Opt fold_compare(Op op, const Value& a, const Value& b) {
  if (a.dtype != b.dtype) return std::nullopt;
  // IEEE: a NaN operand makes every comparison false except !=.
  if (is_float(a.dtype)) return Value::boolean(compare(op, a.f, b.f));
  if (a.dtype == DType::Bool && op != Op::Eq && op != Op::Ne) return std::nullopt;
  return Value::boolean(compare(op, a.i, b.i));
}

// ---------------------------------------------------------------- cast

// Float to integer truncates toward zero; NaN, infinities and values outside the
// target's range are undefined.
Opt float_to_int(DType to, double f) {
  if (!std::isfinite(f)) return std::nullopt;
  const double t = std::trunc(f);
  if (std::fabs(t) >= std::ldexp(1.0, 100)) return std::nullopt;  // outside every range
  const Int v = static_cast<Int>(t);                              // exact: t is an integer below 2^100
  if (to != DType::Index && (v < dtype_min(to) || v > dtype_max(to))) return std::nullopt;
  return Value::integer(to, v);
}

Opt fold_cast(DType to, const Value& a) {
  const DType from = a.dtype;
  if (from == to) return a;
  if (to == DType::Bool) return Value::boolean(is_float(from) ? a.f != 0.0 : a.i != 0);
  if (is_float(from)) return is_float(to) ? Value::floating(to, a.f) : float_to_int(to, a.f);
  // From an integer or BOOL (0 / 1): wrap to an integer dtype, or round once to a
  // float dtype from the exact integer.
  return Value::integer(to, a.i);
}

// ---------------------------------------------------------------- dispatch

bool all_of_dtype(std::span<const Value> args, DType t) {
  for (const Value& v : args) {
    if (v.dtype != t) return false;
  }
  return true;
}

Opt fold_checked(Op op, DType result, std::span<const Value> args) {
  if (op == Op::Var || op == Op::Const) return std::nullopt;
  if (int(args.size()) != op_info(op).arity) return std::nullopt;

  if (is_comparison(op)) {
    if (result != DType::Bool) return std::nullopt;
    return fold_compare(op, args[0], args[1]);
  }
  switch (op) {
    case Op::And:
    case Op::Or:
    case Op::Not:
      if (result != DType::Bool || !all_of_dtype(args, DType::Bool)) return std::nullopt;
      if (op == Op::Not) return Value::boolean(args[0].i == 0);
      if (op == Op::And) return Value::boolean(args[0].i != 0 && args[1].i != 0);
      return Value::boolean(args[0].i != 0 || args[1].i != 0);
    case Op::Select:
      if (args[0].dtype != DType::Bool || args[1].dtype != result || args[2].dtype != result) {
        return std::nullopt;
      }
      return args[0].i != 0 ? args[1] : args[2];
    case Op::Cast:
      return fold_cast(result, args[0]);
    case Op::Shl:
    case Op::Shr:
      // The amount may have its own integer dtype; its value is what counts.
      if (!is_integer(result) || args[0].dtype != result || !is_integer(args[1].dtype)) {
        return std::nullopt;
      }
      return fold_shift(op, result, args[0].i, args[1].i);
    default:
      break;
  }
  // Arithmetic and bitwise: operands of the result's dtype.
  if (!all_of_dtype(args, result)) return std::nullopt;
  if (is_integer(result)) return fold_integer(op, result, args.data());
  if (is_float(result)) return fold_float(op, result, args.data());
  return std::nullopt;  // arithmetic on BOOL
}

}  // namespace

std::optional<Value> fold(Op op, DType result, std::span<const Value> args) {
  std::optional<Value> v = fold_checked(op, result, args);
  if (v && v->dtype == DType::Index && (v->i >= kIndexLimit || v->i <= -kIndexLimit)) {
    return std::nullopt;
  }
  return v;
}

}  // namespace eqsat
