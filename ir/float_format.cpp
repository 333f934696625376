#include "ir/float_format.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <limits>

namespace eqsat::detail {

FloatFormat float_format(DType dtype) {
  switch (dtype) {
    case DType::FP16:
      return {11, -14, 15};
    case DType::BF16:
      return {8, -126, 127};
    case DType::FP32:
      return {24, -126, 127};
    case DType::FP64:
      return {53, -1022, 1023};
    default:
      break;
  }
  assert(false && "float_format of a non-float dtype");
  return {53, -1022, 1023};
}

double max_finite(DType dtype) {
  const FloatFormat fmt = float_format(dtype);
  // (2^p - 1) * 2^(emax - p + 1): all significand bits set, largest exponent.
  const double all_ones = std::ldexp(1.0, fmt.precision) - 1.0;
  return std::ldexp(all_ones, fmt.max_exponent - fmt.precision + 1);
}

double canonical_nan() { return std::numeric_limits<double>::quiet_NaN(); }

double round_to_format(DType dtype, double v) {
  if (std::isnan(v)) return canonical_nan();
  if (dtype == DType::FP64 || v == 0.0 || std::isinf(v)) return v;
  const FloatFormat fmt = float_format(dtype);

  // |v| = m * 2^e with m in [0.5, 1): its leading bit has exponent e - 1.
  const double mag = std::fabs(v);
  int e = 0;
  std::frexp(mag, &e);
  // The format's spacing (unit in the last place) around |v|; below the normal range
  // it stays at the subnormal spacing.
  const int ulp_exp = std::max(e - 1, fmt.min_exponent) - (fmt.precision - 1);
  // Scaling by a power of two is exact here: the scaled value is below 2^precision and
  // far above the double's subnormal range for every narrower format.
  const double scaled = std::ldexp(mag, -ulp_exp);
  double units = std::floor(scaled);
  const double frac = scaled - units;  // exact
  if (frac > 0.5 || (frac == 0.5 && std::fmod(units, 2.0) != 0.0)) units += 1.0;
  double rounded = std::ldexp(units, ulp_exp);
  if (rounded > max_finite(dtype)) rounded = std::numeric_limits<double>::infinity();
  return std::copysign(rounded, v);
}

double round_int_to_format(DType dtype, Int v) {
  if (v == 0) return 0.0;
  const bool negative = v < 0;
  const UInt mag = negative ? UInt(0) - UInt(v) : UInt(v);

  const auto hi = static_cast<uint64_t>(mag >> 64);
  const auto lo = static_cast<uint64_t>(mag);
  const int bits = hi != 0 ? 128 - __builtin_clzll(hi) : 64 - __builtin_clzll(lo);

  // Round the magnitude to `precision` significant bits, nearest even. An integer is
  // never subnormal, so only the precision matters; overflow is handled below.
  const int precision = float_format(dtype).precision;
  UInt kept = mag;
  int shift = 0;
  if (bits > precision) {
    shift = bits - precision;
    kept = mag >> shift;
    const UInt rest = mag & ((UInt(1) << shift) - 1);
    const UInt half = UInt(1) << (shift - 1);
    if (rest > half || (rest == half && (kept & 1) != 0)) ++kept;
  }
  // kept <= 2^precision <= 2^53: exact as a double, and so is the scaling.
  const double r = std::ldexp(static_cast<double>(static_cast<uint64_t>(kept)), shift);
  // Already representable unless it exceeds the format's range (then +-inf).
  return round_to_format(dtype, negative ? -r : r);
}

}  // namespace eqsat::detail
