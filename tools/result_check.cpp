#include "tools/result_check.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <exception>

#include "tools/engine.h"
#include "verify/equivalence.h"
#include "verify/z3_available.h"

namespace eqsat::cli {

void add_check_flags(CLI::App& command, CheckFlags& flags) {
  command.add_flag("--verify", flags.verify,
                   "Prove each output equal to its input with Z3 (an unequal output is an error)");
  command
      .add_option("--verify-timeout", flags.timeout_seconds,
                  "Seconds per --verify proof; a proof that runs out is reported as unknown")
      ->type_name("SECONDS")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
}

std::optional<int> fail_without_z3(std::string_view needed_for) {
  if (std::optional<std::string> why = verify::z3_unavailable()) {
    return fail(std::string(needed_for) + " needs Z3, which cannot be loaded: " + *why);
  }
  return std::nullopt;
}

CheckOutcome check_result(const Expr& input, const Expr& output, const Facts& facts, const CheckFlags& flags,
                          FastMath fast_math) {
  if (input == output) return {CheckOutcome::Kind::Proved, "proved"};
  verify::ProverOptions options;
  options.fast_math = fast_math;
  options.timeout_ms = static_cast<unsigned>(std::clamp(std::ceil(flags.timeout_seconds * 1000), 1.0, 4e9));
  verify::EquivalenceResult result;
  try {
    result = verify::verify_equivalent(input, output, facts, options);
  } catch (const std::exception& e) {
    // Z3 can throw on resource exhaustion; that decides nothing about the output.
    return {CheckOutcome::Kind::Unknown, std::string("unknown: ") + e.what()};
  }
  switch (result.status) {
    case verify::EquivalenceResult::Status::Equal:
      return {CheckOutcome::Kind::Proved, result.kind == verify::ProofKind::Exact
                                              ? "proved"
                                              : "proved (" + std::string(verify::proof_kind_name(result.kind)) + ")"};
    case verify::EquivalenceResult::Status::Counterexample:
      return {CheckOutcome::Kind::Differs, result.detail};
    case verify::EquivalenceResult::Status::Unknown:
      break;
  }
  return {CheckOutcome::Kind::Unknown, "unknown: " + result.detail};
}

}  // namespace eqsat::cli
