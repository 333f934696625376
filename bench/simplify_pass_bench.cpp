// The Simplify pass on generated functions of 10^3 to 10^6 statements: time and heap
// per statement, to show the pass scales linearly (docs/simplify-pass.md, "Cost").
//
//   build/bin/simplify_pass_bench --benchmark_counters_tabular=true
//
// The function is the kernel of scripts/gen_simplify_bench.py, built here: per 7
// statements a constant, a loop over it, a bound scalar, a guard the loop range
// decides (Fold A), a call on each arm and foldable arithmetic in a call's arguments.
// Generating and parsing are not timed; each iteration runs the default pass on the
// parsed function with the built-in catalogue.
//
// Counters (per iteration):
//   stmts           statements of the input function (count_stmts)
//   time_per_stmt   wall time of the pass per statement
//   heap_per_stmt   peak live heap during the pass, above what was live before it,
//                   per statement (every operator new/delete of the process is counted)
//   alloc_per_stmt  bytes allocated during the pass per statement (churn)
//   peak_rss_MB     the process's peak resident set so far (getrusage; monotone, so
//                   meaningful for the largest size run so far)
#include <benchmark/benchmark.h>
#include <malloc.h>
#include <sys/resource.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>

#include "ir/stmt_parse.h"
#include "passes/simplify_pass.h"
#include "rules/rule.h"

// ---- heap accounting: every allocation of the process, by usable size ----

namespace {

std::atomic<long long> g_live{0};
std::atomic<long long> g_peak{0};
std::atomic<long long> g_allocated{0};

void* counted_alloc(std::size_t size) {
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p == nullptr) throw std::bad_alloc();
  const auto usable = static_cast<long long>(malloc_usable_size(p));
  g_allocated.fetch_add(usable, std::memory_order_relaxed);
  const long long live = g_live.fetch_add(usable, std::memory_order_relaxed) + usable;
  long long peak = g_peak.load(std::memory_order_relaxed);
  while (live > peak && !g_peak.compare_exchange_weak(peak, live, std::memory_order_relaxed)) {
  }
  return p;
}

void counted_free(void* p) {
  if (p == nullptr) return;
  g_live.fetch_sub(static_cast<long long>(malloc_usable_size(p)), std::memory_order_relaxed);
  std::free(p);
}

}  // namespace

void* operator new(std::size_t size) { return counted_alloc(size); }
void* operator new[](std::size_t size) { return counted_alloc(size); }
void operator delete(void* p) noexcept { counted_free(p); }
void operator delete[](void* p) noexcept { counted_free(p); }
void operator delete(void* p, std::size_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::size_t) noexcept { counted_free(p); }

namespace eqsat {
namespace {

// The kernel of scripts/gen_simplify_bench.py with about `n` statements.
std::string kernel_text(long n) {
  std::string text = "def kernel(x: Scalar[INDEX], n: Scalar[INDEX]) -> Scalar[INDEX]:\n";
  for (long i = 0, k = 0; i < n; i += 7, ++k) {
    const std::string s = std::to_string(k);
    text += "    c" + s + ": Scalar[INDEX] = " + std::to_string(k % 7 + 1) + "\n";
    text += "    for i" + s + " in range(0, 64, c" + s + "):\n";
    text += "        off" + s + ": Scalar[INDEX] = i" + s + " * 256 + 256\n";
    text += "        if off" + s + " == 0:\n";
    text += "            first(off" + s + ")\n";
    text += "        else:\n";
    text += "            later(off" + s + " + 0, x * 1 + c" + s + ")\n";
  }
  text += "    return x\n";
  return text;
}

double peak_rss_mb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

void BM_SimplifyPass(benchmark::State& state) {
  const std::vector<Rewrite> rules = builtin_rules().rewrites();
  Result<Program> program = parse_program(kernel_text(state.range(0)));
  if (!program) {
    state.SkipWithError(program.error().describe().c_str());
    return;
  }
  const auto stmts = static_cast<double>(count_stmts(program->functions[0].body));
  const SimplifyPassOptions options;
  long long peak_above = 0, allocated = 0;
  for (auto _ : state) {
    const long long live_before = g_live.load();
    const long long allocated_before = g_allocated.load();
    g_peak.store(live_before);
    Program out = simplify_program(*program, rules, options);
    benchmark::DoNotOptimize(out);
    peak_above = std::max(peak_above, g_peak.load() - live_before);
    allocated += g_allocated.load() - allocated_before;
    state.PauseTiming();
    out = Program{};  // freed outside the timed region
    state.ResumeTiming();
  }
  state.counters["stmts"] = stmts;
  state.counters["time_per_stmt"] =
      benchmark::Counter(stmts, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["heap_per_stmt"] = static_cast<double>(peak_above) / stmts;
  state.counters["alloc_per_stmt"] = static_cast<double>(allocated) / static_cast<double>(state.iterations()) / stmts;
  state.counters["peak_rss_MB"] = peak_rss_mb();
}

BENCHMARK(BM_SimplifyPass)->Arg(1000)->Arg(10000)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace eqsat

BENCHMARK_MAIN();
