// Private to ir/: the IEEE 754 binary formats behind FP16, BF16, FP32 and FP64, and
// correctly rounded conversion into them (round to nearest, ties to even).
//
// A float Value keeps its number in a double, which holds every value of every float
// dtype exactly; these helpers decide which doubles a narrower dtype can hold.
#pragma once

#include "ir/dtype.h"
#include "ir/int128.h"

namespace eqsat::detail {

struct FloatFormat {
  int precision;     // significand bits, the implicit leading bit included
  int min_exponent;  // exponent of the smallest normal number: 2^min_exponent
  int max_exponent;  // exponent of the largest finite number's leading bit
};

// FP16 = {11, -14, 15}, BF16 = {8, -126, 127}, FP32 = {24, -126, 127},
// FP64 = {53, -1022, 1023}. `dtype` must be a float dtype.
FloatFormat float_format(DType dtype);

// The largest finite value of a float dtype (65504 for FP16).
double max_finite(DType dtype);

// Rounds `v` to the nearest value of the float dtype, ties to even, with subnormals
// and overflow to +-inf. Infinities and the sign of zero are kept; every NaN becomes
// the one canonical quiet NaN. For FP64 this only canonicalises NaN.
double round_to_format(DType dtype, double v);

// The integer `v` rounded once (not through a double first) to the float dtype.
double round_int_to_format(DType dtype, Int v);

// The canonical NaN (a positive quiet NaN).
double canonical_nan();

}  // namespace eqsat::detail
