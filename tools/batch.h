// The batch format of shared/spec/expressions.md, one line at a time: a JSON case in,
// the same object with `output` and `cost` (or `error`) added out.
//
// Exactly one output line per input line. The cases that cannot be simplified still
// get a line:
//   - a case with bad fields (syntax, unknown dtype, ill-typed assumption, missing or
//     non-string `input`): every input member plus `error`, and no `output`/`cost`;
//   - a line that is not a JSON object (invalid JSON, an array, a number, or a blank
//     line): only {"error": "line N: ..."}.
// Members named `output`, `cost`, `error` or `report` in the input are results of an
// earlier run: they are dropped and the fresh results appended, so a batch can be
// re-run on its own output.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "tools/engine.h"
#include "tools/result_check.h"

namespace eqsat::cli {

// What a run adds to each case besides `output` and `cost`.
struct CaseOptions {
  CheckFlags check;  // --verify: `verified`
  // --time R: `us`, the median over R runs (after one warm-up run, which gives the
  // output) of the microseconds Simplifier::run takes on this case; parsing and
  // printing excluded. 0: no timing.
  unsigned time_runs = 0;
};

// Simplifies one case object (adds `output` and `cost`, `report` when asked for, or
// `error`). With `options.check.verify`, the output is proved equal to the input and
// `verified` says how ("proved", "unknown: timeout 10 s"); an output that is not equal
// is withheld and `error` gives the counterexample. `outcome`, when given, receives the
// check's outcome (left untouched when no output was checked).
nlohmann::ordered_json run_case(nlohmann::ordered_json case_object, const Simplifier& simplifier,
                                const CaseOptions& options = {}, CheckOutcome* outcome = nullptr);

// What a batch run tells its user besides the output lines: the results --verify did
// not prove.
struct BatchTally {
  std::size_t unknown = 0;
  std::vector<std::string> disagreements;  // "line 3 (id \"a1\"): the output ... "
};

// One input line (without its newline; a trailing '\r' is ignored) to one output line
// (without the newline). `line_number` is 1-based, for the messages.
std::string run_batch_line(std::string_view line, std::size_t line_number, const Simplifier& simplifier,
                           const CaseOptions& options = {}, BatchTally* tally = nullptr);

// JSON text in the spec's layout: `{"id": "a1", "input": "x"}`, `[0, 7]` (", " between
// members and elements, ": " after keys), on one line; UTF-8 kept as is.
std::string format_json(const nlohmann::ordered_json& value);

}  // namespace eqsat::cli
