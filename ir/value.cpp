#include "ir/value.h"

#include <bit>
#include <cassert>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string_view>

#include "ir/float_format.h"

namespace eqsat {

// ---------------------------------------------------------------- construction

Value Value::integer(DType dtype, Int v) {
  Value r;
  r.dtype = dtype;
  // A float dtype takes the integer rounded once to that dtype (cast semantics).
  if (is_float(dtype)) {
    r.f = detail::round_int_to_format(dtype, v);
  } else {
    r.i = wrap_to(dtype, v);
  }
  return r;
}

Value Value::boolean(bool b) {
  Value r;
  r.dtype = DType::Bool;
  r.i = b ? 1 : 0;
  return r;
}

Value Value::floating(DType dtype, double v) {
  assert(is_float(dtype) && "Value::floating needs a float dtype");
  Value r;
  r.dtype = dtype;
  r.f = is_float(dtype) ? detail::round_to_format(dtype, v) : v;
  return r;
}

// Floats: numerically zero / one, so both +0.0 and -0.0 are zero. Use == (bit
// equality) to tell the zeros apart.
bool Value::is_zero() const { return is_float(dtype) ? f == 0.0 : i == 0; }
bool Value::is_one() const { return is_float(dtype) ? f == 1.0 : i == 1; }

// ---------------------------------------------------------------- equality, hashing

namespace {

// The bits that identify a float value: every NaN maps to the canonical one (Values
// built through Value::floating hold only that one, but the fields are public).
uint64_t float_key(double f) { return std::bit_cast<uint64_t>(std::isnan(f) ? detail::canonical_nan() : f); }

uint64_t mix(uint64_t h, uint64_t x) {
  // splitmix64's finaliser over a running combination.
  h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ULL;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebULL;
  h ^= h >> 31;
  return h;
}

}  // namespace

bool operator==(const Value& a, const Value& b) {
  if (a.dtype != b.dtype) return false;
  if (is_float(a.dtype)) return float_key(a.f) == float_key(b.f);
  return a.i == b.i;
}

std::size_t hash_value(const Value& v) {
  uint64_t h = mix(0, static_cast<uint64_t>(v.dtype));
  if (is_float(v.dtype)) return mix(h, float_key(v.f));
  const auto bits = static_cast<UInt>(v.i);
  h = mix(h, static_cast<uint64_t>(bits));
  return mix(h, static_cast<uint64_t>(bits >> 64));
}

// ---------------------------------------------------------------- text

namespace {

// A finite non-zero decimal: digits * 10^exp10, digits without trailing zeros.
struct Decimal {
  uint64_t digits = 0;
  int exp10 = 0;
};

Decimal normalized(uint64_t digits, int exp10) {
  while (digits != 0 && digits % 10 == 0) {
    digits /= 10;
    ++exp10;
  }
  return {digits, exp10};
}

// Reads the magnitude of std::to_chars' scientific output ("-1.2345e-07").
Decimal from_scientific(std::string_view s) {
  if (!s.empty() && s.front() == '-') s.remove_prefix(1);
  uint64_t digits = 0;
  int fraction_digits = 0;
  bool after_point = false;
  std::size_t pos = 0;
  for (; pos < s.size() && s[pos] != 'e'; ++pos) {
    if (s[pos] == '.') {
      after_point = true;
      continue;
    }
    digits = digits * 10 + uint64_t(s[pos] - '0');
    if (after_point) ++fraction_digits;
  }
  int exponent = 0;
  if (pos < s.size()) {
    std::string_view e = s.substr(pos + 1);
    if (!e.empty() && e.front() == '+') e.remove_prefix(1);
    std::from_chars(e.data(), e.data() + e.size(), exponent);
  }
  return normalized(digits, exponent - fraction_digits);
}

// The spec's reading of a float literal: parse as a double, then round to the dtype.
double read_back(DType dtype, Decimal d) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d.digits);
  *end++ = 'e';
  end = std::to_chars(end, buf + sizeof buf, d.exp10).ptr;
  double parsed = 0.0;
  std::from_chars(buf, end, parsed);
  return detail::round_to_format(dtype, parsed);
}

