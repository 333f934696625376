// Wide integers for constants and intervals.
//
// INDEX is a mathematical integer and UINT64 reaches 2^64 - 1, so neither fits in
// int64_t. All integer constants and interval bounds are held in a signed 128-bit
// integer; arithmetic on them goes through the checked helpers below, and a result
// that does not fit is reported instead of wrapping silently.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace eqsat {

__extension__ typedef __int128 Int;
__extension__ typedef unsigned __int128 UInt;

// Checked arithmetic: nullopt on overflow of the 128-bit range.
std::optional<Int> checked_add(Int a, Int b);
std::optional<Int> checked_sub(Int a, Int b);
std::optional<Int> checked_mul(Int a, Int b);

// Decimal text of a 128-bit integer ("-170141183460469231731687303715884105728" .. ).
std::string to_string(Int value);

// Parses an optional '-' followed by decimal digits; nullopt if malformed or too big.
std::optional<Int> parse_int(std::string_view text);

// Floor division and modulo (Python semantics); b must be non-zero.
Int floor_div(Int a, Int b);
Int floor_mod(Int a, Int b);

}  // namespace eqsat
