// The differential fuzzer behind `eqsat fuzz`: random typed cases (verify/
// random_case.h) are simplified with the rules in force and each result is proved
// equal to its input with Z3 (tools/result_check.h). A case also fails when the
// simplifier throws, or when the input or the output does not print and parse back to
// itself. Each failure is minimized (verify/minimize.h) and written as a line of the
// batch format, so `eqsat batch --verify` reproduces it.
//
// Deterministic: the cases depend only on the seed and their number, and the report
// lists them in that order whatever the thread count. (A proof that runs out of time
// is "unknown" and counted, not a failure; timing can move a case between proved and
// unknown, never to a failure.)
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tools/engine.h"
#include "tools/result_check.h"
#include "verify/random_case.h"

namespace eqsat::cli {

struct FuzzOptions {
  uint64_t seed = 1;
  uint64_t first_case = 0;  // case numbers first_case .. first_case + cases - 1
  uint64_t cases = 2000;
  verify::RandomCaseOptions shape;
  double timeout_seconds = 5;  // per proof
  unsigned threads = 1;
  bool keep_going = false;  // false: stop at the first failure
};

struct FuzzFailure {
  uint64_t case_number = 0;
  std::string reason;      // for the minimized case: "verify: x = 3 (INDEX): ...", "throws: ..."
  std::string reproducer;  // the minimized case, one line of the batch format
  std::string original;    // the case as generated, same format
};

struct FuzzReport {
  uint64_t cases = 0;      // cases run
  uint64_t unchanged = 0;  // output identical to the input
  uint64_t proved = 0;     // changed, and proved equal
  uint64_t unknown = 0;    // changed, and Z3 ran out of time
  std::vector<FuzzFailure> failures;
};

// Called as cases finish (from one thread at a time), with the number done so far.
using FuzzProgress = std::function<void(uint64_t done)>;

FuzzReport run_fuzz(const FuzzOptions& options, const Simplifier& simplifier, const FuzzProgress& progress = {});

// The batch-format line of a case: {"id": ..., "vars": ..., "bounds": ..., "assume": ...,
// "input": ...}.
std::string case_line(const verify::RandomCase& random_case, const std::string& id);

// "fuzz-seed1-case33": the id of case 33 of seed 1 in reproducers.
std::string fuzz_case_id(uint64_t seed, uint64_t number);

}  // namespace eqsat::cli
