// `eqsat batch IN.jsonl [-o OUT]`: the batch format (tools/batch.h), one line at a time.
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <system_error>

#include "tools/batch.h"
#include "tools/commands.h"
#include "tools/engine.h"
#include "tools/result_check.h"

namespace eqsat::cli {

namespace {

struct BatchFlags {
  std::string input;   // a path, or "-" for stdin
  std::string output;  // empty: stdout
  EngineFlags engine;
  CheckFlags check;
};

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
  while (std::getline(in, line)) {
    ++line_number;
    // Flushed per line, so that a pipeline sees each result as soon as it is ready.
    out << run_batch_line(line, line_number, *simplifier, flags.check, &tally) << '\n' << std::flush;
  }
  if (in.bad()) return fail("reading '" + flags.input + "' failed after line " + std::to_string(line_number));
  if (!out)
    return fail("cannot write '" + (flags.output.empty() ? std::string("stdout") : flags.output) + "'");
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
  CLI::App* command =
      app.add_subcommand("batch", "Simplify every case of a JSON Lines file (docs/expressions.md)");
  command->footer(
      "Writes one line per input line, in order: the input object with \"output\" and \"cost\" added,\n"
      "or \"error\" (naming the field and column) when the case cannot be handled. A line that is\n"
      "not a JSON object gets {\"error\": \"line N: ...\"}. The exit status is 0 whenever IN could be read,\n"
      "except that with --verify an output proved unequal to its input is withheld (\"error\" gives the\n"
      "counterexample), named on stderr, and makes the exit status 1.");
  command->add_option("IN", flags->input, "Input file (JSON Lines), or - for stdin")
      ->type_name("FILE")
      ->required();
  command->add_option("-o,--output", flags->output, "Write here instead of stdout")->type_name("OUT");
  add_engine_flags(*command, flags->engine);
  add_check_flags(*command, flags->check);
  return {command, [flags] { return run_batch(*flags); }};
}

}  // namespace eqsat::cli
