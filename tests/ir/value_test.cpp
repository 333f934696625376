// Values: wrapping, IEEE rounding to each float dtype, equality and text.
#include "ir/value.h"

#include <gtest/gtest.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

namespace eqsat {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

double fp16(double v) { return Value::floating(DType::FP16, v).f; }
double bf16(double v) { return Value::floating(DType::BF16, v).f; }
double fp32(double v) { return Value::floating(DType::FP32, v).f; }

// How the spec reads a float literal: parse as a double, round to the dtype.
Value read_float(DType dtype, const std::string& text) {
  if (text == "nan") return Value::floating(dtype, kNaN);
  if (text == "inf") return Value::floating(dtype, kInf);
  if (text == "-inf") return Value::floating(dtype, -kInf);
  double d = 0.0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), d);
  EXPECT_EQ(ec, std::errc()) << text;
  EXPECT_EQ(ptr, text.data() + text.size()) << text;
  return Value::floating(dtype, d);
}

// Reference BF16 rounding of a float (exact in float, so one rounding): nearest even
// on the 16 bits that BF16 drops.
double bf16_of_float(float x) {
  uint32_t bits = std::bit_cast<uint32_t>(x);
  bits += 0x7fff + ((bits >> 16) & 1);
  return std::bit_cast<float>(bits & 0xffff0000u);
}

// Number of significant digits in a Python-style float text.
int significant_digits(const std::string& text) {
  std::string digits;
  for (char c : text) {
    if (c == 'e') break;
    if (c >= '0' && c <= '9') digits += c;
  }
  const auto first = digits.find_first_not_of('0');
  if (first == std::string::npos) return 0;
  digits = digits.substr(first);
  // "100.0": trailing zeros of an integer part are not significant either.
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  return int(digits.size());
}

// ---------------------------------------------------------------- integers

TEST(ValueInteger, WrapsIntoFixedWidthDtypes) {
  EXPECT_EQ(Value::integer(DType::Int8, 128).i, -128);
  EXPECT_EQ(Value::integer(DType::Int8, -129).i, 127);
  EXPECT_EQ(Value::integer(DType::UInt8, 256).i, 0);
  EXPECT_EQ(Value::integer(DType::UInt8, -1).i, 255);
  EXPECT_EQ(Value::integer(DType::UInt64, -1).i, dtype_max(DType::UInt64));
  EXPECT_EQ(Value::integer(DType::Int32, Int(1) << 31).i, -(Int(1) << 31));
}

TEST(ValueInteger, IndexIsNeverWrapped) {
  const Int big = Int(1) << 120;
  EXPECT_EQ(Value::integer(DType::Index, big).i, big);
  EXPECT_EQ(Value::integer(DType::Index, -big).i, -big);
}

TEST(ValueInteger, BooleanIsZeroOrOne) {
  EXPECT_EQ(Value::boolean(true).dtype, DType::Bool);
  EXPECT_EQ(Value::boolean(true).i, 1);
  EXPECT_EQ(Value::boolean(false).i, 0);
  EXPECT_TRUE(Value::boolean(true).is_one());
  EXPECT_TRUE(Value::boolean(false).is_zero());
}

TEST(ValueInteger, IntegerOfAFloatDtypeRoundsOnce) {
  EXPECT_EQ(Value::integer(DType::FP32, 3), Value::floating(DType::FP32, 3.0));
  EXPECT_EQ(Value::integer(DType::FP16, 2049).f, 2048.0);
  EXPECT_EQ(Value::integer(DType::FP16, 100000).f, kInf);
  // 2^60 + 2^36 + 1 is just above the midpoint between two FP32 neighbours; going
  // through a double first would lose the +1 and round the tie down to 2^60.
  const Int v = (Int(1) << 60) + (Int(1) << 36) + 1;
  EXPECT_EQ(Value::integer(DType::FP32, v).f, std::ldexp(1.0, 60) + std::ldexp(1.0, 37));
  EXPECT_EQ(Value::integer(DType::FP32, -v).f, -(std::ldexp(1.0, 60) + std::ldexp(1.0, 37)));
}

// ---------------------------------------------------------------- float rounding

TEST(ValueFloating, FP16Range) {
  EXPECT_EQ(fp16(65504), 65504);     // largest finite
  EXPECT_EQ(fp16(65519.99), 65504);  // below the overflow threshold
  EXPECT_EQ(fp16(65520), kInf);      // the midpoint to 2^16 rounds to even: inf
  EXPECT_EQ(fp16(-65520), -kInf);
  EXPECT_EQ(fp16(1e300), kInf);
}

