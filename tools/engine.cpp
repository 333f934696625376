#include "tools/engine.h"

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>

#include "egraph/heap_pages.h"
#include "rules/rule.h"
#include "rules/rule_lock.h"

namespace eqsat::cli {

namespace {

// Limits are counts and seconds: "-1" must not become a huge unsigned number.
std::string non_negative(std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(value >= 0)) return "expected a non-negative number, got '" + text + "'";
  return "";
}

// The index of the built-in catalogue, made once. Never destroyed, as the catalogue
// it indexes (rules/builtin_rules.cpp): freeing its compiled programs at exit took a
// tenth of a short run's time.
const std::shared_ptr<const RuleIndex>& builtin_rule_index() {
  static const auto* index =
      new std::shared_ptr<const RuleIndex>(std::make_shared<const RuleIndex>(*builtin_rules().shared_rewrites()));
  return *index;
}

}  // namespace

void add_limit_flags(CLI::App& command, RunLimits& limits) {
  const CLI::Validator limit(non_negative, "");
  command.add_option("--iter-limit", limits.max_iterations, "Saturation iterations per expression")
      ->type_name("N")
      ->check(limit)
      ->capture_default_str();
  command.add_option("--node-limit", limits.max_nodes, "E-nodes per expression")
      ->type_name("N")
      ->check(limit)
      ->capture_default_str();
  command.add_option("--time-limit", limits.max_seconds, "Seconds per expression")
      ->type_name("SECONDS")
      ->check(limit)
      ->capture_default_str();
}

void add_engine_flags(CLI::App& command, EngineFlags& flags) {
  // One value per occurrence, so that `--rules a.rules IN` never swallows IN.
  command.add_option("--rules", flags.rule_files, "Use this rule file instead of the built-in catalogue (repeatable)")
      ->type_name("FILE")
      ->allow_extra_args(false);
  command
      .add_option("--add-rules", flags.extra_rule_files,
                  "Use this rule file in addition to the rules in force (repeatable)")
      ->type_name("FILE")
      ->allow_extra_args(false);
  command
      .add_option("--rule-lock", flags.rule_lock_files,
                  "A lock file proving the rules of --rules/--add-rules files, written by "
                  "`eqsat verify-rules FILE --write-lock --lock LOCK` (repeatable)")
      ->type_name("LOCK")
      ->allow_extra_args(false);
  command.add_flag("--allow-unproved-rules", flags.allow_unproved_rules,
                   "Rule development only: run rules that no lock proves sound");
  command
      .add_option("--costs", flags.costs_file,
                  "Cost profile: a shipped one by name (default, div-expensive, op-count) or a JSON file "
                  "(docs/cost-tuning.md); default: every node costs 1")
      ->type_name("PROFILE");
  command.add_option("--extractor", flags.extractor, "tree (fastest, default) or dag (counts shared subterms once)")
      ->type_name("KIND")
      ->check(CLI::IsMember({"tree", "dag"}))
      ->capture_default_str();
  add_limit_flags(command, flags.limits);
  command
      .add_option("--fast-math", flags.fast_math,
                  "Grant relaxed float semantics to the rules: a comma-separated list of nsz (no "
                  "signed zeros), nnan (no NaNs), ninf (no infinities), reassoc, or all (default: none, "
                  "strict IEEE)")
      ->type_name("FLAGS")
      ->check(CLI::Validator(
          [](std::string& text) {
            Result<FastMath> parsed = parse_fast_math(text);
            return parsed ? std::string() : parsed.error().message;
          },
          ""));
  command.add_flag("--report", flags.report, "Also give the saturation report (why it stopped, sizes, rule fires)");
}

