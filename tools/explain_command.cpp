// `eqsat explain EXPR [simplify-expr's flags] [--json]`: why EXPR simplified the way it
// did: the chosen form and its cost, the runner-up forms of the root with their costs,
// and the chain of rules that proves the input equal to the result
// (passes/explain_expr.h). Text for people by default; --json for scripts.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "extract/extract.h"
#include "ir/print.h"
#include "passes/explain_expr.h"
#include "tools/batch.h"
#include "tools/commands.h"
#include "tools/expr_case.h"

namespace eqsat::cli {

namespace {

struct ExplainFlags {
  ExprCaseFlags expr_case;
  bool json = false;
  std::size_t runner_ups = 5;
  std::size_t max_steps = 1000;
};

std::string cost_text(Cost cost) { return cost.is_infinite() ? "inf" : std::to_string(cost.value()); }

std::string step_reason(const ProofStep& step) {
  if (!step.is_rule) return step.reason;
  return step.forward ? step.reason : step.reason + " (right to left)";
}

std::string path_text(const std::vector<int>& path) {
  if (path.empty()) return "root";
  std::string text;
  for (int i : path) text += (text.empty() ? "" : ".") + std::to_string(i);
  return text;
}

nlohmann::ordered_json to_json(const Explanation& e, const ExprCase& c) {
  nlohmann::ordered_json out;
  out["input"] = print(e.input);
  out["output"] = print(e.output);
  out["cost"] = e.cost.weighted.value();
  out["tree_cost"] = e.cost.tree.value();
  out["dag_cost"] = e.cost.dag.value();
  out["profile"] = c.simplifier.costs().name();
  out["extractor"] = std::string(extractor_kind_name(c.simplifier.options().extract.kind));
  out["optimal"] = e.optimal;
  nlohmann::ordered_json runner_ups = nlohmann::ordered_json::array();
  for (const RunnerUp& r : e.runner_ups) runner_ups.push_back({{"form", print(r.expr)}, {"cost", r.cost.value()}});
  out["runner_ups"] = runner_ups;
  nlohmann::ordered_json steps = nlohmann::ordered_json::array();
  for (const ProofStep& s : e.proof.steps) {
    nlohmann::ordered_json step;
    step["reason"] = s.reason;
    step["kind"] = s.is_rule ? "rule" : "builtin";
    if (s.is_rule) step["direction"] = s.forward ? "forward" : "backward";
    step["path"] = s.path;
    step["before"] = print(s.before);
    step["after"] = print(s.after);
    step["term"] = print(s.term);
    steps.push_back(step);
  }
  out["proof"] = {{"start", print(e.proof.start)}, {"steps", steps}, {"truncated", e.proof.truncated}};
  out["report"] = nlohmann::ordered_json::parse(e.report.to_json());
  return out;
}

std::string to_text(const Explanation& e, const ExprCase& c) {
  std::ostringstream out;
  const SimplifyOptions options = c.simplifier.options();
  out << "input:   " << print(e.input) << '\n';
  out << "result:  " << print(e.output) << '\n';
  out << "cost:    " << cost_text(e.cost.weighted) << " under profile '" << c.simplifier.costs().name()
      << "' (tree cost " << cost_text(e.cost.tree) << ", DAG cost " << cost_text(e.cost.dag) << "; extractor "
      << extractor_kind_name(options.extract.kind) << ", " << (e.optimal ? "proved optimal" : "not proved optimal")
      << ")\n";
  out << "saturation: " << stop_reason_name(e.report.stop_reason) << " after " << e.report.iterations << " iterations, "
      << e.report.nodes << " e-nodes in " << e.report.classes << " e-classes\n";
  if (e.runner_ups.empty()) {
    out << "runner-ups: none (the root e-class has no other usable node)\n";
  } else {
    out << "runner-ups (other nodes of the root e-class, cheapest first):\n";
    for (const RunnerUp& r : e.runner_ups) out << "  " << cost_text(r.cost) << "  " << print(r.expr) << '\n';
  }
  out << "proof (" << e.proof.steps.size() << " step" << (e.proof.steps.size() == 1 ? "" : "s")
      << (e.proof.truncated ? ", truncated" : "") << "):\n";
  out << "     " << print(e.proof.start) << '\n';
  for (const ProofStep& s : e.proof.steps) {
    out << "  =  " << print(s.term) << "\n       by " << step_reason(s) << " at " << path_text(s.path) << ": "
        << print(s.before) << "  ->  " << print(s.after) << '\n';
  }
  return out.str();
}

int run_explain(const ExplainFlags& flags) {
  Result<ExprCase> c = load_expr_case(flags.expr_case);
  if (!c) return fail(c.error().describe());
  ExplainOptions options;
  options.max_runner_ups = flags.runner_ups;
  options.max_proof_steps = flags.max_steps;
  Explanation e = explain_expr(c->expr, c->facts, c->simplifier.rewrites(), c->simplifier.options(), options);
  if (!e.output.valid()) {
    return fail("every form of EXPR uses an operation that the cost profile '" + c->simplifier.costs().name() +
                "' forbids");
  }
  if (flags.json) {
    std::cout << format_json(to_json(e, *c)) << '\n';
  } else {
    std::cout << to_text(e, *c);
  }
  return 0;
}

}  // namespace

Command add_explain_command(CLI::App& app) {
  auto flags = std::make_shared<ExplainFlags>();
  CLI::App* command =
      app.add_subcommand("explain", "Show why an expression simplified as it did: cost, runner-ups and the rule chain");
  command->footer(
      "Takes simplify-expr's flags (docs/cost-tuning.md):\n"
      "  eqsat explain '(x + 3) * 4'\n"
      "  eqsat explain --costs div-expensive --bound x=0: 'truncdiv(x, 8)'");
  add_expr_case_flags(*command, flags->expr_case);
  command->add_flag("--json", flags->json, "Write the explanation as one JSON object");
  command->add_option("--runner-ups", flags->runner_ups, "How many runner-up forms to show")
      ->type_name("N")
      ->capture_default_str();
  command->add_option("--max-steps", flags->max_steps, "Stop the proof after this many steps")
      ->type_name("N")
      ->capture_default_str();
  return {command, [flags] { return run_explain(*flags); }};
}

}  // namespace eqsat::cli