TEST(ValueFloating, FP16RoundsToNearestEven) {
  EXPECT_EQ(fp16(2049), 2048);  // tie between 2048 and 2050: even significand
  EXPECT_EQ(fp16(2051), 2052);  // tie between 2050 and 2052: even significand
  EXPECT_EQ(fp16(2050.5), 2050);
  EXPECT_EQ(fp16(1 + std::ldexp(1, -11)), 1);                          // tie, down
  EXPECT_EQ(fp16(1 + 3 * std::ldexp(1, -11)), 1 + std::ldexp(1, -9));  // tie, up
  EXPECT_EQ(fp16(0.1), 0.0999755859375);
}

TEST(ValueFloating, FP16Subnormals) {
  const double tiny = std::ldexp(1, -24);  // smallest subnormal
  EXPECT_EQ(fp16(tiny), tiny);
  EXPECT_EQ(fp16(3 * tiny), 3 * tiny);
  EXPECT_EQ(fp16(tiny / 2), 0.0);  // tie with 0: even is 0
  EXPECT_EQ(fp16(tiny * 0.75), tiny);
  EXPECT_EQ(fp16(tiny * 2.5), 2 * tiny);                    // tie: even
  EXPECT_TRUE(std::signbit(fp16(-tiny / 4)));               // underflow keeps the sign: -0.0
  EXPECT_EQ(fp16(std::ldexp(1, -14)), std::ldexp(1, -14));  // smallest normal
}

TEST(ValueFloating, BF16) {
  EXPECT_EQ(bf16(1 + std::ldexp(1, -8)), 1);                          // tie, down
  EXPECT_EQ(bf16(1 + 3 * std::ldexp(1, -8)), 1 + std::ldexp(1, -6));  // tie, up
  EXPECT_EQ(bf16(3.14159265), 3.140625);
  const double max = std::ldexp(255, 120);  // 0x7f7f
  EXPECT_EQ(bf16(max), max);
  EXPECT_EQ(bf16(std::ldexp(511, 119)), kInf);                // midpoint above max: rounds to 2^128
  EXPECT_EQ(bf16(std::ldexp(1, -133)), std::ldexp(1, -133));  // smallest subnormal
  EXPECT_EQ(bf16(std::ldexp(1, -134)), 0.0);
  EXPECT_EQ(bf16(std::ldexp(3, -135)), std::ldexp(1, -133));
}

TEST(ValueFloating, FP32MatchesTheHardwareConversion) {
  std::mt19937_64 rng(1);
  for (int n = 0; n < 200000; ++n) {
    // Random bit patterns near the float range, including subnormals and overflow.
    const int exp = int(rng() % 340) - 170;
    const double d = std::ldexp(double(rng() >> 11) / double(1ull << 53), exp) * (rng() & 1 ? -1 : 1);
    EXPECT_EQ(std::bit_cast<uint64_t>(fp32(d)), std::bit_cast<uint64_t>(double(float(d)))) << d;
  }
}

#ifdef __FLT16_MAX__
TEST(ValueFloating, FP16MatchesTheCompilersFloat16) {
  std::mt19937_64 rng(2);
  for (int n = 0; n < 200000; ++n) {
    const int exp = int(rng() % 50) - 30;
    const double d = std::ldexp(double(rng() >> 11) / double(1ull << 53), exp) * (rng() & 1 ? -1 : 1);
    const volatile _Float16 h = static_cast<_Float16>(d);
    EXPECT_EQ(std::bit_cast<uint64_t>(fp16(d)), std::bit_cast<uint64_t>(double(h))) << d;
  }
}
#endif

TEST(ValueFloating, BF16MatchesBitRoundingOfFloats) {
  std::mt19937 rng(3);
  for (int n = 0; n < 200000; ++n) {
    const float x = std::bit_cast<float>(uint32_t(rng()));
    if (std::isnan(x) || std::fabs(x) > 3.3e38f) continue;  // the bit trick's carry into inf is fine, NaN is not
    EXPECT_EQ(bf16(x), bf16_of_float(x)) << x;
  }
}

TEST(ValueFloating, FP64IsExact) {
  EXPECT_EQ(Value::floating(DType::FP64, 0.1).f, 0.1);
  EXPECT_EQ(Value::floating(DType::FP64, 1e308).f, 1e308);
}

TEST(ValueFloating, InfinitiesAndZerosKeepTheirSign) {
  for (DType t : {DType::FP16, DType::BF16, DType::FP32, DType::FP64}) {
    EXPECT_EQ(Value::floating(t, kInf).f, kInf);
    EXPECT_EQ(Value::floating(t, -kInf).f, -kInf);
    EXPECT_TRUE(std::signbit(Value::floating(t, -0.0).f));
    EXPECT_FALSE(std::signbit(Value::floating(t, 0.0).f));
  }
}

