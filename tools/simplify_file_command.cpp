// `eqsat simplify FILE [--pipeline NAMES] [--constants-only] [--costs PROFILE] [--report]`:
// runs a pipeline of passes (default: simplify) over the functions of a file in the
// statement language (docs/ir.md) and prints the result on stdout. A function with a
// `@costs(...)` decorator is simplified under its own profile (passes/function_costs.h). With --report, what
// each pass changed goes to stderr as JSON.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "ir/stmt_parse.h"
#include "ir/stmt_print.h"
#include "passes/function_costs.h"
#include "passes/pass_manager.h"
#include "tools/batch.h"
#include "tools/commands.h"
#include "tools/engine.h"

namespace eqsat::cli {

namespace {

struct SimplifyFileFlags {
  std::string file;
  std::string pipeline = std::string(kDefaultPipeline);
  bool constants_only = false;
  unsigned threads = 0;  // 0: all cores
  EngineFlags engine;
};

int run_simplify_file(const SimplifyFileFlags& flags) {
  std::string source;
  if (flags.file == "-") {
    std::ostringstream text;
    text << std::cin.rdbuf();
    source = text.str();
  } else {
    std::ifstream in(flags.file, std::ios::binary);
    if (!in) return fail("cannot read '" + flags.file + "'");
    std::ostringstream text;
    text << in.rdbuf();
    source = text.str();
  }
  Result<Program> program = parse_program(source);
  if (!program) return fail(flags.file + ": " + program.error().describe());

  std::string names = flags.pipeline;
  if (flags.constants_only) {
    if (names != kDefaultPipeline) return fail("--constants-only replaces the pipeline; do not give --pipeline too");
    names = "simplify-constants";
  }
  Result<std::vector<const PassInfo*>> pipeline = parse_pipeline(names);
  if (!pipeline) return fail(pipeline.error().describe());

  EngineFlags engine = flags.engine;
  engine.report = false;
  Result<Simplifier> simplifier = Simplifier::from_flags(engine);
  if (!simplifier) return fail(simplifier.error().describe());
  PassContext context = simplifier->pass_context();
  // `@costs` decorators: a profile file they name is looked up next to FILE.
  const std::string base_dir =
      flags.file == "-" ? std::string() : std::filesystem::path(flags.file).parent_path().string();
  Result<FunctionCosts> function_costs = resolve_function_costs(*program, simplifier->costs(), base_dir);
  if (!function_costs) return fail(flags.file + ": " + function_costs.error().describe());
  context.function_costs = *function_costs;
  context.threads = flags.threads;

  std::vector<PassReport> reports;
  const Program out = run_pipeline(*program, *pipeline, context, reports);
  std::cout << print_program(out) << std::flush;
  if (flags.engine.report) {
    nlohmann::ordered_json report = nlohmann::ordered_json::array();
    for (const PassReport& r : reports) {
      nlohmann::ordered_json entry;
      entry["pass"] = r.pass;
      entry["changed"] = r.changed;
      for (const auto& [name, count] : r.counters) entry[name] = count;
      report.push_back(entry);
    }
    std::cerr << format_json(nlohmann::ordered_json{{"passes", report}}) << '\n';
  }
  return 0;
}

}  // namespace

Command add_simplify_file_command(CLI::App& app) {
  auto flags = std::make_shared<SimplifyFileFlags>();
  CLI::App* command = app.add_subcommand("simplify", "Run the Simplify pass (or a pipeline) over a file of functions");
  command->footer(
      "FILE is in the statement language (docs/ir.md); '-' reads stdin. The result goes to stdout.\n"
      "Passes: simplify, simplify-constants, lower-pipeline (docs/simplify-pass.md).\n"
      "  eqsat simplify kernel.py\n"
      "  eqsat simplify --pipeline lower-pipeline,simplify kernel.py");
  command->add_option("FILE", flags->file, "The input file")->type_name("")->required();
  command->add_option("--pipeline", flags->pipeline, "Passes to run, separated by commas")
      ->type_name("NAMES")
      ->capture_default_str();
  command->add_flag("--constants-only", flags->constants_only,
                    "Only propagate and fold constants and drop dead scalars; keep control flow");
  command
      ->add_option("--threads", flags->threads,
                   "Functions simplified in parallel (default: all cores); the output is the same for any N")
      ->check(CLI::Range(1u, 1024u));
  add_engine_flags(*command, flags->engine);
  return {command, [flags] { return run_simplify_file(*flags); }};
}

}  // namespace eqsat::cli
