// Passes over programs, by name, composed into pipelines that report what each changed.
//
//   simplify             the Simplify pass (passes/simplify_pass.h)
//   simplify-constants   the same in constants-only mode: constants propagated and
//                        folded, dead scalars dropped, control flow untouched
//   lower-pipeline       pipeline-loop replication (passes/lower_pipeline.h)
//
// A pipeline is written as names separated by commas: "lower-pipeline,simplify". The
// default pipeline is "simplify".
#pragma once

#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "egraph/rewrite.h"
#include "ir/error.h"
#include "ir/stmt.h"
#include "passes/simplify_expr.h"

namespace eqsat {

struct PassContext {
  std::span<const Rewrite> rules;
  SimplifyOptions expr;  // limits and costs for each expression
  // Profiles of the functions with `@costs` (passes/function_costs.h), by function
  // name; other functions use expr.costs.
  std::map<std::string, CostProfile> function_costs;
  // Functions simplified at the same time (each function is independent; the result
  // and the reports are the same for any count). 0: one per core.
  unsigned threads = 1;
};

// What one pass of a pipeline did: named counters ("branches_folded": 2, ...).
struct PassReport {
  std::string pass;
  std::vector<std::pair<std::string, int>> counters;
  bool changed = false;
};

struct PassInfo {
  std::string name;
  std::string description;
  std::function<Program(const Program&, const PassContext&, PassReport&)> run;
};

const std::vector<PassInfo>& registered_passes();
// The passes other files contribute (passes/lower_pipeline.cpp), in registration order.
std::vector<PassInfo> extra_passes();
inline constexpr std::string_view kDefaultPipeline = "simplify";

// The passes of "a,b,c"; an unknown name is an error that lists the known ones.
Result<std::vector<const PassInfo*>> parse_pipeline(std::string_view names);

Program run_pipeline(const Program& program, const std::vector<const PassInfo*>& pipeline, const PassContext& context,
                     std::vector<PassReport>& reports);

}  // namespace eqsat
