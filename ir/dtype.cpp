#include "ir/dtype.h"

#include <array>
#include <cassert>

namespace eqsat {

namespace {
constexpr std::array<std::string_view, kNumDTypes> kNames = {
    "INDEX",  "BOOL",   "INT8",   "INT16", "INT32", "INT64", "UINT8",
    "UINT16", "UINT32", "UINT64", "FP16",  "BF16",  "FP32",  "FP64",
};
}  // namespace

std::string_view dtype_name(DType dtype) { return kNames[static_cast<int>(dtype)]; }

std::optional<DType> parse_dtype(std::string_view text) {
  if (text.substr(0, 3) == "pl.") text.remove_prefix(3);
  for (int i = 0; i < kNumDTypes; ++i) {
    if (kNames[i] == text) return static_cast<DType>(i);
  }
  return std::nullopt;
}

int bit_width(DType t) {
  switch (t) {
    case DType::Index:
      return 0;
    case DType::Bool:
      return 1;
    case DType::Int8:
    case DType::UInt8:
      return 8;
    case DType::Int16:
    case DType::UInt16:
    case DType::FP16:
    case DType::BF16:
      return 16;
    case DType::Int32:
    case DType::UInt32:
    case DType::FP32:
      return 32;
    case DType::Int64:
    case DType::UInt64:
    case DType::FP64:
      return 64;
  }
  return 0;
}

Int dtype_min(DType t) {
  assert((is_fixed_width_int(t) || t == DType::Bool) && "dtype_min of an unbounded dtype");
  if (t == DType::Bool || is_unsigned(t)) return 0;
  return -(Int(1) << (bit_width(t) - 1));
}

Int dtype_max(DType t) {
  assert((is_fixed_width_int(t) || t == DType::Bool) && "dtype_max of an unbounded dtype");
  if (t == DType::Bool) return 1;
  if (is_unsigned(t)) return (Int(1) << bit_width(t)) - 1;
  return (Int(1) << (bit_width(t) - 1)) - 1;
}

Int wrap_to(DType t, Int value) {
  if (t == DType::Index) return value;
  const int bits = bit_width(t);
  const UInt mask = (UInt(1) << bits) - 1;
  UInt low = UInt(value) & mask;
  if (is_unsigned(t) || t == DType::Bool) return Int(low);
  // Sign-extend from `bits`.
  if (low >> (bits - 1)) return Int(low) - (Int(1) << bits);
  return Int(low);
}

}  // namespace eqsat
