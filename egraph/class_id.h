// E-class ids: 32-bit indices with a type of their own, so that a class id cannot be
// confused with a node index, a symbol or a count.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>

namespace eqsat {

struct ClassId {
  uint32_t value = std::numeric_limits<uint32_t>::max();

  constexpr ClassId() = default;
  constexpr explicit ClassId(uint32_t v) : value(v) {}
  constexpr bool valid() const { return value != std::numeric_limits<uint32_t>::max(); }
  friend constexpr auto operator<=>(ClassId, ClassId) = default;
};

// Copies `count` ids from `from` to `to` and returns the end of the copy. A match's ids
// (its substitution, or what the filter put in its place) are 1 to 4 most of the time:
// each of those is a copy of a fixed size, a move or two, where std::copy_n of a count
// known only at run time is a call to memcpy per match, about 2% of `sum 11` when the
// search lists its matches. Id by id, not std::copy_n of a fixed count: GCC 12 makes
// that a call to memmove for 12 bytes (three ids, the width of the workloads' rules:
// a million calls in `sum 10`).
inline ClassId* copy_ids(const ClassId* from, std::size_t count, ClassId* to) {
  switch (count) {
    case 4:
      to[3] = from[3];
      [[fallthrough]];
    case 3:
      to[2] = from[2];
      [[fallthrough]];
    case 2:
      to[1] = from[1];
      [[fallthrough]];
    case 1:
      to[0] = from[0];
      break;
    default:
      std::copy_n(from, count, to);
  }
  return to + count;
}

}  // namespace eqsat

template <>
struct std::hash<eqsat::ClassId> {
  std::size_t operator()(eqsat::ClassId id) const noexcept { return std::hash<uint32_t>{}(id.value); }
};
