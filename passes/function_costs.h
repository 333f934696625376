// Per-kernel cost profiles: the `@costs` decorator of a function (docs/cost-tuning.md),
// so that one file can hold kernels for different targets.
//
//   @costs("div-expensive")               a shipped profile (extract/cost.h)
//   @costs("targets/npu.json")            a profile file, relative to the IR file's folder
//   @costs(floordiv=40, select=inf)       entries over the run's profile (--costs)
//   @costs("div-expensive", select=inf)   entries over the named profile
//
// Keys are operation names (ir/op.h: add, floordiv, select, var, const, ...), `default`
// (every operation) and the weights `tree` and `dag`; values are non-negative integers
// or `inf` (the operation is forbidden). A function without the decorator uses the
// run's profile. Every mistake is an error with the line and column of the argument.
#pragma once

#include <map>
#include <string>

#include "extract/cost.h"
#include "ir/error.h"
#include "ir/stmt.h"

namespace eqsat {

// Function name -> its profile, for the functions with `@costs`.
using FunctionCosts = std::map<std::string, CostProfile>;

Result<FunctionCosts> resolve_function_costs(const Program& program, const CostProfile& run_profile,
                                             const std::string& base_dir);

}  // namespace eqsat
