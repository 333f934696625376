// The saturation runner: search every rewrite, apply the matches, rebuild, repeat,
// until nothing changes or a limit is reached. Like egg's Runner, it always stops
// with a usable e-graph and a report of what happened.
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <span>
#include <string>
#include <string_view>

#include "egraph/egraph.h"
#include "egraph/rewrite.h"

namespace eqsat {

struct RunLimits {
  static constexpr std::size_t kNoLimit = static_cast<std::size_t>(-1);
  std::size_t max_iterations = 30;
  std::size_t max_nodes = 10000;
  double max_seconds = 5.0;
};

enum class StopReason { Saturated, IterationLimit, NodeLimit, TimeLimit };
std::string_view stop_reason_name(StopReason reason);  // "saturated", "iteration-limit", ...

struct RunReport {
  StopReason stop_reason = StopReason::Saturated;
  std::size_t iterations = 0;
  std::size_t nodes = 0;
  std::size_t classes = 0;
  double seconds = 0.0;
  // Times each rule's application made two different classes equal, by rule name.
  std::map<std::string, std::size_t> rule_fires;

  std::string to_json() const;  // one JSON object, for --report
};

// `fast_math`: the flags granted to this expression (ir/fast_math.h); a rewrite that
// needs a flag not granted is skipped. The default grants none: strict IEEE.
RunReport run_rewrites(EGraph& egraph, std::span<const Rewrite> rewrites, const RunLimits& limits = {},
                       FastMath fast_math = {});

}  // namespace eqsat
