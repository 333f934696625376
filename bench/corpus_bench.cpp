// The time to simplify one case, over the project corpus (tests/corpus/*.jsonl): the
// median and the 99th percentile per case, and the sizes of the e-graphs the runner
// built (nodes and classes, median and maximum). See docs/corpus.md.
//
//   build/bin/corpus_bench                                  # the project corpus
//   EQSAT_BENCH_CORPUS=../shared/corpus/external/tvm.jsonl build/bin/corpus_bench
//
// EQSAT_BENCH_CORPUS names a .jsonl file or a directory of them instead.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tools/engine.h"
#include "tools/facts_input.h"

namespace {

using eqsat::Expr;
using eqsat::Facts;

struct Case {
  Expr input;
  Facts facts;
};

std::vector<std::filesystem::path> corpus_files() {
  const char* chosen = std::getenv("EQSAT_BENCH_CORPUS");
  const std::filesystem::path root = chosen ? chosen : EQSAT_SOURCE_DIR "/tests/corpus";
  if (!std::filesystem::is_directory(root)) return {root};
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(root)) {
    if (entry.path().extension() == ".jsonl") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Every case that parses (the batch test checks that all of them do).
std::vector<Case> load_corpus() {
  std::vector<Case> cases;
  for (const std::filesystem::path& file : corpus_files()) {
    std::ifstream in(file);
    for (std::string line; std::getline(in, line);) {
      const auto row = nlohmann::ordered_json::parse(line, nullptr, /*allow_exceptions=*/false);
      if (!row.is_object() || !row.contains("input")) continue;
      eqsat::Result<Facts> facts = eqsat::cli::facts_from_json(row);
      if (!facts) continue;
      eqsat::Result<Expr> input = eqsat::cli::parse_under(*facts, row["input"].get<std::string>(), "input");
      if (input) cases.push_back({*input, *facts});
    }
  }
  return cases;
}

// The q-quantile of `values` (nearest rank), q in [0, 1].
double quantile(std::vector<double> values, double q) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const std::size_t rank = static_cast<std::size_t>(q * double(values.size() - 1) + 0.5);
  return values[rank];
}

void BM_ProjectCorpus(benchmark::State& state) {
  static const std::vector<Case> cases = load_corpus();
  static const eqsat::cli::Simplifier simplifier = *eqsat::cli::Simplifier::from_flags({});
  if (cases.empty()) {
    state.SkipWithError("no cases: check EQSAT_BENCH_CORPUS");
    return;
  }
  // Per case, its fastest run over the iterations: the time the case needs, without
  // the noise of a shared machine.
  std::vector<double> micros(cases.size(), 1e300);
  std::vector<double> nodes(cases.size()), classes(cases.size());
  for (auto _ : state) {
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const auto start = std::chrono::steady_clock::now();
      eqsat::SimplifyResult result = simplifier.run(cases[i].input, cases[i].facts);
      const auto stop = std::chrono::steady_clock::now();
      benchmark::DoNotOptimize(result);
      micros[i] = std::min(micros[i], std::chrono::duration<double, std::micro>(stop - start).count());
      nodes[i] = double(result.report.nodes);
      classes[i] = double(result.report.classes);
    }
  }
  state.counters["cases"] = double(cases.size());
  state.counters["median_us"] = quantile(micros, 0.5);
  state.counters["p99_us"] = quantile(micros, 0.99);
  state.counters["max_us"] = quantile(micros, 1.0);
  state.counters["nodes_median"] = quantile(nodes, 0.5);
  state.counters["nodes_max"] = quantile(nodes, 1.0);
  state.counters["classes_median"] = quantile(classes, 0.5);
  state.counters["classes_max"] = quantile(classes, 1.0);
}
BENCHMARK(BM_ProjectCorpus)->Unit(benchmark::kMillisecond)->Iterations(5);

// One case of nested atoms, `levels` deep: `max(max(x, 1) // 2, 1) // 2`, as Halide's
// deep-nesting test (halide-0794 in the external corpus is 100 of them). Every atom of
// its normal forms holds the atoms below it, so a simplifier that redoes an atom's
// subterms for each (prints it, adds it to the e-graph) is quadratic in the depth:
// the time per level (counter per_level) should stay flat as the depth grows.
void BM_NestedChain(benchmark::State& state) {
  static const eqsat::cli::Simplifier simplifier = *eqsat::cli::Simplifier::from_flags({});
  const auto levels = static_cast<int>(state.range(0));
  const auto constant = [](eqsat::Int v) { return Expr::constant(eqsat::Value::integer(eqsat::DType::Index, v)); };
  Expr chain = Expr::var("x", eqsat::DType::Index);
  for (int level = 0; level < levels; ++level) {
    chain = Expr::make(eqsat::Op::FloorDiv, eqsat::DType::Index,
                       {Expr::make(eqsat::Op::Max, eqsat::DType::Index, {chain, constant(1)}), constant(2)});
  }
  for (auto _ : state) benchmark::DoNotOptimize(simplifier.run(chain, Facts{}));
  state.counters["per_level"] =
      benchmark::Counter(double(levels), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_NestedChain)->Arg(25)->Arg(50)->Arg(100)->Arg(200)->Arg(400)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
