// `eqsat saturate [EXPR | --workload NAME] [--rules FILE] [--no-default-rules]
//                 [--scheduler simple|backoff] [--node-limit N] [--iter-limit K] [--threads N]
//                 [--repeat R] [--report]`
//
// Runs equality saturation on one term and says how it went: the engine's own
// benchmark, and the way to run the standard e-graph workloads
// (../shared/spec/egraph-workloads.md) exactly as specified:
//
//   eqsat saturate --rules bench/workloads.rules --no-default-rules --scheduler simple
//       --node-limit 1000000 --iter-limit 1000 --time-limit 600 --report --workload "sum 10"
//
// Rules: the built-in catalogue plus any --rules files; with --no-default-rules only
// the --rules files, and the e-graph's built-in commutativity is off too (it is a
// default rule in all but name: egraph/egraph.h), so that commutativity comes from the
// files as in other engines. --no-builtin-commutativity turns it off alone. Rules from
// files must be proved: by a --rule-lock, or by the lock next to the file (FILE with
// `.rules` replaced by `.lock`, as `eqsat verify-rules FILE --write-lock --lock` writes).
//
// Output: one line "saturated: 8 iterations, 608 e-nodes, 63 e-classes, 0.21 ms"; with
// --report, one JSON object instead (docs/performance.md lists its members).
//
// --repeat R runs the saturation R times in the process, one after another, each on a
// fresh e-graph, and reports the run of median time. The first run of a process
// touches all its memory for the first time, which on this project's machine class (a
// virtual machine) costs 5 to 11 microseconds a 4 KB page, a quarter of `pos 3`'s
// time; the later runs reuse the heap the earlier ones gave back, as a compiler that
// simplifies kernel after kernel does. Every run's total is reported (`run_seconds`,
// the first one first), and the runs must agree on everything but their times: the
// engine is deterministic.
#include <sys/resource.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "egraph/core_handoff.h"
#include "egraph/heap_pages.h"
#include "egraph/runner.h"
#include "ir/parse.h"
#include "tools/commands.h"
#include "tools/engine.h"
#include "tools/workloads.h"