Result<Simplifier> Simplifier::from_flags(const EngineFlags& flags) {
  Simplifier simplifier;
  simplifier.limits_ = flags.limits;
  // The linear normal forms are part of the built-in algebra: a run whose --rules
  // replace the catalogue gets exactly those rules.
  simplifier.linear_forms_ = flags.rule_files.empty();
  simplifier.report_ = flags.report;
  Result<FastMath> fast_math = parse_fast_math(flags.fast_math);
  if (!fast_math) return Error{"--fast-math: " + fast_math.error().message};
  simplifier.fast_math_ = *fast_math;
  if (auto kind = parse_extractor_kind(flags.extractor)) {
    simplifier.extract_.kind = *kind;
  } else {
    return Error{"--extractor: expected tree or dag, got '" + flags.extractor + "'"};
  }
  if (!flags.costs_file.empty()) {
    Result<CostProfile> costs = CostProfile::resolve(flags.costs_file);
    if (!costs) return costs.error();
    simplifier.costs_ = *costs;
  }

  // The rules in force: the built-in catalogue as it is (not copied), or a set of our
  // own when rule files replace or extend it.
  const bool own_rules = !flags.rule_files.empty() || !flags.extra_rule_files.empty();
  // The heap their loading takes, populated ahead (egraph/heap_pages.h): the built-in
  // catalogue read from its image with its index grows it by 1.8 MB, and 2 MB is asked
  // for all the same, because a load of 2 MB or more takes a huge page (one fault, not
  // 450 populated 4 KB pages written for the first time); the lock alone (--rules)
  // takes 0.4 MB, a little over what is asked, so that little is left populated and
  // unused.
  const HeapAhead heap_ahead(flags.rule_files.empty() ? std::size_t{2} << 20 : std::size_t{384} << 10);
  RuleSet own;
  if (!flags.rule_files.empty()) {
    Result<RuleSet> loaded = load_rule_files(flags.rule_files);
    if (!loaded) return loaded.error();
    own = std::move(loaded).value();
  } else if (own_rules) {
    own = builtin_rules();
  }
  if (!flags.extra_rule_files.empty()) {
    Result<RuleSet> extra = load_rule_files(flags.extra_rule_files);
    if (!extra) return extra.error();
    for (const Rule& rule : extra->rules) {
      if (const Rule* existing = own.find(rule.name)) {
        std::string where = existing->file.empty() ? "the rules in force" : existing->file;
        return Error{rule.file + ":" + std::to_string(rule.line) + ": rule '" + rule.name + "' is already defined in " +
                     where};
      }
      own.rules.push_back(rule);
    }
  }
  // Only rules proved sound run: the built-in catalogue is checked against its own lock
  // when it loads; rules from files need a lock that proves them (or the development flag).
  if (!flags.allow_unproved_rules && own_rules) {
    // The given locks first; the catalogue's own lock (a rule file may reuse catalogue
    // rules) only for what they leave unproved.
    std::vector<RuleLock> locks;
    for (const std::string& path : flags.rule_lock_files) {
      Result<RuleLock> lock = load_rule_lock(path);
      if (!lock) return lock.error();
      locks.push_back(std::move(lock).value());
    }
    if (std::optional<Error> unproved = unproved_error(own, locks, builtin_rule_lock)) {
      return Error{unproved->message +
                   "\n(prove them with `eqsat verify-rules FILE --write-lock --lock LOCK` and pass "
                   "--rule-lock LOCK, or pass --allow-unproved-rules while developing a rule)"};
    }
  }
  if (own_rules) {
    simplifier.rewrites_ = own.shared_rewrites();
    simplifier.rule_index_ = std::make_shared<const RuleIndex>(*simplifier.rewrites_);
  } else {
    simplifier.rewrites_ = builtin_rules().shared_rewrites();
    simplifier.rule_index_ = builtin_rule_index();
  }
  return simplifier;
}

SimplifyResult Simplifier::run(const Expr& input, const Facts& facts, FastMath extra) const {
  SimplifyOptions with_extra = options();
  with_extra.fast_math |= extra;
  return simplify_expr(input, facts, *rewrites_, with_extra);
}

int fail(const std::string& message) {
  std::cerr << "eqsat: error: " << message << '\n';
  return 1;
}

}  // namespace eqsat::cli
