// The Z3 translation of each operation, one section per family, mirroring ir/fold.cpp.
//
// The C API is used where z3++ would pick a rounding mode from the context's mutable
// state or hide signedness in an operator: every call here says which one it means.
#include "verify/z3_semantics.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "verify/z3_numerals.h"

namespace eqsat::verify {

namespace {

z3::expr wrap(z3::context& ctx, Z3_ast ast) {
  ctx.check_error();
  return z3::expr(ctx, ast);
}

// sext(low W bits of r) == r: the wider exact result r fits in W signed bits.
z3::expr fits_in(const z3::expr& r, unsigned bits) {
  const unsigned wide = r.get_sort().bv_size();
  return z3::sext(r.extract(bits - 1, 0), wide - bits) == r;
}

}  // namespace

Semantics::Semantics(z3::context& ctx, IndexModel index_model, unsigned index_bits, FastMath fast_math,
                     FixedWidthModel fixed_width_model, FloatModel float_model, bool poison_sums_and_products)
    : ctx_(ctx),
      index_model_(index_model),
      index_bits_(index_bits),
      fast_math_(fast_math),
      fixed_width_model_(fixed_width_model),
      float_model_(float_model),
      poison_sums_and_products_(poison_sums_and_products) {
  if (fixed_width_model == FixedWidthModel::WrappedInteger && index_model == IndexModel::BitVector) {
    throw std::logic_error("the wrapped-integer model reads INDEX as Int");
  }
}

z3::expr Semantics::wrapped(const z3::expr& v, DType t) const {
  const unsigned bits = width(t);
  const z3::expr modulus = ctx_.int_val(power_of_two_text(int(bits)).c_str());
  if (!is_signed_int(t)) return z3::mod(v, modulus);
  const z3::expr half = ctx_.int_val(power_of_two_text(int(bits) - 1).c_str());
  return z3::mod(v + half, modulus) - half;
}

z3::expr Semantics::variable_range(const z3::expr& variable, DType dtype) const {
  if (!is_wrapped_int(dtype)) return ctx_.bool_val(true);
  return in_range(variable, dtype, dtype_min(dtype), dtype_max(dtype));
}

z3::expr Semantics::same(const z3::expr& a, const z3::expr& b, DType dtype) const {
  if (!is_float(dtype) || !fast_math_.has(FastMathFlag::Nsz) || is_real_float(dtype)) return a == b;
  return a == b || (wrap(ctx_, Z3_mk_fpa_is_zero(ctx_, a)) && wrap(ctx_, Z3_mk_fpa_is_zero(ctx_, b)));
}

z3::expr Semantics::assumed_defined(const z3::expr& value, DType dtype) const {
  z3::expr ok = ctx_.bool_val(true);
  if (!is_float(dtype) || is_real_float(dtype)) return ok;  // a real is neither NaN nor infinite
  if (fast_math_.has(FastMathFlag::Nnan)) ok = ok && !wrap(ctx_, Z3_mk_fpa_is_nan(ctx_, value));
  if (fast_math_.has(FastMathFlag::Ninf)) ok = ok && !wrap(ctx_, Z3_mk_fpa_is_infinite(ctx_, value));
  return ok;
}

unsigned Semantics::width(DType t) const {
  return t == DType::Index ? index_bits_ : static_cast<unsigned>(bit_width(t));
}

z3::expr Semantics::rne() const { return wrap(ctx_, Z3_mk_fpa_rne(ctx_)); }

z3::sort Semantics::sort(DType dtype) const {
  if (is_real_float(dtype)) return ctx_.real_sort();
  switch (dtype) {
    case DType::Index:
      return index_model_ == IndexModel::Integer ? ctx_.int_sort() : ctx_.bv_sort(index_bits_);
    case DType::Bool:
      return ctx_.bool_sort();
    case DType::FP16:
      return ctx_.fpa_sort(5, 11);
    case DType::BF16:
      return ctx_.fpa_sort(8, 8);
    case DType::FP32:
      return ctx_.fpa_sort(8, 24);
    case DType::FP64:
      return ctx_.fpa_sort(11, 53);
    default:
      if (is_wrapped_int(dtype)) return ctx_.int_sort();
      return ctx_.bv_sort(static_cast<unsigned>(bit_width(dtype)));
  }
}

z3::expr Semantics::variable(const std::string& name, DType dtype) const {
  return ctx_.constant(name.c_str(), sort(dtype));
}

z3::expr Semantics::bv_constant(Int value, unsigned bits) const {
  if (bits > 128 && value < 0) {  // two's complement beyond the 128 bits of Int
    return -ctx_.bv_val(unsigned_text(UInt(0) - UInt(value), 128).c_str(), bits);
  }
  return ctx_.bv_val(unsigned_text(UInt(value), bits).c_str(), bits);
}

z3::expr Semantics::constant(const Value& value, Conditions& cond) const {
  const DType t = value.dtype;
  if (t == DType::Bool) return ctx_.bool_val(value.i != 0);
  if (is_real_float(t)) {
    if (!std::isfinite(value.f)) {
      // No real value: one unknown real per such literal, the same on both sides.
      const std::string name = std::isnan(value.f) ? "nan" : value.f > 0 ? "inf" : "-inf";
      return ctx_.real_const(("literal(" + name + ", " + std::string(dtype_name(t)) + ")").c_str());
    }
    // The literal's exact value: f = m * 2^e with m a 53-bit integer.
    int e = 0;
    const double m = std::frexp(std::fabs(value.f), &e);
    const uint64_t significand = uint64_t(std::ldexp(m, 53));
    const int exponent = e - 53;
    const z3::expr magnitude =
        exponent >= 0
            ? ctx_.real_val(std::to_string(significand).c_str()) * ctx_.real_val(power_of_two_text(exponent).c_str())
            : ctx_.real_val((std::to_string(significand) + "/" + power_of_two_text(-exponent)).c_str());
    return value.f < 0 ? -magnitude : magnitude;
  }
  if (is_float(t)) return float_literal(ctx_, sort(t), value.f);
  if ((t == DType::Index && index_model_ == IndexModel::Integer) || is_wrapped_int(t)) {
    return ctx_.int_val(to_string(value.i).c_str());
  }
  if (t == DType::Index) {
    const Int half = Int(1) << (index_bits_ - 1);
    if (index_bits_ < 128 && (value.i < -half || value.i >= half)) cond.fits = ctx_.bool_val(false);
  }
  return bv_constant(value.i, width(t));
}

std::optional<z3::expr> Semantics::integer_value(const z3::expr& value, DType dtype) const {
  if (is_float(dtype)) return std::nullopt;
  if (dtype == DType::Bool) return z3::ite(value, ctx_.int_val(1), ctx_.int_val(0));
  if (!is_bv(dtype)) return value;
  return z3::bv2int(value, is_signed_bv(dtype));
}

z3::expr Semantics::in_range(const z3::expr& value, DType dtype, std::optional<Int> lo, std::optional<Int> hi) const {
  if (is_float(dtype)) return ctx_.bool_val(true);
  if (dtype == DType::Bool) {
    auto allowed = [&](Int v) { return ctx_.bool_val((!lo || *lo <= v) && (!hi || v <= *hi)); };
    return (value && allowed(1)) || (!value && allowed(0));
  }
  if (!is_bv(dtype)) {
    z3::expr r = ctx_.bool_val(true);
    if (lo) r = r && ctx_.int_val(to_string(*lo).c_str()) <= value;
    if (hi) r = r && value <= ctx_.int_val(to_string(*hi).c_str());
    return r;
  }
  const unsigned bits = width(dtype);
  const Int min = is_signed_bv(dtype) ? -(Int(1) << (bits - 1)) : 0;
  const Int max = is_signed_bv(dtype) ? (Int(1) << (bits - 1)) - 1 : (Int(1) << bits) - 1;
  z3::expr r = ctx_.bool_val(true);
  if (lo && *lo > max) return ctx_.bool_val(false);
  if (hi && *hi < min) return ctx_.bool_val(false);
  if (lo && *lo > min) r = r && less_equal(dtype, bv_constant(*lo, bits), value);
  if (hi && *hi < max) r = r && less_equal(dtype, value, bv_constant(*hi, bits));
  return r;
}

// ---------------------------------------------------------------- dispatch

z3::expr Semantics::apply(Op op, DType result, std::span<const z3::expr> args, std::span<const DType> arg_dtypes,
                          Conditions& cond) const {
  switch (op) {
    case Op::Var:
    case Op::Const:
      throw std::logic_error("apply() of a leaf");
    case Op::Add:
    case Op::Sub:
    case Op::Mul:
    case Op::Neg:
    case Op::Abs:
    case Op::Min:
    case Op::Max:
    case Op::Div:
      if (is_real_float(result)) return real_float_op(op, args);
      if (is_float(result)) return float_op(op, result, args);
      if (op == Op::Div) throw std::logic_error("true division of integers");
      return integer_arith(op, result, args[0], args.size() > 1 ? args[1] : args[0], cond);
    case Op::BitAnd:
    case Op::BitOr:
    case Op::BitXor:
    case Op::BitNot:
      return integer_arith(op, result, args[0], args.size() > 1 ? args[1] : args[0], cond);
    case Op::FloorDiv:
    case Op::FloorMod:
    case Op::TruncDiv:
    case Op::TruncMod:
      return integer_divide(op, result, args[0], args[1], cond);
    case Op::Shl:
    case Op::Shr:
      return shift(op, result, args[0], args[1], arg_dtypes[1], cond);
    case Op::Eq:
    case Op::Ne:
    case Op::Lt:
    case Op::Le:
    case Op::Gt:
    case Op::Ge:
      return compare(op, arg_dtypes[0], args[0], args[1]);
    case Op::And:
      return args[0] && args[1];
    case Op::Or:
      return args[0] || args[1];
    case Op::Not:
      return !args[0];
    case Op::Select:
      return z3::ite(args[0], args[1], args[2]);
    case Op::Cast:
      return cast(arg_dtypes[0], result, args[0], cond);
  }
  throw std::logic_error("unknown op");
}

// ---------------------------------------------------------------- integers

z3::expr Semantics::integer_arith(Op op, DType t, const z3::expr& a, const z3::expr& b, Conditions& cond) const {
  if (t == DType::Bool || is_float(t)) throw std::logic_error("integer arithmetic on a non-integer dtype");
  if (!is_bv(t)) {  // INDEX as a mathematical integer, or a fixed-width value as Int
    // The exact result; a fixed-width one wraps into its range (min and max stay in it).
    auto result = [&](const z3::expr& exact) { return is_wrapped_int(t) ? wrapped(exact, t) : exact; };
    switch (op) {
      case Op::Add:
        return result(a + b);
      case Op::Sub:
        return result(a - b);
      case Op::Mul:
        products_.emplace_back(a, b);
        return result(a * b);
      case Op::Neg:
        return result(-a);
      case Op::Abs:
        return result(z3::ite(a < 0, -a, a));
      case Op::Min:
        return z3::ite(a <= b, a, b);
      case Op::Max:
        return z3::ite(a >= b, a, b);
      default:
        throw Unsupported("bitwise operations need the bit-vector model");
    }
  }
  const bool index = t == DType::Index;  // then each result must fit index_bits
  const unsigned bits = width(t);
  const z3::expr min = bv_constant(Int(1) << (bits - 1), bits);  // the signed minimum
  switch (op) {
    case Op::Add:
      if (index) cond.fits = fits_in(z3::sext(a, 1) + z3::sext(b, 1), bits);
      return a + b;
    case Op::Sub:
      if (index) cond.fits = fits_in(z3::sext(a, 1) - z3::sext(b, 1), bits);
      return a - b;
    case Op::Mul:
      // The double-width product (Z3 4.8's bvmul_no_overflow misjudges signed
      // products such as -1 * -1, so it is not used).
      if (index) cond.fits = fits_in(z3::sext(a, bits) * z3::sext(b, bits), bits);
      return a * b;
    case Op::Neg:
      if (index) cond.fits = a != min;
      return -a;
    case Op::Abs:
      if (!is_signed_bv(t)) return a;
      if (index) cond.fits = a != min;
      return z3::ite(less(t, a, bv_constant(0, bits)), -a, a);  // INT_MIN wraps to itself
    case Op::Min:
      return z3::ite(less_equal(t, a, b), a, b);
    case Op::Max:
      return z3::ite(less_equal(t, b, a), a, b);
    case Op::BitAnd:
      return a & b;
    case Op::BitOr:
      return a | b;
    case Op::BitXor:
      return a ^ b;
    case Op::BitNot:
      return ~a;
    default:
      throw std::logic_error("not an arithmetic op");
  }
}

z3::expr Semantics::integer_divide(Op op, DType t, const z3::expr& a, const z3::expr& b, Conditions& cond) const {
  if (t == DType::Bool || is_float(t)) throw std::logic_error("integer division on a non-integer dtype");
  if (!is_bv(t)) {
    cond.defined = b != 0;
    // A fixed-width remainder is in range, and so is a quotient, but for INT_MIN / -1,
    // which wraps to INT_MIN.
    const bool quotient = op == Op::FloorDiv || op == Op::TruncDiv;
    if (is_wrapped_int(t) && quotient && is_signed_int(t)) {
      Conditions exact(ctx_);
      return wrapped(integer_divide(op, DType::Index, a, b, exact), t);
    }
    if (!b.is_numeral()) {
      // Z3's nonlinear solver handles div/mod by a symbolic divisor poorly; the
      // defining equations of the quotient and remainder it handles much better.
      const bool floor = op == Op::FloorDiv || op == Op::FloorMod;
      const auto [q, r] = fresh_divmod(a, b, floor);
      return quotient ? q : r;
    }
    // SMT-LIB's div/mod are Euclidean (0 <= mod < |b|); floor and trunc correct them.
    const z3::expr q = a / b, m = z3::mod(a, b);
    const z3::expr adjust = b < 0 && m != 0;
    switch (op) {
      case Op::FloorDiv:
        return z3::ite(adjust, q - 1, q);
      case Op::FloorMod:
        return z3::ite(adjust, m + b, m);
      case Op::TruncDiv:
        return z3::ite(a < 0, -((-a) / b), q);
      default:
        return z3::ite(a < 0, -z3::mod(-a, b), m);
    }
  }
  const unsigned bits = width(t);
  const z3::expr zero = bv_constant(0, bits);
  cond.defined = b != zero;
  if (!is_signed_bv(t)) {
    const bool quotient = op == Op::FloorDiv || op == Op::TruncDiv;
    return wrap(ctx_, quotient ? Z3_mk_bvudiv(ctx_, a, b) : Z3_mk_bvurem(ctx_, a, b));
  }
  // Only INT_MIN / -1 overflows; a fixed width wraps it to INT_MIN like the folder.
  if (t == DType::Index && (op == Op::FloorDiv || op == Op::TruncDiv)) {
    cond.fits = !(a == bv_constant(Int(1) << (bits - 1), bits) && b == bv_constant(-1, bits));
  }
  const z3::expr q = wrap(ctx_, Z3_mk_bvsdiv(ctx_, a, b));  // truncates
  const z3::expr r = wrap(ctx_, Z3_mk_bvsrem(ctx_, a, b));  // has the dividend's sign
  switch (op) {
    case Op::TruncDiv:
      return q;
    case Op::TruncMod:
      return r;
    case Op::FloorMod:
      return wrap(ctx_, Z3_mk_bvsmod(ctx_, a, b));  // has the divisor's sign
    default: {
      const z3::expr signs_differ = less(t, r, zero) != less(t, b, zero);
      return z3::ite(r != zero && signs_differ, q - bv_constant(1, bits), q);
    }
  }
}

std::pair<z3::expr, z3::expr> Semantics::fresh_divmod(const z3::expr& a, const z3::expr& b, bool floor) const {
  for (const DivMod& d : divmods_) {
    if (d.a.id() == a.id() && d.b.id() == b.id() && d.floor == floor) return {d.q, d.r};
  }
  // Fresh constants: other Semantics objects may share the context.
  const z3::expr q = wrap(ctx_, Z3_mk_fresh_const(ctx_, floor ? "floordiv" : "truncdiv", ctx_.int_sort()));
  const z3::expr r = wrap(ctx_, Z3_mk_fresh_const(ctx_, floor ? "floormod" : "truncmod", ctx_.int_sort()));
  const z3::expr zero = ctx_.int_val(0);
  z3::expr range(ctx_);
  if (floor) {  // the remainder has the divisor's sign: 0 <= r < b, or b < r <= 0
    range = z3::implies(b > zero, zero <= r && r < b) && z3::implies(b < zero, b < r && r <= zero);
  } else {  // the dividend's sign, and |r| < |b|
    const z3::expr abs_b = z3::ite(b < zero, -b, b);
    range = z3::implies(a >= zero, zero <= r && r < abs_b) && z3::implies(a < zero, -abs_b < r && r <= zero);
  }
  // For b != 0 exactly one (q, r) satisfies this: it is the definition, not a lemma.
  definitions_.push_back(z3::implies(b != zero, a == q * b + r && range));
  divmods_.push_back({a, b, floor, q, r});
  return {q, r};
}

z3::expr Semantics::definitions() const {
  z3::expr all = ctx_.bool_val(true);
  for (const z3::expr& d : definitions_) all = all && d;
  // Multiples of each divisor b: u*b for every product with b, every quotient by b,
  // and, where a = g*b + s is a division of a by b, (u*g)*b for every product u*a and
  // every quotient u of a division by a. Two multiples closer than |b| are equal: a
  // theorem (|u - v| >= 1 unless u = v), instantiated on these terms.
  const z3::expr zero = ctx_.int_val(0);
  auto abs = [&](const z3::expr& e) { return z3::ite(e < zero, -e, e); };
  // Every u with u*a a term of the translation (a product or a quotient's definition).
  auto multipliers_of = [&](const z3::expr& a) {
    std::vector<z3::expr> m;
    for (const auto& [x, y] : products_) {
      if (y.id() == a.id()) m.push_back(x);
      if (x.id() == a.id()) m.push_back(y);
    }
    for (const DivMod& d : divmods_) {
      if (d.b.id() == a.id()) m.push_back(d.q);
    }
    return m;
  };
  std::vector<unsigned> seen;
  for (const DivMod& d : divmods_) {
    if (std::find(seen.begin(), seen.end(), d.b.id()) != seen.end()) continue;
    seen.push_back(d.b.id());
    const z3::expr& b = d.b;
    std::vector<z3::expr> m = multipliers_of(b);
    for (const DivMod& e : divmods_) {  // e: a = g*b + s
      if (e.b.id() != b.id()) continue;
      for (const z3::expr& u : multipliers_of(e.a)) m.push_back(u * e.q);
    }
    std::vector<z3::expr> unique;
    for (const z3::expr& u : m) {
      const bool dup = std::any_of(unique.begin(), unique.end(), [&](const z3::expr& v) { return v.id() == u.id(); });
      if (!dup) unique.push_back(u);
    }
    // t = a signed sum of at most three of them (two when there are many):
    // |t*b| < |b| implies t = 0, with t*b written as the sum of the products u*b.
    const std::size_t n = unique.size();
    const std::size_t most = n <= 8 ? 3 : 2;
    auto lemma = [&](std::initializer_list<std::pair<int, std::size_t>> terms) {
      z3::expr t = zero, tb = zero;
      for (const auto& [sign, k] : terms) {
        t = sign > 0 ? t + unique[k] : t - unique[k];
        tb = sign > 0 ? tb + unique[k] * b : tb - unique[k] * b;
      }
      all = all && z3::implies(abs(tb) < abs(b), t == zero);
    };
    for (std::size_t i = 0; i < n; ++i) {
      lemma({{1, i}});
      for (std::size_t j = i + 1; j < n; ++j) {
        for (int sj : {1, -1}) {
          lemma({{1, i}, {sj, j}});
          if (most < 3) continue;
          for (std::size_t k = j + 1; k < n; ++k) {
            for (int sk : {1, -1}) lemma({{1, i}, {sj, j}, {sk, k}});
          }
        }
      }
    }
  }
  return all;
}

z3::expr Semantics::amount_at_least(const z3::expr& s, DType st, Int k) const {
  if (!is_bv(st)) return s >= ctx_.int_val(to_string(k).c_str());
  const unsigned bits = width(st);
  // The amount's range; a 127-bit or wider one covers every Int k (and computing its
  // edges in Int would overflow).
  const Int int_max = Int(~UInt(0) >> 1);
  Int lo = is_signed_bv(st) ? -int_max - 1 : 0;
  Int hi = int_max;
  if (bits < 127) {
    lo = is_signed_bv(st) ? -(Int(1) << (bits - 1)) : 0;
    hi = is_signed_bv(st) ? (Int(1) << (bits - 1)) - 1 : (Int(1) << bits) - 1;
  }
  if (k <= lo) return ctx_.bool_val(true);
  if (k > hi) return ctx_.bool_val(false);
  return less_equal(st, bv_constant(k, bits), s);
}

z3::expr Semantics::shift(Op op, DType t, const z3::expr& a, const z3::expr& s, DType st, Conditions& cond) const {
  if (!is_integer(t) || !is_integer(st)) throw std::logic_error("shift of a non-integer");
  if (is_wrapped_int(t) || is_wrapped_int(st)) throw Unsupported("shifts need the bit-vector model");
  const z3::expr nonnegative = amount_at_least(s, st, 0);
  // The amount's low `bits` bits: its value whenever 0 <= s < 2^bits.
  auto amount_bits = [&](unsigned bits) -> z3::expr {
    if (!is_bv(st)) return z3::int2bv(bits, s);
    const unsigned from = width(st);
    if (from >= bits) return s.extract(bits - 1, 0);
    return z3::zext(s, bits - from);
  };
  if (!is_bv(t)) {  // INDEX as Int: a shift is a product or a floor quotient by 2^s
    const z3::expr k_term = s.simplify();
    if (!k_term.is_numeral()) throw Unsupported("shift of INDEX by a symbolic amount needs the bit-vector model");
    const Int k = numeral_value(k_term, st, width(st));
    if (k < 0) {
      cond.defined = ctx_.bool_val(false);
      return a;
    }
    if (k > 1000) throw Unsupported("shift of INDEX by a huge amount");
    const z3::expr p = ctx_.int_val(power_of_two_text(int(k)).c_str());
    return op == Op::Shl ? a * p : a / p;  // Euclidean division by a positive number floors
  }
  const unsigned bits = width(t);
  if (t != DType::Index) {
    cond.defined = nonnegative && !amount_at_least(s, st, bits);
    const z3::expr amount = amount_bits(bits);
    if (op == Op::Shl) return z3::shl(a, amount);
    return is_signed_bv(t) ? z3::ashr(a, amount) : z3::lshr(a, amount);
  }
  // INDEX as a bit-vector: << must not overflow; >> by at least the width is the sign.
  cond.defined = nonnegative;
  const z3::expr big = amount_at_least(s, st, bits);
  if (op == Op::Shl) {
    const z3::expr amount = amount_bits(bits);
    const z3::expr r = z3::shl(a, amount);
    cond.fits = !big && z3::ashr(r, amount) == a;
    return r;
  }
  return z3::ashr(a, z3::ite(big, bv_constant(bits - 1, bits), amount_bits(bits)));
}

// ---------------------------------------------------------------- floats

z3::expr Semantics::float_op(Op op, DType t, std::span<const z3::expr> args) const {
  (void)t;
  const z3::expr& a = args[0];
  switch (op) {
    case Op::Add:
      return wrap(ctx_, Z3_mk_fpa_add(ctx_, rne(), a, args[1]));
    case Op::Sub:
      return wrap(ctx_, Z3_mk_fpa_sub(ctx_, rne(), a, args[1]));
    case Op::Mul:
      return wrap(ctx_, Z3_mk_fpa_mul(ctx_, rne(), a, args[1]));
    case Op::Div:
      return wrap(ctx_, Z3_mk_fpa_div(ctx_, rne(), a, args[1]));
    case Op::Neg:
      return wrap(ctx_, Z3_mk_fpa_neg(ctx_, a));
    case Op::Abs:
      return wrap(ctx_, Z3_mk_fpa_abs(ctx_, a));
    case Op::Min:
      return wrap(ctx_, Z3_mk_fpa_min(ctx_, a, args[1]));
    case Op::Max:
      return wrap(ctx_, Z3_mk_fpa_max(ctx_, a, args[1]));
    default:
      throw std::logic_error("not a float operation");
  }
}

// ---------------------------------------------------------------- comparisons

z3::expr Semantics::less(DType t, const z3::expr& a, const z3::expr& b) const {
  if (!is_bv(t)) return a < b;
  return wrap(ctx_, is_signed_bv(t) ? Z3_mk_bvslt(ctx_, a, b) : Z3_mk_bvult(ctx_, a, b));
}

z3::expr Semantics::less_equal(DType t, const z3::expr& a, const z3::expr& b) const {
  if (!is_bv(t)) return a <= b;
  return wrap(ctx_, is_signed_bv(t) ? Z3_mk_bvsle(ctx_, a, b) : Z3_mk_bvule(ctx_, a, b));
}

z3::expr Semantics::compare(Op op, DType t, const z3::expr& a, const z3::expr& b) const {
  if (is_float(t) && !is_real_float(t)) {
    // IEEE: NaN is unordered, so only != holds; -0.0 == +0.0.
    switch (op) {
      case Op::Eq:
        return wrap(ctx_, Z3_mk_fpa_eq(ctx_, a, b));
      case Op::Ne:
        return !wrap(ctx_, Z3_mk_fpa_eq(ctx_, a, b));
      case Op::Lt:
        return wrap(ctx_, Z3_mk_fpa_lt(ctx_, a, b));
      case Op::Le:
        return wrap(ctx_, Z3_mk_fpa_leq(ctx_, a, b));
      case Op::Gt:
        return wrap(ctx_, Z3_mk_fpa_gt(ctx_, a, b));
      default:
        return wrap(ctx_, Z3_mk_fpa_geq(ctx_, a, b));
    }
  }
  switch (op) {
    case Op::Eq:
      return a == b;
    case Op::Ne:
      return a != b;
    default:
      break;
  }
  if (t == DType::Bool) throw std::logic_error("ordering comparison of BOOL");
  // Below: integers, and floats read as reals (ordered like Int).
  switch (op) {
    case Op::Lt:
      return less(t, a, b);
    case Op::Le:
      return less_equal(t, a, b);
    case Op::Gt:
      return less(t, b, a);
    default:
      return less_equal(t, b, a);
  }
}

// ---------------------------------------------------------------- casts

z3::expr Semantics::cast(DType from, DType to, const z3::expr& a, Conditions& cond) const {
  if (from == to) return a;
  if (is_real_float(from) || is_real_float(to)) return real_float_cast(from, to, a);
  if (to == DType::Bool) {  // a != 0; a NaN is not zero, so True
    if (is_float(from)) return !wrap(ctx_, Z3_mk_fpa_is_zero(ctx_, a));
    return is_bv(from) ? a != bv_constant(0, width(from)) : a != 0;
  }
  if (from == DType::Bool) {
    Conditions ignored(ctx_);
    const Value one = is_float(to) ? Value::floating(to, 1.0) : Value::integer(to, 1);
    const Value zero = is_float(to) ? Value::floating(to, 0.0) : Value::integer(to, 0);
    return z3::ite(a, constant(one, ignored), constant(zero, ignored));
  }
  if ((is_float(from) && is_wrapped_int(to)) || (is_wrapped_int(from) && is_float(to))) {
    throw Unsupported("float conversions of fixed-width integers need the bit-vector model");
  }
  if (is_float(from)) {
    if (is_float(to)) return wrap(ctx_, Z3_mk_fpa_to_fp_float(ctx_, rne(), a, sort(to)));
    return float_to_int(from, to, a, cond);
  }
  if (is_float(to)) {  // one correct rounding of the exact integer
    if (!is_bv(from)) return wrap(ctx_, Z3_mk_fpa_to_fp_real(ctx_, rne(), z3::to_real(a), sort(to)));
    return wrap(ctx_, is_signed_bv(from) ? Z3_mk_fpa_to_fp_signed(ctx_, rne(), a, sort(to))
                                         : Z3_mk_fpa_to_fp_unsigned(ctx_, rne(), a, sort(to)));
  }
  return int_to_int(from, to, a, cond);
}

z3::expr Semantics::int_to_int(DType from, DType to, const z3::expr& a, Conditions& cond) const {
  if (is_wrapped_int(to)) {  // from an Int of any range: wraps modulo 2^n
    if (is_bv(from)) throw std::logic_error("bit-vector INDEX with wrapped integers");
    return wrapped(a, to);
  }
  if (is_wrapped_int(from)) {  // to INDEX as Int: the value itself
    if (is_bv(to)) throw std::logic_error("bit-vector INDEX with wrapped integers");
    return a;
  }
  if (!is_bv(from)) return z3::int2bv(width(to), a);  // INDEX as Int: wraps modulo 2^n
  if (!is_bv(to)) return z3::bv2int(a, is_signed_bv(from));
  const unsigned m = width(from), n = width(to);
  const bool signed_from = is_signed_bv(from);
  if (to == DType::Index) {  // the bit-vector INDEX must hold the value exactly
    if (signed_from && m > n) cond.fits = z3::sext(a.extract(n - 1, 0), m - n) == a;
    if (!signed_from && m >= n) cond.fits = a.extract(m - 1, n - 1) == bv_constant(0, m - n + 1);
  }
  if (n <= m) return n == m ? a : a.extract(n - 1, 0);  // wrap: keep the low bits
  return signed_from ? z3::sext(a, n - m) : z3::zext(a, n - m);
}

// Truncation toward zero; undefined for NaN, infinities and results out of range.
z3::expr Semantics::float_to_int(DType from, DType to, const z3::expr& a, Conditions& cond) const {
  const z3::expr rtz = wrap(ctx_, Z3_mk_fpa_rtz(ctx_));
  const z3::expr finite = !wrap(ctx_, Z3_mk_fpa_is_nan(ctx_, a)) && !wrap(ctx_, Z3_mk_fpa_is_infinite(ctx_, a));
  const z3::expr truncated = wrap(ctx_, Z3_mk_fpa_round_to_integral(ctx_, rtz, a));
  if (to == DType::Index && index_model_ == IndexModel::Integer) {
    cond.defined = finite;
    return wrap(ctx_, Z3_mk_real2int(ctx_, wrap(ctx_, Z3_mk_fpa_to_real(ctx_, truncated))));
  }
  // In range: lo <= t < hi_excl, with the powers of two rounded into the source format
  // (a power of two is exact there or beyond its range, i.e. an infinity: both exact
  // bounds for the comparison).
  const unsigned bits = width(to);
  const bool is_signed = is_signed_bv(to);
  auto power = [&](int k, bool negative) {
    const z3::expr p64 =
        float_literal(ctx_, ctx_.fpa_sort(11, 53), negative ? -std::ldexp(1.0, k) : std::ldexp(1.0, k));
    return wrap(ctx_, Z3_mk_fpa_to_fp_float(ctx_, rne(), p64, sort(from)));
  };
  const z3::expr lo = is_signed ? power(int(bits) - 1, true) : float_literal(ctx_, sort(from), 0.0);
  const z3::expr hi_excl = power(is_signed ? int(bits) - 1 : int(bits), false);
  const z3::expr in_range =
      wrap(ctx_, Z3_mk_fpa_geq(ctx_, truncated, lo)) && wrap(ctx_, Z3_mk_fpa_lt(ctx_, truncated, hi_excl));
  if (to == DType::Index) {
    cond.defined = finite;
    cond.fits = in_range;
  } else {
    cond.defined = finite && in_range;
  }
  return wrap(ctx_, is_signed ? Z3_mk_fpa_to_sbv(ctx_, rtz, a, bits) : Z3_mk_fpa_to_ubv(ctx_, rtz, a, bits));
}

// ---------------------------------------------------------------- floats as reals

z3::expr Semantics::real_float_op(Op op, std::span<const z3::expr> args) const {
  const z3::expr& a = args[0];
  switch (op) {
    case Op::Add:
      return a + args[1];
    case Op::Sub:
      return a - args[1];
    case Op::Mul:
      return a * args[1];
    case Op::Div:  // by zero: Z3's unspecified real, the same on both sides
      return a / args[1];
    case Op::Neg:
      return -a;
    case Op::Abs:
      return z3::ite(a >= 0, a, -a);
    case Op::Min:
      return z3::ite(a <= args[1], a, args[1]);
    case Op::Max:
      return z3::ite(a >= args[1], a, args[1]);
    default:
      throw std::logic_error("not a float operation");
  }
}

z3::expr Semantics::real_float_cast(DType from, DType to, const z3::expr& a) const {
  if (is_float(from) && is_float(to)) return a;  // no rounding
  if (to == DType::Bool) return a != ctx_.real_val(0);
  if (from == DType::Bool) return z3::ite(a, ctx_.real_val(1), ctx_.real_val(0));
  if (is_float(from)) throw Unsupported("a cast of a float to an integer has no real reading");
  if (is_bv(from)) return z3::to_real(z3::bv2int(a, is_signed_bv(from)));
  return z3::to_real(a);
}

// ---------------------------------------------------------------- models

Value Semantics::model_value(const z3::model& model, const z3::expr& value, DType dtype) const {
  const z3::expr v = model.eval(value, true);
  if (dtype == DType::Bool) return Value::boolean(v.is_true());
  if (is_real_float(dtype)) return Value::floating(dtype, std::stod(v.get_decimal_string(20)));
  if (is_float(dtype)) {
    if (model.eval(wrap(ctx_, Z3_mk_fpa_is_nan(ctx_, value)), true).is_true()) {
      return Value::floating(dtype, std::numeric_limits<double>::quiet_NaN());
    }
    const z3::expr bits = model.eval(wrap(ctx_, Z3_mk_fpa_to_ieee_bv(ctx_, value)), true);
    return Value::floating(dtype, decode_ieee(dtype, uint64_t(numeral_value(bits, DType::UInt64, 64))));
  }
  return Value::integer(dtype, numeral_value(v, dtype, width(dtype)));
}

}  // namespace eqsat::verify
