// The start terms of the standard e-graph workloads (../shared/spec/egraph-workloads.md),
// shared by `eqsat saturate --workload`, the workload test and bench/workloads_bench.cpp.
//
//   sum n: ((a0 + a1) + a2) + ... + a(n-1)              (left-deep, n >= 1)
//   pos k: ((a + b) * (c + d)) * (e + f) ...            (k sums, left-deep, k >= 1)
#pragma once

#include <string>
#include <string_view>

#include "ir/error.h"

namespace eqsat::cli {

std::string sum_workload(int n);
std::string pos_workload(int k);

// "sum N" or "pos K" (also "sum:N", "pos:K") to its start term, as text in the
// expression syntax (every variable INDEX).
Result<std::string> workload_term(std::string_view name);

}  // namespace eqsat::cli