namespace eqsat::cli {

namespace {

struct SaturateFlags {
  std::string expr;
  std::string workload;
  std::vector<std::string> rule_files;
  std::vector<std::string> rule_locks;
  bool allow_unproved_rules = false;
  bool no_default_rules = false;
  bool no_builtin_commutativity = false;
  std::string scheduler = "simple";
  Scheduler backoff;  // its match limit and ban length
  RunLimits limits;
  bool report = false;
  unsigned threads = 1;
  unsigned repeat = 1;
};

// Whether two runs of the same saturation went the same way: every count, not the times.
bool same_run(const RunReport& a, const RunReport& b) {
  if (a.stop_reason != b.stop_reason || a.iterations != b.iterations || a.nodes != b.nodes || a.classes != b.classes ||
      a.rule_fires != b.rule_fires || a.per_iteration.size() != b.per_iteration.size())
    return false;
  for (std::size_t i = 0; i < a.per_iteration.size(); ++i) {
    const IterationStats& x = a.per_iteration[i];
    const IterationStats& y = b.per_iteration[i];
    if (x.nodes != y.nodes || x.classes != y.classes || x.matches != y.matches || x.applied != y.applied ||
        x.dropped_after_merges != y.dropped_after_merges || x.merges != y.merges || x.banned != y.banned ||
        x.nodes_after_apply != y.nodes_after_apply)
      return false;
  }
  return true;
}

// The resident set now, in bytes (0 if unknown).
std::size_t current_rss_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t pages_total = 0, pages_resident = 0;
  if (!(statm >> pages_total >> pages_resident)) return 0;
  return pages_resident * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

// The largest resident set the process has had, in bytes.
std::size_t peak_rss_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::size_t>(usage.ru_maxrss) * 1024;  // Linux: kilobytes
}

// The lock written next to a rule file, if there is one: dir/x.rules -> dir/x.lock.
std::vector<std::string> sibling_locks(const std::vector<std::string>& rule_files) {
  std::vector<std::string> locks;
  for (const std::string& file : rule_files) {
    std::filesystem::path lock = std::filesystem::path(file).replace_extension(".lock");
    std::error_code ignored;
    if (lock != std::filesystem::path(file) && std::filesystem::is_regular_file(lock, ignored)) {
      locks.push_back(lock.string());
    }
  }
  return locks;
}

int run_saturate(const SaturateFlags& flags) {
  if (flags.expr.empty() == flags.workload.empty()) return fail("give either EXPR or --workload NAME");
  if (flags.no_default_rules && flags.rule_files.empty()) {
    return fail("--no-default-rules leaves no rules: give them with --rules FILE");
  }
  EngineFlags engine;
  (flags.no_default_rules ? engine.rule_files : engine.extra_rule_files) = flags.rule_files;
  engine.rule_lock_files = flags.rule_locks;
  if (flags.rule_locks.empty()) engine.rule_lock_files = sibling_locks(flags.rule_files);
  engine.allow_unproved_rules = flags.allow_unproved_rules;
  Result<Simplifier> simplifier = Simplifier::from_flags(engine);
  if (!simplifier) return fail(simplifier.error().describe());

  std::string text = flags.expr;
  if (!flags.workload.empty()) {
    Result<std::string> term = workload_term(flags.workload);
    if (!term) return fail(term.error().describe());
    text = *term;
  }
  Result<Expr> expr = parse_expr(text, index_by_default([](std::string_view) { return std::nullopt; }));
  if (!expr) return fail("EXPR: " + expr.error().describe());

  Scheduler scheduler = flags.backoff;
  scheduler.kind = flags.scheduler == "backoff" ? Scheduler::Kind::Backoff : Scheduler::Kind::Simple;
  const bool commutativity = !(flags.no_default_rules || flags.no_builtin_commutativity);

  const std::size_t baseline = current_rss_bytes();
  std::vector<RunReport> runs;
  for (unsigned r = 0; r < flags.repeat; ++r) {
    EGraph egraph;
    egraph.set_builtin_commutativity(commutativity);
    egraph.add_expr(*expr);
    runs.push_back(run_rewrites(egraph, simplifier->rewrites(), flags.limits, scheduler, {}, flags.threads));
    // (A time limit may stop runs at different points: only complete runs must agree.)
    if (runs.back().stop_reason != StopReason::TimeLimit && runs.front().stop_reason != StopReason::TimeLimit &&
        !same_run(runs.front(), runs.back())) {
      return fail("internal error: run " + std::to_string(r + 1) + " of the same saturation went otherwise than run 1");
    }
  }
  const std::size_t peak = peak_rss_bytes();
  // The run of median total time (the lower median of an even count).
  std::vector<std::size_t> by_time(runs.size());
  for (std::size_t r = 0; r < runs.size(); ++r) by_time[r] = r;
  std::sort(by_time.begin(), by_time.end(),
            [&](std::size_t a, std::size_t b) { return runs[a].seconds < runs[b].seconds; });
  const RunReport& report = runs[by_time[(runs.size() - 1) / 2]];

  if (!flags.report) {
    std::printf("%s: %zu iterations, %zu e-nodes, %zu e-classes, %.3f ms%s\n",
                std::string(stop_reason_name(report.stop_reason)).c_str(), report.iterations, report.nodes,
                report.classes, report.seconds * 1e3,
                flags.repeat > 1 ? (" (median of " + std::to_string(flags.repeat) + " runs)").c_str() : "");
    return 0;
  }
  const nlohmann::ordered_json runner = nlohmann::ordered_json::parse(report.to_json());
  const double nodes = report.nodes ? static_cast<double>(report.nodes) : 1.0;
  nlohmann::ordered_json out;
  out["input"] = text;
  out["scheduler"] = flags.scheduler;
  out["builtin_commutativity"] = commutativity;
  out["threads"] = flags.threads;
  if (flags.repeat > 1) {
    out["repeat"] = flags.repeat;
    std::vector<double> run_seconds;
    // Printed as the runner's report prints `seconds` (six digits), so that the median
    // run's entry is its `seconds` exactly.
    for (const RunReport& run : runs) {
      std::ostringstream printed;
      printed << run.seconds;
      run_seconds.push_back(std::stod(printed.str()));
    }
    out["run_seconds"] = run_seconds;
  }
  for (const char* key : {"stop_reason", "iterations", "nodes", "classes", "seconds", "search_seconds",
                          "filter_seconds", "apply_seconds", "rebuild_seconds", "apply_batch_threads"}) {
    out[key] = runner[key];
  }
  out["ns_per_node"] = report.seconds * 1e9 / nodes;
  out["peak_rss_bytes"] = peak;
  out["baseline_rss_bytes"] = baseline;
  out["bytes_per_node"] = peak > baseline ? static_cast<double>(peak - baseline) / nodes : 0.0;
  out["huge_pages"] = heap_uses_huge_pages();  // memory then grows by 2 MB at a time
  // What decided apply_batch_threads on several threads (measured at the first batch).
  if (flags.threads > 1 && report.apply_batch_threads > 0)
    out["handoff_round_trip_ns"] = handoff_round_trip_nanoseconds();
  out["rule_fires"] = runner["rule_fires"];
  out["per_iteration"] = runner["per_iteration"];
  std::cout << out.dump() << '\n';
  return 0;
}

}  // namespace