// ---------------------------------------------------------------- equality and hashing

TEST(ValueEquality, NaNsAreOneValue) {
  const double negative_nan = -kNaN;
  const double payload_nan = std::bit_cast<double>(uint64_t(0x7ff0000000000123));
  const Value a = Value::floating(DType::FP32, kNaN);
  const Value b = Value::floating(DType::FP32, negative_nan);
  const Value c = Value::floating(DType::FP32, payload_nan);
  EXPECT_EQ(a, b);
  EXPECT_EQ(a, c);
  EXPECT_EQ(hash_value(a), hash_value(b));
  EXPECT_EQ(hash_value(a), hash_value(c));
  // Even a NaN written into the field directly.
  Value raw;
  raw.dtype = DType::FP32;
  raw.f = negative_nan;
  EXPECT_EQ(raw, a);
  EXPECT_EQ(hash_value(raw), hash_value(a));
}

TEST(ValueEquality, SignedZerosDifferButAreBothZero) {
  const Value pos = Value::floating(DType::FP32, 0.0);
  const Value neg = Value::floating(DType::FP32, -0.0);
  EXPECT_NE(pos, neg);
  EXPECT_TRUE(pos.is_zero());
  EXPECT_TRUE(neg.is_zero());
  EXPECT_FALSE(pos.is_one());
  EXPECT_TRUE(Value::floating(DType::FP16, 1.0).is_one());
}

TEST(ValueEquality, DtypeIsPartOfTheValue) {
  EXPECT_NE(Value::integer(DType::Int32, 1), Value::integer(DType::Int64, 1));
  EXPECT_NE(Value::integer(DType::Index, 1), Value::boolean(true));
  EXPECT_NE(Value::floating(DType::FP32, 1.0), Value::floating(DType::FP64, 1.0));
  EXPECT_EQ(Value::integer(DType::Int32, 7), Value::integer(DType::Int32, 7));
}

TEST(ValueEquality, HashIsConsistentWithEquality) {
  std::vector<Value> values;
  for (int k = -3; k <= 3; ++k) {
    for (DType t : {DType::Index, DType::Int8, DType::UInt64}) values.push_back(Value::integer(t, k));
    for (DType t : {DType::FP16, DType::FP64}) values.push_back(Value::floating(t, k * 0.5));
  }
  values.push_back(Value::floating(DType::FP64, -0.0));
  values.push_back(Value::floating(DType::FP64, kNaN));
  std::unordered_set<std::size_t> hashes;
  for (const Value& a : values) {
    for (const Value& b : values) {
      if (a == b) {
        EXPECT_EQ(hash_value(a), hash_value(b));
      }
    }
    hashes.insert(hash_value(a));
  }
  EXPECT_GT(hashes.size(), values.size() - 8);  // distinct values rarely collide
}

// ---------------------------------------------------------------- text

TEST(ValueText, IntegersAndBooleans) {
  EXPECT_EQ(value_text(Value::integer(DType::Index, -3)), "-3");
  EXPECT_EQ(value_text(Value::integer(DType::Int32, 12)), "12");
  EXPECT_EQ(value_text(Value::integer(DType::UInt64, -1)), "18446744073709551615");
  EXPECT_EQ(value_text(Value::integer(DType::Index, -(Int(1) << 100))), "-1267650600228229401496703205376");
  EXPECT_EQ(value_text(Value::boolean(true)), "True");
  EXPECT_EQ(value_text(Value::boolean(false)), "False");
}

TEST(ValueText, FloatsInPythonSpelling) {
  auto text = [](DType t, double v) { return value_text(Value::floating(t, v)); };
  EXPECT_EQ(text(DType::FP64, 1.0), "1.0");
  EXPECT_EQ(text(DType::FP64, 0.5), "0.5");
  EXPECT_EQ(text(DType::FP64, -0.0), "-0.0");
  EXPECT_EQ(text(DType::FP64, 0.0), "0.0");
  EXPECT_EQ(text(DType::FP64, 100.0), "100.0");
  EXPECT_EQ(text(DType::FP64, 1e20), "1e+20");
  EXPECT_EQ(text(DType::FP64, 1e16), "1e+16");
  EXPECT_EQ(text(DType::FP64, 1e15), "1000000000000000.0");
  EXPECT_EQ(text(DType::FP64, 1.2345678901234568e17), "1.2345678901234568e+17");
  EXPECT_EQ(text(DType::FP64, 1e-4), "0.0001");
  EXPECT_EQ(text(DType::FP64, 1e-5), "1e-05");
  EXPECT_EQ(text(DType::FP64, -2.5e-7), "-2.5e-07");
  EXPECT_EQ(text(DType::FP64, 1.5e300), "1.5e+300");
  EXPECT_EQ(text(DType::FP64, 0.1), "0.1");
  EXPECT_EQ(text(DType::FP64, 12345.678), "12345.678");
  EXPECT_EQ(text(DType::FP64, kInf), "inf");
  EXPECT_EQ(text(DType::FP64, -kInf), "-inf");
  EXPECT_EQ(text(DType::FP32, kNaN), "nan");
}

