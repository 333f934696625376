// Interval transfer functions.
//
// Every function here answers "which values can this take?" and must never answer too
// narrowly: a wider interval only costs a missed fold, a narrower one is a miscompile.
// The recipe for each operation:
//
//   1. clamp the operand intervals to what their dtype allows (a fixed-width operand
//      never leaves [min, max]);
//   2. compute the interval of the *mathematical* result, on unbounded integers;
//   3. fit it to the result dtype: INDEX keeps it, a fixed-width dtype keeps it when it
//      lies inside [min, max] (then no value wrapped) and otherwise widens to the whole
//      dtype.
//
// Bounds at or beyond 2^100 in magnitude are dropped (the side becomes unbounded), so
// that the product of two bounds always fits the 128-bit working range or is detected
// by the checked helpers.
//
// Undefined operands (a zero divisor, a shift amount outside [0, width)) are excluded:
// a rewrite only has to agree with the original where the original is defined, so the
// interval only has to cover those values. An operation that is undefined everywhere
// gets the whole dtype.
#include "egraph/interval.h"

#include <algorithm>
#include <array>
#include <cassert>

namespace eqsat {

namespace {

using Bound = std::optional<Int>;

constexpr Int kTooBig = Int(1) << 100;
// The largest shift whose power of two we spell out; larger ones count as 2^kMaxShift
// (on the small side) or unbounded (on the large side), both wider than the truth.
constexpr int kMaxShift = 100;

// --- Sides --------------------------------------------------------------------------
// A missing lower side is -inf, a missing upper side +inf; the helpers are named for
// the side they combine so that a missing side always means the right infinity.

Bound lo_min(Bound a, Bound b) { return a && b ? Bound(std::min(*a, *b)) : std::nullopt; }
Bound lo_max(Bound a, Bound b) {
  if (!a) return b;
  if (!b) return a;
  return std::max(*a, *b);
}
Bound hi_min(Bound a, Bound b) {
  if (!a) return b;
  if (!b) return a;
  return std::min(*a, *b);
}
Bound hi_max(Bound a, Bound b) { return a && b ? Bound(std::max(*a, *b)) : std::nullopt; }

// Sum of two sides of the same kind (both lower or both upper); overflow drops the side.
Bound add(Bound a, Bound b) { return a && b ? checked_add(*a, *b) : std::nullopt; }
// Negation turns a lower side into an upper side and back; a missing side stays missing.
Bound negate(Bound a) { return a ? checked_sub(0, *a) : std::nullopt; }
Bound offset(Bound a, Int delta) { return a ? checked_add(*a, delta) : std::nullopt; }

bool at_least(Bound lo, Int v) { return lo && *lo >= v; }  // lower side >= v
bool at_most(Bound hi, Int v) { return hi && *hi <= v; }   // upper side <= v

Int pow2(int k) { return Int(1) << k; }

// Widening: a bound too large to track becomes unbounded.
Bound tame(Bound b) { return b && (*b >= kTooBig || *b <= -kTooBig) ? std::nullopt : b; }
Interval tame(const Interval& x) { return {tame(x.lo), tame(x.hi)}; }

bool is_empty(const Interval& x) { return x.lo && x.hi && *x.lo > *x.hi; }

// The intersection, or nullopt when it is empty.
std::optional<Interval> meet(const Interval& a, const Interval& b) {
  Interval r{lo_max(a.lo, b.lo), hi_min(a.hi, b.hi)};
  if (is_empty(r)) return std::nullopt;
  return r;
}

const Interval kFalse = Interval::point(0);
const Interval kTrue = Interval::point(1);
const Interval kUnknown = Interval::range(0, 1);

// --- The extended integer line, for corner computations -----------------------------
// Products and quotients are monotone in each operand on a sign-consistent box, so
// their extremes are found at the corners; a corner can be infinite, hence this type.

struct Ext {
  int inf = 0;  // -1: -inf, +1: +inf, 0: the finite value v
  Int v = 0;

