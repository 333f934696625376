// Constant folding: each dtype's exact semantics, and what is left unfolded.
#include "ir/fold.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <random>
#include <vector>

namespace eqsat {
namespace {

using D = DType;

constexpr double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

Value c(Int v, DType t) { return Value::integer(t, v); }
Value f(double v, DType t) { return Value::floating(t, v); }
Value b(bool v) { return Value::boolean(v); }

// Folds an operation whose result has the dtype of its first operand.
std::optional<Value> eval(Op op, std::initializer_list<Value> args) {
  return fold(op, args.begin()->dtype, std::span<const Value>(args.begin(), args.size()));
}
// Comparisons, and anything else with an explicit result dtype.
std::optional<Value> eval_as(DType result, Op op, std::initializer_list<Value> args) {
  return fold(op, result, std::span<const Value>(args.begin(), args.size()));
}
std::optional<Value> cast(Value a, DType to) { return eval_as(to, Op::Cast, {a}); }

// ---------------------------------------------------------------- fixed-width integers

TEST(FoldInt, FixedWidthWraps) {
  EXPECT_EQ(eval(Op::Add, {c(127, D::Int8), c(1, D::Int8)}), c(-128, D::Int8));
  EXPECT_EQ(eval(Op::Sub, {c(0, D::UInt8), c(1, D::UInt8)}), c(255, D::UInt8));
  EXPECT_EQ(eval(Op::Mul, {c(65535, D::UInt16), c(65535, D::UInt16)}), c(1, D::UInt16));
  EXPECT_EQ(eval(Op::Mul, {c(-1, D::UInt64), c(-1, D::UInt64)}), c(1, D::UInt64));  // (2^64-1)^2
  EXPECT_EQ(eval(Op::Neg, {c(-128, D::Int8)}), c(-128, D::Int8));
  EXPECT_EQ(eval(Op::Abs, {c(-128, D::Int8)}), c(-128, D::Int8));
  EXPECT_EQ(eval(Op::Abs, {c(-5, D::Int8)}), c(5, D::Int8));
  EXPECT_EQ(eval(Op::Neg, {c(1, D::UInt32)}), c(4294967295, D::UInt32));
}

TEST(FoldInt, EdgesOfEveryFixedWidthDtype) {
  for (DType t : {D::Int8, D::Int16, D::Int32, D::Int64, D::UInt8, D::UInt16, D::UInt32, D::UInt64}) {
    SCOPED_TRACE(std::string(dtype_name(t)));
    const Value min = c(dtype_min(t), t), max = c(dtype_max(t), t);
    const Value one = c(1, t);
    EXPECT_EQ(eval(Op::Add, {max, one}), min);
    EXPECT_EQ(eval(Op::Sub, {min, one}), max);
    EXPECT_EQ(eval(Op::Min, {min, max}), min);
    EXPECT_EQ(eval(Op::Max, {min, max}), max);
    EXPECT_EQ(eval(Op::BitNot, {min}), max);
    EXPECT_EQ(eval_as(D::Bool, Op::Lt, {min, max}), b(true));
    EXPECT_EQ(cast(max, D::Index), c(dtype_max(t), D::Index));
    EXPECT_EQ(cast(min, D::Index), c(dtype_min(t), D::Index));
    if (!is_unsigned(t)) {
      EXPECT_EQ(eval(Op::Neg, {min}), min);
      EXPECT_EQ(eval(Op::Mul, {min, c(-1, t)}), min);
    }
  }
}

TEST(FoldInt, FloorAndTruncDivisionOnNegatives) {
  for (DType t : {D::Index, D::Int8, D::Int32, D::Int64}) {
    SCOPED_TRACE(std::string(dtype_name(t)));
    EXPECT_EQ(eval(Op::FloorDiv, {c(-7, t), c(2, t)}), c(-4, t));
    EXPECT_EQ(eval(Op::FloorMod, {c(-7, t), c(2, t)}), c(1, t));
    EXPECT_EQ(eval(Op::TruncDiv, {c(-7, t), c(2, t)}), c(-3, t));
    EXPECT_EQ(eval(Op::TruncMod, {c(-7, t), c(2, t)}), c(-1, t));
    EXPECT_EQ(eval(Op::FloorMod, {c(7, t), c(-2, t)}), c(-1, t));  // divisor's sign
    EXPECT_EQ(eval(Op::FloorDiv, {c(7, t), c(-2, t)}), c(-4, t));
    EXPECT_EQ(eval(Op::TruncMod, {c(7, t), c(-2, t)}), c(1, t));  // dividend's sign
    EXPECT_EQ(eval(Op::FloorDiv, {c(6, t), c(-2, t)}), c(-3, t));
  }
}

TEST(FoldInt, UnsignedDivisionIsPlain) {
  EXPECT_EQ(eval(Op::FloorDiv, {c(250, D::UInt8), c(7, D::UInt8)}), c(35, D::UInt8));
  EXPECT_EQ(eval(Op::FloorMod, {c(250, D::UInt8), c(7, D::UInt8)}), c(5, D::UInt8));
  EXPECT_EQ(eval(Op::TruncDiv, {c(-1, D::UInt64), c(2, D::UInt64)}), c(dtype_max(D::Int64), D::UInt64));
}

TEST(FoldInt, MinimumDividedByMinusOneWraps) {
  const Int int_min = dtype_min(D::Int32);
  EXPECT_EQ(eval(Op::FloorDiv, {c(int_min, D::Int32), c(-1, D::Int32)}), c(int_min, D::Int32));
  EXPECT_EQ(eval(Op::TruncDiv, {c(int_min, D::Int32), c(-1, D::Int32)}), c(int_min, D::Int32));
  EXPECT_EQ(eval(Op::FloorMod, {c(int_min, D::Int32), c(-1, D::Int32)}), c(0, D::Int32));
  EXPECT_EQ(eval(Op::TruncMod, {c(int_min, D::Int32), c(-1, D::Int32)}), c(0, D::Int32));
}

TEST(FoldInt, DivisionByZeroIsNotFolded) {
  for (DType t : {D::Index, D::Int8, D::UInt64}) {
    for (Op op : {Op::FloorDiv, Op::FloorMod, Op::TruncDiv, Op::TruncMod}) {
      EXPECT_EQ(eval(op, {c(7, t), c(0, t)}), std::nullopt);
      EXPECT_EQ(eval(op, {c(0, t), c(0, t)}), std::nullopt);
    }
  }
}

TEST(FoldInt, ShiftsWithinTheWidth) {
  EXPECT_EQ(eval(Op::Shl, {c(1, D::Int32), c(31, D::Int32)}), c(dtype_min(D::Int32), D::Int32));
  EXPECT_EQ(eval(Op::Shl, {c(0xff, D::UInt8), c(4, D::UInt8)}), c(0xf0, D::UInt8));
  // >> is logical on unsigned, arithmetic on signed.
  EXPECT_EQ(eval(Op::Shr, {c(0x80000000, D::UInt32), c(4, D::UInt32)}), c(0x08000000, D::UInt32));
  EXPECT_EQ(eval(Op::Shr, {c(-(Int(1) << 31), D::Int32), c(4, D::Int32)}), c(-(Int(1) << 27), D::Int32));
  EXPECT_EQ(eval(Op::Shr, {c(-7, D::Int32), c(1, D::Int32)}), c(-4, D::Int32));  // floor(-7 / 2)
  // The amount may have another integer dtype.
  EXPECT_EQ(eval(Op::Shl, {c(3, D::Int64), c(2, D::UInt8)}), c(12, D::Int64));
}

TEST(FoldInt, ShiftsOutOfRangeAreNotFolded) {
  EXPECT_EQ(eval(Op::Shl, {c(1, D::Int32), c(32, D::Int32)}), std::nullopt);
  EXPECT_EQ(eval(Op::Shr, {c(1, D::Int32), c(-1, D::Int32)}), std::nullopt);
  EXPECT_EQ(eval(Op::Shl, {c(1, D::UInt8), c(8, D::UInt8)}), std::nullopt);
  EXPECT_EQ(eval(Op::Shr, {c(1, D::UInt64), c(64, D::UInt64)}), std::nullopt);
  EXPECT_EQ(eval(Op::Shl, {c(1, D::Int8), c(200, D::Index)}), std::nullopt);
  EXPECT_EQ(eval(Op::Shl, {c(1, D::Index), c(-1, D::Index)}), std::nullopt);
}

TEST(FoldInt, BitwiseOnUnsignedMasks) {
  EXPECT_EQ(eval(Op::BitNot, {c(5, D::UInt8)}), c(250, D::UInt8));
  EXPECT_EQ(eval(Op::BitXor, {c(0xf0, D::UInt8), c(0xff, D::UInt8)}), c(0x0f, D::UInt8));
  EXPECT_EQ(eval(Op::BitAnd, {c(-1, D::Int16), c(0x1234, D::Int16)}), c(0x1234, D::Int16));
}

// ---------------------------------------------------------------- INDEX

TEST(FoldIndex, NeverWraps) {
  EXPECT_EQ(eval(Op::Add, {c(dtype_max(D::Int64), D::Index), c(1, D::Index)}), c(Int(1) << 63, D::Index));
  EXPECT_EQ(eval(Op::Mul, {c(Int(1) << 40, D::Index), c(Int(1) << 40, D::Index)}), c(Int(1) << 80, D::Index));
}

TEST(FoldIndex, HugeResultsAreNotFolded) {
  // Results of magnitude >= 2^100 are refused, so are 128-bit overflows.
  const Int big = Int(1) << 99;
  EXPECT_EQ(eval(Op::Add, {c(big, D::Index), c(big - 1, D::Index)}), c(2 * big - 1, D::Index));
  EXPECT_EQ(eval(Op::Add, {c(big, D::Index), c(big, D::Index)}), std::nullopt);
  EXPECT_EQ(eval(Op::Sub, {c(-big, D::Index), c(big, D::Index)}), std::nullopt);
  EXPECT_EQ(eval(Op::Mul, {c(Int(1) << 64, D::Index), c(Int(1) << 64, D::Index)}), std::nullopt);
  EXPECT_EQ(eval(Op::Neg, {c(Int(UInt(1) << 127), D::Index)}), std::nullopt);
  EXPECT_EQ(eval(Op::FloorDiv, {c(Int(UInt(1) << 127), D::Index), c(-1, D::Index)}), std::nullopt);
}

TEST(FoldIndex, BitwiseIsInfiniteTwosComplement) {
  EXPECT_EQ(eval(Op::BitNot, {c(5, D::Index)}), c(-6, D::Index));
  EXPECT_EQ(eval(Op::BitNot, {c(-1, D::Index)}), c(0, D::Index));
  EXPECT_EQ(eval(Op::BitAnd, {c(-1, D::Index), c(7, D::Index)}), c(7, D::Index));
  EXPECT_EQ(eval(Op::BitAnd, {c(-8, D::Index), c(13, D::Index)}), c(8, D::Index));
  EXPECT_EQ(eval(Op::BitOr, {c(-8, D::Index), c(3, D::Index)}), c(-5, D::Index));
  EXPECT_EQ(eval(Op::BitXor, {c(-1, D::Index), c(5, D::Index)}), c(-6, D::Index));
}

TEST(FoldIndex, Shifts) {
  EXPECT_EQ(eval(Op::Shl, {c(3, D::Index), c(70, D::Index)}), c(Int(3) << 70, D::Index));
  EXPECT_EQ(eval(Op::Shl, {c(1, D::Index), c(99, D::Index)}), c(Int(1) << 99, D::Index));
  EXPECT_EQ(eval(Op::Shl, {c(1, D::Index), c(100, D::Index)}), std::nullopt);  // 2^100
  EXPECT_EQ(eval(Op::Shl, {c(1, D::Index), c(1000, D::Index)}), std::nullopt);
  EXPECT_EQ(eval(Op::Shl, {c(0, D::Index), c(1000, D::Index)}), c(0, D::Index));
  EXPECT_EQ(eval(Op::Shr, {c(-7, D::Index), c(1, D::Index)}), c(-4, D::Index));
  EXPECT_EQ(eval(Op::Shr, {c(-1, D::Index), c(500, D::Index)}), c(-1, D::Index));
  EXPECT_EQ(eval(Op::Shr, {c(12345, D::Index), c(500, D::Index)}), c(0, D::Index));
  EXPECT_EQ(eval(Op::Shr, {c(8, D::Index), c(-1, D::Index)}), std::nullopt);
}

TEST(FoldIndex, MinMaxAbs) {
  EXPECT_EQ(eval(Op::Min, {c(-3, D::Index), c(2, D::Index)}), c(-3, D::Index));
  EXPECT_EQ(eval(Op::Max, {c(-3, D::Index), c(2, D::Index)}), c(2, D::Index));
  EXPECT_EQ(eval(Op::Abs, {c(-3, D::Index)}), c(3, D::Index));
}

// ---------------------------------------------------------------- randomized, fixed width

// A fixed-width value as its bit pattern in a uint64_t, computed the C way.
struct Reference {
  DType t;
  int bits = bit_width(t);
  bool is_signed = !is_unsigned(t);
  uint64_t mask = bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;

