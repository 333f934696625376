// The meaning of every operation of the expression language, as Z3 terms.
//
// One dtype, one Z3 sort:
//   INDEX          Int (a mathematical integer), or, in the bit-vector fallback, a
//                  `index_bits`-wide bit-vector whose every intermediate value is
//                  required to fit (see `Conditions::fits`)
//   BOOL           Bool
//   INTn / UINTn   n-bit bit-vectors: wrap-around is the bit-vector arithmetic itself;
//                  or, in the wrapped-integer model, Int holding the value, each result
//                  reduced into the dtype's range (see FixedWidthModel)
//   FP16 BF16 FP32 FP64   Z3 floating point (5,11) (8,8) (8,24) (11,53), rounding to
//                  nearest even; NaN, infinities and signed zeros are values
//
// This must agree with ir/fold.cpp, the constant folder, value for value wherever the
// folder folds: tests/verify/fold_vs_z3_test.cpp checks it on the edges of every dtype.
// Where the folder declines on a defined operation (float min/max of NaN or of zeros
// of both signs), Z3's fp.min / fp.max give the IEEE 754-2008 minNum / maxNum, with
// min(-0.0, +0.0) left unspecified: a rule proved here holds whichever zero it picks.
#pragma once

#include <z3++.h>

#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "ir/fast_math.h"
#include "ir/op.h"
#include "ir/value.h"

namespace eqsat::verify {

// How INDEX values are represented.
enum class IndexModel : uint8_t {
  Integer,    // Z3 Int: exact
  BitVector,  // a wide bit-vector with no-overflow hypotheses: the fallback
};

// How INTn / UINTn values are represented.
enum class FixedWidthModel : uint8_t {
  BitVector,       // n-bit bit-vectors: the default, and Z3 decides most rules at once
  WrappedInteger,  // Z3 Int in the dtype's range; a result that leaves it is reduced
                   // modulo 2^n. Exact too, and far easier for Z3 where the bit-vector
                   // circuits are large: a 32- or 64-bit division by a variable.
                   // Bitwise operations, shifts and float conversions have no
                   // translation (Unsupported); INDEX must be Integer.
};

// How float values are represented.
enum class FloatModel : uint8_t {
  Ieee,  // Z3 floating point: the spec's semantics, rounding and all
  Real,  // Z3 Real: every float a real number and every operation exact (no rounding,
         // no NaN, infinities or signed zeros; a NaN or infinite literal is an unknown
         // real, one per literal; a float-to-integer cast is Unsupported). Not the
         // spec's semantics: two results equal here differ at most by rounding, which
         // is what translation validation under reassoc asks (verify/equivalence.h).
};

// Thrown when an operation has no translation in the chosen model (bitwise operations
// and shifts by a symbolic amount on INDEX as Int): the caller tries the bit-vector model.
struct Unsupported : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// What an operation adds besides its value.
struct Conditions {
  explicit Conditions(z3::context& ctx) : defined(ctx.bool_val(true)), fits(ctx.bool_val(true)) {}
  z3::expr defined;  // the operation itself is defined (divisor != 0, shift in range, ...)
  z3::expr fits;     // bit-vector INDEX model: the exact result fits in index_bits
};

class Semantics {
 public:
  // `fast_math`: the relaxed float semantics the proof may assume (ir/fast_math.h):
  // nsz changes `same`, nnan and ninf `assumed_defined`; reassoc has no meaning here
  // (verify/reassociation.h).
  Semantics(z3::context& ctx, IndexModel index_model, unsigned index_bits = 64, FastMath fast_math = {},
            FixedWidthModel fixed_width_model = FixedWidthModel::BitVector, FloatModel float_model = FloatModel::Ieee,
            bool poison_sums_and_products = true);

  z3::context& ctx() const { return ctx_; }
  IndexModel index_model() const { return index_model_; }
  FixedWidthModel fixed_width_model() const { return fixed_width_model_; }
  FloatModel float_model() const { return float_model_; }
  // Whether, under nnan or ninf, a NaN or infinite result of a float +, - or * is poison,
  // as one of any other operation, an input or a literal is. Off, neither is one that
  // another operation passes on from such an operand (verify/pattern_terms.h).
  bool poison_sums_and_products() const { return poison_sums_and_products_; }
  // Whether values of `t` are Z3 bit-vectors (else Int, Bool or floating point).
  bool is_bv(DType t) const {
    if (t == DType::Index) return index_model_ == IndexModel::BitVector;
    return is_fixed_width_int(t) && fixed_width_model_ == FixedWidthModel::BitVector;
  }
  // What a variable of `dtype` ranges over beyond its sort: in the wrapped-integer model
  // the range of a fixed-width dtype; True otherwise. The prover asserts it.
  z3::expr variable_range(const z3::expr& variable, DType dtype) const;
  unsigned index_bits() const { return index_bits_; }

  z3::sort sort(DType dtype) const;
  z3::expr variable(const std::string& name, DType dtype) const;
  // A literal. A fixed-width value is already wrapped; an INDEX literal that does not
  // fit the bit-vector model makes `cond.fits` false.
  z3::expr constant(const Value& value, Conditions& cond) const;