TEST(ValueText, NarrowFloatsUseTheirOwnShortestForm) {
  auto text = [](DType t, double v) { return value_text(Value::floating(t, v)); };
  EXPECT_EQ(text(DType::FP32, 0.1), "0.1");  // the float 0.100000001490116...
  EXPECT_EQ(text(DType::FP32, 16777216.0), "16777216.0");
  EXPECT_EQ(text(DType::FP32, 1e16), "1e+16");
  EXPECT_EQ(text(DType::FP16, 0.1), "0.1");  // 0.0999755859375
  EXPECT_EQ(text(DType::FP16, 1.0 / 3), "0.3333");
  EXPECT_EQ(text(DType::FP16, 65504), "65500.0");  // 65500 reads back as 65504
  EXPECT_EQ(text(DType::FP16, std::ldexp(1, -24)), "6e-08");
  EXPECT_EQ(text(DType::FP16, std::ldexp(1, -14)), "6.104e-05");
  EXPECT_EQ(text(DType::BF16, 3.14159265), "3.14");
  EXPECT_EQ(text(DType::BF16, std::ldexp(255, 120)), "3.39e+38");
}

// Every float value prints to a text that reads back to it.
void expect_round_trip(const Value& v) {
  const std::string s = value_text(v);
  EXPECT_EQ(read_float(v.dtype, s), v) << s;
  EXPECT_TRUE(s.find_first_of(".en") != std::string::npos) << s;  // never reads as an int
}

TEST(ValueText, EveryFP16RoundTrips) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    const int exp = int((bits >> 10) & 0x1f);
    const int frac = int(bits & 0x3ff);
    double mag = exp == 0    ? std::ldexp(frac, -24)
                 : exp == 31 ? (frac == 0 ? kInf : kNaN)
                             : std::ldexp(1024 + frac, exp - 25);
    const Value v = Value::floating(DType::FP16, bits & 0x8000 ? -mag : mag);
    ASSERT_EQ(v.f == mag || v.f == -mag || std::isnan(mag), true);
    expect_round_trip(v);
  }
}

TEST(ValueText, RandomFloatsRoundTripInEveryDtype) {
  std::mt19937_64 rng(4);
  for (DType t : {DType::BF16, DType::FP32, DType::FP64}) {
    for (int n = 0; n < 50000; ++n) {
      const double d = std::bit_cast<double>(rng());
      const int exp = int(rng() % 300) - 150;
      expect_round_trip(Value::floating(t, d));
      expect_round_trip(Value::floating(t, std::ldexp(double(rng() >> 11), exp - 53)));
    }
  }
}

TEST(ValueText, FP32IsAsShortAsTheShortestFloatText) {
  // std::to_chars(float) gives the shortest text that reads back directly as a float;
  // whenever that text also reads back through a double, ours is no longer.
  std::mt19937 rng(5);
  for (int n = 0; n < 100000; ++n) {
    const float x = std::bit_cast<float>(uint32_t(rng()));
    if (!std::isfinite(x) || x == 0) continue;
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::scientific);
    const std::string reference(buf, res.ptr);
    const Value v = Value::floating(DType::FP32, x);
    const std::string ours = value_text(v);
    if (read_float(DType::FP32, reference) == v) {
      EXPECT_LE(significant_digits(ours), significant_digits(reference)) << ours << " vs " << reference;
    }
  }
}

TEST(ValueText, FP64MatchesTheShortestDoubleText) {
  std::mt19937_64 rng(6);
  for (int n = 0; n < 100000; ++n) {
    const double d = std::bit_cast<double>(rng());
    if (!std::isfinite(d) || d == 0) continue;
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
    EXPECT_EQ(significant_digits(value_text(Value::floating(DType::FP64, d))),
              significant_digits(std::string(buf, res.ptr)));
  }
}

}  // namespace
}  // namespace eqsat
