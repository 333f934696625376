// Costs: a saturating integer with an infinity, and the cost profile that prices each
// operation. "Simplest" is whatever the profile says is cheapest.
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

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
  // `weight` times this cost, saturating; zero times anything finite is zero, and zero
  // times infinity stays infinite (a forbidden operation is never free).
  constexpr Cost scaled(uint64_t weight) const {
    if (is_infinite()) return *this;
    if (weight == 0 || value_ == 0) return Cost(0);
    return value_ > (kInfinite - 1) / weight ? infinite() : Cost(value_ * weight);
  }
  friend constexpr auto operator<=>(Cost, Cost) = default;

 private:
  uint64_t value_ = 0;
};

// How shared subterms are priced. The cost of an expression is
//   tree * (tree cost) + dag * (DAG cost)
// where the tree cost counts a subterm every time it appears and the DAG cost counts
// each distinct subterm once (what a code generator that computes common
// subexpressions once pays). The tree extractor minimizes the tree cost, exactly; the
// DAG extractor (extract/dag_extractor.h) minimizes the weighted sum.
struct CostWeights {
  uint64_t tree = 1;
  uint64_t dag = 0;
  friend bool operator==(const CostWeights&, const CostWeights&) = default;
};

// The price of each operation, optionally per result dtype. Read from JSON:
//   {"name": "ops", "comment": "when to use it", "default": 1,
//    "ops": {"floordiv": 8, "floormod": 8}, "dtypes": {"FP32": {"div": 4}},
//    "weights": {"tree": 1, "dag": 0}}
// Operation names are the stable names of ir/op.h ("add", "floordiv", "select", ...,
// and "var"/"const" for the leaves); "inf" as a cost forbids an operation. Unknown
// keys and bad values are errors naming the file and the key. A key left out keeps
// the value of the profile read over (the built-in default: every node costs 1, tree
// weight 1, DAG weight 0).
class CostProfile {
 public:
  // The built-in default: every operation, variable and constant costs 1, shared
  // subterms counted each time: the cost of an expression is its number of nodes.
  static CostProfile unit();

  // The profiles shipped in profiles/*.json and embedded at build time, by name
  // ("default", "div-expensive", "op-count"), in name order.
  static std::vector<std::string> builtin_names();
  static Result<CostProfile> builtin(std::string_view name);

  // What `--costs SPEC` and `@costs("SPEC")` name: a path when SPEC contains '/' or
  // ends in ".json", else the name of a shipped profile. `base_dir` (if not empty)
  // is where a relative path is looked up.
  static Result<CostProfile> resolve(const std::string& spec, const std::string& base_dir = "");

  // A profile from JSON text; keys it leaves out keep the values of `base`.
  static Result<CostProfile> from_json_text(std::string_view text, std::string_view source_name,
                                            const CostProfile& base = unit());
  static Result<CostProfile> from_file(const std::string& path);

  Cost op_cost(Op op, DType dtype) const { return table_[static_cast<int>(dtype)][static_cast<int>(op)]; }
  const std::string& name() const { return name_; }
  const std::string& comment() const { return comment_; }
  const CostWeights& weights() const { return weights_; }
  // tree * tree_cost + dag * dag_cost, saturating.
  Cost weigh(Cost tree_cost, Cost dag_cost) const {
    return tree_cost.scaled(weights_.tree) + dag_cost.scaled(weights_.dag);
  }

 private:
  std::string name_ = "default";
  std::string comment_;
  CostWeights weights_;
  std::array<std::array<Cost, kNumOps>, kNumDTypes> table_{};
};

}  // namespace eqsat
