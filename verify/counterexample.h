// A counterexample to a rewrite (or to the equivalence of two expressions): the values
// of the variables and what each side computes there.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "egraph/pattern.h"
#include "ir/value.h"

namespace eqsat::verify {

struct Counterexample {
  struct Binding {
    std::string name;
    Value value;
  };
  std::vector<Binding> vars;
  // Variables that stand for an undefined term here (only where the left side reads
  // an operand lazily, verify/pattern_terms.h); their values above mean nothing.
  std::vector<std::string> undefined;
  // What the guard read, when it mattered: "lower(x) = 0", "is_const(y) = False".
  std::vector<std::string> facts;
  std::optional<Value> lhs;  // nullopt: undefined
  std::optional<Value> rhs;

  // "x = 2147483647 (INT32): lhs = False, rhs = True"; facts, if any, follow the
  // variables after "with".
  std::string text(std::string_view lhs_name = "lhs", std::string_view rhs_name = "rhs") const;
};

// Evaluates a pattern on concrete variable values with the constant folder
// (ir/fold.h), bottom-up and strictly: nullopt when an operation is undefined, or when
// the folder declines (float min/max of NaN or of zeros of both signs, INDEX results
// of 2^100 or more). The independent check of every counterexample Z3 gives.
std::optional<Value> fold_pattern(const Pattern& pattern, std::span<const Value> vars);

}  // namespace eqsat::verify