  static Ext finite(Int value) { return {0, value}; }
  static Ext infinity(int sign) { return {sign, 0}; }
  bool is_zero() const { return inf == 0 && v == 0; }
  int sign() const { return inf != 0 ? inf : (v > 0) - (v < 0); }
};

bool operator<(const Ext& a, const Ext& b) {
  if (a.inf != b.inf) return a.inf < b.inf;
  return a.inf == 0 && a.v < b.v;
}

Ext lower(const Interval& x) { return x.lo ? Ext::finite(*x.lo) : Ext::infinity(-1); }
Ext upper(const Interval& x) { return x.hi ? Ext::finite(*x.hi) : Ext::infinity(+1); }

// Collects candidate extremes and returns the interval they span.
class Corners {
 public:
  void add(Ext e) {
    assert(count_ < values_.size() && "too many corner candidates");
    values_[count_++] = e;
  }
  bool empty() const { return count_ == 0; }
  Interval span() const {
    assert(count_ > 0);
    auto [mn, mx] = std::minmax_element(values_.begin(), values_.begin() + count_);
    Interval r;
    if (mn->inf == 0) r.lo = mn->v;  // a +inf minimum only comes from overflow: unbounded
    if (mx->inf == 0) r.hi = mx->v;
    return tame(r);
  }

