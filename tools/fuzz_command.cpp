// `eqsat fuzz [--seed S] [--cases N] [-j N] [--keep-going]`: the differential fuzzer
// (tools/fuzz.h). Failures go to stdout as minimized batch-format lines, ready for
// `eqsat batch FILE --verify`; the summary and the progress line go to stderr.
// Exit status 1 when a case fails.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>

#include "tools/commands.h"
#include "tools/engine.h"
#include "tools/fuzz.h"
#include "tools/result_check.h"

namespace eqsat::cli {

namespace {

struct FuzzFlags {
  FuzzOptions options;
  bool emit = false;
  bool progress = true;
  EngineFlags engine;
};

int run_fuzz_command(const FuzzFlags& flags) {
  if (flags.emit) {
    // The cases alone, as a corpus for other tools (or for `eqsat batch --verify`).
    const FuzzOptions& options = flags.options;
    for (uint64_t i = 0; i < options.cases; ++i) {
      const uint64_t number = options.first_case + i;
      std::cout << case_line(verify::random_case(options.seed, number, options.shape),
                             fuzz_case_id(options.seed, number))
                << '\n';
    }
    return 0;
  }
  if (std::optional<int> status = fail_without_z3("fuzz")) return *status;
  Result<Simplifier> simplifier = Simplifier::from_flags(flags.engine);
  if (!simplifier) return fail(simplifier.error().describe());

  const bool terminal = flags.progress && isatty(STDERR_FILENO);
  const uint64_t total = flags.options.cases;
  FuzzProgress progress;
  if (terminal) {
    progress = [total](uint64_t done) {
      if (done % 50 == 0 || done == total) std::cerr << "\r[" << done << "/" << total << "]" << std::flush;
    };
  }
  const auto start = std::chrono::steady_clock::now();
  FuzzReport report = run_fuzz(flags.options, *simplifier, progress);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (terminal) std::cerr << "\r\033[K";

  for (const FuzzFailure& failure : report.failures) {
    std::cout << failure.reproducer << '\n';
    std::cerr << "eqsat: error: case " << failure.case_number << ": " << failure.reason
              << "\n  minimized: " << failure.reproducer << "\n  generated: " << failure.original << '\n';
  }
  std::cout << std::flush;
  const FuzzOptions& options = flags.options;
  char time_text[32];
  std::snprintf(time_text, sizeof time_text, "%.1f", seconds);
  std::cerr << "eqsat fuzz: seed " << options.seed << ", cases " << options.first_case << ".."
            << options.first_case + report.cases - (report.cases > 0 ? 1 : 0) << ": " << report.unchanged
            << " unchanged, " << report.proved << " proved, " << report.unknown << " unknown (timeout), "
            << report.failures.size() << " failed, in " << time_text << " s\n";
  return report.failures.empty() ? 0 : 1;
}

}  // namespace

Command add_fuzz_command(CLI::App& app) {
  auto flags = std::make_shared<FuzzFlags>();
  flags->options.threads = cores();
  CLI::App* command = app.add_subcommand(
      "fuzz", "Simplify random cases and prove each result equal to its input (differential fuzzing)");
  command->footer(
      "A failing case is shrunk and printed on stdout as a batch-format line; reproduce it with\n"
      "  eqsat batch FILE --verify\n"
      "The same seed and case numbers give the same cases on every machine and thread count.");
  FuzzOptions& options = flags->options;
  command->add_option("--seed", options.seed, "Random seed")->capture_default_str();
  command->add_option("--cases", options.cases, "How many cases to run")->capture_default_str();
  command->add_option("--first-case", options.first_case, "Number of the first case (to resume or to rerun one)")
      ->capture_default_str();
  command->add_option("--max-depth", options.shape.max_depth, "Operator nesting of the generated inputs")
      ->check(CLI::Range(1, 12))
      ->capture_default_str();
  command->add_option("--timeout", options.timeout_seconds, "Seconds per Z3 proof; beyond it a case is unknown")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  command->add_option("-j,--jobs", options.threads, "Worker threads (default: one per hardware thread)")
      ->check(CLI::Range(1u, 256u));
  command->add_flag("--emit", flags->emit, "Only print the cases as batch-format lines (no simplifying)");
  command->add_flag("--keep-going", options.keep_going, "Run every case instead of stopping at the first failure");
  command->add_flag("!--no-progress", flags->progress, "No progress line on stderr");
  add_engine_flags(*command, flags->engine);
  return {command, [flags] { return run_fuzz_command(*flags); }};
}

}  // namespace eqsat::cli
