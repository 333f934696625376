#include "ir/int128.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

namespace eqsat {

std::optional<Int> checked_add(Int a, Int b) {
  Int r;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

std::optional<Int> checked_sub(Int a, Int b) {
  Int r;
  if (__builtin_sub_overflow(a, b, &r)) return std::nullopt;
  return r;
}

std::optional<Int> checked_mul(Int a, Int b) {
  Int r;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

std::string to_string(Int value) {
  if (value == 0) return "0";
  // Most values fit in 64 bits, where the digits need no 128-bit division.
  if (value >= std::numeric_limits<int64_t>::min() && value <= std::numeric_limits<int64_t>::max())
    return std::to_string(static_cast<long long>(value));
  bool negative = value < 0;
  // Work on the unsigned magnitude so that the minimum value does not overflow.
  UInt magnitude = negative ? UInt(0) - UInt(value) : UInt(value);
  std::string digits;
  while (magnitude != 0) {
    digits.push_back(char('0' + int(magnitude % 10)));
    magnitude /= 10;
  }
  if (negative) digits.push_back('-');
  std::reverse(digits.begin(), digits.end());
  return digits;
}

std::optional<Int> parse_int(std::string_view text) {
  bool negative = false;
  if (!text.empty() && text.front() == '-') {
    negative = true;
    text.remove_prefix(1);
  }
  if (text.empty()) return std::nullopt;
  Int value = 0;
  for (char ch : text) {
    if (ch < '0' || ch > '9') return std::nullopt;
    auto scaled = checked_mul(value, 10);
    if (!scaled) return std::nullopt;
    auto next = negative ? checked_sub(*scaled, ch - '0') : checked_add(*scaled, ch - '0');
    if (!next) return std::nullopt;
    value = *next;
  }
  return value;
}

Int floor_div(Int a, Int b) {
  Int q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

Int floor_mod(Int a, Int b) {
  Int r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

}  // namespace eqsat
