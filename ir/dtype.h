// The dtypes of the expression language and what each one means.
//
//   INDEX          a signed mathematical integer: never overflows
//   BOOL           True / False
//   INT8..INT64    two's complement, wrapping at n bits
//   UINT8..UINT64  unsigned, wrapping at n bits
//   FP16 BF16 FP32 FP64  IEEE 754 binary formats, round to nearest even
//
// See shared/spec/expressions.md for the contract these implement.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "ir/int128.h"

namespace eqsat {

enum class DType : uint8_t {
  Index,
  Bool,
  Int8,
  Int16,
  Int32,
  Int64,
  UInt8,
  UInt16,
  UInt32,
  UInt64,
  FP16,
  BF16,
  FP32,
  FP64,
};

inline constexpr int kNumDTypes = 14;

// The spelling used by the text form ("INDEX", "INT32", ...).
std::string_view dtype_name(DType dtype);
// Accepts the spelling above with an optional "pl." prefix.
std::optional<DType> parse_dtype(std::string_view text);

constexpr bool is_float(DType t) {
  return t == DType::FP16 || t == DType::BF16 || t == DType::FP32 || t == DType::FP64;
}
constexpr bool is_fixed_width_int(DType t) { return t >= DType::Int8 && t <= DType::UInt64; }
// INDEX and the fixed-width integers (not BOOL).
constexpr bool is_integer(DType t) { return t == DType::Index || is_fixed_width_int(t); }
constexpr bool is_unsigned(DType t) { return t >= DType::UInt8 && t <= DType::UInt64; }
constexpr bool is_signed_int(DType t) { return t == DType::Index || (t >= DType::Int8 && t <= DType::Int64); }

// Bit width of a fixed-width integer or float; 1 for BOOL; 0 for INDEX (unbounded).
int bit_width(DType t);

// Smallest and largest value of a fixed-width integer dtype (BOOL: 0 and 1).
// Must not be called for INDEX or floats.
Int dtype_min(DType t);
Int dtype_max(DType t);

// Reduces a mathematical integer to the value a fixed-width dtype holds after
// wrap-around (identity for INDEX; BOOL keeps the lowest bit).
Int wrap_to(DType t, Int value);

}  // namespace eqsat
