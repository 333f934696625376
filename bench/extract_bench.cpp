// The extractors compared on the corpora: time to extract every case of a corpus from
// its saturated e-graph, and the cost of what each extractor finds.
//
//   build/bin/extract_bench [--benchmark_filter=...]
//
// Each corpus is saturated once, before timing (the default limits of `eqsat batch`).
// A benchmark is one corpus x one profile x one extractor; its counters:
//   cost       the sum over the cases of the profile's cost of the extracted form
//   optimal    cases whose answer is proved optimal
//   cases      cases extracted
// Compare `cost` between the tree and dag rows of one corpus and profile.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "extract/extract.h"
#include "passes/explain_expr.h"
#include "rules/rule.h"
#include "tools/facts_input.h"

namespace {

using namespace eqsat;

struct Corpus {
  std::vector<std::unique_ptr<SaturatedCase>> cases;
};

// Saturated once per corpus; cases the corpus cannot parse are skipped.
const Corpus& corpus(const std::string& path) {
  static std::map<std::string, Corpus> loaded;
  auto it = loaded.find(path);
  if (it != loaded.end()) return it->second;
  Corpus c;
  static const std::vector<Rewrite> rewrites = builtin_rules().rewrites();
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    nlohmann::ordered_json object = nlohmann::ordered_json::parse(line, nullptr, false);
    if (object.is_discarded() || !object.contains("input")) continue;
    Result<Facts> facts = cli::facts_from_json(object);
    if (!facts) continue;
    Result<Expr> expr = cli::parse_under(*facts, object["input"].get<std::string>(), "input");
    if (!expr) continue;
    auto saturated = std::make_unique<SaturatedCase>(saturate_expr(*expr, *facts, rewrites, SimplifyOptions{}));
    c.cases.push_back(std::move(saturated));
  }
  return loaded.emplace(path, std::move(c)).first->second;
}

void extract_corpus(benchmark::State& state, const std::string& path, const char* profile_name, ExtractorKind kind) {
  const Corpus& c = corpus(path);
  const CostProfile profile = *CostProfile::builtin(profile_name);
  ExtractOptions options;
  options.kind = kind;
  uint64_t total = 0;
  std::size_t optimal = 0;
  for (auto _ : state) {
    total = 0;
    optimal = 0;
    for (const auto& saturated : c.cases) {
      Extraction e = extract_best(saturated->egraph, profile, saturated->root, options);
      benchmark::DoNotOptimize(e.expr);
      if (e.cost.usable) total += e.cost.weighted.value();
      optimal += e.optimal ? 1 : 0;
    }
  }
  state.counters["cost"] = static_cast<double>(total);
  state.counters["optimal"] = static_cast<double>(optimal);
  state.counters["cases"] = static_cast<double>(c.cases.size());
}

// What recording explanations costs: saturating every case of a corpus with and
// without them (normal runs never record them).
void saturate_corpus(benchmark::State& state, const std::string& path, bool explained) {
  static const std::vector<Rewrite> rewrites = builtin_rules().rewrites();
  std::vector<std::pair<Facts, Expr>> inputs;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    nlohmann::ordered_json object = nlohmann::ordered_json::parse(line, nullptr, false);
    if (object.is_discarded() || !object.contains("input")) continue;
    Result<Facts> facts = cli::facts_from_json(object);
    if (!facts) continue;
    Result<Expr> expr = cli::parse_under(*facts, object["input"].get<std::string>(), "input");
    if (expr) inputs.emplace_back(*facts, *expr);
  }
  for (auto _ : state) {
    for (const auto& [facts, expr] : inputs) {
      EGraph egraph;
      if (explained) egraph.enable_explanations();
      assert_facts(egraph, facts);
      egraph.add_expr(expr);
      benchmark::DoNotOptimize(run_rewrites(egraph, rewrites));
    }
  }
  state.counters["cases"] = static_cast<double>(inputs.size());
}

void register_all() {
  const std::string shared = EQSAT_SHARED_DIR;
  const std::vector<std::pair<std::string, std::string>> corpora = {
      {"sample", shared + "/corpus/sample.jsonl"},
      {"halide", shared + "/corpus/external/halide.jsonl"},
      {"tvm", shared + "/corpus/external/tvm.jsonl"},
      {"tinygrad", shared + "/corpus/external/tinygrad.jsonl"}};
  for (const auto& [name, path] : corpora) {
    if (!std::filesystem::exists(path)) continue;
    for (bool explained : {false, true}) {
      const std::string label = "saturate/" + name + (explained ? "/explained" : "/plain");
      benchmark::RegisterBenchmark(label.c_str(), [path = path, explained](benchmark::State& state) {
        saturate_corpus(state, path, explained);
      })->Unit(benchmark::kMillisecond);
    }
    for (const char* profile : {"default", "op-count"}) {
      for (ExtractorKind kind : {ExtractorKind::Tree, ExtractorKind::Dag}) {
        const std::string label = "extract/" + name + "/" + profile + "/" + std::string(extractor_kind_name(kind));
        benchmark::RegisterBenchmark(label.c_str(), [path = path, profile, kind](benchmark::State& state) {
          extract_corpus(state, path, profile, kind);
        })->Unit(benchmark::kMillisecond);
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  register_all();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
