#include "egraph/congruence.h"

#include <algorithm>
#include <optional>

namespace eqsat {

namespace {

Int abs_int(Int v) { return v < 0 ? -v : v; }

Int gcd(Int a, Int b) {
  a = abs_int(a);
  b = abs_int(b);
  while (b != 0) {
    Int t = a % b;
    a = b;
    b = t;
  }
  return a;
}

// The inverse of a modulo m (gcd(a, m) == 1, m >= 1), in [0, m).
Int inverse_mod(Int a, Int m) {
  Int old_r = floor_mod(a, m), r = m, old_s = 1, s = 0;
  while (r != 0) {
    Int q = old_r / r;
    Int t = old_r - q * r;
    old_r = r;
    r = t;
    t = old_s - q * s;
    old_s = s;
    s = t;
  }
  return floor_mod(old_s, m);
}

bool within_limit(Int v) { return v <= kCongruenceLimit && v >= -kCongruenceLimit; }

}  // namespace

Congruence Congruence::constant(Int c) { return of(0, c); }

Congruence Congruence::of(Int m, Int r) {
  m = abs_int(m);
  if (!within_limit(m)) return unknown();
  if (m == 0) return within_limit(r) ? Congruence{0, r} : unknown();
  return Congruence{m, floor_mod(r, m)};
}

bool Congruence::contains(Int v) const {
  if (modulus == 0) return v == remainder;
  std::optional<Int> diff = checked_sub(v, remainder);
  return diff && floor_mod(*diff, modulus) == 0;
}

Congruence Congruence::intersect(const Congruence& other) const {
  if (is_constant()) return *this;
  if (other.is_constant()) return contains(other.remainder) ? other : *this;
  const Int m1 = modulus, m2 = other.modulus, r1 = remainder, r2 = other.remainder;
  if (m1 % m2 == 0) return *this;  // finer (or contradictory, then kept)
  if (m2 % m1 == 0) return floor_mod(r2, m1) == r1 ? other : *this;
  const Int g = gcd(m1, m2);
  if ((r2 - r1) % g != 0) return *this;  // no integer has both: keep ours
  const Int lcm = m1 / g * m2;
  if (lcm > kCongruenceLimit) return m1 >= m2 ? *this : other;  // either is sound
  // x = r1 + m1*t with m1*t ≡ r2 - r1 (mod m2), i.e. t ≡ (r2-r1)/g * inv(m1/g) (mod m2/g).
  const Int n = m2 / g;
  const Int t = floor_mod(floor_mod((r2 - r1) / g, n) * inverse_mod(m1 / g, n), n);
  return of(lcm, r1 + m1 * t);
}

Congruence Congruence::join(const Congruence& other) const {
  return of(gcd(gcd(modulus, other.modulus), remainder - other.remainder), remainder);
}

std::string Congruence::to_string() const {
  if (is_constant()) return eqsat::to_string(remainder);
  if (is_unknown()) return "any";
  return eqsat::to_string(modulus) + "k+" + eqsat::to_string(remainder);
}

Int round_up_to(const Congruence& c, Int lo) { return lo + floor_mod(c.remainder - lo, c.modulus); }
Int round_down_to(const Congruence& c, Int hi) { return hi - floor_mod(hi - c.remainder, c.modulus); }

namespace {

// A congruence of mathematical integers as one of values wrapped to n bits: the
// wrap subtracts multiples of 2^n, so only a modulus dividing 2^n survives (2^62
// stands for 2^n above: within kCongruenceLimit, and it divides 2^n); a
// constant is known modulo 2^n only.
Congruence wrapped(DType t, const Congruence& c) {
  const Int period = Int(1) << std::min(bit_width(t), 62);
  if (c.is_constant()) return Congruence::of(period, c.remainder);
  return Congruence::of(gcd(c.modulus, period), c.remainder);
}

}  // namespace

Congruence congruence_of(Op op, DType result, DType operand, std::span<const Congruence> args) {
  if (is_fixed_width_int(result)) {
    switch (op) {
      case Op::Shl:
        // x << c is x * 2^c wrapped for 0 <= c < n; a wider shift is undefined
        // and left alone (nothing is concluded about it).
        if (!args[1].is_constant() || args[1].remainder < 0 || args[1].remainder >= bit_width(result))
          return Congruence::unknown();
        return wrapped(result, congruence_of(op, DType::Index, DType::Index, args));
      case Op::Add:
      case Op::Sub:
      case Op::Neg:
      case Op::Mul:
        // The exact result's congruence, then wrapped.
        return wrapped(result, congruence_of(op, DType::Index, DType::Index, args));
      case Op::Cast:
        return is_integer(operand) ? wrapped(result, args[0]) : Congruence::unknown();
      case Op::FloorDiv:
      case Op::FloorMod:
        // Unsigned values never wrap in a division (no negative divisor); the
        // exact formulas hold.
        return is_unsigned(result) ? congruence_of(op, DType::Index, DType::Index, args) : Congruence::unknown();
      case Op::Min:
      case Op::Max:
      case Op::Select:
        return congruence_of(op, DType::Index, DType::Index, args);
      default:
        return Congruence::unknown();
    }
  }
  if (result != DType::Index) return Congruence::unknown();
  auto divisor = [&]() -> std::optional<Int> {  // a non-zero constant second operand
    if (args.size() < 2 || !args[1].is_constant() || args[1].remainder == 0) return std::nullopt;
    return args[1].remainder;
  };
  switch (op) {
    case Op::Add: {
      const Congruence &a = args[0], &b = args[1];
      return Congruence::of(gcd(a.modulus, b.modulus), a.remainder + b.remainder);
    }
    case Op::Sub: {
      const Congruence &a = args[0], &b = args[1];
      return Congruence::of(gcd(a.modulus, b.modulus), a.remainder - b.remainder);
    }
    case Op::Neg:
      return Congruence::of(args[0].modulus, -args[0].remainder);
    case Op::Mul: {
      // (k1*m1 + r1)(k2*m2 + r2) = k1k2*m1m2 + k1*m1r2 + k2*m2r1 + r1r2 (every value < 2^124).
      const Congruence &a = args[0], &b = args[1];
      const Int m = gcd(gcd(a.modulus * b.modulus, a.modulus * b.remainder), b.modulus * a.remainder);
      return Congruence::of(m, a.remainder * b.remainder);
    }
    case Op::Shl: {
      if (!args[1].is_constant() || args[1].remainder < 0 || args[1].remainder > 62) return Congruence::unknown();
      const Congruence factor = Congruence::constant(Int(1) << int(args[1].remainder));
      const Congruence both[] = {args[0], factor};
      return congruence_of(Op::Mul, result, operand, both);
    }
    case Op::FloorDiv: {
      auto c = divisor();
      if (!c) return Congruence::unknown();
      const Congruence& a = args[0];
      // k*m + r with c | m: (k*m + r) // c = k*(m/c) + r // c, exactly.
      if (a.modulus % *c != 0) return Congruence::unknown();
      return Congruence::of(a.modulus / *c, floor_div(a.remainder, *c));
    }
    case Op::FloorMod: {
      auto c = divisor();
      if (!c) return Congruence::unknown();
      const Congruence& a = args[0];
      // c | m: (k*m + r) % c = r % c. Else x % c = x - c*q ≡ r (mod gcd(m, c)).
      if (a.modulus % *c == 0) return Congruence::constant(floor_mod(a.remainder, *c));
      return Congruence::of(gcd(a.modulus, *c), a.remainder);
    }
    case Op::TruncMod: {
      auto c = divisor();
      if (!c) return Congruence::unknown();
      // x - c*q for some integer q (the sign of the result depends on x's).
      return Congruence::of(gcd(args[0].modulus, *c), args[0].remainder);
    }
    case Op::Min:
    case Op::Max:
      return args[0].join(args[1]);
    case Op::Select:
      return args[1].join(args[2]);
    case Op::Cast:  // to INDEX: the value is kept
      return is_integer(operand) ? args[0] : Congruence::unknown();
    default:
      return Congruence::unknown();
  }
}

}  // namespace eqsat
