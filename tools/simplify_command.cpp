// `eqsat simplify-expr EXPR [--var NAME:DTYPE] [--bound NAME=LO:HI] [--assume COND]`:
// one expression, for scripts. Prints only the simplified expression on stdout; with
// --report, {"output": ..., "cost": ..., "report": {...}} on stderr.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "ir/print.h"
#include "tools/batch.h"
#include "tools/commands.h"
#include "tools/engine.h"
#include "tools/facts_input.h"
#include "tools/result_check.h"

namespace eqsat::cli {

namespace {

struct SimplifyFlags {
  std::string expr;
  FactFlags facts;
  EngineFlags engine;
  CheckFlags check;
};

int run_simplify(const SimplifyFlags& flags) {
  if (flags.check.verify) {
    if (std::optional<int> status = fail_without_z3("--verify")) return *status;
  }
  Result<Simplifier> simplifier = Simplifier::from_flags(flags.engine);
  if (!simplifier) return fail(simplifier.error().describe());
  Result<Facts> facts = facts_from_flags(flags.facts);
  if (!facts) return fail(facts.error().describe());
  Result<Expr> expr = parse_under(*facts, flags.expr, "EXPR");
  if (!expr) return fail(expr.error().describe());

  SimplifyResult result = simplifier->run(*expr, *facts);
  if (!result.output.valid() || result.cost.is_infinite()) {
    return fail("every form of EXPR uses an operation that the cost profile '" + simplifier->costs().name() +
                "' forbids");
  }
  const std::string output = print(result.output);
  std::string verified;
  if (flags.check.verify) {
    CheckOutcome checked = check_result(*expr, result.output, *facts, flags.check, simplifier->fast_math());
    if (checked.kind == CheckOutcome::Kind::Differs) {
      // Never print an output known to be wrong: a script would use it.
      return fail("verify: the output '" + output + "' is not equal to EXPR: " + checked.detail);
    }
    if (checked.kind == CheckOutcome::Kind::Unknown) {
      std::cerr << "eqsat: warning: --verify could not decide the result: " << checked.detail << '\n';
    }
    verified = checked.detail;
  }
  std::cout << output << '\n' << std::flush;
  if (simplifier->report()) {
    nlohmann::ordered_json report;
    report["output"] = output;
    report["cost"] = result.cost.value();
    if (flags.check.verify) report["verified"] = verified;
    report["report"] = nlohmann::ordered_json::parse(result.report.to_json());
    std::cerr << format_json(report) << '\n';
  }
  return 0;
}

}  // namespace

Command add_simplify_command(CLI::App& app) {
  auto flags = std::make_shared<SimplifyFlags>();
  CLI::App* command = app.add_subcommand("simplify-expr", "Simplify one expression and print the result");
  command->footer(
      "Prints only the simplified expression. An EXPR that starts with '-' goes after '--':\n"
      "  eqsat simplify-expr --bound i=0:7 -- '-i + 0'");
  command->add_option("EXPR", flags->expr, "The expression (docs/expressions.md)")->type_name("")->required();
  command->add_option("--var", flags->facts.vars, "Declare a variable's dtype (default INDEX); repeatable")
      ->type_name("NAME:DTYPE")
      ->allow_extra_args(false);
  command
      ->add_option("--bound", flags->facts.bounds, "Inclusive bounds; leave a side empty for open (n=0:); repeatable")
      ->type_name("NAME=LO:HI")
      ->allow_extra_args(false);
  command->add_option("--assume", flags->facts.assumptions, "A BOOL condition known to hold; repeatable")
      ->type_name("COND")
      ->allow_extra_args(false);
  add_engine_flags(*command, flags->engine);
  add_check_flags(*command, flags->check);
  return {command, [flags] { return run_simplify(*flags); }};
}

}  // namespace eqsat::cli
