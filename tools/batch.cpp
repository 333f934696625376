#include "tools/batch.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <optional>
#include <utility>
#include <vector>

#include "ir/print.h"
#include "tools/facts_input.h"

namespace eqsat::cli {

namespace {

using Json = nlohmann::ordered_json;

// Members a run writes; an input that already has them is the output of an earlier run.
constexpr const char* kResultMembers[] = {"output", "cost", "error", "report", "verified", "us"};

// Deeper JSON is refused (see nested_deeper_than); real cases nest two or three levels.
constexpr std::size_t kMaxJsonDepth = 100;

std::string dump(const Json& value) {
  // `replace`: a string that is not valid UTF-8 is written with U+FFFD, never throws.
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

Json with_error(Json case_object, const std::string& message) {
  case_object["error"] = message;
  return case_object;
}

// nlohmann's message without its "[json.exception...] parse error at line 1, " prefix:
// "column 5: syntax error while parsing value - invalid literal; last read: '{x'".
std::string json_reason(const Json::parse_error& error) {
  std::string text = error.what();
  if (std::size_t bracket = text.find("] "); bracket != std::string::npos) text.erase(0, bracket + 2);
  constexpr std::string_view kPrefix = "parse error at line 1, ";
  if (text.starts_with(kPrefix)) text.erase(0, kPrefix.size());
  return text;
}

// Whether `value` nests arrays and objects deeper than `limit`. Checked without
// recursion, because writing the output recurses and a hostile line must not overflow
// the stack.
bool nested_deeper_than(const Json& value, std::size_t limit) {
  std::vector<std::pair<const Json*, std::size_t>> pending = {{&value, 0}};
  while (!pending.empty()) {
    auto [node, depth] = pending.back();
    pending.pop_back();
    if (!node->is_structured()) continue;
    if (depth >= limit) return true;
    for (const Json& child : *node) pending.emplace_back(&child, depth + 1);
  }
  return false;
}

std::string_view type_name(const Json& value) {
  if (value.is_array()) return "an array";
  if (value.is_string()) return "a string";
  if (value.is_number()) return "a number";
  if (value.is_boolean()) return "a boolean";
  return "null";
}

// The median time of `runs` more simplifications of a case whose first run is done
// (the warm-up), in microseconds with one decimal.
double median_microseconds(const Expr& input, const Facts& facts, FastMath fast_math, const Simplifier& simplifier,
                           unsigned runs) {
  std::vector<double> times;
  times.reserve(runs);
  for (unsigned i = 0; i < runs; ++i) {
    const auto start = std::chrono::steady_clock::now();
    SimplifyResult result = simplifier.run(input, facts, fast_math);
    const auto stop = std::chrono::steady_clock::now();
    times.push_back(std::chrono::duration<double, std::micro>(stop - start).count());
  }
  std::nth_element(times.begin(), times.begin() + static_cast<std::ptrdiff_t>(runs / 2), times.end());
  double median = times[runs / 2];
  if (runs % 2 == 0) {
    median = (median + *std::max_element(times.begin(), times.begin() + static_cast<std::ptrdiff_t>(runs / 2))) / 2;
  }
  return std::round(median * 10) / 10;
}

}  // namespace

Json run_case(Json case_object, const Simplifier& simplifier, const CaseOptions& options, CheckOutcome* outcome) {
  const CheckFlags& check = options.check;
  for (const char* key : kResultMembers) case_object.erase(key);

  auto input = case_object.find("input");
  if (input == case_object.end())
    return with_error(std::move(case_object), "input: missing (the expression to simplify)");
  if (!input->is_string()) return with_error(std::move(case_object), "input: expected a string");
  Result<Facts> facts = facts_from_json(case_object);
  if (!facts) return with_error(std::move(case_object), facts.error().describe());
  Result<Expr> expr = parse_under(*facts, input->get<std::string>(), "input");
  if (!expr) return with_error(std::move(case_object), expr.error().describe());
  Result<FastMath> case_fast_math = fast_math_from_json(case_object);
  if (!case_fast_math) return with_error(std::move(case_object), case_fast_math.error().describe());
  // The case's flags add to the run's (--fast-math); the check uses the same.
  const FastMath fast_math = simplifier.fast_math() | *case_fast_math;

  SimplifyResult result;
  try {
    result = simplifier.run(*expr, *facts, *case_fast_math);
  } catch (const std::exception& e) {
    // A bug, but one case must not end the batch.
    return with_error(std::move(case_object), std::string("internal error: ") + e.what());
  }
  if (!result.output.valid() || result.cost.is_infinite()) {
    return with_error(std::move(case_object),
                      "costs: every form of the input uses an operation that the cost profile '" +
                          simplifier.costs().name() + "' forbids");
  }
  const std::string output = print(result.output);
  std::optional<CheckOutcome> checked;
  if (check.verify) {
    checked = check_result(*expr, result.output, *facts, check, fast_math);
    if (outcome != nullptr) *outcome = *checked;
    if (checked->kind == CheckOutcome::Kind::Differs) {
      return with_error(std::move(case_object),
                        "verify: the output '" + output + "' is not equal to the input: " + checked->detail);
    }
  }
  case_object["output"] = output;
  case_object["cost"] = result.cost.value();
  if (checked) case_object["verified"] = checked->detail;
  if (options.time_runs > 0) {
    case_object["us"] = median_microseconds(*expr, *facts, *case_fast_math, simplifier, options.time_runs);
  }
  if (simplifier.report()) case_object["report"] = Json::parse(result.report.to_json());
  return case_object;
}

std::string run_batch_line(std::string_view line, std::size_t line_number, const Simplifier& simplifier,
                           const CaseOptions& options, BatchTally* tally) {
  const CheckFlags& check = options.check;
  if (line.ends_with('\r')) line.remove_suffix(1);
  const std::string where = "line " + std::to_string(line_number) + ": ";
  if (line.find_first_not_of(" \t") == std::string_view::npos) {
    return format_json(Json{{"error", where + "blank line (expected a JSON object)"}});
  }
  Json case_object;
  try {
    case_object = Json::parse(line.begin(), line.end());
  } catch (const Json::parse_error& error) {
    return format_json(Json{{"error", where + "invalid JSON: " + json_reason(error)}});
  }
  if (nested_deeper_than(case_object, kMaxJsonDepth)) {
    return format_json(
        Json{{"error", where + "JSON nested more than " + std::to_string(kMaxJsonDepth) + " levels deep"}});
  }
  if (!case_object.is_object()) {
    return format_json(Json{{"error", where + "expected a JSON object, got " + std::string(type_name(case_object))}});
  }
  CheckOutcome outcome;
  Json result = run_case(std::move(case_object), simplifier, options, &outcome);
  if (tally != nullptr && check.verify && result.contains("input")) {
    if (outcome.kind == CheckOutcome::Kind::Unknown && result.contains("verified")) ++tally->unknown;
    if (outcome.kind == CheckOutcome::Kind::Differs) {
      std::string name = "line " + std::to_string(line_number);
      if (auto id = result.find("id"); id != result.end()) name += " (id " + dump(*id) + ")";
      tally->disagreements.push_back(name + ": " + result["error"].get<std::string>());
    }
  }
  return format_json(result);
}

std::string format_json(const Json& value) {
  if (value.is_object()) {
    std::string text = "{";
    for (auto it = value.begin(); it != value.end(); ++it) {
      if (it != value.begin()) text += ", ";
      text += dump(Json(it.key())) + ": " + format_json(it.value());
    }
    return text + "}";
  }
  if (value.is_array()) {
    std::string text = "[";
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (i > 0) text += ", ";
      text += format_json(value[i]);
    }
    return text + "]";
  }
  return dump(value);
}

}  // namespace eqsat::cli
