// E-class ids: 32-bit indices with a type of their own, so that a class id cannot be
// confused with a node index, a symbol or a count.
#pragma once

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

}  // namespace eqsat

template <>
struct std::hash<eqsat::ClassId> {
  std::size_t operator()(eqsat::ClassId id) const noexcept { return std::hash<uint32_t>{}(id.value); }
};