  // `op` applied to `args` whose dtypes are `arg_dtypes`; `result` is the node's dtype
  // (BOOL for comparisons, the target for Cast). `cond` receives this operation's own
  // definedness and fit, not its operands'.
  z3::expr apply(Op op, DType result, std::span<const z3::expr> args, std::span<const DType> arg_dtypes,
                 Conditions& cond) const;

  // The spec's equality of two values of `dtype`: for floats the same IEEE value, NaN
  // equal to NaN and -0.0 different from +0.0 (SMT-LIB's `=` on floats is exactly that).
  // Under nsz two zeros of either sign are the same too.
  z3::expr same(const z3::expr& a, const z3::expr& b, DType dtype) const;

  FastMath fast_math() const { return fast_math_; }

  // What the fast-math flags let a proof assume of a value of `dtype` that an operation
  // takes or produces: not NaN under nnan, not infinite under ninf (a value that is
  // makes the expression poison, i.e. undefined, as in LLVM). True otherwise.
  z3::expr assumed_defined(const z3::expr& value, DType dtype) const;

  // The integer a value of an integer dtype or BOOL stands for, as a Z3 Int (signed or
  // unsigned reading by dtype). Floats have none: nullopt.
  std::optional<z3::expr> integer_value(const z3::expr& value, DType dtype) const;

  // lo <= value <= hi for the integer `value` stands for (a missing side is no bound).
  // Compares in the value's own sort (no bv2int, which Z3 handles slowly); True for
  // floats, which have no interval.
  z3::expr in_range(const z3::expr& value, DType dtype, std::optional<Int> lo, std::optional<Int> hi) const;

  // Reads a value back from a model.
  Value model_value(const z3::model& model, const z3::expr& value, DType dtype) const;

  // Definitions of the fresh terms the translation introduced (the quotient and
  // remainder of an INDEX division by a non-literal divisor): the caller must assert
  // them, at top level, next to whatever uses the terms apply() returned. Each
  // definition only constrains its own fresh terms and is satisfiable for every value
  // of the rest, so asserting it changes no verdict; it determines them uniquely
  // wherever the operation is defined. They come with lemmas (theorems of integer
  // arithmetic, so also changing no verdict) that help Z3 compare multiples of a
  // divisor: |u*b - v*b| < |b| implies u = v.
  z3::expr definitions() const;

 private:
  // A fixed-width dtype held as Int (the wrapped-integer model).
  bool is_wrapped_int(DType t) const {
    return is_fixed_width_int(t) && fixed_width_model_ == FixedWidthModel::WrappedInteger;
  }
  // The Int `v` reduced into the range of the fixed-width `t`, as the bit-vector would
  // wrap it: modulo 2^n, into [-2^(n-1), 2^(n-1)) or [0, 2^n).
  z3::expr wrapped(const z3::expr& v, DType t) const;
  unsigned width(DType t) const;
  bool is_signed_bv(DType t) const { return t == DType::Index || is_signed_int(t); }
  z3::expr bv_constant(Int value, unsigned bits) const;
  z3::expr rne() const;
  // A float dtype held as Real (FloatModel::Real).
  bool is_real_float(DType t) const { return is_float(t) && float_model_ == FloatModel::Real; }
  z3::expr real_float_op(Op op, std::span<const z3::expr> args) const;
  z3::expr real_float_cast(DType from, DType to, const z3::expr& a) const;

  z3::expr integer_arith(Op op, DType t, const z3::expr& a, const z3::expr& b, Conditions& cond) const;
  z3::expr integer_divide(Op op, DType t, const z3::expr& a, const z3::expr& b, Conditions& cond) const;
  z3::expr shift(Op op, DType t, const z3::expr& a, const z3::expr& s, DType st, Conditions& cond) const;
  z3::expr float_op(Op op, DType t, std::span<const z3::expr> args) const;
  z3::expr compare(Op op, DType t, const z3::expr& a, const z3::expr& b) const;
  z3::expr less(DType t, const z3::expr& a, const z3::expr& b) const;
  z3::expr less_equal(DType t, const z3::expr& a, const z3::expr& b) const;
  z3::expr cast(DType from, DType to, const z3::expr& a, Conditions& cond) const;
  z3::expr float_to_int(DType from, DType to, const z3::expr& a, Conditions& cond) const;
  z3::expr int_to_int(DType from, DType to, const z3::expr& a, Conditions& cond) const;
  // For a shift amount `s` of dtype `st`: whether its value is >= k, or < k.
  z3::expr amount_at_least(const z3::expr& s, DType st, Int k) const;

  // INDEX (as Int) a // b, a % b (or truncdiv, truncmod) for a non-literal b: a fresh
  // quotient and remainder defined by a = q*b + r and the remainder's range, once per
  // (a, b, rounding).
  std::pair<z3::expr, z3::expr> fresh_divmod(const z3::expr& a, const z3::expr& b, bool floor) const;

  z3::context& ctx_;
  IndexModel index_model_;
  unsigned index_bits_;
  FastMath fast_math_;
  FixedWidthModel fixed_width_model_;
  FloatModel float_model_;
  bool poison_sums_and_products_;
  struct DivMod {
    z3::expr a, b;
    bool floor;
    z3::expr q, r;
  };
  mutable std::vector<DivMod> divmods_;
  mutable std::vector<std::pair<z3::expr, z3::expr>> products_;  // INDEX (as Int) a * b
  mutable std::vector<z3::expr> definitions_;
};

}  // namespace eqsat::verify