 private:
  std::array<Ext, 16> values_{};  // two divisor parts x four corners x two candidates
  size_t count_ = 0;
};

Ext mul(Ext a, Ext b) {
  // 0 * inf is 0 here: the zero is attained, the infinity only approached.
  if (a.is_zero() || b.is_zero()) return Ext::finite(0);
  const int sign = a.sign() * b.sign();
  if (a.inf != 0 || b.inf != 0) return Ext::infinity(sign);
  if (auto p = checked_mul(a.v, b.v)) return Ext::finite(*p);
  return Ext::infinity(sign);  // beyond 2^127: larger than any finite corner
}

Interval mul(const Interval& a, const Interval& b) {
  Corners c;
  for (Ext x : {lower(a), upper(a)})
    for (Ext y : {lower(b), upper(b)}) c.add(mul(x, y));
  return c.span();
}

// Candidates for x // d near the corner (x, d), d != 0, including limits approached.
void floor_div_corner(Ext x, Ext d, Corners& c) {
  const int sign = x.sign() * d.sign();
  if (x.inf == 0 && d.inf == 0) {
    c.add(Ext::finite(floor_div(x.v, d.v)));
  } else if (d.inf == 0) {
    c.add(Ext::infinity(sign));
  } else if (x.inf == 0) {
    // x / d tends to 0 from the side of `sign`; the floor of that is -1 or 0.
    c.add(Ext::finite(sign < 0 ? -1 : 0));
  } else {
    // Both infinite: x / d can be any value of its sign, so its floor can be anything
    // from the infinity of that sign to 0 (positive quotients) or -1 (negative ones).
    c.add(Ext::infinity(sign));
    c.add(Ext::finite(sign < 0 ? -1 : 0));
  }
}

void trunc_div_corner(Ext x, Ext d, Corners& c) {
  const int sign = x.sign() * d.sign();
  if (x.inf == 0 && d.inf == 0) {
    c.add(Ext::finite(x.v / d.v));  // C++ division truncates
  } else if (d.inf == 0) {
    c.add(Ext::infinity(sign));
  } else if (x.inf == 0) {
    c.add(Ext::finite(0));
  } else {
    c.add(Ext::infinity(sign));
    c.add(Ext::finite(0));
  }
}

// --- Divisors -----------------------------------------------------------------------

// A divisor interval without zero, split into its sign-consistent parts.
struct Divisor {
  std::optional<Interval> negative;  // within [-inf, -1]
  std::optional<Interval> positive;  // within [1, inf]
  bool defined() const { return negative || positive; }
};

Divisor split_divisor(const Interval& d) {
  return {meet(d, Interval::range(std::nullopt, -1)), meet(d, Interval::range(1, std::nullopt))};
}

template <typename CornerFn>
Interval divide(const Interval& x, const Divisor& d, CornerFn corner) {
  Corners c;
  for (const auto& part : {d.negative, d.positive}) {
    if (!part) continue;
    for (Ext xe : {lower(x), upper(x)})
      for (Ext de : {lower(*part), upper(*part)}) corner(xe, de, c);
  }
  return c.span();
}

// When the divisor is a point c and every x in the interval has the same quotient q,
// the remainder x - q*c is exact. `div` is the rounding division matching the modulo.
template <typename DivFn>
std::optional<Interval> same_quotient_remainder(const Interval& x, const Interval& d, DivFn div) {
  if (!d.is_point() || *d.lo == 0 || !x.lo || !x.hi) return std::nullopt;
  const Int c = *d.lo;
  const Int q = div(*x.lo, c);
  if (div(*x.hi, c) != q) return std::nullopt;
  return Interval::range(*x.lo - q * c, *x.hi - q * c);
}

// x % d for d in `part`, all of one sign. The remainder has the divisor's sign and is
// smaller than it in magnitude; toward zero it cannot pass x.
Interval floor_mod_part(const Interval& x, const Interval& part) {
  if (at_least(part.lo, 1)) {
    Interval r{0, offset(part.hi, -1)};  // [0, d - 1]
    if (at_least(x.lo, 0)) {
      r.hi = hi_min(r.hi, x.hi);            // x % d <= x
      if (x.hi && *x.hi < *part.lo) r = x;  // x < d: x % d == x
    }
    return r;
  }
  Interval r{offset(part.lo, 1), 0};  // [d + 1, 0]
  if (at_most(x.hi, 0)) {
    r.lo = lo_max(r.lo, x.lo);            // x % d >= x
    if (x.lo && *x.lo > *part.hi) r = x;  // d < x: x % d == x
  }
  return r;
}

Interval floor_mod(const Interval& x, const Interval& d, const Divisor& parts) {
  std::optional<Interval> r;
  for (const auto& part : {parts.negative, parts.positive}) {
    if (!part) continue;
    Interval p = floor_mod_part(x, *part);
    r = r ? r->hull(p) : p;
  }
  if (auto exact = same_quotient_remainder(x, d, [](Int a, Int b) { return floor_div(a, b); }))
    return r->intersect(*exact);
  return *r;
}

// truncmod(x, d) has x's sign, |r| < |d| and |r| <= |x|.
Interval trunc_mod(const Interval& x, const Interval& d, const Divisor& parts) {
  // The largest |d| minus one, and the smallest |d|.
  Bound largest = hi_max(negate(d.lo), d.hi);  // max(|lo|, |hi|): never at the excluded zero
  Bound max_r = offset(largest, -1);
  Int smallest_abs = parts.positive ? *parts.positive->lo : Int(0);
  if (parts.negative && (!parts.positive || -*parts.negative->hi < smallest_abs)) smallest_abs = -*parts.negative->hi;

  Interval r;
  r.lo = at_least(x.lo, 0) ? Bound(0) : lo_max(x.lo, negate(max_r));
  r.hi = at_most(x.hi, 0) ? Bound(0) : hi_min(x.hi, max_r);
  if (x.lo && x.hi && -*x.lo < smallest_abs && *x.hi < smallest_abs) r = x;  // |x| < |d|
  if (auto exact = same_quotient_remainder(x, d, [](Int a, Int b) { return a / b; })) return r.intersect(*exact);
  return r;
}

// --- Shifts -------------------------------------------------------------------------

// The factor 2^s for the defined shift amounts s in `amount`, or nullopt when no amount
// is defined (negative, or at least the bit width of a fixed-width dtype).
std::optional<Interval> shift_factor(const Interval& amount, DType operand) {
  Bound max_amount = operand == DType::Index ? std::nullopt : Bound(bit_width(operand) - 1);
  auto s = meet(amount, Interval::range(0, max_amount));
  if (!s) return std::nullopt;
  const int s0 = static_cast<int>(std::min<Int>(*s->lo, kMaxShift));
  Bound hi = s->hi && *s->hi <= kMaxShift ? Bound(pow2(static_cast<int>(*s->hi))) : std::nullopt;
  return Interval::range(pow2(s0), hi);
}

// --- Bitwise ------------------------------------------------------------------------

// The smallest k with x in [-2^k, 2^k - 1], or nullopt when x is unbounded.
std::optional<int> twos_complement_bits(const Interval& x) {
  if (!x.lo || !x.hi) return std::nullopt;
  int k = 0;
  while (*x.lo < -pow2(k) || *x.hi > pow2(k) - 1) ++k;
  return k;
}

// Bitwise operations on two's complement integers of unbounded width (which is what a
// fixed-width dtype computes, sign-extended): with both operands in [-2^k, 2^k - 1] so
// is the result, and signs decide more.
Interval bitwise(Op op, const Interval& a, const Interval& b) {
  if (a.is_point() && b.is_point()) {
    const Int x = *a.lo, y = *b.lo;
    return Interval::point(op == Op::BitAnd ? (x & y) : op == Op::BitOr ? (x | y) : (x ^ y));
  }
  Interval r;
  auto ka = twos_complement_bits(a), kb = twos_complement_bits(b);
  if (ka && kb) {
    const int k = std::max(*ka, *kb);
    r = Interval::range(-pow2(k), pow2(k) - 1);
  }
  const bool a_nonneg = at_least(a.lo, 0), b_nonneg = at_least(b.lo, 0);
  const bool a_neg = at_most(a.hi, -1), b_neg = at_most(b.hi, -1);
  Interval sign_facts;
  switch (op) {
    case Op::BitAnd:
      if (a_nonneg || b_nonneg) {
        // Clearing bits of a non-negative value keeps it in [0, value].
        sign_facts.lo = 0;
        if (a_nonneg) sign_facts.hi = hi_min(sign_facts.hi, a.hi);
        if (b_nonneg) sign_facts.hi = hi_min(sign_facts.hi, b.hi);
      } else if (a_neg && b_neg) {
        sign_facts.hi = hi_min(a.hi, b.hi);  // negative, and bits only cleared
      } else {
        sign_facts.hi = hi_max(a.hi, b.hi);  // x & y <= max(x, y)
      }
      break;
    case Op::BitOr:
      // x | y = x + (y & ~x) >= x when y >= 0 or x < 0; in any case >= min(x, y).
      sign_facts.lo = lo_min(a.lo, b.lo);
      if (a_neg || b_nonneg) sign_facts.lo = lo_max(sign_facts.lo, a.lo);
      if (b_neg || a_nonneg) sign_facts.lo = lo_max(sign_facts.lo, b.lo);
      if (a_neg || b_neg) sign_facts.hi = -1;
      break;
    case Op::BitXor:
      if ((a_nonneg && b_nonneg) || (a_neg && b_neg)) sign_facts.lo = 0;
      if ((a_nonneg && b_neg) || (a_neg && b_nonneg)) sign_facts.hi = -1;
      break;
    default:
      assert(false && "not a binary bitwise op");
  }
  return r.intersect(sign_facts);
}

// --- Comparisons --------------------------------------------------------------------

// a < b, decided when the intervals do not overlap the wrong way.
Interval less(const Interval& a, const Interval& b) {
  if (a.hi && b.lo && *a.hi < *b.lo) return kTrue;
  if (a.lo && b.hi && *a.lo >= *b.hi) return kFalse;
  return kUnknown;
}

Interval less_equal(const Interval& a, const Interval& b) {
  if (a.hi && b.lo && *a.hi <= *b.lo) return kTrue;
  if (a.lo && b.hi && *a.lo > *b.hi) return kFalse;
  return kUnknown;
}

Interval equal(const Interval& a, const Interval& b) {
  if (a.is_point() && b.is_point() && *a.lo == *b.lo) return kTrue;
  if (!meet(a, b)) return kFalse;
  return kUnknown;
}

Interval logical_not(const Interval& x) { return {offset(negate(x.hi), 1), offset(negate(x.lo), 1)}; }

// --- Putting it together ------------------------------------------------------------

// What an operand of dtype `t` can be, given the facts `x`; nullopt when the facts
// contradict the dtype (then nothing is concluded).
std::optional<Interval> clamp_operand(const Interval& x, DType t) {
  if (is_float(t)) return Interval::all();
  if (is_empty(x)) return std::nullopt;
  // INDEX allows every value: the meet with its interval would be `x` itself (most
  // operands of a tensor compiler's arithmetic are INDEX).
  if (t == DType::Index) return tame(x);
  auto clamped = meet(x, Interval::of_dtype(t));
  if (!clamped) return std::nullopt;
  return tame(*clamped);
}

// Fits the mathematical result to the result dtype: a fixed-width result that could
// have wrapped is the whole dtype.
Interval fit(DType result, const Interval& math) {
  Interval m = tame(math);
  if (result == DType::Index) return m;
  const Interval whole = Interval::of_dtype(result);
  return m.within(whole) ? m : whole;
}

Interval cast(DType from, DType to, const Interval& x) {
  if (is_float(to)) return Interval::all();
  if (to == DType::Bool) {
    if (is_float(from)) return kUnknown;
    if (!x.contains(0)) return kTrue;  // cast(x, BOOL) is x != 0
    if (x.is_point()) return kFalse;
    return kUnknown;
  }
  if (is_float(from)) return Interval::of_dtype(to);
  return fit(to, x);  // integer or BOOL to integer: the value is kept unless it wraps
}

Interval math_interval(Op op, DType result, DType operand, std::span<const Interval> in) {
  const Interval whole = Interval::of_dtype(result);
  const Interval& a = in[0];
  switch (op) {
    case Op::Var:
    case Op::Const:
    case Op::Div:
      return whole;
    case Op::Add:
      return {add(a.lo, in[1].lo), add(a.hi, in[1].hi)};
    case Op::Sub:
      return {add(a.lo, negate(in[1].hi)), add(a.hi, negate(in[1].lo))};
    case Op::Mul:
      return mul(a, in[1]);
    case Op::Neg:
      return {negate(a.hi), negate(a.lo)};
    case Op::Abs:
      if (at_least(a.lo, 0)) return a;
      if (at_most(a.hi, 0)) return {negate(a.hi), negate(a.lo)};
      return {0, hi_max(negate(a.lo), a.hi)};
    case Op::Min:
      return {lo_min(a.lo, in[1].lo), hi_min(a.hi, in[1].hi)};
    case Op::Max:
      return {lo_max(a.lo, in[1].lo), hi_max(a.hi, in[1].hi)};
    case Op::FloorDiv:
    case Op::TruncDiv:
    case Op::FloorMod:
    case Op::TruncMod: {
      const Divisor d = split_divisor(in[1]);
      if (!d.defined()) return whole;  // division by zero everywhere
      if (op == Op::FloorDiv) return divide(a, d, floor_div_corner);
      if (op == Op::TruncDiv) return divide(a, d, trunc_div_corner);
      if (op == Op::FloorMod) return floor_mod(a, in[1], d);
      return trunc_mod(a, in[1], d);
    }
    case Op::Shl:
    case Op::Shr: {
      auto factor = shift_factor(in[1], operand);
      if (!factor) return whole;  // no defined shift amount
      if (op == Op::Shl) return mul(a, *factor);
      // Arithmetic shift on signed values, logical on unsigned (which are >= 0): both
      // are floor division by 2^s.
      return divide(a, Divisor{std::nullopt, factor}, floor_div_corner);
    }
    case Op::BitAnd:
    case Op::BitOr:
    case Op::BitXor:
      return bitwise(op, a, in[1]);
    case Op::BitNot:
      if (is_unsigned(operand)) {
        const Int mask = dtype_max(operand);  // ~x = 2^n - 1 - x
        return {mask - *a.hi, mask - *a.lo};
      }
      return {offset(negate(a.hi), -1), offset(negate(a.lo), -1)};  // ~x = -x - 1
    case Op::Eq:
    case Op::Ne:
    case Op::Lt:
    case Op::Le:
    case Op::Gt:
    case Op::Ge: {
      if (is_float(operand)) return kUnknown;
      const Interval& b = in[1];
      switch (op) {
        case Op::Eq:
          return equal(a, b);
        case Op::Ne:
          return logical_not(equal(a, b));
        case Op::Lt:
          return less(a, b);
        case Op::Le:
          return less_equal(a, b);
        case Op::Gt:
          return less(b, a);
        default:
          return less_equal(b, a);
      }
    }
    case Op::And:  // on {0, 1}: min
      return {lo_min(a.lo, in[1].lo), hi_min(a.hi, in[1].hi)};
    case Op::Or:  // on {0, 1}: max
      return {lo_max(a.lo, in[1].lo), hi_max(a.hi, in[1].hi)};
    case Op::Not:
      return logical_not(a);
    case Op::Select:
      if (at_least(a.lo, 1)) return in[1];
      if (at_most(a.hi, 0)) return in[2];
      return in[1].hull(in[2]);
    case Op::Cast:
      return cast(operand, result, a);
  }
  return whole;
}

}  // namespace

Interval Interval::of_dtype(DType dtype) {
  if (is_fixed_width_int(dtype) || dtype == DType::Bool) return {dtype_min(dtype), dtype_max(dtype)};
  return all();
}

bool Interval::within(const Interval& other) const {
  const bool lo_ok = !other.lo || (lo && *lo >= *other.lo);
  const bool hi_ok = !other.hi || (hi && *hi <= *other.hi);
  return lo_ok && hi_ok;
}

Interval Interval::intersect(const Interval& other) const {
  auto r = meet(*this, other);
  return r ? *r : *this;
}

Interval Interval::hull(const Interval& other) const { return {lo_min(lo, other.lo), hi_max(hi, other.hi)}; }

std::string Interval::to_string() const {
  return "[" + (lo ? eqsat::to_string(*lo) : std::string("-inf")) + ", " +
         (hi ? eqsat::to_string(*hi) : std::string("inf")) + "]";
}

Interval interval_of(Op op, DType result, DType operand, std::span<const Interval> args) {
  const Interval whole = Interval::of_dtype(result);
  if (is_float(result)) return Interval::all();
  const int arity = op_info(op).arity;
  assert(static_cast<int>(args.size()) == arity && "interval_of: wrong number of operands");
  if (arity == 0 || static_cast<int>(args.size()) != arity) return whole;

  std::array<Interval, 3> in;
  for (int i = 0; i < arity; ++i) {
    const DType t = op == Op::Select && i == 0 ? DType::Bool : operand;
    auto clamped = clamp_operand(args[i], t);
    if (!clamped) return whole;
    in[i] = *clamped;
  }
  return fit(result, math_interval(op, result, operand, std::span(in.data(), arity)));
}

}  // namespace eqsat
