// Costs: a saturating integer with an infinity, and the cost profile that prices each
// operation. "Simplest" is whatever the profile says is cheapest.
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "ir/dtype.h"
#include "ir/error.h"
#include "ir/op.h"

namespace eqsat {

// A cost that saturates at infinity instead of wrapping. Infinity marks an operation
// the profile forbids: extraction never picks a node of infinite cost.
class Cost {
 public:
  static constexpr uint64_t kInfinite = std::numeric_limits<uint64_t>::max();
  constexpr Cost() = default;
  constexpr explicit Cost(uint64_t v) : value_(v) {}
  static constexpr Cost infinite() { return Cost(kInfinite); }

  constexpr bool is_infinite() const { return value_ == kInfinite; }
  constexpr uint64_t value() const { return value_; }
  friend constexpr Cost operator+(Cost a, Cost b) {
    uint64_t sum = a.value_ + b.value_;
    return Cost(sum < a.value_ || a.is_infinite() || b.is_infinite() ? kInfinite : sum);
  }
  friend constexpr auto operator<=>(Cost, Cost) = default;

 private:
  uint64_t value_ = 0;
};

// The price of each operation, optionally per result dtype. Read from JSON:
//   {"name": "ops", "default": 1, "ops": {"floordiv": 8, "floormod": 8},
//    "dtypes": {"FP32": {"div": 4}}}
// Operation names are the stable names of ir/op.h ("add", "floordiv", "select", ...);
// "inf" as a cost forbids an operation. Unknown keys and bad values are errors.
class CostProfile {
 public:
  // Every operation, variable and constant costs 1: the cost of an expression is its
  // number of nodes (the spec's example costs).
  static CostProfile unit();
  static Result<CostProfile> from_json_text(std::string_view text, std::string_view source_name);
  static Result<CostProfile> from_file(const std::string& path);

  Cost op_cost(Op op, DType dtype) const { return table_[static_cast<int>(dtype)][static_cast<int>(op)]; }
  const std::string& name() const { return name_; }

 private:
  std::string name_ = "unit";
  std::array<std::array<Cost, kNumOps>, kNumDTypes> table_{};
};

}  // namespace eqsat
