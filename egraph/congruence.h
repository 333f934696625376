// The (modulus, remainder) analysis: every value of a class is k*modulus + remainder
// for some integer k, as Halide's ModulusRemainder and TVM's ModularSet.
//
//   modulus >= 1, 0 <= remainder < modulus   x ≡ remainder (mod modulus)
//   modulus == 1 (remainder 0)                nothing known (every integer)
//   modulus == 0                              x is the constant `remainder`
//
// INDEX classes get every fact. A fixed-width value wraps at 2^n, which breaks every
// congruence whose modulus does not divide 2^n: its + - * << and casts keep only a
// modulus dividing 2^n (`x * 8` on UINT32 is 8k + 0, so `x * 8 % 4` is 0), unsigned
// // and % by a constant are exact, and a signed division knows nothing. BOOL and
// floats always have "nothing known". Rule guards read INDEX congruences only. All
// arithmetic is checked; a modulus or remainder that would leave kCongruenceLimit
// gives up to "nothing known", so nothing overflows.
#pragma once

#include <span>
#include <string>

#include "ir/dtype.h"
#include "ir/int128.h"
#include "ir/op.h"

namespace eqsat {

struct Congruence {
  Int modulus = 1;
  Int remainder = 0;

  static Congruence unknown() { return {}; }
  static Congruence constant(Int c);
  // x ≡ r (mod m), normalized (m < 0 is |m|, r reduced into [0, m)); m == 0: the constant r.
  static Congruence of(Int m, Int r);

  bool is_unknown() const { return modulus == 1; }
  bool is_constant() const { return modulus == 0; }
  // Whether the integer v satisfies the fact.
  bool contains(Int v) const;

  // Both facts hold (the class has both): the finer of the two, or their combination
  // by the Chinese remainder theorem. When they contradict (no integer has both; only
  // under contradictory assumptions) `*this` is kept.
  Congruence intersect(const Congruence& other) const;
  // Either fact holds (min, max, select): the finest fact both imply.
  Congruence join(const Congruence& other) const;

  friend bool operator==(const Congruence&, const Congruence&) = default;
  std::string to_string() const;  // "4k+1", "7", "any"
};

// Limit on |modulus| and |remainder|; anything larger becomes unknown.
inline constexpr Int kCongruenceLimit = Int(1) << 62;

// The congruence of `op` applied to operands with congruences `args`, for a node of
// dtype `result` whose operands have dtype `operand` (for Select, the branches').
// Anything but an integer dtype gives Congruence::unknown().
Congruence congruence_of(Op op, DType result, DType operand, std::span<const Congruence> args);

// The smallest value >= lo and the largest <= hi that satisfy `c` (m >= 1).
Int round_up_to(const Congruence& c, Int lo);
Int round_down_to(const Congruence& c, Int hi);

}  // namespace eqsat