  int64_t as_signed(uint64_t p) const {
    const uint64_t sign = uint64_t(1) << (bits - 1);
    return int64_t((p ^ sign) - sign);  // sign-extend
  }
  Int to_int(uint64_t p) const { return is_signed ? Int(as_signed(p)) : Int(p); }
  bool less(uint64_t a, uint64_t b) const { return is_signed ? as_signed(a) < as_signed(b) : a < b; }

  std::optional<uint64_t> apply(Op op, uint64_t a, uint64_t b) const {
    const uint64_t min_pattern = is_signed ? uint64_t(1) << (bits - 1) : 0;
    switch (op) {
      case Op::Add:
        return (a + b) & mask;
      case Op::Sub:
        return (a - b) & mask;
      case Op::Mul:
        return (a * b) & mask;
      case Op::BitAnd:
        return a & b;
      case Op::BitOr:
        return a | b;
      case Op::BitXor:
        return a ^ b;
      case Op::Min:
        return less(a, b) ? a : b;
      case Op::Max:
        return less(a, b) ? b : a;
      case Op::Shl:
      case Op::Shr: {
        const int64_t s = is_signed ? as_signed(b) : int64_t(b);
        if (s < 0 || s >= bits) return std::nullopt;
        if (op == Op::Shl) return (a << s) & mask;
        return is_signed ? uint64_t(as_signed(a) >> s) & mask : a >> s;
      }
      default:
        break;
    }
    // Division.
    if (b == 0) return std::nullopt;
    if (!is_signed) return op == Op::FloorDiv || op == Op::TruncDiv ? a / b : a % b;
    const int64_t x = as_signed(a), y = as_signed(b);
    if (a == min_pattern && y == -1) {  // C's undefined case: wraps
      return op == Op::FloorDiv || op == Op::TruncDiv ? min_pattern : 0;
    }
    int64_t q = x / y, r = x % y;
    if ((op == Op::FloorDiv || op == Op::FloorMod) && r != 0 && ((r < 0) != (y < 0))) {
      q -= 1;
      r += y;
    }
    return uint64_t(op == Op::FloorDiv || op == Op::TruncDiv ? q : r) & mask;
  }

