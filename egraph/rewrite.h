// A rewrite: `lhs => rhs if guard`, for one dtype instance of a rule.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "egraph/guard.h"
#include "egraph/pattern.h"
#include "ir/fast_math.h"

namespace eqsat {

struct Rewrite {
  std::string name;              // the rule's name (shared by its dtype instances)
  std::vector<PatternVar> vars;  // shared by lhs, rhs and guard
  Pattern lhs;
  Pattern rhs;
  std::optional<Guard> guard;
  // The fast-math flags the rewrite is proved under (ir/fast_math.h): it runs only
  // where all of them are granted. None for a rule that holds under strict IEEE.
  FastMath fast_math = {};
};

}  // namespace eqsat
