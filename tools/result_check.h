// Translation validation on the command line: `--verify` on `batch` and
// `simplify-expr` proves each output equal to its input with Z3 (verify/equivalence.h),
// under the bounds and assumptions of the case.
//
//   --verify              check every result
//   --verify-timeout S    seconds per proof (default 10); a proof that runs out is
//                         "unknown", which is reported but is not a failure
//
// A disagreement is a bug in a rule or an analysis, never in the input: the result is
// withheld and reported as an error naming the case, and the run exits with status 1.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "ir/expr.h"
#include "ir/fast_math.h"
#include "passes/facts.h"
#include "tools/cli_app.h"

namespace eqsat::cli {

struct CheckFlags {
  bool verify = false;
  double timeout_seconds = 10;
};

void add_check_flags(CLI::App& command, CheckFlags& flags);

// For a command about to call Z3 for `needed_for` ("--verify", "verify-rules", "fuzz"),
// before it does any work: nullopt when Z3 can be called, otherwise the command's
// failure (status 1, the reason printed). The eqsat command loads Z3 only when it is
// first needed (tools/z3_lazy/loader.cpp), so only such commands can meet its absence.
std::optional<int> fail_without_z3(std::string_view needed_for);

struct CheckOutcome {
  enum class Kind : uint8_t { Proved, Unknown, Differs };
  Kind kind = Kind::Unknown;
  // Proved: "proved" or "proved (bv-fallback)"; Unknown: "unknown: <reason>";
  // Differs: the counterexample, "x = 3 (INDEX): input = 5, output = 6".
  std::string detail;
};

// Whether `output` may replace `input` under `facts`, with the relaxed float semantics
// of `fast_math` (the flags the simplifier ran under: a result folded under nsz is
// compared up to the sign of zero). An output identical to its input is proved without
// asking Z3.
CheckOutcome check_result(const Expr& input, const Expr& output, const Facts& facts, const CheckFlags& flags,
                          FastMath fast_math = {});

}  // namespace eqsat::cli
