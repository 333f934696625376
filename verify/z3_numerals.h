// Numerals between eqsat values and Z3 terms: literals in, model values out.
#pragma once

#include <z3++.h>

#include <cstdint>
#include <string>

#include "ir/dtype.h"
#include "ir/int128.h"

namespace eqsat::verify {

// `value` modulo 2^bits (bits <= 128), in decimal.
std::string unsigned_text(UInt value, unsigned bits);

// 2^k in decimal, for any k >= 0.
std::string power_of_two_text(int k);

// The float literal `value` (exactly representable in `sort`, or NaN or an infinity).
z3::expr float_literal(z3::context& ctx, const z3::sort& sort, double value);

// The IEEE bit pattern of `value` (exactly representable, not NaN) in the format with
// `ebits` exponent bits and `sbits` significand bits (hidden bit included).
uint64_t encode_ieee(unsigned ebits, unsigned sbits, double value);

// The integer a Z3 numeral stands for: an Int as it is, a bit-vector of `bits` bits in
// the signed reading when `dtype` is signed (INDEX or INTn), unsigned otherwise.
// Throws std::range_error when it does not fit 128 bits.
Int numeral_value(const z3::expr& numeral, DType dtype, unsigned bits);

// The double holding the IEEE bit pattern `bits` of a float dtype (exact: every value
// of every float dtype is a double). The pattern must not be a NaN.
double decode_ieee(DType dtype, uint64_t bits);

}  // namespace eqsat::verify