  uint64_t random(std::mt19937_64& rng) const {
    switch (rng() % 6) {
      case 0:
        return (rng() % 9 - 4) & mask;  // small, either sign
      case 1:
        return is_signed ? uint64_t(1) << (bits - 1) : 0;  // min
      case 2:
        return is_signed ? mask >> 1 : mask;  // max
      case 3:
        return rng() % (bits + 3);  // a plausible shift amount
      default:
        return rng() & mask;
    }
  }
};

TEST(FoldInt, RandomizedAgainstCArithmetic) {
  std::mt19937_64 rng(42);
  for (DType t : {D::Int8, D::Int16, D::Int32, D::Int64, D::UInt8, D::UInt16, D::UInt32, D::UInt64}) {
    const Reference ref{t};
    for (Op op : {Op::Add, Op::Sub, Op::Mul, Op::BitAnd, Op::BitOr, Op::BitXor, Op::Shl, Op::Shr, Op::Min, Op::Max,
                  Op::FloorDiv, Op::FloorMod, Op::TruncDiv, Op::TruncMod}) {
      for (int n = 0; n < 3000; ++n) {
        const uint64_t a = ref.random(rng), bb = ref.random(rng);
        const std::optional<uint64_t> want = ref.apply(op, a, bb);
        const std::optional<Value> got = eval(op, {c(ref.to_int(a), t), c(ref.to_int(bb), t)});
        ASSERT_EQ(got.has_value(), want.has_value())
            << dtype_name(t) << " " << op_info(op).name << " " << a << " " << bb;
        if (want) {
          ASSERT_EQ(*got, c(ref.to_int(*want), t)) << dtype_name(t) << " " << op_info(op).name << " " << a << " " << bb;
        }
      }
    }
  }
}

// ---------------------------------------------------------------- floats

TEST(FoldFloat, SignedZeroAddition) {
  const auto sum = eval(Op::Add, {f(-0.0, D::FP32), f(0.0, D::FP32)});
  ASSERT_TRUE(sum);
  EXPECT_EQ(*sum, f(0.0, D::FP32));
  EXPECT_NE(*sum, f(-0.0, D::FP32));
  EXPECT_EQ(eval(Op::Add, {f(-0.0, D::FP32), f(-0.0, D::FP32)}), f(-0.0, D::FP32));
  EXPECT_EQ(eval(Op::Sub, {f(1.5, D::FP16), f(1.5, D::FP16)}), f(0.0, D::FP16));
}

TEST(FoldFloat, RoundsToTheDtype) {
  EXPECT_EQ(eval(Op::Add, {f(0.1, D::FP32), f(0.2, D::FP32)}), f(double(0.1f + 0.2f), D::FP32));
  EXPECT_EQ(eval(Op::Add, {f(2048, D::FP16), f(1, D::FP16)}), f(2048, D::FP16));  // tie to even
  EXPECT_EQ(eval(Op::Mul, {f(256, D::FP16), f(256, D::FP16)}), f(kInf, D::FP16));
  EXPECT_EQ(eval(Op::Add, {f(0.1, D::FP64), f(0.2, D::FP64)}), f(0.30000000000000004, D::FP64));
}

TEST(FoldFloat, DivisionByZeroFollowsIEEE) {
  EXPECT_EQ(eval(Op::Div, {f(1, D::FP32), f(0.0, D::FP32)}), f(kInf, D::FP32));
  EXPECT_EQ(eval(Op::Div, {f(1, D::FP32), f(-0.0, D::FP32)}), f(-kInf, D::FP32));
  EXPECT_EQ(eval(Op::Div, {f(-1, D::FP16), f(0.0, D::FP16)}), f(-kInf, D::FP16));
  EXPECT_EQ(eval(Op::Div, {f(0.0, D::FP64), f(0.0, D::FP64)}), f(kNaN, D::FP64));
}

TEST(FoldFloat, NegAndAbsOnlyTouchTheSign) {
  EXPECT_EQ(eval(Op::Neg, {f(0.0, D::FP32)}), f(-0.0, D::FP32));
  EXPECT_EQ(eval(Op::Neg, {f(-0.0, D::BF16)}), f(0.0, D::BF16));
  EXPECT_EQ(eval(Op::Abs, {f(-0.0, D::FP32)}), f(0.0, D::FP32));
  EXPECT_EQ(eval(Op::Abs, {f(-kInf, D::FP16)}), f(kInf, D::FP16));
  EXPECT_EQ(eval(Op::Neg, {f(kNaN, D::FP32)}), f(kNaN, D::FP32));  // still the one NaN
}

TEST(FoldFloat, MinMaxOnlyWhereConventionsAgree) {
  EXPECT_EQ(eval(Op::Min, {f(1, D::FP32), f(2, D::FP32)}), f(1, D::FP32));
  EXPECT_EQ(eval(Op::Max, {f(1, D::FP32), f(2, D::FP32)}), f(2, D::FP32));
  EXPECT_EQ(eval(Op::Min, {f(-kInf, D::FP32), f(2, D::FP32)}), f(-kInf, D::FP32));
  EXPECT_EQ(eval(Op::Min, {f(-0.0, D::FP32), f(-0.0, D::FP32)}), f(-0.0, D::FP32));
  EXPECT_EQ(eval(Op::Min, {f(kNaN, D::FP32), f(1, D::FP32)}), std::nullopt);
  EXPECT_EQ(eval(Op::Max, {f(1, D::FP32), f(kNaN, D::FP32)}), std::nullopt);
  EXPECT_EQ(eval(Op::Min, {f(-0.0, D::FP32), f(0.0, D::FP32)}), std::nullopt);
  EXPECT_EQ(eval(Op::Max, {f(0.0, D::FP32), f(-0.0, D::FP32)}), std::nullopt);
}

TEST(FoldFloat, IntegerOnlyOpsAreNotFolded) {
  for (Op op : {Op::FloorDiv, Op::FloorMod, Op::TruncDiv, Op::TruncMod, Op::BitAnd, Op::Shl}) {
    EXPECT_EQ(eval(op, {f(7, D::FP32), f(2, D::FP32)}), std::nullopt);
  }
  EXPECT_EQ(eval(Op::Div, {c(7, D::Int32), c(2, D::Int32)}), std::nullopt);
}

// Random + - * / against the hardware: float for FP32, _Float16 for FP16, and BF16 via
// float arithmetic (24 >= 2 * 8 + 2 bits, so rounding twice is harmless) and bit rounding.
double bf16_of_float(float x) {
  if (std::isnan(x)) return double(x);
  uint32_t bits = std::bit_cast<uint32_t>(x);
  bits += 0x7fff + ((bits >> 16) & 1);
  return std::bit_cast<float>(bits & 0xffff0000u);
}

TEST(FoldFloat, RandomizedAgainstHardware) {
  std::mt19937_64 rng(7);
  auto random_double = [&](int exp_range) {
    const int exp = int(rng() % (2 * exp_range)) - exp_range;
    return std::ldexp(double(rng() >> 11) / double(1ull << 53), exp) * (rng() & 1 ? -1 : 1);
  };
  for (int n = 0; n < 100000; ++n) {
    const Op op = std::vector<Op>{Op::Add, Op::Sub, Op::Mul, Op::Div}[rng() % 4];
    auto compute = [op](auto x, auto y) -> decltype(x) {
      switch (op) {
        case Op::Add:
          return x + y;
        case Op::Sub:
          return x - y;
        case Op::Mul:
          return x * y;
        default:
          return x / y;
      }
    };
    {
      const float x = float(random_double(140)), y = float(random_double(140));
      const volatile float want = compute(x, y);
      EXPECT_EQ(eval(op, {f(x, D::FP32), f(y, D::FP32)}), f(want, D::FP32)) << x << " " << y;
      const float bx = float(bf16_of_float(x)), by = float(bf16_of_float(y));
      EXPECT_EQ(eval(op, {f(bx, D::BF16), f(by, D::BF16)}), f(bf16_of_float(compute(bx, by)), D::BF16))
          << bx << " " << by;
    }
#ifdef __FLT16_MAX__
    {
      const auto x = static_cast<_Float16>(random_double(20)), y = static_cast<_Float16>(random_double(20));
      const volatile _Float16 want = compute(x, y);
      EXPECT_EQ(eval(op, {f(double(x), D::FP16), f(double(y), D::FP16)}), f(double(want), D::FP16))
          << double(x) << " " << double(y);
    }
#endif
  }
}

// ---------------------------------------------------------------- comparisons and logic

TEST(FoldCompare, IntegersBySignedness) {
  EXPECT_EQ(eval_as(D::Bool, Op::Lt, {c(-1, D::Int8), c(1, D::Int8)}), b(true));
  EXPECT_EQ(eval_as(D::Bool, Op::Lt, {c(-1, D::UInt8), c(1, D::UInt8)}), b(false));  // 255 < 1
  EXPECT_EQ(eval_as(D::Bool, Op::Ge, {c(3, D::Index), c(3, D::Index)}), b(true));
  EXPECT_EQ(eval_as(D::Bool, Op::Ne, {c(3, D::Index), c(3, D::Index)}), b(false));
  EXPECT_EQ(eval_as(D::Bool, Op::Eq, {b(true), b(true)}), b(true));
}

TEST(FoldCompare, FloatsFollowIEEE) {
  const Value nan = f(kNaN, D::FP32), one = f(1, D::FP32);
  EXPECT_EQ(eval_as(D::Bool, Op::Eq, {nan, nan}), b(false));
  EXPECT_EQ(eval_as(D::Bool, Op::Ne, {nan, nan}), b(true));
  EXPECT_EQ(eval_as(D::Bool, Op::Lt, {nan, one}), b(false));
  EXPECT_EQ(eval_as(D::Bool, Op::Ge, {nan, one}), b(false));
  EXPECT_EQ(eval_as(D::Bool, Op::Ne, {one, nan}), b(true));
  EXPECT_EQ(eval_as(D::Bool, Op::Eq, {f(-0.0, D::FP32), f(0.0, D::FP32)}), b(true));
  EXPECT_EQ(eval_as(D::Bool, Op::Lt, {f(-0.0, D::FP32), f(0.0, D::FP32)}), b(false));
}

TEST(FoldCompare, MismatchedDtypesAreNotFolded) {
  EXPECT_EQ(eval_as(D::Bool, Op::Eq, {c(1, D::Int32), c(1, D::Int64)}), std::nullopt);
}

TEST(FoldLogic, BoolOps) {
  EXPECT_EQ(eval(Op::And, {b(true), b(false)}), b(false));
  EXPECT_EQ(eval(Op::Or, {b(true), b(false)}), b(true));
  EXPECT_EQ(eval(Op::Not, {b(false)}), b(true));
  EXPECT_EQ(eval(Op::Add, {b(true), b(true)}), std::nullopt);  // no arithmetic on BOOL
}

TEST(FoldSelect, PicksABranch) {
  EXPECT_EQ(eval_as(D::Int32, Op::Select, {b(true), c(1, D::Int32), c(2, D::Int32)}), c(1, D::Int32));
  EXPECT_EQ(eval_as(D::FP16, Op::Select, {b(false), f(1, D::FP16), f(-0.0, D::FP16)}), f(-0.0, D::FP16));
}

// ---------------------------------------------------------------- casts

TEST(FoldCast, IntegerToIntegerWraps) {
  EXPECT_EQ(cast(c(300, D::Int32), D::Int8), c(44, D::Int8));
  EXPECT_EQ(cast(c(-1, D::Int32), D::UInt32), c(4294967295, D::UInt32));
  EXPECT_EQ(cast(c(-1, D::UInt64), D::Int64), c(-1, D::Int64));
  EXPECT_EQ(cast(c(-1, D::Index), D::UInt8), c(255, D::UInt8));
  EXPECT_EQ(cast(c(-1, D::Int8), D::UInt64), c(dtype_max(D::UInt64), D::UInt64));  // sign-extends
  EXPECT_EQ(cast(c(255, D::UInt8), D::Int16), c(255, D::Int16));
  EXPECT_EQ(cast(c(7, D::Int32), D::Int32), c(7, D::Int32));
}

TEST(FoldCast, ToAndFromBool) {
  EXPECT_EQ(cast(c(5, D::Int32), D::Bool), b(true));  // a != 0, not the low bit
  EXPECT_EQ(cast(c(256, D::Index), D::Bool), b(true));
  EXPECT_EQ(cast(c(0, D::UInt8), D::Bool), b(false));
  EXPECT_EQ(cast(f(-0.0, D::FP32), D::Bool), b(false));
  EXPECT_EQ(cast(f(0.25, D::FP32), D::Bool), b(true));
  EXPECT_EQ(cast(f(kNaN, D::FP32), D::Bool), b(true));
  EXPECT_EQ(cast(b(true), D::Int32), c(1, D::Int32));
  EXPECT_EQ(cast(b(true), D::FP16), f(1, D::FP16));
  EXPECT_EQ(cast(b(false), D::Index), c(0, D::Index));
}

TEST(FoldCast, FloatToIntegerTruncates) {
  EXPECT_EQ(cast(f(2.7, D::FP32), D::Int32), c(2, D::Int32));
  EXPECT_EQ(cast(f(-2.7, D::FP32), D::Int32), c(-2, D::Int32));
  EXPECT_EQ(cast(f(-0.5, D::FP32), D::UInt8), c(0, D::UInt8));  // truncates to 0: in range
  EXPECT_EQ(cast(f(255.9, D::FP64), D::UInt8), c(255, D::UInt8));
  EXPECT_EQ(cast(f(-128.5, D::FP64), D::Int8), c(-128, D::Int8));
  EXPECT_EQ(cast(f(1e30, D::FP64), D::Index), c(parse_int("1000000000000000019884624838656").value(), D::Index));
}

TEST(FoldCast, FloatToIntegerUndefinedCasesAreNotFolded) {
  EXPECT_EQ(cast(f(kNaN, D::FP32), D::Int32), std::nullopt);
  EXPECT_EQ(cast(f(kInf, D::FP32), D::Int64), std::nullopt);
  EXPECT_EQ(cast(f(-kInf, D::FP32), D::Index), std::nullopt);
  EXPECT_EQ(cast(f(300, D::FP32), D::Int8), std::nullopt);
  EXPECT_EQ(cast(f(-1, D::FP32), D::UInt8), std::nullopt);
  EXPECT_EQ(cast(f(std::ldexp(1, 63), D::FP64), D::Int64), std::nullopt);
  EXPECT_EQ(cast(f(std::ldexp(1, 63), D::FP64), D::UInt64), c(Int(1) << 63, D::UInt64));
  EXPECT_EQ(cast(f(1e31, D::FP64), D::Index), std::nullopt);  // beyond the INDEX fold limit
}

TEST(FoldCast, IntegerToFloatRoundsOnce) {
  EXPECT_EQ(cast(c(2049, D::Int32), D::FP16), f(2048, D::FP16));
  EXPECT_EQ(cast(c(2051, D::Int32), D::FP16), f(2052, D::FP16));
  EXPECT_EQ(cast(c(65520, D::Int32), D::FP16), f(kInf, D::FP16));
  EXPECT_EQ(cast(c(-65520, D::Int32), D::FP16), f(-kInf, D::FP16));
  EXPECT_EQ(cast(c(-1, D::UInt64), D::FP32), f(std::ldexp(1, 64), D::FP32));
  EXPECT_EQ(cast(c((Int(1) << 53) + 1, D::Int64), D::FP64), f(std::ldexp(1, 53), D::FP64));
  // Above 2^53 a detour through double would round twice: 2^60 + 2^36 + 1 is just
  // above an FP32 midpoint, but its double is the midpoint itself.
  const Int v = (Int(1) << 60) + (Int(1) << 36) + 1;
  EXPECT_EQ(cast(c(v, D::Int64), D::FP32), f(std::ldexp(1, 60) + std::ldexp(1, 37), D::FP32));
  EXPECT_EQ(cast(c(dtype_max(D::Int64), D::Int64), D::BF16), f(std::ldexp(1, 63), D::BF16));
  EXPECT_EQ(cast(c(Int(UInt(1) << 127) + 1, D::Index), D::FP64), f(-std::ldexp(1, 127), D::FP64));
}

TEST(FoldCast, FloatToFloatRoundsOnce) {
  EXPECT_EQ(cast(f(0.1, D::FP64), D::FP32), f(double(0.1f), D::FP32));
  EXPECT_EQ(cast(f(65520, D::FP32), D::FP16), f(kInf, D::FP16));
  EXPECT_EQ(cast(f(1e-8, D::FP32), D::FP16), f(0.0, D::FP16));
  EXPECT_EQ(cast(f(-1e-8, D::FP32), D::FP16), f(-0.0, D::FP16));
  EXPECT_EQ(cast(f(0.1, D::FP16), D::FP64), f(0.0999755859375, D::FP64));
  EXPECT_EQ(cast(f(kNaN, D::FP16), D::BF16), f(kNaN, D::BF16));
  EXPECT_EQ(cast(f(3.14159265, D::FP32), D::BF16), f(3.140625, D::BF16));
}

// ---------------------------------------------------------------- malformed calls

TEST(FoldMalformed, WrongArityOrLeavesAreNotFolded) {
  EXPECT_EQ(eval(Op::Add, {c(1, D::Index)}), std::nullopt);
  EXPECT_EQ(eval(Op::Const, {c(1, D::Index)}), std::nullopt);
  EXPECT_EQ(eval(Op::Add, {c(1, D::Int32), c(1, D::Int64)}), std::nullopt);
}

}  // namespace
}  // namespace eqsat
