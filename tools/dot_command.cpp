// `eqsat dot EXPR [simplify-expr's flags] [-o FILE]`: the saturated e-graph of one case
// as Graphviz (extract/dot.h), the extracted nodes marked. Render it with
// `dot -Tsvg`.
#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <memory>

#include "extract/dot.h"
#include "passes/explain_expr.h"
#include "tools/commands.h"
#include "tools/expr_case.h"

namespace eqsat::cli {

namespace {

struct DotFlags {
  ExprCaseFlags expr_case;
  std::string output;
  bool all_classes = false;
};

int run_dot(const DotFlags& flags) {
  Result<ExprCase> c = load_expr_case(flags.expr_case);
  if (!c) return fail(c.error().describe());
  SaturatedCase saturated = saturate_expr(c->expr, c->facts, c->simplifier.rewrites(), c->simplifier.options());
  const std::string dot =
      egraph_to_dot(saturated.egraph, saturated.extraction.selection, saturated.root, flags.all_classes);
  if (flags.output.empty() || flags.output == "-") {
    std::cout << dot << std::flush;
    return 0;
  }
  std::ofstream out(flags.output, std::ios::binary);
  if (!out || !(out << dot)) return fail("cannot write '" + flags.output + "'");
  return 0;
}

}  // namespace

Command add_dot_command(CLI::App& app) {
  auto flags = std::make_shared<DotFlags>();
  CLI::App* command = app.add_subcommand("dot", "Write the saturated e-graph of an expression as Graphviz");
  command->footer(
      "Takes simplify-expr's flags. One cluster per e-class; the extracted nodes are filled.\n"
      "  eqsat dot 'x + x' | dot -Tsvg > egraph.svg");
  add_expr_case_flags(*command, flags->expr_case);
  command->add_flag("--all", flags->all_classes,
                    "Draw every e-class, not only those reachable from EXPR's (facts add their own)");
  command->add_option("-o,--output", flags->output, "Write to FILE instead of stdout")->type_name("FILE");
  return {command, [flags] { return run_dot(*flags); }};
}

}  // namespace eqsat::cli
