// `eqsat verify-rules [FILES...] [--write-lock | --check-lock] [--timeout S] [-j N]`
//
// Proves every dtype instance of every rule (default: the built-in catalogue,
// rules/*.rules) and prints one line per instance: proved (and which proof),
// counterexample (the variables' values and both sides'), or unknown (and why).
// Exit status 1 on any counterexample or unknown. --write-lock rewrites the lock file
// when everything is proved; --check-lock only compares the lock file with the rules
// (no Z3), for CI. --changed proves only the instances the lock does not already prove
// (new or edited rules), which is how a rule author updates the lock quickly; with
// --write-lock the unchanged instances keep their entries. See docs/verification.md.
#include "tools/verify_rules_command.h"

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <optional>

#include "tools/result_check.h"
#include "verify/verify_rules.h"

namespace eqsat::cli {

Command add_verify_rules_command(CLI::App& app) {
  auto options = std::make_shared<verify::VerifyOptions>();
  auto timeout_s = std::make_shared<double>(10.0);
  CLI::App* command = app.add_subcommand("verify-rules", "Prove the rewrite rules sound with Z3");
  command->footer(
      "With no FILES, verifies the built-in catalogue (rules/*.rules).\n"
      "A counterexample reads: x = 2147483647 (INT32): lhs = False, rhs = True");
  command->add_option("FILES", options->files, "Rule files to verify instead of the catalogue");
  command->add_option("--rule", options->only, "Verify only the rule with this name; repeatable");
  command->add_option("--timeout", *timeout_s, "Seconds per Z3 query (default 10)")->check(CLI::PositiveNumber);
  command->add_option("-j,--jobs", options->threads, "Worker threads (default: one per hardware thread)");
  command->add_option("--lock", options->lock_path, "The lock file (default: rules/rules.lock of the source tree)");
  auto* write = command->add_flag("--write-lock", options->write_lock,
                                  "Rewrite the lock file when every rule instance is proved");
  command
      ->add_flag("--check-lock", options->check_lock,
                 "Only check that the lock file matches the rules (no proving); exit 1 if stale")
      ->excludes(write);
  command->add_flag("--changed", options->changed,
                    "Prove only the instances the lock does not prove (new or edited rules); with --write-lock "
                    "the others keep their entries");
  command->add_flag("!--no-progress", options->progress, "No progress line on stderr");
  return {command, [options, timeout_s] {
            if (!options->check_lock) {  // the lock's digests alone need no Z3
              if (std::optional<int> status = fail_without_z3("verify-rules")) return *status;
            }
            options->prover.timeout_ms = static_cast<unsigned>(*timeout_s * 1000.0);
            return verify::run_verify_rules(*options, std::cout, std::cerr);
          }};
}

}  // namespace eqsat::cli
