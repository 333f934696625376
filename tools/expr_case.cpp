#include "tools/expr_case.h"

#include <CLI/CLI.hpp>

namespace eqsat::cli {

void add_expr_case_flags(CLI::App& command, ExprCaseFlags& flags) {
  command.add_option("EXPR", flags.expr, "The expression (docs/expressions.md)")->type_name("")->required();
  command.add_option("--var", flags.facts.vars, "Declare a variable's dtype (default INDEX); repeatable")
      ->type_name("NAME:DTYPE")
      ->allow_extra_args(false);
  command.add_option("--bound", flags.facts.bounds, "Inclusive bounds; leave a side empty for open (n=0:); repeatable")
      ->type_name("NAME=LO:HI")
      ->allow_extra_args(false);
  command.add_option("--assume", flags.facts.assumptions, "A BOOL condition known to hold; repeatable")
      ->type_name("COND")
      ->allow_extra_args(false);
  add_engine_flags(command, flags.engine);
}

Result<ExprCase> load_expr_case(const ExprCaseFlags& flags) {
  Result<Simplifier> simplifier = Simplifier::from_flags(flags.engine);
  if (!simplifier) return simplifier.error();
  Result<Facts> facts = facts_from_flags(flags.facts);
  if (!facts) return facts.error();
  Result<Expr> expr = parse_under(*facts, flags.expr, "EXPR");
  if (!expr) return expr.error();
  return ExprCase{*simplifier, *facts, *expr};
}

}  // namespace eqsat::cli
