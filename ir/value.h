// A constant of some dtype: the payload of a literal and of the constant analysis.
#pragma once

#include <cstddef>
#include <string>

#include "ir/dtype.h"
#include "ir/int128.h"

namespace eqsat {

struct Value {
  DType dtype = DType::Index;
  Int i = 0;       // integers (already wrapped into the dtype's range) and BOOL (0 or 1)
  double f = 0.0;  // floats: a value exactly representable in the dtype

  static Value integer(DType dtype, Int v);  // wraps v into a fixed-width dtype
  static Value boolean(bool b);
  static Value floating(DType dtype, double v);  // rounds v to the dtype (nearest even)

  bool is_zero() const;
  bool is_one() const;

  // Same dtype and the same value; floats compare bit patterns, so NaN equals NaN and
  // -0.0 differs from +0.0 (the spec's notion of "the same IEEE value").
  friend bool operator==(const Value& a, const Value& b);
  friend bool operator!=(const Value& a, const Value& b) { return !(a == b); }
};

std::size_t hash_value(const Value& v);

// Shortest decimal text that reads back to the same value in its dtype, in Python's
// spelling: "12", "-3", "True", "1.5", "-0.0", "1e+20", "inf", "nan".
std::string value_text(const Value& v);

}  // namespace eqsat
