// `eqsat batch IN.jsonl [-o OUT]`: the batch format (tools/batch.h), one line at a time.
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "tools/batch.h"
#include "tools/commands.h"
#include "tools/engine.h"
#include "tools/result_check.h"

namespace eqsat::cli {

namespace {

struct BatchFlags {
  std::string input;   // a path, or "-" for stdin
  std::string output;  // empty: stdout
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  EngineFlags engine;
  CaseOptions case_options;
};

// Lines simplified together by the threads before their results are written (in input
// order); large enough to keep every thread busy, small enough that a pipeline reading
// the output sees results soon.
constexpr std::size_t kLinesPerThread = 32;

// Runs `lines` (numbered from `first_number`) on the threads of `arena` and writes
// their results in order; the tallies are merged in order too, so that the output and
// the messages do not depend on the thread count.
void run_chunk(const std::vector<std::string>& lines, std::size_t first_number, const Simplifier& simplifier,
               const CaseOptions& options, tbb::task_arena& arena, std::ostream& out, BatchTally& tally) {
  std::vector<std::string> results(lines.size());
  std::vector<BatchTally> tallies(lines.size());
  arena.execute([&] {
    tbb::parallel_for(std::size_t(0), lines.size(), [&](std::size_t i) {
      results[i] = run_batch_line(lines[i], first_number + i, simplifier, options, &tallies[i]);
    });
  });
  for (std::size_t i = 0; i < lines.size(); ++i) {
    out << results[i] << '\n';
    tally.unknown += tallies[i].unknown;
    for (std::string& message : tallies[i].disagreements) tally.disagreements.push_back(std::move(message));
  }
  out << std::flush;
}

std::string describe_errno() { return std::error_code(errno, std::generic_category()).message(); }

int run_batch(const BatchFlags& flags) {
  Result<Simplifier> simplifier = Simplifier::from_flags(flags.engine);
  if (!simplifier) return fail(simplifier.error().describe());

  std::ifstream file;
  if (flags.input != "-") {
    std::error_code ignored;
    if (std::filesystem::is_directory(flags.input, ignored)) {
      return fail("cannot read '" + flags.input + "': it is a directory");
    }
    file.open(flags.input);
    if (!file) return fail("cannot read '" + flags.input + "': " + describe_errno());
  }
  std::istream& in = flags.input == "-" ? std::cin : file;

  std::ofstream out_file;
  if (!flags.output.empty()) {
    std::error_code ignored;
    if (flags.input != "-" && std::filesystem::equivalent(flags.input, flags.output, ignored)) {
      return fail("the output '" + flags.output + "' is the input file");
    }
    out_file.open(flags.output);
    if (!out_file) return fail("cannot write '" + flags.output + "': " + describe_errno());
  }
  std::ostream& out = flags.output.empty() ? std::cout : out_file;

  std::string line;
  std::size_t line_number = 0;
  BatchTally tally;
  // --time measures each case alone on one thread: no other case runs meanwhile.
  const unsigned threads = flags.case_options.time_runs > 0 ? 1 : flags.threads;
  if (threads == 1) {
    while (std::getline(in, line)) {
      ++line_number;
      // Flushed per line, so that a pipeline sees each result as soon as it is ready.
      out << run_batch_line(line, line_number, *simplifier, flags.case_options, &tally) << '\n' << std::flush;
    }
  } else {
    tbb::task_arena arena(static_cast<int>(threads));
    std::vector<std::string> chunk;
    while (std::getline(in, line)) {
      ++line_number;
      chunk.push_back(std::move(line));
      if (chunk.size() == kLinesPerThread * threads) {
        run_chunk(chunk, line_number + 1 - chunk.size(), *simplifier, flags.case_options, arena, out, tally);
        chunk.clear();
      }
    }
    run_chunk(chunk, line_number + 1 - chunk.size(), *simplifier, flags.case_options, arena, out, tally);
  }
  if (in.bad()) return fail("reading '" + flags.input + "' failed after line " + std::to_string(line_number));
  if (!out) return fail("cannot write '" + (flags.output.empty() ? std::string("stdout") : flags.output) + "'");
  if (tally.unknown > 0) {
    std::cerr << "eqsat: warning: --verify could not decide " << tally.unknown
              << " case(s) within the timeout (\"verified\": \"unknown: ...\")\n";
  }
  for (const std::string& disagreement : tally.disagreements) fail(disagreement);
  return tally.disagreements.empty() ? 0 : 1;
}

}  // namespace

Command add_batch_command(CLI::App& app) {
  auto flags = std::make_shared<BatchFlags>();
  CLI::App* command = app.add_subcommand("batch", "Simplify every case of a JSON Lines file (docs/expressions.md)");
  command->footer(
      "Writes one line per input line, in order: the input object with \"output\" and \"cost\" added,\n"
      "or \"error\" (naming the field and column) when the case cannot be handled. A line that is\n"
      "not a JSON object gets {\"error\": \"line N: ...\"}. The exit status is 0 whenever IN could be read,\n"
      "except that with --verify an output proved unequal to its input is withheld (\"error\" gives the\n"
      "counterexample), named on stderr, and makes the exit status 1.");
  command->add_option("IN", flags->input, "Input file (JSON Lines), or - for stdin")->type_name("FILE")->required();
  command->add_option("-o,--output", flags->output, "Write here instead of stdout")->type_name("OUT");
  command
      ->add_option("--threads", flags->threads,
                   "Cases simplified in parallel (default: all cores); the output is the same for any N")
      ->check(CLI::Range(1u, 1024u));
  command
      ->add_option("--time", flags->case_options.time_runs,
                   "Add \"us\": the median of R timed runs (after a warm-up) of each case alone, on one thread")
      ->type_name("R")
      ->check(CLI::Range(1u, 1000000u));
  add_engine_flags(*command, flags->engine);
  add_check_flags(*command, flags->case_options.check);
  return {command, [flags] { return run_batch(*flags); }};
}

}  // namespace eqsat::cli
