// Guards: side conditions of a rewrite over the analyses of the matched classes.
//
// A guard is an integer/boolean expression over
//   - the values of constant-only pattern variables (`c > 0`),
//   - `lower(x)` and `upper(x)`: the interval bounds of the class bound to x,
//   - `modulus(x)` and `remainder(x)`: the congruence of the class bound to x
//     (egraph/congruence.h): every value of x is k*modulus(x) + remainder(x), with
//     modulus(x) >= 1 and 0 <= remainder(x) < modulus(x); nothing known is 1 and 0.
//     For a class known to be a constant both are unknown (constant folding handles
//     constants; is_const(x) says which),
//   - integer literals, + - * // % min max abs, comparisons, and/or/not,
//   - `is_const(x)`: whether the analysis knows the class of x to be a constant. This
//     is about what is known, not about the value: it only limits when a rewrite is
//     tried (constant pushing must not fire on constants, which constant folding
//     handles), so a rewrite must be sound whatever it says.
//   - `total(x)`: whether the analysis knows the class of x to hold a term defined for
//     every input (ClassData::total). The prover reads it as "x is defined here": a
//     rule over `and`, `or` or `select` may need an operand defined where the left side
//     does not evaluate it (`x and y => y and x if total(y)`).
// Arithmetic is exact (128-bit, checked). A bound that is infinite, or a value that is
// not an integer, is unknown; logic is three-valued and a rewrite fires only when its
// guard is definitely true. So a missing fact never enables a fold.
#pragma once

#include <boost/container/small_vector.hpp>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "egraph/pattern.h"

namespace eqsat {

struct GuardNode {
  enum class Kind : uint8_t {
    Literal,    // an integer constant
    ValueOf,    // the constant value of a const-only variable
    Lower,      // lower(x)
    Upper,      // upper(x)
    IsConst,    // is_const(x): a truth value, never unknown
    Total,      // total(x): a truth value, never unknown
    Modulus,    // modulus(x)
    Remainder,  // remainder(x)
    Apply,      // `op` applied to the children
  };
  Kind kind = Kind::Literal;
  Op op = Op::Add;   // Apply: Add Sub Mul Neg FloorDiv FloorMod Min Max Abs, comparisons, And Or Not
  Int literal = 0;   // Literal
  uint32_t var = 0;  // ValueOf, Lower, Upper, IsConst, Total, Modulus, Remainder: index into the rewrite's variables
  boost::container::small_vector<uint32_t, 2> children;  // indices into Guard::nodes
};

struct Guard {
  std::vector<GuardNode> nodes;  // children come before their parents
  uint32_t root = 0;
  std::string text;  // as written in the rule file, for reports
};

enum class Truth : uint8_t { False, True, Unknown };

// Evaluates `guard` for a match. Only Truth::True allows the rewrite.
Truth evaluate_guard(const EGraph& egraph, const Guard& guard, std::span<const ClassId> subst);
inline Truth evaluate_guard(const EGraph& egraph, const Guard& guard, const Subst& subst) {
  return evaluate_guard(egraph, guard, std::span<const ClassId>(subst.data(), subst.size()));
}

}  // namespace eqsat
