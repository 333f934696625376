// What `eqsat explain` and `eqsat dot` share with simplify-expr: one expression on the
// command line, its facts (--var, --bound, --assume) and the engine flags
// (tools/engine.h), parsed into a ready case.
#pragma once

#include <string>

#include "ir/error.h"
#include "ir/expr.h"
#include "passes/facts.h"
#include "tools/cli_app.h"
#include "tools/engine.h"
#include "tools/facts_input.h"

namespace eqsat::cli {

struct ExprCaseFlags {
  std::string expr;
  FactFlags facts;
  EngineFlags engine;
};

// Registers EXPR, --var, --bound, --assume and the engine flags on `command`.
void add_expr_case_flags(CLI::App& command, ExprCaseFlags& flags);

struct ExprCase {
  Simplifier simplifier;
  Facts facts;
  Expr expr;
};

// Loads the rules and profile and parses the facts and EXPR; errors name the flag.
Result<ExprCase> load_expr_case(const ExprCaseFlags& flags);

}  // namespace eqsat::cli