// The shortest decimal that reads back to `mag` (> 0, finite) in `dtype`; among the
// shortest, the nearest.
Decimal shortest(DType dtype, double mag) {
  char buf[64];
  if (dtype == DType::FP64) {
    // Reading back is plain double parsing: std::to_chars's shortest form is exact.
    auto res = std::to_chars(buf, buf + sizeof buf, mag, std::chars_format::scientific);
    return from_scientific(std::string_view(buf, res.ptr - buf));
  }
  // Narrower dtypes: the nearest decimal of n digits, for n = 1, 2, ... The values
  // reading back to `mag` form an interval around it; if the nearest n-digit decimal
  // falls outside, the only other n-digit candidate is its neighbour on the far side.
  for (int n = 1; n <= 17; ++n) {
    auto res = std::to_chars(buf, buf + sizeof buf, mag, std::chars_format::scientific, n - 1);
    const Decimal nearest = from_scientific(std::string_view(buf, res.ptr - buf));
    if (read_back(dtype, nearest) == mag) return nearest;
    // Its neighbours among the decimals of n digits: undo the normalisation, then
    // step the last digit. Just below a power of ten the grid is ten times finer
    // (below 1.0 comes 0.9 at one digit, below 10 comes 9.9 at two).
    uint64_t digits = nearest.digits;
    int exp10 = nearest.exp10;
    uint64_t power = 1;  // 10^(n-1)
    for (int k = 1; k < n; ++k) power *= 10;
    while (digits < power) {
      digits *= 10;
      --exp10;
    }
    const Decimal below = digits == power ? normalized(digits * 10 - 1, exp10 - 1) : normalized(digits - 1, exp10);
    const Decimal above = normalized(digits + 1, exp10);
    for (const Decimal& d : {below, above}) {
      if (read_back(dtype, d) == mag) return d;
    }
  }
  // 17 significant digits always identify a double, and `mag` is one.
  assert(false && "no decimal reads back");
  return {};
}

// Python's repr layout: positional for 1e-4 <= |x| < 1e16 ("0.0001", "100.0"),
// scientific otherwise ("1e-05", "1.5e+16").
std::string python_layout(bool negative, Decimal d) {
  std::string digits = std::to_string(d.digits);
  const int length = int(digits.size());
  const int point = length + d.exp10;  // value = 0.<digits> * 10^point
  std::string out = negative ? "-" : "";
  if (point > -4 && point <= 16) {
    if (point <= 0) {
      out += "0." + std::string(-point, '0') + digits;
    } else if (point >= length) {
      out += digits + std::string(point - length, '0') + ".0";
    } else {
      out += digits.substr(0, point) + "." + digits.substr(point);
    }
    return out;
  }
  out += digits.substr(0, 1);
  if (length > 1) out += "." + digits.substr(1);
  const int exponent = point - 1;
  out += exponent < 0 ? "e-" : "e+";
  const int abs_exponent = exponent < 0 ? -exponent : exponent;
  if (abs_exponent < 10) out += "0";
  out += std::to_string(abs_exponent);
  return out;
}

std::string float_text(DType dtype, double f) {
  if (std::isnan(f)) return "nan";
  if (std::isinf(f)) return f < 0 ? "-inf" : "inf";
  if (f == 0.0) return std::signbit(f) ? "-0.0" : "0.0";
  return python_layout(f < 0, shortest(dtype, std::fabs(f)));
}

}  // namespace

std::string value_text(const Value& v) {
  if (is_float(v.dtype)) return float_text(v.dtype, v.f);
  if (v.dtype == DType::Bool) return v.i != 0 ? "True" : "False";
  return to_string(v.i);
}

}  // namespace eqsat