Command add_saturate_command(CLI::App& app) {
  auto flags = std::make_shared<SaturateFlags>();
  CLI::App* command = app.add_subcommand("saturate", "Saturate one term with a rule set and report how it went");
  command->footer(
      "Example (a standard workload, ../shared/spec/egraph-workloads.md):\n"
      "  eqsat saturate --rules bench/workloads.rules --no-default-rules --iter-limit 1000 \\\n"
      "      --node-limit 1000000 --report --workload \"sum 9\"");
  command->add_option("EXPR", flags->expr, "The term (every variable INDEX)");
  command->add_option("--workload", flags->workload, "A standard start term instead of EXPR: 'sum N' or 'pos K'");
  command->add_option("--rules", flags->rule_files, "A rule file to use (repeatable)")
      ->type_name("FILE")
      ->allow_extra_args(false);
  command
      ->add_option("--rule-lock", flags->rule_locks,
                   "A lock proving the --rules files (default: FILE's .lock next to it, if any)")
      ->type_name("LOCK")
      ->allow_extra_args(false);
  command->add_flag("--allow-unproved-rules", flags->allow_unproved_rules,
                    "Rule development only: run rules that no lock proves sound");
  command->add_flag("--no-default-rules", flags->no_default_rules,
                    "Only the --rules files: no built-in catalogue and no built-in commutativity");
  command->add_flag("--no-builtin-commutativity", flags->no_builtin_commutativity,
                    "Keep both operand orders of commutative operations as separate e-nodes");
  command->add_option("--scheduler", flags->scheduler, "simple (every rule, every iteration) or backoff (egg's)")
      ->check(CLI::IsMember({"simple", "backoff"}))
      ->capture_default_str();
  command->add_option("--match-limit", flags->backoff.match_limit, "backoff: matches before a rule is banned")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  command->add_option("--ban-length", flags->backoff.ban_length, "backoff: iterations of a first ban")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  add_limit_flags(*command, flags->limits);
  command
      ->add_option("--threads", flags->threads, "Threads searching for matches (the result is the same for any number)")
      ->check(CLI::Range(1u, 1024u))
      ->capture_default_str();
  command
      ->add_option("--repeat", flags->repeat,
                   "Run the saturation R times in this process, each on a fresh e-graph, and report the run of "
                   "median time (the first run also pays for the process's fresh memory)")
      ->type_name("R")
      ->check(CLI::Range(1u, 1000u))
      ->capture_default_str();
  command->add_flag("--report", flags->report, "Print the full report as one JSON object");
  return {command, [flags] { return run_saturate(*flags); }};
}

}  // namespace eqsat::cli
