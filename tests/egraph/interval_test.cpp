// The interval analysis, by example, and a randomized check of its soundness.
//
// Each example reads "op(operand intervals) is interval". The randomized test draws
// operand intervals for many dtypes, computes the concrete result of every (or a sample
// of every) operand choice with a reference written here, independently of the library,
// and checks that the interval contains it.
#include "egraph/interval.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cassert>
#include <initializer_list>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace eqsat {
namespace {

constexpr auto kInf = std::nullopt;

Interval iv(long long lo, long long hi) { return Interval::range(Int(lo), Int(hi)); }
Interval from(long long lo) { return Interval::range(Int(lo), kInf); }  // [lo, inf]
Interval upto(long long hi) { return Interval::range(kInf, Int(hi)); }  // [-inf, hi]
Interval pt(long long v) { return Interval::point(Int(v)); }
Int p2(int k) { return Int(1) << k; }

// op(args) where the operands and the result have dtype t.
std::string eval(Op op, DType t, std::initializer_list<Interval> args) {
  return interval_of(op, t, t, std::span(args.begin(), args.size())).to_string();
}
std::string index(Op op, std::initializer_list<Interval> args) { return eval(op, DType::Index, args); }
std::string compare(Op op, DType operand, Interval a, Interval b) {
  const Interval args[] = {a, b};
  return interval_of(op, DType::Bool, operand, args).to_string();
}
std::string cast(DType from, DType to, Interval x) {
  const Interval args[] = {x};
  return interval_of(Op::Cast, to, from, args).to_string();
}
std::string whole(DType t) { return Interval::of_dtype(t).to_string(); }

// --- The Interval type -----------------------------------------------------------------

TEST(IntervalBasics, OfDtype) {
  EXPECT_EQ(whole(DType::Index), "[-inf, inf]");
  EXPECT_EQ(whole(DType::Bool), "[0, 1]");
  EXPECT_EQ(whole(DType::Int8), "[-128, 127]");
  EXPECT_EQ(whole(DType::UInt8), "[0, 255]");
  EXPECT_EQ(whole(DType::Int16), "[-32768, 32767]");
  EXPECT_EQ(whole(DType::UInt32), "[0, 4294967295]");
  EXPECT_EQ(whole(DType::Int64), "[-9223372036854775808, 9223372036854775807]");
  EXPECT_EQ(whole(DType::UInt64), "[0, 18446744073709551615]");
  EXPECT_EQ(whole(DType::FP32), "[-inf, inf]");
}

TEST(IntervalBasics, ToString) {
  EXPECT_EQ(iv(0, 7).to_string(), "[0, 7]");
  EXPECT_EQ(upto(3).to_string(), "[-inf, 3]");
  EXPECT_EQ(from(0).to_string(), "[0, inf]");
  EXPECT_EQ(Interval::all().to_string(), "[-inf, inf]");
}

TEST(IntervalBasics, PointsAndMembership) {
  EXPECT_TRUE(pt(3).is_point());
  EXPECT_FALSE(iv(3, 4).is_point());
  EXPECT_FALSE(from(3).is_point());
  EXPECT_TRUE(iv(0, 7).contains(0));
  EXPECT_TRUE(iv(0, 7).contains(7));
  EXPECT_FALSE(iv(0, 7).contains(8));
  EXPECT_TRUE(upto(3).contains(-p2(100)));
  EXPECT_TRUE(Interval::all().is_all());
}

TEST(IntervalBasics, Within) {
  EXPECT_TRUE(iv(1, 5).within(iv(0, 7)));
  EXPECT_TRUE(iv(0, 7).within(iv(0, 7)));
  EXPECT_FALSE(iv(0, 8).within(iv(0, 7)));
  EXPECT_TRUE(iv(0, 8).within(from(0)));
  EXPECT_FALSE(from(0).within(iv(0, 8)));
  EXPECT_TRUE(iv(-5, 5).within(Interval::all()));
  EXPECT_FALSE(Interval::all().within(upto(1000)));
}

TEST(IntervalBasics, Intersect) {
  EXPECT_EQ(iv(0, 7).intersect(iv(3, 10)).to_string(), "[3, 7]");
  EXPECT_EQ(from(0).intersect(upto(9)).to_string(), "[0, 9]");
  EXPECT_EQ(Interval::all().intersect(pt(4)).to_string(), "[4, 4]");
  // Contradictory facts: nothing is concluded, the receiver is kept.
  EXPECT_EQ(iv(0, 3).intersect(iv(5, 9)).to_string(), "[0, 3]");
  EXPECT_EQ(from(10).intersect(upto(2)).to_string(), "[10, inf]");
}

TEST(IntervalBasics, Hull) {
  EXPECT_EQ(iv(0, 3).hull(iv(5, 9)).to_string(), "[0, 9]");
  EXPECT_EQ(iv(0, 3).hull(upto(1)).to_string(), "[-inf, 3]");
  EXPECT_EQ(pt(2).hull(pt(2)).to_string(), "[2, 2]");
}

// --- Arithmetic ------------------------------------------------------------------------

TEST(IntervalArith, Add) {
  EXPECT_EQ(index(Op::Add, {iv(0, 7), pt(1)}), "[1, 8]");
  EXPECT_EQ(index(Op::Add, {iv(-3, 2), iv(10, 20)}), "[7, 22]");
  EXPECT_EQ(index(Op::Add, {from(0), pt(-5)}), "[-5, inf]");
  EXPECT_EQ(index(Op::Add, {upto(0), from(0)}), "[-inf, inf]");
  // Fixed widths wrap: a result that could cross the wrap point is the whole dtype.
  EXPECT_EQ(eval(Op::Add, DType::Int8, {iv(120, 127), pt(1)}), "[-128, 127]");
  EXPECT_EQ(eval(Op::Add, DType::Int8, {iv(120, 126), pt(1)}), "[121, 127]");
  EXPECT_EQ(eval(Op::Add, DType::Int8, {iv(-128, -120), pt(-1)}), "[-128, 127]");
  EXPECT_EQ(eval(Op::Add, DType::UInt8, {iv(250, 254), pt(1)}), "[251, 255]");
  EXPECT_EQ(eval(Op::Add, DType::UInt8, {iv(250, 255), pt(1)}), "[0, 255]");
  EXPECT_EQ(eval(Op::Add, DType::Int64, {pt(INT64_MAX - 1), pt(1)}), "[9223372036854775807, 9223372036854775807]");
  EXPECT_EQ(eval(Op::Add, DType::Int64, {pt(INT64_MAX), pt(1)}), whole(DType::Int64));
  const Interval u64_max = Interval::point(dtype_max(DType::UInt64));
  EXPECT_EQ(eval(Op::Add, DType::UInt64, {u64_max, pt(0)}), "[18446744073709551615, 18446744073709551615]");
  EXPECT_EQ(eval(Op::Add, DType::UInt64, {u64_max, pt(1)}), whole(DType::UInt64));
}

TEST(IntervalArith, IndexHugeValuesBecomeUnbounded) {
  // INDEX never wraps, but bounds of 2^100 or more are not tracked.
  const Interval big = Interval::point(p2(99));
  EXPECT_EQ(index(Op::Add, {big, pt(0)}).substr(0, 4), "[633");  // 2^99 is kept
  EXPECT_EQ(index(Op::Add, {big, big}), "[-inf, inf]");          // 2^100 is not
  EXPECT_EQ(index(Op::Add, {Interval::range(0, p2(100)), pt(1)}), "[1, inf]");
  EXPECT_EQ(index(Op::Mul, {Interval::point(p2(60)), Interval::point(p2(60))}), "[-inf, inf]");
  EXPECT_EQ(index(Op::Mul, {Interval::range(1, p2(70)), Interval::range(1, p2(70))}), "[1, inf]");
  // Products past the 128-bit range.
  EXPECT_EQ(index(Op::Mul, {Interval::range(-p2(99), 2), Interval::range(-3, p2(99))}), "[-inf, inf]");
}

TEST(IntervalArith, Sub) {
  EXPECT_EQ(index(Op::Sub, {iv(0, 7), pt(1)}), "[-1, 6]");
  EXPECT_EQ(index(Op::Sub, {iv(0, 7), iv(0, 7)}), "[-7, 7]");
  EXPECT_EQ(index(Op::Sub, {from(3), upto(1)}), "[2, inf]");
  EXPECT_EQ(eval(Op::Sub, DType::UInt8, {iv(0, 5), pt(1)}), "[0, 255]");
  EXPECT_EQ(eval(Op::Sub, DType::UInt8, {iv(1, 5), pt(1)}), "[0, 4]");
  EXPECT_EQ(eval(Op::Sub, DType::Int8, {pt(-128), pt(1)}), whole(DType::Int8));
  EXPECT_EQ(eval(Op::Sub, DType::UInt32, {iv(10, 20), iv(0, 10)}), "[0, 20]");
  EXPECT_EQ(eval(Op::Sub, DType::UInt64, {pt(0), pt(1)}), whole(DType::UInt64));
}

TEST(IntervalArith, Mul) {
  EXPECT_EQ(index(Op::Mul, {iv(-2, 3), iv(4, 5)}), "[-10, 15]");
  EXPECT_EQ(index(Op::Mul, {iv(-2, 3), iv(-5, 4)}), "[-15, 12]");
  EXPECT_EQ(index(Op::Mul, {pt(0), Interval::all()}), "[0, 0]");
  EXPECT_EQ(index(Op::Mul, {iv(0, 4), from(0)}), "[0, inf]");
  EXPECT_EQ(index(Op::Mul, {iv(-1, 4), from(2)}), "[-inf, inf]");
  EXPECT_EQ(index(Op::Mul, {upto(-1), upto(-1)}), "[1, inf]");
  EXPECT_EQ(eval(Op::Mul, DType::Int8, {iv(10, 12), iv(10, 10)}), "[100, 120]");
  EXPECT_EQ(eval(Op::Mul, DType::Int8, {iv(10, 12), iv(10, 12)}), whole(DType::Int8));
  EXPECT_EQ(eval(Op::Mul, DType::UInt8, {iv(0, 15), iv(0, 17)}), "[0, 255]");
  EXPECT_EQ(eval(Op::Mul, DType::UInt8, {iv(1, 15), iv(1, 17)}), "[1, 255]");
  EXPECT_EQ(eval(Op::Mul, DType::UInt8, {iv(1, 16), iv(1, 17)}), whole(DType::UInt8));
  EXPECT_EQ(eval(Op::Mul, DType::UInt64, {Interval::of_dtype(DType::UInt64), pt(2)}), whole(DType::UInt64));
}

TEST(IntervalArith, NegAndAbs) {
  EXPECT_EQ(index(Op::Neg, {iv(-3, 7)}), "[-7, 3]");
  EXPECT_EQ(index(Op::Neg, {from(2)}), "[-inf, -2]");
  EXPECT_EQ(eval(Op::Neg, DType::Int8, {iv(-127, 5)}), "[-5, 127]");
  EXPECT_EQ(eval(Op::Neg, DType::Int8, {iv(-128, 5)}), whole(DType::Int8));  // -(-128) wraps
  EXPECT_EQ(eval(Op::Neg, DType::UInt8, {pt(0)}), "[0, 0]");
  EXPECT_EQ(eval(Op::Neg, DType::UInt8, {iv(0, 1)}), whole(DType::UInt8));

  EXPECT_EQ(index(Op::Abs, {iv(-5, 3)}), "[0, 5]");
  EXPECT_EQ(index(Op::Abs, {iv(2, 3)}), "[2, 3]");
  EXPECT_EQ(index(Op::Abs, {iv(-9, -4)}), "[4, 9]");
  EXPECT_EQ(index(Op::Abs, {upto(-2)}), "[2, inf]");
  EXPECT_EQ(index(Op::Abs, {Interval::all()}), "[0, inf]");
  EXPECT_EQ(eval(Op::Abs, DType::Int8, {iv(-127, 0)}), "[0, 127]");
  EXPECT_EQ(eval(Op::Abs, DType::Int8, {iv(-128, 0)}), whole(DType::Int8));  // abs(-128) wraps
}

TEST(IntervalArith, MinMax) {
  EXPECT_EQ(index(Op::Min, {iv(0, 7), iv(3, 10)}), "[0, 7]");
  EXPECT_EQ(index(Op::Min, {from(5), iv(0, 9)}), "[0, 9]");
  EXPECT_EQ(index(Op::Min, {upto(5), iv(0, 9)}), "[-inf, 5]");
  EXPECT_EQ(index(Op::Max, {iv(0, 7), iv(3, 10)}), "[3, 10]");
  EXPECT_EQ(index(Op::Max, {from(5), iv(0, 9)}), "[5, inf]");
  EXPECT_EQ(eval(Op::Max, DType::Int8, {Interval::all(), pt(0)}), "[0, 127]");
}

// --- Division and modulo ---------------------------------------------------------------

TEST(IntervalDivision, FloorByConstant) {
  EXPECT_EQ(index(Op::FloorDiv, {iv(0, 9), pt(10)}), "[0, 0]");
  EXPECT_EQ(index(Op::FloorDiv, {iv(0, 10), pt(10)}), "[0, 1]");
  EXPECT_EQ(index(Op::FloorDiv, {iv(-7, 7), pt(2)}), "[-4, 3]");
  EXPECT_EQ(index(Op::FloorDiv, {iv(-7, 7), pt(-2)}), "[-4, 3]");
  EXPECT_EQ(index(Op::FloorDiv, {iv(1, 7), pt(-2)}), "[-4, -1]");
  EXPECT_EQ(index(Op::FloorDiv, {from(0), pt(4)}), "[0, inf]");
  EXPECT_EQ(index(Op::FloorDiv, {from(0), pt(-4)}), "[-inf, 0]");

  EXPECT_EQ(index(Op::FloorMod, {iv(0, 9), pt(10)}), "[0, 9]");
  EXPECT_EQ(index(Op::FloorMod, {iv(3, 9), pt(10)}), "[3, 9]");
  EXPECT_EQ(index(Op::FloorMod, {iv(12, 15), pt(10)}), "[2, 5]");  // one period
  EXPECT_EQ(index(Op::FloorMod, {iv(8, 12), pt(10)}), "[0, 9]");
  EXPECT_EQ(index(Op::FloorMod, {iv(0, 100), pt(10)}), "[0, 9]");
  EXPECT_EQ(index(Op::FloorMod, {iv(0, 4), pt(10)}), "[0, 4]");
  EXPECT_EQ(index(Op::FloorMod, {iv(-3, -1), pt(10)}), "[7, 9]");
  EXPECT_EQ(index(Op::FloorMod, {Interval::all(), pt(10)}), "[0, 9]");
  // A negative divisor gives a remainder in (d, 0].
  EXPECT_EQ(index(Op::FloorMod, {iv(-7, 7), pt(-3)}), "[-2, 0]");
  EXPECT_EQ(index(Op::FloorMod, {pt(7), pt(-3)}), "[-2, -2]");
  EXPECT_EQ(index(Op::FloorMod, {iv(-2, 0), pt(-3)}), "[-2, 0]");
  EXPECT_EQ(index(Op::FloorMod, {iv(-100, -1), pt(-3)}), "[-2, 0]");
}

TEST(IntervalDivision, TruncByConstant) {
  EXPECT_EQ(index(Op::TruncDiv, {iv(-7, 7), pt(2)}), "[-3, 3]");
  EXPECT_EQ(index(Op::TruncDiv, {iv(-7, 7), pt(-2)}), "[-3, 3]");
  EXPECT_EQ(index(Op::TruncDiv, {iv(-9, -1), pt(10)}), "[0, 0]");
  EXPECT_EQ(index(Op::TruncDiv, {upto(0), pt(3)}), "[-inf, 0]");
  // The remainder has the dividend's sign, |r| < |d| and |r| <= |x|.
  EXPECT_EQ(index(Op::TruncMod, {iv(-7, 7), pt(3)}), "[-2, 2]");
  EXPECT_EQ(index(Op::TruncMod, {iv(-7, 7), pt(-3)}), "[-2, 2]");
  EXPECT_EQ(index(Op::TruncMod, {iv(0, 7), pt(-3)}), "[0, 2]");
  EXPECT_EQ(index(Op::TruncMod, {iv(-7, -1), pt(3)}), "[-2, 0]");
  EXPECT_EQ(index(Op::TruncMod, {iv(-1, 1), pt(100)}), "[-1, 1]");
  EXPECT_EQ(index(Op::TruncMod, {iv(-5, 100), pt(10)}), "[-5, 9]");
  EXPECT_EQ(index(Op::TruncMod, {iv(-13, -11), pt(10)}), "[-3, -1]");  // one period
  EXPECT_EQ(index(Op::TruncMod, {Interval::all(), pt(10)}), "[-9, 9]");
}

TEST(IntervalDivision, ByIntervals) {
  EXPECT_EQ(index(Op::FloorDiv, {iv(10, 20), iv(2, 5)}), "[2, 10]");
  EXPECT_EQ(index(Op::FloorDiv, {iv(-20, 20), iv(2, 5)}), "[-10, 10]");
  EXPECT_EQ(index(Op::FloorDiv, {iv(-5, 10), from(1)}), "[-5, 10]");
  EXPECT_EQ(index(Op::FloorDiv, {from(0), from(2)}), "[0, inf]");
  EXPECT_EQ(index(Op::FloorMod, {iv(0, 100), iv(1, 8)}), "[0, 7]");
  EXPECT_EQ(index(Op::FloorMod, {iv(0, 5), iv(1, 100)}), "[0, 5]");
  EXPECT_EQ(index(Op::FloorMod, {iv(0, 5), iv(6, 100)}), "[0, 5]");
  EXPECT_EQ(index(Op::FloorMod, {iv(-5, 5), from(1)}), "[0, inf]");
  EXPECT_EQ(index(Op::TruncMod, {iv(-50, 50), iv(-8, 3)}), "[-7, 7]");
  EXPECT_EQ(index(Op::TruncMod, {iv(-5, 5), iv(6, 9)}), "[-5, 5]");
}

TEST(IntervalDivision, DivisorContainingZero) {
  // Division by zero is undefined, so zero is left out of the divisor.
  EXPECT_EQ(index(Op::FloorDiv, {iv(10, 20), iv(0, 5)}), "[2, 20]");
  EXPECT_EQ(index(Op::FloorDiv, {iv(10, 20), iv(-2, 5)}), "[-20, 20]");
  EXPECT_EQ(index(Op::FloorDiv, {iv(10, 20), iv(-2, 0)}), "[-20, -5]");
  EXPECT_EQ(index(Op::TruncDiv, {iv(10, 20), iv(-2, 5)}), "[-20, 20]");
  EXPECT_EQ(index(Op::FloorMod, {iv(10, 20), iv(0, 5)}), "[0, 4]");
  EXPECT_EQ(index(Op::FloorMod, {iv(10, 20), iv(-3, 5)}), "[-2, 4]");
  EXPECT_EQ(index(Op::TruncMod, {iv(10, 20), iv(-3, 5)}), "[0, 4]");
  EXPECT_EQ(index(Op::FloorDiv, {iv(0, 9), Interval::all()}), "[-9, 9]");
  // Always undefined: nothing beyond the dtype.
  EXPECT_EQ(index(Op::FloorDiv, {iv(10, 20), pt(0)}), "[-inf, inf]");
  EXPECT_EQ(eval(Op::FloorMod, DType::Int8, {iv(10, 20), pt(0)}), whole(DType::Int8));
  EXPECT_EQ(eval(Op::TruncDiv, DType::UInt8, {iv(10, 20), pt(0)}), whole(DType::UInt8));
}

TEST(IntervalDivision, FixedWidthEdges) {
  EXPECT_EQ(eval(Op::FloorDiv, DType::Int8, {pt(-128), pt(-1)}), whole(DType::Int8));  // 128 wraps
  EXPECT_EQ(eval(Op::TruncDiv, DType::Int8, {iv(-127, 127), pt(-1)}), "[-127, 127]");
  EXPECT_EQ(eval(Op::FloorMod, DType::Int8, {pt(-128), pt(-1)}), "[0, 0]");
  EXPECT_EQ(eval(Op::FloorDiv, DType::UInt8, {Interval::all(), pt(16)}), "[0, 15]");
  EXPECT_EQ(eval(Op::FloorMod, DType::UInt32, {Interval::all(), iv(0, 64)}), "[0, 63]");
  EXPECT_EQ(eval(Op::FloorDiv, DType::Int64, {Interval::all(), pt(2)}), "[-4611686018427387904, 4611686018427387903]");
  EXPECT_EQ(eval(Op::FloorMod, DType::UInt64, {Interval::all(), pt(10)}), "[0, 9]");
  // |r| < |d| <= 2^63, so not quite the whole INT64.
  EXPECT_EQ(eval(Op::TruncMod, DType::Int64, {Interval::all(), Interval::all()}),
            "[-9223372036854775807, 9223372036854775807]");
}

// --- Shifts ----------------------------------------------------------------------------

TEST(IntervalShift, Left) {
  EXPECT_EQ(index(Op::Shl, {iv(1, 3), iv(0, 2)}), "[1, 12]");
  EXPECT_EQ(index(Op::Shl, {iv(-3, 5), pt(2)}), "[-12, 20]");
  EXPECT_EQ(index(Op::Shl, {pt(1), from(0)}), "[1, inf]");
  EXPECT_EQ(index(Op::Shl, {pt(1), iv(-5, 3)}), "[1, 8]");  // negative amounts are undefined
  EXPECT_EQ(index(Op::Shl, {pt(1), iv(200, 300)}), "[-inf, inf]");
  EXPECT_EQ(eval(Op::Shl, DType::Int8, {pt(1), iv(0, 6)}), "[1, 64]");
  EXPECT_EQ(eval(Op::Shl, DType::Int8, {pt(1), iv(0, 7)}), whole(DType::Int8));  // 1 << 7 wraps
  EXPECT_EQ(eval(Op::Shl, DType::Int8, {pt(-1), pt(7)}), "[-128, -128]");
  EXPECT_EQ(eval(Op::Shl, DType::Int8, {pt(1), Interval::all()}), whole(DType::Int8));
  EXPECT_EQ(eval(Op::Shl, DType::UInt8, {pt(1), Interval::all()}), "[1, 128]");     // amounts 0..7
  EXPECT_EQ(eval(Op::Shl, DType::UInt8, {pt(1), iv(8, 20)}), whole(DType::UInt8));  // always undefined
  EXPECT_EQ(eval(Op::Shl, DType::UInt64, {pt(1), pt(63)}), "[9223372036854775808, 9223372036854775808]");
  EXPECT_EQ(eval(Op::Shl, DType::UInt64, {pt(3), pt(63)}), whole(DType::UInt64));
}

TEST(IntervalShift, Right) {
  EXPECT_EQ(eval(Op::Shr, DType::Int8, {Interval::all(), pt(1)}), "[-64, 63]");  // arithmetic
  EXPECT_EQ(eval(Op::Shr, DType::UInt8, {Interval::all(), pt(4)}), "[0, 15]");   // logical
  EXPECT_EQ(eval(Op::Shr, DType::Int8, {Interval::all(), Interval::all()}), "[-128, 127]");
  EXPECT_EQ(eval(Op::Shr, DType::Int32, {iv(-7, 7), iv(1, 2)}), "[-4, 3]");
  EXPECT_EQ(eval(Op::Shr, DType::UInt32, {iv(0, 1000), iv(-3, 100)}), "[0, 1000]");
  EXPECT_EQ(index(Op::Shr, {iv(-100, 100), from(0)}), "[-100, 100]");
  EXPECT_EQ(index(Op::Shr, {iv(-100, 100), from(10)}), "[-1, 0]");
  EXPECT_EQ(index(Op::Shr, {from(0), pt(3)}), "[0, inf]");
}

// --- Bitwise ---------------------------------------------------------------------------

TEST(IntervalBitwise, NonNegative) {
  EXPECT_EQ(index(Op::BitAnd, {iv(0, 12), iv(0, 5)}), "[0, 5]");
  EXPECT_EQ(index(Op::BitAnd, {Interval::all(), pt(7)}), "[0, 7]");  // x & 7
  EXPECT_EQ(index(Op::BitAnd, {from(0), from(0)}), "[0, inf]");
  EXPECT_EQ(index(Op::BitOr, {iv(0, 5), iv(0, 8)}), "[0, 15]");
  EXPECT_EQ(index(Op::BitOr, {iv(4, 5), iv(0, 8)}), "[4, 15]");
  EXPECT_EQ(index(Op::BitXor, {iv(0, 5), iv(0, 8)}), "[0, 15]");
  EXPECT_EQ(index(Op::BitXor, {iv(0, 7), iv(0, 7)}), "[0, 7]");
  EXPECT_EQ(index(Op::BitOr, {iv(0, 5), from(0)}), "[0, inf]");
  EXPECT_EQ(index(Op::BitAnd, {pt(12), pt(10)}), "[8, 8]");  // points are exact
  EXPECT_EQ(eval(Op::BitXor, DType::UInt8, {Interval::all(), Interval::all()}), whole(DType::UInt8));
}

TEST(IntervalBitwise, Signed) {
  EXPECT_EQ(index(Op::BitAnd, {iv(-4, -1), iv(-8, -1)}), "[-8, -1]");
  EXPECT_EQ(index(Op::BitOr, {iv(-4, -1), iv(0, 3)}), "[-4, -1]");
  EXPECT_EQ(index(Op::BitXor, {iv(-4, -1), iv(0, 3)}), "[-4, -1]");
  EXPECT_EQ(index(Op::BitXor, {iv(-4, -1), iv(-4, -1)}), "[0, 3]");
  EXPECT_EQ(index(Op::BitAnd, {iv(-4, 3), iv(-4, 3)}), "[-4, 3]");
  EXPECT_EQ(index(Op::BitOr, {Interval::all(), Interval::all()}), "[-inf, inf]");
  EXPECT_EQ(index(Op::BitOr, {upto(-1), Interval::all()}), "[-inf, -1]");
  EXPECT_EQ(eval(Op::BitAnd, DType::Int8, {Interval::all(), Interval::all()}), whole(DType::Int8));
  EXPECT_EQ(eval(Op::BitAnd, DType::Int8, {Interval::all(), iv(0, 15)}), "[0, 15]");
}

TEST(IntervalBitwise, Not) {
  EXPECT_EQ(index(Op::BitNot, {iv(0, 5)}), "[-6, -1]");  // ~x == -x - 1
  EXPECT_EQ(index(Op::BitNot, {from(0)}), "[-inf, -1]");
  EXPECT_EQ(eval(Op::BitNot, DType::Int8, {Interval::all()}), whole(DType::Int8));
  EXPECT_EQ(eval(Op::BitNot, DType::Int8, {pt(-128)}), "[127, 127]");
  EXPECT_EQ(eval(Op::BitNot, DType::UInt8, {iv(0, 5)}), "[250, 255]");  // ~x == 255 - x
  EXPECT_EQ(eval(Op::BitNot, DType::UInt32, {pt(0)}), "[4294967295, 4294967295]");
}

// --- Comparisons, logic, select --------------------------------------------------------

TEST(IntervalCompare, Decided) {
  EXPECT_EQ(compare(Op::Lt, DType::Index, iv(0, 7), iv(8, 10)), "[1, 1]");
  EXPECT_EQ(compare(Op::Lt, DType::Index, iv(8, 9), iv(0, 8)), "[0, 0]");
  EXPECT_EQ(compare(Op::Le, DType::Index, iv(0, 7), iv(7, 9)), "[1, 1]");
  EXPECT_EQ(compare(Op::Le, DType::Index, iv(8, 9), iv(0, 7)), "[0, 0]");
  EXPECT_EQ(compare(Op::Gt, DType::Index, iv(8, 10), iv(0, 7)), "[1, 1]");
  EXPECT_EQ(compare(Op::Gt, DType::Index, iv(0, 7), iv(7, 9)), "[0, 0]");
  EXPECT_EQ(compare(Op::Ge, DType::Index, iv(7, 10), iv(0, 7)), "[1, 1]");
  EXPECT_EQ(compare(Op::Ge, DType::Index, iv(0, 6), iv(7, 9)), "[0, 0]");
  EXPECT_EQ(compare(Op::Eq, DType::Index, pt(3), pt(3)), "[1, 1]");
  EXPECT_EQ(compare(Op::Eq, DType::Index, iv(0, 3), iv(4, 9)), "[0, 0]");
  EXPECT_EQ(compare(Op::Ne, DType::Index, iv(0, 3), iv(4, 9)), "[1, 1]");
  EXPECT_EQ(compare(Op::Ne, DType::Index, pt(3), pt(3)), "[0, 0]");
  EXPECT_EQ(compare(Op::Ge, DType::Index, from(0), pt(0)), "[1, 1]");
  EXPECT_EQ(compare(Op::Lt, DType::Index, from(0), pt(0)), "[0, 0]");
  // The dtype alone decides some: an unsigned value is never negative.
  EXPECT_EQ(compare(Op::Ge, DType::UInt8, Interval::all(), pt(0)), "[1, 1]");
  EXPECT_EQ(compare(Op::Le, DType::Int8, Interval::all(), pt(127)), "[1, 1]");
}

TEST(IntervalCompare, Undecided) {
  EXPECT_EQ(compare(Op::Lt, DType::Index, iv(0, 7), iv(7, 10)), "[0, 1]");
  EXPECT_EQ(compare(Op::Le, DType::Index, iv(0, 8), iv(7, 10)), "[0, 1]");
  EXPECT_EQ(compare(Op::Eq, DType::Index, iv(0, 3), pt(3)), "[0, 1]");
  EXPECT_EQ(compare(Op::Ne, DType::Index, iv(0, 3), pt(3)), "[0, 1]");
  EXPECT_EQ(compare(Op::Lt, DType::Index, Interval::all(), pt(0)), "[0, 1]");
  // Floats have no intervals.
  EXPECT_EQ(compare(Op::Lt, DType::FP32, iv(0, 1), iv(5, 6)), "[0, 1]");
  EXPECT_EQ(compare(Op::Eq, DType::FP64, pt(1), pt(1)), "[0, 1]");
}

TEST(IntervalLogic, AndOrNot) {
  const Interval f = pt(0), t = pt(1), u = iv(0, 1);
  EXPECT_EQ(eval(Op::And, DType::Bool, {f, u}), "[0, 0]");
  EXPECT_EQ(eval(Op::And, DType::Bool, {t, t}), "[1, 1]");
  EXPECT_EQ(eval(Op::And, DType::Bool, {t, u}), "[0, 1]");
  EXPECT_EQ(eval(Op::Or, DType::Bool, {t, u}), "[1, 1]");
  EXPECT_EQ(eval(Op::Or, DType::Bool, {f, f}), "[0, 0]");
  EXPECT_EQ(eval(Op::Or, DType::Bool, {f, u}), "[0, 1]");
  EXPECT_EQ(eval(Op::Not, DType::Bool, {t}), "[0, 0]");
  EXPECT_EQ(eval(Op::Not, DType::Bool, {f}), "[1, 1]");
  EXPECT_EQ(eval(Op::Not, DType::Bool, {u}), "[0, 1]");
  EXPECT_EQ(eval(Op::Not, DType::Bool, {Interval::all()}), "[0, 1]");
}

TEST(IntervalLogic, Select) {
  EXPECT_EQ(index(Op::Select, {pt(1), iv(0, 7), iv(20, 30)}), "[0, 7]");
  EXPECT_EQ(index(Op::Select, {pt(0), iv(0, 7), iv(20, 30)}), "[20, 30]");
  EXPECT_EQ(index(Op::Select, {iv(0, 1), iv(0, 7), iv(20, 30)}), "[0, 30]");
  EXPECT_EQ(index(Op::Select, {iv(0, 1), from(0), pt(-1)}), "[-1, inf]");
  EXPECT_EQ(eval(Op::Select, DType::Int8, {Interval::all(), Interval::all(), pt(3)}), whole(DType::Int8));
  EXPECT_EQ(eval(Op::Select, DType::Bool, {iv(0, 1), pt(1), pt(1)}), "[1, 1]");
}

// --- Casts, leaves, floats -------------------------------------------------------------

TEST(IntervalCast, Integers) {
  EXPECT_EQ(cast(DType::Index, DType::Int8, iv(0, 100)), "[0, 100]");
  EXPECT_EQ(cast(DType::Index, DType::Int8, iv(0, 200)), whole(DType::Int8));
  EXPECT_EQ(cast(DType::Int8, DType::UInt8, iv(-1, 5)), whole(DType::UInt8));
  EXPECT_EQ(cast(DType::Int8, DType::UInt8, iv(0, 5)), "[0, 5]");
  EXPECT_EQ(cast(DType::UInt8, DType::Int8, Interval::all()), whole(DType::Int8));
  EXPECT_EQ(cast(DType::UInt8, DType::Int32, Interval::all()), "[0, 255]");
  EXPECT_EQ(cast(DType::Int32, DType::Index, Interval::all()), "[-2147483648, 2147483647]");
  EXPECT_EQ(cast(DType::UInt64, DType::Int64, iv(0, 5)), "[0, 5]");
  EXPECT_EQ(cast(DType::UInt64, DType::Int64, Interval::all()), whole(DType::Int64));
}

TEST(IntervalCast, Bool) {
  EXPECT_EQ(cast(DType::Bool, DType::Int32, pt(1)), "[1, 1]");
  EXPECT_EQ(cast(DType::Bool, DType::Index, Interval::all()), "[0, 1]");
  EXPECT_EQ(cast(DType::Index, DType::Bool, iv(3, 9)), "[1, 1]");  // x != 0
  EXPECT_EQ(cast(DType::Index, DType::Bool, iv(-9, -1)), "[1, 1]");
  EXPECT_EQ(cast(DType::Index, DType::Bool, pt(0)), "[0, 0]");
  EXPECT_EQ(cast(DType::Index, DType::Bool, iv(-1, 1)), "[0, 1]");
  EXPECT_EQ(cast(DType::Bool, DType::Bool, pt(1)), "[1, 1]");
}

TEST(IntervalCast, Floats) {
  EXPECT_EQ(cast(DType::FP32, DType::Int8, Interval::all()), whole(DType::Int8));
  EXPECT_EQ(cast(DType::FP32, DType::Index, iv(0, 1)), "[-inf, inf]");
  EXPECT_EQ(cast(DType::FP64, DType::Bool, pt(1)), "[0, 1]");
  EXPECT_EQ(cast(DType::Int32, DType::FP32, iv(0, 1)), "[-inf, inf]");
  EXPECT_EQ(cast(DType::Bool, DType::FP16, pt(1)), "[-inf, inf]");
}

TEST(IntervalLeaves, DtypeOnly) {
  const std::vector<Interval> none;
  EXPECT_EQ(interval_of(Op::Var, DType::UInt8, DType::UInt8, none).to_string(), "[0, 255]");
  EXPECT_EQ(interval_of(Op::Const, DType::Index, DType::Index, none).to_string(), "[-inf, inf]");
  EXPECT_EQ(interval_of(Op::Var, DType::Bool, DType::Bool, none).to_string(), "[0, 1]");
  EXPECT_EQ(eval(Op::Div, DType::FP32, {pt(1), pt(2)}), "[-inf, inf]");
  EXPECT_EQ(eval(Op::Add, DType::FP64, {pt(1), pt(2)}), "[-inf, inf]");
}

TEST(IntervalOperands, ClampedToTheirDtype) {
  EXPECT_EQ(eval(Op::Add, DType::Int8, {Interval::all(), pt(0)}), whole(DType::Int8));
  EXPECT_EQ(eval(Op::BitAnd, DType::UInt8, {Interval::all(), iv(0, 3)}), "[0, 3]");
  EXPECT_EQ(eval(Op::Add, DType::UInt8, {iv(-5, 3), pt(1)}), "[1, 4]");
  // Facts that contradict the dtype conclude nothing.
  EXPECT_EQ(eval(Op::Add, DType::UInt8, {iv(-5, -1), pt(1)}), whole(DType::UInt8));
  EXPECT_EQ(eval(Op::Add, DType::Index, {iv(5, 1), pt(1)}), "[-inf, inf]");
}

// --- Randomized soundness --------------------------------------------------------------
//
// The reference below computes each operation on concrete values the obvious way:
// mathematically on 128-bit integers, then wrapped to the result's width.

int ref_bits(DType t) {
  switch (t) {
    case DType::Int8:
    case DType::UInt8:
      return 8;
    case DType::Int16:
    case DType::UInt16:
      return 16;
    case DType::Int32:
    case DType::UInt32:
      return 32;
    case DType::Int64:
    case DType::UInt64:
      return 64;
    default:
      return 0;
  }
}

bool ref_unsigned(DType t) {
  return t == DType::UInt8 || t == DType::UInt16 || t == DType::UInt32 || t == DType::UInt64;
}

// Two's complement wrap-around to the dtype's width (INDEX: unchanged).
Int ref_wrap(DType t, Int v) {
  if (t == DType::Bool) return v != 0;
  const int n = ref_bits(t);
  if (n == 0) return v;
  const UInt low = UInt(v) & ((UInt(1) << n) - 1);
  if (!ref_unsigned(t) && (low >> (n - 1)) != 0) return Int(low) - (Int(1) << n);
  return Int(low);
}

Int ref_floor_div(Int a, Int b) {
  Int q = a / b;
  if (q * b != a && ((a < 0) != (b < 0))) q -= 1;
  return q;
}

struct Outcome {
  bool defined = true;
  Int value = 0;       // wrapped to the result dtype
  bool exact = false;  // value is the mathematical result (nothing wrapped or overflowed)
};

Outcome wrapped(DType t, std::optional<Int> math, Int modular) {
  Outcome o;
  o.value = ref_wrap(t, math ? *math : modular);
  o.exact = math && *math == o.value;
  return o;
}

Outcome undefined() { return {false, 0, false}; }

// The exact a (+, -, *) b, or nullopt when it leaves the 128-bit range.
std::optional<Int> exact(Op op, Int a, Int b) {
  Int r = 0;
  bool overflow = op == Op::Add   ? __builtin_add_overflow(a, b, &r)
                  : op == Op::Sub ? __builtin_sub_overflow(a, b, &r)
                                  : __builtin_mul_overflow(a, b, &r);
  if (overflow) return std::nullopt;
  return r;
}

Outcome reference(Op op, DType result, DType operand, const std::vector<Int>& v) {
  const Int a = v[0];
  const Int b = v.size() > 1 ? v[1] : 0;
  switch (op) {
    case Op::Add:
      return wrapped(result, exact(op, a, b), Int(UInt(a) + UInt(b)));
    case Op::Sub:
      return wrapped(result, exact(op, a, b), Int(UInt(a) - UInt(b)));
    case Op::Mul:
      return wrapped(result, exact(op, a, b), Int(UInt(a) * UInt(b)));
    case Op::Neg:
      return wrapped(result, -a, -a);
    case Op::Abs:
      return wrapped(result, a < 0 ? -a : a, 0);
    case Op::Min:
      return wrapped(result, std::min(a, b), 0);
    case Op::Max:
      return wrapped(result, std::max(a, b), 0);
    case Op::FloorDiv:
      if (b == 0) return undefined();
      return wrapped(result, ref_floor_div(a, b), 0);
    case Op::FloorMod:
      if (b == 0) return undefined();
      return wrapped(result, a - b * ref_floor_div(a, b), 0);
    case Op::TruncDiv:
      if (b == 0) return undefined();
      return wrapped(result, a / b, 0);
    case Op::TruncMod:
      if (b == 0) return undefined();
      return wrapped(result, a % b, 0);
    case Op::BitAnd:
      return wrapped(result, a & b, 0);
    case Op::BitOr:
      return wrapped(result, a | b, 0);
    case Op::BitXor:
      return wrapped(result, a ^ b, 0);
    case Op::BitNot:
      return wrapped(result, ~a, 0);
    case Op::Shl:
    case Op::Shr: {
      const int n = ref_bits(operand);
      if (b < 0 || (n != 0 && b >= n)) return undefined();
      assert(b < 120 && "shift amounts in the test stay small");
      if (op == Op::Shr) return wrapped(result, a >> int(b), 0);      // arithmetic on Int
      if (n == 0) return wrapped(result, a * (Int(1) << int(b)), 0);  // INDEX: |a| << 2^60, b <= 66
      return wrapped(result, std::nullopt, Int(UInt(a) << int(b)));
    }
    case Op::Eq:
      return wrapped(result, a == b, 0);
    case Op::Ne:
      return wrapped(result, a != b, 0);
    case Op::Lt:
      return wrapped(result, a < b, 0);
    case Op::Le:
      return wrapped(result, a <= b, 0);
    case Op::Gt:
      return wrapped(result, a > b, 0);
    case Op::Ge:
      return wrapped(result, a >= b, 0);
    case Op::And:
      return wrapped(result, a && b, 0);
    case Op::Or:
      return wrapped(result, a || b, 0);
    case Op::Not:
      return wrapped(result, !a, 0);
    case Op::Select:
      return wrapped(result, a ? v[1] : v[2], 0);
    case Op::Cast:
      if (result == DType::Bool) return wrapped(result, a != 0, 0);
      return wrapped(result, a, 0);
    default:
      ADD_FAILURE() << "no reference for " << op_info(op).name;
      return undefined();
  }
}

class Rng {
 public:
  explicit Rng(uint64_t seed) : gen_(seed) {}
  int below(int n) { return static_cast<int>(gen_() % uint64_t(n)); }
  bool chance(int percent) { return below(100) < percent; }
  // Uniform in [lo, hi] (spans up to 2^126 are enough here).
  Int uniform(Int lo, Int hi) {
    const UInt span = UInt(hi - lo) + 1;
    const UInt r = (UInt(gen_()) << 64) | UInt(gen_());
    return lo + Int(r % span);
  }

