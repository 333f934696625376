#include "verify/z3_numerals.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "ir/float_format.h"

namespace eqsat::verify {

std::string unsigned_text(UInt value, unsigned bits) {
  if (bits < 128) value &= (UInt(1) << bits) - 1;
  if (value == 0) return "0";
  std::string digits;
  while (value != 0) {
    digits.push_back(char('0' + int(value % 10)));
    value /= 10;
  }
  std::reverse(digits.begin(), digits.end());
  return digits;
}

std::string power_of_two_text(int k) {
  std::string digits = "1";  // little-endian decimal digits
  for (int i = 0; i < k; ++i) {
    int carry = 0;
    for (char& d : digits) {
      const int v = (d - '0') * 2 + carry;
      d = char('0' + v % 10);
      carry = v / 10;
    }
    if (carry) digits.push_back(char('0' + carry));
  }
  std::reverse(digits.begin(), digits.end());
  return digits;
}

z3::expr float_literal(z3::context& ctx, const z3::sort& sort, double value) {
  Z3_ast ast = nullptr;
  if (std::isnan(value)) {
    ast = Z3_mk_fpa_nan(ctx, sort);
  } else if (std::isinf(value)) {
    ast = Z3_mk_fpa_inf(ctx, sort, value < 0);
  } else if (value == 0.0) {
    ast = Z3_mk_fpa_zero(ctx, sort, std::signbit(value));
  } else {
    // From the exact bit pattern: Z3 4.8's numeral-from-double flushes the subnormals
    // of the narrow formats to zero.
    const unsigned ebits = Z3_fpa_get_ebits(ctx, sort), sbits = Z3_fpa_get_sbits(ctx, sort);
    const z3::expr pattern = ctx.bv_val(std::to_string(encode_ieee(ebits, sbits, value)).c_str(), ebits + sbits);
    ast = Z3_mk_fpa_to_fp_bv(ctx, pattern, sort);
  }
  ctx.check_error();
  return z3::expr(ctx, ast);
}

uint64_t encode_ieee(unsigned ebits, unsigned sbits, double value) {
  const int fraction_bits = int(sbits) - 1;
  const int bias = (1 << (ebits - 1)) - 1;
  const uint64_t sign = std::signbit(value) ? uint64_t(1) << (ebits + sbits - 1) : 0;
  const double f = std::fabs(value);
  if (f == 0.0) return sign;
  if (std::isinf(f)) return sign | (((uint64_t(1) << ebits) - 1) << fraction_bits);
  int e = 0;
  const double m = std::frexp(f, &e);  // f = m * 2^e, m in [0.5, 1)
  const int biased = e - 1 + bias;
  if (biased >= 1) {
    const uint64_t significand = uint64_t(std::ldexp(m * 2.0 - 1.0, fraction_bits));
    return sign | (uint64_t(biased) << fraction_bits) | significand;
  }
  return sign | uint64_t(std::ldexp(f, bias - 1 + fraction_bits));  // subnormal
}

namespace {

// Parses Z3's decimal numeral text ("-12", "340282366920938463463374607431768211455").
UInt parse_magnitude(const std::string& text, std::size_t start) {
  UInt v = 0;
  for (std::size_t i = start; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') throw std::range_error("not an integer numeral: " + text);
    const UInt next = v * 10 + UInt(text[i] - '0');
    if (next / 10 != v) throw std::range_error("numeral beyond 128 bits: " + text);
    v = next;
  }
  return v;
}

}  // namespace

Int numeral_value(const z3::expr& numeral, DType dtype, unsigned bits) {
  const std::string text = Z3_get_numeral_string(numeral.ctx(), numeral);
  numeral.ctx().check_error();
  if (numeral.is_int()) {
    const bool negative = !text.empty() && text[0] == '-';
    const UInt magnitude = parse_magnitude(text, negative ? 1 : 0);
    if (magnitude > UInt(Int(~UInt(0) >> 1))) throw std::range_error("Int numeral beyond 128 bits: " + text);
    return negative ? -Int(magnitude) : Int(magnitude);
  }
  const UInt u = parse_magnitude(text, 0);
  const bool is_signed = dtype == DType::Index || is_signed_int(dtype);
  if (!is_signed || bits >= 128) return Int(u);  // 128 bits: the cast is two's complement
  const UInt half = UInt(1) << (bits - 1);
  return u >= half ? Int(u) - (Int(1) << (bits - 1)) * 2 : Int(u);
}

double decode_ieee(DType dtype, uint64_t bits) {
  const detail::FloatFormat f = detail::float_format(dtype);
  const int fraction_bits = f.precision - 1;
  const int exponent_bits = bit_width(dtype) - f.precision;
  const uint64_t fraction = bits & ((uint64_t(1) << fraction_bits) - 1);
  const uint64_t exponent = (bits >> fraction_bits) & ((uint64_t(1) << exponent_bits) - 1);
  const bool negative = (bits >> (bit_width(dtype) - 1)) & 1;
  const int bias = (1 << (exponent_bits - 1)) - 1;
  double magnitude;
  if (exponent == (uint64_t(1) << exponent_bits) - 1) {
    magnitude = INFINITY;  // a NaN pattern is the caller's error
  } else if (exponent == 0) {
    magnitude = std::ldexp(double(fraction), 1 - bias - fraction_bits);
  } else {
    magnitude = std::ldexp(double(fraction | (uint64_t(1) << fraction_bits)), int(exponent) - bias - fraction_bits);
  }
  return negative ? -magnitude : magnitude;
}

}  // namespace eqsat::verify
