// `eqsat batch IN.jsonl [-o OUT]`: the batch format (tools/batch.h), one line at a time.
#include <malloc.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <ext/stdio_filebuf.h>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <system_error>

#include "tools/batch.h"
#include "tools/batch_pipeline.h"
#include "tools/commands.h"
#include "tools/engine.h"
#include "tools/result_check.h"

namespace eqsat::cli {

namespace {

struct BatchFlags {
  std::string input;   // a path, or "-" for stdin
  std::string output;  // empty: stdout
  unsigned threads = cores();
  EngineFlags engine;
  CaseOptions case_options;
};

std::string describe_errno() { return std::error_code(errno, std::generic_category()).message(); }

// Freed memory at the top of a heap (the main thread's, and each other thread's arena)
// that glibc keeps rather than giving back to the system: by default 128 KB. A batch's
// cases allocate and free about the same amounts one after another, and each return
// made the next case fault the same pages in again (a fault costs about 10 us on this
// project's machines): kept, the external corpora run in 0.94-0.98x the time on one
// thread and 0.97-0.99x on two (paired runs, docs/performance.md). At most this much
// more stays resident after a large case.
constexpr int kKeptFreedHeap = 16 << 20;

int run_batch(const BatchFlags& flags) {
  if (flags.case_options.check.verify) {
    if (std::optional<int> status = fail_without_z3("--verify")) return *status;
  }
  mallopt(M_TRIM_THRESHOLD, kKeptFreedHeap);
  // --time measures each case alone on one thread: no other case runs meanwhile. More
  // threads than cores would only take turns.
  const unsigned threads = flags.case_options.time_runs > 0 ? 1 : std::min(flags.threads, cores());
  std::optional<BatchThreads> batch_threads;
  if (threads > 1) batch_threads.emplace(threads);
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
  // Standard input through a buffer of its own: std::cin, kept in step with C's stdio,
  // reads a character at a time and cannot tell whether more input is waiting
  // (in_avail() is always 0), which the loop's flushes and the pipeline's steps ask.
  // (A libstdc++ extension; the FILE is not closed with it.)
  std::optional<__gnu_cxx::stdio_filebuf<char>> stdin_buffer;
  std::optional<std::istream> stdin_stream;
  if (flags.input == "-") {
    stdin_buffer.emplace(stdin, std::ios::in);
    stdin_stream.emplace(&*stdin_buffer);
  }
  std::istream& in = flags.input == "-" ? *stdin_stream : file;

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
  if (threads == 1) {
    while (std::getline(in, line)) {
      ++line_number;
      out << run_batch_line(line, line_number, *simplifier, flags.case_options, &tally) << '\n';
      // Flushed whenever no more input is waiting, before a read that may block: whoever
      // feeds a pipe a line at a time sees each result as soon as it is ready, and the
      // lines of a file are written a buffer at a time (a write per line was 5% of a
      // one-thread run over the external corpora into a file).
      if (in.rdbuf()->in_avail() <= 0) out << std::flush;
    }
    out << std::flush;
  } else {
    line_number = batch_threads->run(in, *simplifier, flags.case_options, out, tally);
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
