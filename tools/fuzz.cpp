#include "tools/fuzz.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <optional>

#include "ir/print.h"
#include "tools/batch.h"
#include "tools/facts_input.h"
#include "verify/minimize.h"

namespace eqsat::cli {

namespace {

enum class Verdict : uint8_t { Unchanged, Proved, Unknown, Fails };

struct CaseResult {
  bool ran = false;
  Verdict verdict = Verdict::Unchanged;
  std::string reason;  // Fails: why
};

// Printing and parsing back must give the same tree, or a result could not be read back.
std::optional<std::string> round_trip_error(const Expr& expr, const Facts& facts, const char* what) {
  const std::string text = print(expr);
  Result<Expr> reread = parse_under(facts, text, what);
  if (!reread) return std::string(what) + " '" + text + "' does not parse back: " + reread.error().describe();
  if (*reread != expr) return std::string(what) + " '" + text + "' parses back to '" + print(*reread) + "'";
  return std::nullopt;
}

CaseResult run_one(const verify::RandomCase& random_case, const Simplifier& simplifier, const CheckFlags& check) {
  if (auto error = round_trip_error(random_case.input, random_case.facts, "input")) {
    return {true, Verdict::Fails, *error};
  }
  SimplifyResult result;
  try {
    result = simplifier.run(random_case.input, random_case.facts);
  } catch (const std::exception& e) {
    return {true, Verdict::Fails, std::string("throws: ") + e.what()};
  }
  if (!result.output.valid()) return {true, Verdict::Fails, "no output"};
  if (result.output.dtype() != random_case.input.dtype()) {
    return {true, Verdict::Fails,
            "the output '" + print(result.output) + "' has dtype " + std::string(dtype_name(result.output.dtype()))};
  }
  if (auto error = round_trip_error(result.output, random_case.facts, "output")) return {true, Verdict::Fails, *error};
  if (result.output == random_case.input) return {true, Verdict::Unchanged, ""};
  CheckOutcome outcome =
      check_result(random_case.input, result.output, random_case.facts, check, simplifier.fast_math());
  switch (outcome.kind) {
    case CheckOutcome::Kind::Proved:
      return {true, Verdict::Proved, ""};
    case CheckOutcome::Kind::Unknown:
      return {true, Verdict::Unknown, ""};
    case CheckOutcome::Kind::Differs:
      break;
  }
  return {true, Verdict::Fails,
          "verify: the output '" + print(result.output) + "' is not equal to the input: " + outcome.detail};
}

}  // namespace

std::string fuzz_case_id(uint64_t seed, uint64_t number) {
  return "fuzz-seed" + std::to_string(seed) + "-case" + std::to_string(number);
}

std::string case_line(const verify::RandomCase& random_case, const std::string& id, FastMath fast_math) {
  nlohmann::ordered_json line;
  line["id"] = id;
  facts_to_json(random_case.facts, line);
  fast_math_to_json(fast_math, line);
  line["input"] = print(random_case.input);
  return format_json(line);
}

FuzzReport run_fuzz(const FuzzOptions& options, const Simplifier& simplifier, const FuzzProgress& progress) {
  CheckFlags check;
  check.verify = true;
  check.timeout_seconds = options.timeout_seconds;

  std::vector<CaseResult> results(options.cases);
  std::atomic<bool> stop = false;
  std::atomic<uint64_t> done = 0;
  std::mutex progress_mutex;
  auto run_range = [&](const tbb::blocked_range<uint64_t>& range) {
    for (uint64_t i = range.begin(); i != range.end(); ++i) {
      if (stop.load()) return;
      verify::RandomCase random_case = verify::random_case(options.seed, options.first_case + i, options.shape);
      results[i] = run_one(random_case, simplifier, check);
      if (results[i].verdict == Verdict::Fails && !options.keep_going) stop = true;
      const uint64_t finished = ++done;
      if (progress) {
        std::lock_guard lock(progress_mutex);
        progress(finished);
      }
    }
  };
  tbb::task_arena arena(static_cast<int>(std::max(1u, options.threads)));
  // Grain 1: cases differ in cost by orders of magnitude (a Z3 proof or none).
  arena.execute([&] { tbb::parallel_for(tbb::blocked_range<uint64_t>(0, options.cases, 1), run_range); });

  // Without --keep-going the run ends at the first failure in case order. Other threads
  // may have skipped cases before it when they stopped: those are run now, so that the
  // report is the same for every thread count.
  for (uint64_t i = 0; i < options.cases; ++i) {
    if (!results[i].ran) {
      results[i] = run_one(verify::random_case(options.seed, options.first_case + i, options.shape), simplifier, check);
    }
    if (results[i].verdict == Verdict::Fails && !options.keep_going) {
      results.resize(i + 1);
      break;
    }
  }

  FuzzReport report;
  for (uint64_t i = 0; i < results.size(); ++i) {
    ++report.cases;
    switch (results[i].verdict) {
      case Verdict::Unchanged:
        ++report.unchanged;
        break;
      case Verdict::Proved:
        ++report.proved;
        break;
      case Verdict::Unknown:
        ++report.unknown;
        break;
      case Verdict::Fails: {
        const uint64_t number = options.first_case + i;
        verify::RandomCase original = verify::random_case(options.seed, number, options.shape);
        // Shrink while the same kind of failure remains ("verify:", "throws:", ...), so
        // that the reproducer shows the bug that was found, not another one.
        const std::string kind = results[i].reason.substr(0, results[i].reason.find(' '));
        // The reason the minimized case last failed with: asked again, a proof that
        // timed out then may pass (its reason would be empty).
        std::string last_reason = results[i].reason;
        verify::RandomCase minimized = verify::minimize_case(original, [&](const verify::RandomCase& candidate) {
          CaseResult result = run_one(candidate, simplifier, check);
          const bool fails = result.verdict == Verdict::Fails && result.reason.starts_with(kind);
          if (fails) last_reason = result.reason;
          return fails;
        });
        FuzzFailure failure;
        failure.case_number = number;
        failure.reason = last_reason;
        failure.reproducer = case_line(minimized, fuzz_case_id(options.seed, number), simplifier.fast_math());
        failure.original = case_line(original, fuzz_case_id(options.seed, number), simplifier.fast_math());
        report.failures.push_back(std::move(failure));
        break;
      }
    }
  }
  return report;
}

}  // namespace eqsat::cli