 private:
  std::mt19937_64 gen_;
};

// The values a dtype's operands are drawn from. INDEX stays within 2^60 so that the
// reference can multiply and shift (by at most 66) without overflowing 128 bits.
struct Domain {
  Int lo, hi;
  Int clamp(Int v) const { return std::max(lo, std::min(hi, v)); }
};

Domain domain_of(DType t) {
  if (t == DType::Index) return {-p2(60), p2(60)};
  return {dtype_min(t), dtype_max(t)};
}

Int interesting_value(Rng& rng, const Domain& d, int bits) {
  switch (rng.below(8)) {
    case 0:
      return d.clamp(0);
    case 1:
      return d.clamp(rng.uniform(-20, 20));
    case 2:
      return d.lo;
    case 3:
      return d.hi;
    case 4:
      return d.clamp((rng.chance(50) ? 1 : -1) * p2(rng.below(bits)) + rng.uniform(-1, 1));
    default:
      return rng.uniform(d.lo, d.hi);
  }
}

Interval sorted_interval(Int a, Int b) { return Interval::range(std::min(a, b), std::max(a, b)); }

Interval random_interval(Rng& rng, DType t) {
  const Domain d = domain_of(t);
  const int bits = t == DType::Index ? 60 : std::max(ref_bits(t), 1);
  if (t == DType::Bool) {
    const Interval choices[] = {pt(0), pt(1), iv(0, 1), Interval::all()};
    return choices[rng.below(4)];
  }
  switch (rng.below(7)) {
    case 0: {  // the whole dtype, or unbounded
      if (t != DType::Index) return rng.chance(50) ? Interval::all() : Interval::of_dtype(t);
      const Int x = interesting_value(rng, d, bits);
      const Interval choices[] = {Interval::all(), Interval::range(x, kInf), Interval::range(kInf, x)};
      return choices[rng.below(3)];
    }
    case 1:
      return Interval::point(interesting_value(rng, d, bits));
    case 2: {  // small, around an interesting value
      const Int w = rng.below(20);
      const Int lo = d.clamp(interesting_value(rng, d, bits) - rng.uniform(0, w));
      return Interval::range(lo, d.clamp(lo + w));
    }
    case 3: {  // touching an edge of the dtype
      const Int w = rng.uniform(0, 40);
      return rng.chance(50) ? Interval::range(d.lo, d.clamp(d.lo + w)) : Interval::range(d.clamp(d.hi - w), d.hi);
    }
    case 4: {  // a power-of-two width
      const Int w = p2(rng.below(bits)) - rng.below(2);
      const Int lo = d.clamp(interesting_value(rng, d, bits) - rng.uniform(0, w));
      return Interval::range(lo, d.clamp(lo + w));
    }
    case 5:
      return sorted_interval(interesting_value(rng, d, bits), interesting_value(rng, d, bits));
    default:
      return sorted_interval(rng.uniform(d.lo, d.hi), rng.uniform(d.lo, d.hi));
  }
}

// Shift amounts: mostly around [0, width), sometimes outside or unbounded.
Interval random_shift_amount(Rng& rng, DType t) {
  if (rng.chance(10)) return rng.chance(50) ? Interval::all() : Interval::of_dtype(t);
  const int width = t == DType::Index ? 64 : ref_bits(t);
  const Int min = ref_unsigned(t) ? 0 : -3;
  const Int lo = rng.uniform(min, width + 2);
  if (t == DType::Index && rng.chance(15)) return Interval::range(lo, kInf);
  return Interval::range(lo, rng.uniform(lo, width + 2));
}

Domain shift_amount_domain(DType t) {
  if (t == DType::Index) return {-3, 66};
  return domain_of(t);
}

// Every value of `x` within `d` when there are at most `max_count`, else a sample
// that always includes the ends and the values near zero.
std::vector<Int> values_in(Rng& rng, const Interval& x, const Domain& d, size_t max_count) {
  const Int lo = x.lo ? std::max(*x.lo, d.lo) : d.lo;
  const Int hi = x.hi ? std::min(*x.hi, d.hi) : d.hi;
  std::vector<Int> out;
  if (lo > hi) return out;
  if (hi - lo < Int(max_count)) {
    for (Int v = lo; v <= hi; ++v) out.push_back(v);
    return out;
  }
  for (Int v : {lo, lo + 1, hi - 1, hi, Int(-2), Int(-1), Int(0), Int(1), Int(2)})
    if (v >= lo && v <= hi) out.push_back(v);
  while (out.size() < max_count) out.push_back(rng.uniform(lo, hi));
  return out;
}

std::string describe(Op op, DType result, DType operand, const std::vector<Interval>& args) {
  std::ostringstream s;
  s << op_info(op).name << " result " << dtype_name(result) << " operand " << dtype_name(operand) << " args";
  for (const Interval& a : args) s << " " << a.to_string();
  return s.str();
}

struct Stats {
  long long intervals = 0;
  long long values = 0;
  int failures = 0;
};

// Draws `cases` operand tuples for one op and checks every drawn concrete value.
void check_random(Op op, DType result, DType operand, const std::vector<DType>& arg_types, int cases, uint64_t seed,
                  Stats& stats) {
  Rng rng(seed);
  const bool shift = op == Op::Shl || op == Op::Shr;
  for (int c = 0; c < cases && stats.failures < 5; ++c) {
    std::vector<Interval> args;
    std::vector<std::vector<Int>> values;
    for (size_t i = 0; i < arg_types.size(); ++i) {
      const DType t = arg_types[i];
      const bool amount = shift && i == 1;
      Interval x = amount ? random_shift_amount(rng, t) : random_interval(rng, t);
      const Domain d = amount ? shift_amount_domain(t) : domain_of(t);
      // 8-bit operands are enumerated exhaustively (unless three of them); others sampled.
      const size_t max_count = ref_bits(t) == 8 || t == DType::Bool ? (arg_types.size() == 3 ? 40 : 256) : 16;
      args.push_back(x);
      values.push_back(values_in(rng, x, d, max_count));
    }
    const Interval got = interval_of(op, result, operand, args);
    ++stats.intervals;
    if (!got.within(Interval::of_dtype(result))) {
      ++stats.failures;
      ADD_FAILURE() << describe(op, result, operand, args) << ": " << got.to_string() << " is outside the dtype";
    }
    bool all_points = true;
    for (const Interval& a : args) all_points = all_points && a.is_point();
    // The cartesian product of the value lists.
    std::vector<size_t> pos(values.size(), 0);
    bool empty = false;
    for (const auto& vs : values) empty = empty || vs.empty();
    while (!empty && stats.failures < 5) {
      std::vector<Int> concrete;
      for (size_t i = 0; i < values.size(); ++i) concrete.push_back(values[i][pos[i]]);
      const Outcome o = reference(op, result, operand, concrete);
      ++stats.values;
      if (o.defined && !got.contains(o.value)) {
        ++stats.failures;
        std::string vs;
        for (Int v : concrete) vs += " " + to_string(v);
        ADD_FAILURE() << describe(op, result, operand, args) << ": got " << got.to_string() << " but values" << vs
                      << " give " << to_string(o.value);
      }
      // Tightness: operands that are points give the exact result unless it wrapped
      // (or left the tracked range).
      const bool huge = o.value >= p2(100) || o.value <= -p2(100);
      if (all_points && o.defined && o.exact && !huge && got != Interval::point(o.value)) {
        ++stats.failures;
        ADD_FAILURE() << describe(op, result, operand, args) << ": got " << got.to_string() << ", expected the point "
                      << to_string(o.value);
      }
      size_t i = 0;
      while (i < pos.size() && ++pos[i] == values[i].size()) pos[i++] = 0;
      if (i == pos.size()) break;
    }
  }
}

const DType kIntegerDTypes[] = {DType::Index, DType::Int8,   DType::UInt8, DType::Int16, DType::UInt16,
                                DType::Int32, DType::UInt32, DType::Int64, DType::UInt64};

class IntervalSoundness : public ::testing::TestWithParam<Op> {};

TEST_P(IntervalSoundness, AgreesWithReference) {
  const Op op = GetParam();
  const int arity = op_info(op).arity;
  Stats stats;
  uint64_t seed = 1000 * static_cast<uint64_t>(op);
  if (op == Op::And || op == Op::Or || op == Op::Not) {
    check_random(op, DType::Bool, DType::Bool, std::vector<DType>(arity, DType::Bool), 200, ++seed, stats);
  } else if (op == Op::Cast) {
    std::vector<DType> all(std::begin(kIntegerDTypes), std::end(kIntegerDTypes));
    all.push_back(DType::Bool);
    for (DType from : all)
      for (DType to : all) check_random(op, to, from, {from}, 60, ++seed, stats);
  } else {
    for (DType t : kIntegerDTypes) {
      std::vector<DType> types(arity, t);
      DType result = is_comparison(op) ? DType::Bool : t;
      if (op == Op::Select) types[0] = DType::Bool;
      check_random(op, result, t, types, 300, ++seed, stats);
    }
  }
  EXPECT_EQ(stats.failures, 0);
  EXPECT_GE(stats.intervals, 200);
  EXPECT_GT(stats.values, stats.intervals);
  RecordProperty("intervals", std::to_string(stats.intervals));
  RecordProperty("values", std::to_string(stats.values));
}

const Op kCheckedOps[] = {Op::Add,      Op::Sub,      Op::Mul,      Op::Neg,      Op::Abs,    Op::Min,    Op::Max,
                          Op::FloorDiv, Op::FloorMod, Op::TruncDiv, Op::TruncMod, Op::BitAnd, Op::BitOr,  Op::BitXor,
                          Op::BitNot,   Op::Shl,      Op::Shr,      Op::Eq,       Op::Ne,     Op::Lt,     Op::Le,
                          Op::Gt,       Op::Ge,       Op::And,      Op::Or,       Op::Not,    Op::Select, Op::Cast};

INSTANTIATE_TEST_SUITE_P(IntervalOps, IntervalSoundness, ::testing::ValuesIn(kCheckedOps),
                         [](const ::testing::TestParamInfo<Op>& param) {
                           return std::string(op_info(param.param).name);
                         });

}  // namespace
}  // namespace eqsat
