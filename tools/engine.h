// What every simplifying command shares: the rules, the cost profile and the limits,
// chosen by the same flags on each command.
//
//   --rules FILE       use these rule files instead of the built-in catalogue (repeatable)
//   --add-rules FILE   use these rule files as well as the catalogue (repeatable)
//   --costs PROFILE    a shipped profile's name or a JSON file (extract/cost.h);
//                      default: the built-in default profile (cost = nodes)
//   --extractor KIND   tree (default) or dag (extract/extract.h)
//   --iter-limit N     saturation iterations per expression        (default 30)
//   --node-limit N     e-nodes per expression                      (default 10000)
//   --time-limit S     seconds per expression                      (default 5)
//   --report           also give the runner's report
//   --fast-math FLAGS  grant relaxed float semantics: nsz,nnan,ninf,reassoc or all
//                      (ir/fast_math.h); float rules that need a flag run only when
//                      it is granted (default: none, strict IEEE)
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "egraph/rewrite.h"
#include "egraph/runner.h"
#include "extract/cost.h"
#include "ir/error.h"
#include "passes/pass_manager.h"
#include "passes/simplify_expr.h"
#include "tools/cli_app.h"

namespace eqsat::cli {

// The flags as typed.
struct EngineFlags {
  std::vector<std::string> rule_files;
  std::vector<std::string> extra_rule_files;
  std::vector<std::string> rule_lock_files;  // locks proving the rules of those files
  bool allow_unproved_rules = false;
  std::string costs_file;  // a shipped profile's name or a file; empty: the default profile
  std::string extractor = "tree";
  RunLimits limits;
  bool report = false;
  std::string fast_math;  // as typed: "nsz,nnan", "all"; empty: none
};

// Registers the flags above on a command.
void add_engine_flags(CLI::App& command, EngineFlags& flags);

// Only --iter-limit, --node-limit and --time-limit (non-negative; `inf` allowed), for
// commands that choose their rules their own way (`eqsat saturate`).
void add_limit_flags(CLI::App& command, RunLimits& limits);

// The rules, costs and limits, loaded once and used for every expression of a run.
class Simplifier {
 public:
  // Loads what the flags name (EngineFlags{}: the built-in catalogue, the unit cost
  // profile, the default limits); an error names the file and the reason.
  static Result<Simplifier> from_flags(const EngineFlags& flags);

  // `extra`: fast-math flags granted to this expression on top of the run's (a batch
  // case's "fast_math" member).
  SimplifyResult run(const Expr& input, const Facts& facts, FastMath extra = {}) const;
  // The rules, limits, costs and the run's fast-math flags for a pass pipeline (valid
  // while this Simplifier lives); functions add their own flags and costs.
  PassContext pass_context() const { return PassContext{*rewrites_, options(), {}}; }
  // The limits, costs, extractor, linear forms and fast-math flags for simplify_expr
  // (valid while this Simplifier lives).
  SimplifyOptions options() const {
    SimplifyOptions options;
    options.limits = limits_;
    options.costs = &costs_;
    options.extract = extract_;
    options.linear_forms = linear_forms_;
    options.fast_math = fast_math_;
    options.rule_index = rule_index_.get();
    return options;
  }

  const CostProfile& costs() const { return costs_; }
  const std::vector<Rewrite>& rewrites() const { return *rewrites_; }
  bool report() const { return report_; }
  FastMath fast_math() const { return fast_math_; }  // --fast-math

 private:
  Simplifier() = default;

  // Shared by copies, so that the index (built from this storage) stays valid for them.
  std::shared_ptr<const std::vector<Rewrite>> rewrites_ = std::make_shared<const std::vector<Rewrite>>();
  std::shared_ptr<const RuleIndex> rule_index_ = std::make_shared<const RuleIndex>();
  CostProfile costs_ = CostProfile::unit();
  ExtractOptions extract_;
  RunLimits limits_;
  bool linear_forms_ = true;  // off when --rules replaces the built-in algebra
  bool report_ = false;
  FastMath fast_math_;
};

// How a command reports a fatal error: "eqsat: error: <message>" on stderr; returns
// the exit status 1.
int fail(const std::string& message);

}  // namespace eqsat::cli
