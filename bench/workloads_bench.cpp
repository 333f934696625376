// The standard e-graph workloads (../shared/spec/egraph-workloads.md), single-threaded,
// exactly as the spec runs them: the rules of bench/workloads.rules, built-in
// commutativity off, the simple scheduler. Each benchmark saturates one start term from
// scratch (building the e-graph included) and reports, besides the time, the final
// e-nodes and e-classes, the time per e-node and the resident memory the live e-graph
// takes per e-node. docs/performance.md records the figures and compares them with egg.
//
//   build/bin/workloads_bench --benchmark_filter='sum|pos'
//   build/bin/workloads_bench --benchmark_filter=threads   (speedup of the parallel search)
#include <benchmark/benchmark.h>
#include <malloc.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "egraph/runner.h"
#include "ir/parse.h"
#include "tools/engine.h"
#include "tools/workloads.h"

namespace {

using namespace eqsat;

const std::vector<Rewrite>& workload_rewrites() {
  static const std::vector<Rewrite> rewrites = [] {
    cli::EngineFlags flags;
    flags.rule_files = {std::string(EQSAT_SOURCE_DIR) + "/bench/workloads.rules"};
    flags.rule_lock_files = {std::string(EQSAT_SOURCE_DIR) + "/bench/workloads.lock"};
    Result<cli::Simplifier> simplifier = cli::Simplifier::from_flags(flags);
    if (!simplifier) {
      std::fprintf(stderr, "workloads_bench: %s\n", simplifier.error().describe().c_str());
      std::exit(1);
    }
    return simplifier->rewrites();
  }();
  return rewrites;
}

std::size_t rss_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t total = 0, resident = 0;
  statm >> total >> resident;
  return resident * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

void run_workload(benchmark::State& state, const std::string& term, RunLimits limits, unsigned threads = 1) {
  const Expr expr = *parse_expr(term, index_by_default([](std::string_view) { return std::nullopt; }));
  const std::vector<Rewrite>& rewrites = workload_rewrites();
  RunReport report;
  double bytes_per_node = 0;
  bool first = true;
  for (auto _ : state) {
    malloc_trim(0);
    const std::size_t before = rss_bytes();
    EGraph egraph;
    egraph.set_builtin_commutativity(false);
    egraph.add_expr(expr);
    report = run_rewrites(egraph, rewrites, limits, {}, {}, threads);
    if (first) {  // the live, saturated e-graph's share of the resident set
      const std::size_t after = rss_bytes();
      bytes_per_node = after > before ? double(after - before) / double(report.nodes) : 0.0;
      first = false;
    }
  }
  state.counters["nodes"] = double(report.nodes);
  state.counters["classes"] = double(report.classes);
  state.counters["iterations"] = double(report.iterations);
  state.counters["ns_per_node"] = report.seconds * 1e9 / double(report.nodes);
  state.counters["bytes_per_node"] = bytes_per_node;
  state.counters["search_ms"] = report.search_seconds * 1e3;
  state.counters["apply_ms"] = report.apply_seconds * 1e3;
  state.counters["rebuild_ms"] = report.rebuild_seconds * 1e3;
  if (report.stop_reason != StopReason::Saturated) state.SetLabel(std::string(stop_reason_name(report.stop_reason)));
}

void BM_sum(benchmark::State& state) {
  run_workload(state, cli::sum_workload(int(state.range(0))), RunLimits{1000, 1000000, 3600.0});
}
BENCHMARK(BM_sum)->DenseRange(6, 11)->Unit(benchmark::kMillisecond);

void BM_pos(benchmark::State& state) {
  run_workload(state, cli::pos_workload(int(state.range(0))), RunLimits{30, 500000, 3600.0});
}
BENCHMARK(BM_pos)->DenseRange(3, 4)->Unit(benchmark::kMillisecond);

// Thread scaling: the same runs with the search on 1 and 2 threads (the results are
// identical; only the search phase is parallel, apply and rebuild stay sequential).
void BM_sum_threads(benchmark::State& state) {
  run_workload(state, cli::sum_workload(int(state.range(0))), RunLimits{1000, 1000000, 3600.0},
               static_cast<unsigned>(state.range(1)));
}
BENCHMARK(BM_sum_threads)->ArgsProduct({{10, 11}, {1, 2}})->Unit(benchmark::kMillisecond)->UseRealTime();

// pos 4 with the spec's 8-iteration limit.
void BM_pos4_8_iterations(benchmark::State& state) {
  run_workload(state, cli::pos_workload(4), RunLimits{8, 500000, 3600.0});
}
BENCHMARK(BM_pos4_8_iterations)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
