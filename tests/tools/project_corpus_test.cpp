// The project's own corpus (tests/corpus/*.jsonl) through `eqsat batch`, checked four
// ways (docs/corpus.md):
//   (a) every output equals its input: both are evaluated (ir/evaluate.h) at the
//       edges of the variables' ranges and at random values in range, under the
//       case's assumptions; where the input is defined the output must be too, with
//       the same value (bit for bit for floats: NaN is NaN, -0.0 is not +0.0);
//   (b) no output is larger than `expected` (tree size, as shared/tools/score.py
//       counts it), except the few known misses listed below;
//   (c) simplifying an output again gives the same output (idempotence);
//   (d) a trap (tests/corpus/traps.jsonl: a case that must not fold, or only partly)
//       does not come out smaller than its `expected`.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "ir/definedness.h"
#include "ir/evaluate.h"
#include "ir/print.h"
#include "passes/facts.h"
#include "tests/tools/run_eqsat.h"
#include "tests/tools/value_sampler.h"
#include "tools/batch.h"
#include "tools/facts_input.h"

namespace eqsat::testing {
namespace {

const std::filesystem::path kCorpusDir = EQSAT_SOURCE_DIR "/tests/corpus";
constexpr const char* kTrapFile = "traps.jsonl";

// Cases the engine does not yet fold to `expected`, each with what it would take.
// Only size misses may be listed here; an unequal output is never excused.
// None at present.
const std::map<std::string, std::string> kKnownMissed = {};

// Evaluations per case: all corners of the bounded ranges (up to kMaxCorners), then
// random assignments; more of them when assumptions reject most assignments.
constexpr int kMaxCorners = 64;
constexpr int kRandomSamples = 300;
constexpr int kRandomSamplesWithAssumptions = 2000;

struct Variable {
  std::string name;
  DType dtype;
  IntRange range;
};

void collect_variables(const Expr& e, std::map<std::string, DType>& out) {
  if (e.op() == Op::Var) out.emplace(e.name(), e.dtype());
  for (const Expr& arg : e.args()) collect_variables(arg, out);
}

std::string env_text(const Env& env) {
  std::string text;
  for (const auto& [name, value] : env) text += (text.empty() ? "" : ", ") + name + " = " + value_text(value);
  return "{" + text + "}";
}

std::string value_or_undefined(const std::optional<Value>& v) { return v ? value_text(*v) : "undefined"; }

// (a): a description of the first assignment where output and input differ, or "".
// `checked` counts the assignments that satisfied the assumptions.
std::string find_difference(const Expr& input, const Expr& output, const Facts& facts, uint64_t seed, int& checked) {
  std::map<std::string, DType> dtypes;
  collect_variables(input, dtypes);
  collect_variables(output, dtypes);
  for (const Expr& fact : facts.assumptions) collect_variables(fact, dtypes);
  std::vector<Variable> vars;
  for (const auto& [name, dtype] : dtypes) {
    std::optional<Int> lo, hi;
    if (auto b = facts.bounds.find(name); b != facts.bounds.end()) {
      lo = b->second.lo;
      hi = b->second.hi;
    }
    vars.push_back({name, dtype, IntRange::of(dtype, lo, hi)});
  }

  ValueSampler sampler(seed);
  auto check = [&](const Env& env) -> std::string {
    for (const Expr& fact : facts.assumptions) {
      std::optional<Value> holds = evaluate(fact, env);
      if (!holds || holds->i == 0) return "";
    }
    ++checked;
    const std::optional<Value> in = evaluate(input, env);
    if (!in) return "";  // the input is undefined here: any output is correct
    const std::optional<Value> out = evaluate(output, env);
    if (out && *out == *in) return "";
    // An output with no partial operation is defined everywhere: the evaluator gave up
    // on an INDEX value beyond its 2^100 (ir/evaluate.h), which checks nothing.
    if (!out && !may_be_undefined(output)) return "";
    return "at " + env_text(env) + " the input is " + value_text(*in) + " but the output is " + value_or_undefined(out);
  };

  // Corners: every combination of each variable's range edges (lo, hi; for an
  // unbounded or wide range, its edge values).
  std::vector<std::vector<Value>> edge_values;
  for (const Variable& v : vars) {
    std::vector<Value> values;
    for (const std::optional<Int>& edge : {v.range.lo, v.range.hi}) {
      if (edge) values.push_back(Value::integer(v.dtype, *edge));
    }
    if (values.empty() || !is_integer(v.dtype)) values = sampler.edges(v.dtype, v.range);
    edge_values.push_back(values);
  }
  std::vector<std::size_t> digit(vars.size(), 0);
  for (int corner = 0; corner < kMaxCorners; ++corner) {
    Env env;
    for (std::size_t i = 0; i < vars.size(); ++i) env[vars[i].name] = edge_values[i][digit[i]];
    if (std::string diff = check(env); !diff.empty()) return diff;
    std::size_t i = 0;  // the next combination, odometer-style
    while (i < vars.size() && ++digit[i] == edge_values[i].size()) digit[i++] = 0;
    if (i == vars.size()) break;
  }
  // Each variable at each of its edge and special values, the others random.
  for (std::size_t i = 0; i < vars.size(); ++i) {
    for (const Value& edge : sampler.edges(vars[i].dtype, vars[i].range)) {
      Env env;
      for (const Variable& v : vars) env[v.name] = sampler.random(v.dtype, v.range);
      env[vars[i].name] = edge;
      if (std::string diff = check(env); !diff.empty()) return diff;
    }
  }
  const int samples = facts.assumptions.empty() ? kRandomSamples : kRandomSamplesWithAssumptions;
  for (int s = 0; s < samples; ++s) {
    Env env;
    for (const Variable& v : vars) env[v.name] = sampler.random(v.dtype, v.range);
    if (std::string diff = check(env); !diff.empty()) return diff;
  }
  return "";
}

struct FileReport {
  int cases = 0;
  int as_small = 0;
  std::vector<std::string> known_missed;
};

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Checks (a) to (d) for one case `c`, its output line `out` and the output line of its
// output simplified again (`again`, null if missing).
void check_case(const Json& c, const Json& out, const Json* again, bool trap, uint64_t seed, FileReport& report) {
  const std::string id = c.value("id", "");
  SCOPED_TRACE(id + ": " + c.value("input", ""));
  ++report.cases;
  ASSERT_TRUE(c.contains("expected")) << "every corpus case has an expected output";
  if (out.contains("error")) {
    ADD_FAILURE() << out["error"];
    return;
  }
  Result<Facts> facts = cli::facts_from_json(c);
  ASSERT_TRUE(facts.ok()) << facts.error().describe();
  Result<Expr> input = cli::parse_under(*facts, c["input"].get<std::string>(), "input");
  Result<Expr> output = cli::parse_under(*facts, out["output"].get<std::string>(), "output");
  Result<Expr> expected = cli::parse_under(*facts, c["expected"].get<std::string>(), "expected");
  ASSERT_TRUE(input.ok() && output.ok() && expected.ok());
  EXPECT_EQ(output->dtype(), input->dtype());

  // (a) equal to the input
  int checked = 0;
  const std::string diff = find_difference(*input, *output, *facts, seed, checked);
  EXPECT_EQ(diff, "") << "UNEQUAL OUTPUT " << print(*output);
  EXPECT_GT(checked, 0) << "no assignment satisfied the assumptions: the case tests nothing";

  // (b) no larger than expected
  const std::size_t size = output->tree_size(), target = expected->tree_size();
  if (size <= target) {
    ++report.as_small;
    if (kKnownMissed.contains(id)) {
      std::cout << "  " << id << " is listed as known missed but now reaches expected: remove it from the list\n";
    }
  } else if (auto known = kKnownMissed.find(id); known != kKnownMissed.end()) {
    report.known_missed.push_back(id + ": " + print(*output) + " (expected " + c["expected"].get<std::string>() + "; " +
                                  known->second + ")");
  } else {
    ADD_FAILURE() << "output " << print(*output) << " (" << size << " nodes) is larger than expected "
                  << c["expected"].get<std::string>() << " (" << target << " nodes)";
  }

  // (c) idempotent
  if (again) {
    EXPECT_EQ(again->value("output", ""), out["output"].get<std::string>()) << "not idempotent";
  }

  // (d) a trap keeps at least what expected keeps
  if (trap) {
    EXPECT_GE(size, target) << "trap folded to " << print(*output) << ", smaller than expected "
                            << c["expected"].get<std::string>()
                            << ": if (a) found it equal, it is a sound improvement; update expected";
  }
}

// Runs one corpus file through `eqsat batch` and checks (a) to (d) on every case.
FileReport check_corpus_file(const std::filesystem::path& path, std::set<std::string>& ids) {
  SCOPED_TRACE(path.filename().string());
  FileReport report;
  const bool traps = path.filename() == kTrapFile;
  const std::vector<Json> cases = json_lines(read_file(path));
  const ToolRun run = run_eqsat({"batch", path.string()});
  EXPECT_EQ(run.status, 0) << run.err;
  const std::vector<Json> outputs = json_lines(run.out);
  EXPECT_EQ(outputs.size(), cases.size());
  if (outputs.size() != cases.size()) return report;

  // (c) The outputs, as cases of their own, through batch once more.
  TempDir dir;
  std::string second_input;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    Json again = cases[i];
    if (outputs[i].contains("output")) again["input"] = outputs[i]["output"];
    second_input += cli::format_json(again) + "\n";
  }
  const ToolRun rerun = run_eqsat({"batch", dir.write("again.jsonl", second_input)});
  const std::vector<Json> reoutputs = json_lines(rerun.out);
  EXPECT_EQ(reoutputs.size(), cases.size());

  for (std::size_t i = 0; i < cases.size(); ++i) {
    EXPECT_TRUE(ids.insert(cases[i].value("id", "")).second) << "duplicate id " << cases[i].value("id", "");
    const Json* again = i < reoutputs.size() ? &reoutputs[i] : nullptr;
    check_case(cases[i], outputs[i], again, traps, 1000 + i, report);
  }
  return report;
}

// The equality check (a) on folds known to be wrong, and on their right versions: it
// must tell them apart, or the corpus test could pass on a miscompile.
TEST(ProjectCorpus, TheEqualityCheckCatchesWrongFolds) {
  struct Fold {
    const char* case_json;  // the case, with the fold under test as "output"
    bool equal;
  };
  const Fold folds[] = {
      {R"~({"vars": {"x": "INT32"}, "input": "x + 1 > x", "output": "True"})~", false},
      {R"~({"vars": {"x": "INT32"}, "input": "(x + 1) - 1", "output": "x"})~", true},
      {R"~({"vars": {"x": "FP32"}, "input": "x + 0.0", "output": "x"})~", false},
      {R"~({"vars": {"x": "FP32"}, "input": "x * 0.0", "output": "0.0"})~", false},
      {R"~({"vars": {"x": "FP32"}, "input": "x == x", "output": "True"})~", false},
      {R"~({"vars": {"x": "FP32"}, "input": "x * 1.0", "output": "x"})~", true},
      {R"~({"input": "max(x, 0)", "output": "x"})~", false},
      {R"~({"bounds": {"x": [0, null]}, "input": "max(x, 0)", "output": "x"})~", true},
      {R"~({"input": "truncdiv(x, 4)", "output": "x // 4"})~", false},
      {R"~({"input": "x // x", "output": "1"})~", true},  // undefined at 0: any output
      {R"~({"input": "select(y != 0, x // y, 0)", "output": "x // y"})~", false},
      {R"~({"vars": {"x": "INT64"}, "input": "cast(cast(x, INT8), INT64)", "output": "x"})~", false},
      {R"~({"vars": {"x": "UINT32"}, "input": "x - 1 < x", "output": "True"})~", false},
      {R"~({"bounds": {"i": [-2, 2]}, "assume": ["i % 4 == 2"], "input": "i + 2 == 0", "output": "False"})~", false},
      {R"~({"bounds": {"i": [0, 2]}, "assume": ["i % 4 == 2"], "input": "i + 2 == 0", "output": "False"})~", true},
      {R"~({"vars": {"x": "INT64"}, "bounds": {"x": [0, 10]}, "input": "x * 4611686018427387904 == 0",
           "output": "x == 0"})~",
       false},
  };
  for (const Fold& fold : folds) {
    const Json c = Json::parse(fold.case_json);
    SCOPED_TRACE(c.dump());
    Result<Facts> facts = cli::facts_from_json(c);
    ASSERT_TRUE(facts.ok());
    Result<Expr> input = cli::parse_under(*facts, c["input"].get<std::string>(), "input");
    Result<Expr> output = cli::parse_under(*facts, c["output"].get<std::string>(), "output");
    ASSERT_TRUE(input.ok() && output.ok());
    int checked = 0;
    const std::string diff = find_difference(*input, *output, *facts, 1, checked);
    EXPECT_EQ(diff.empty(), fold.equal) << diff;
    EXPECT_GT(checked, 0);
  }
}

TEST(ProjectCorpus, EveryCaseIsEqualNoLargerThanExpectedAndIdempotent) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(kCorpusDir)) {
    if (entry.path().extension() == ".jsonl") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  ASSERT_FALSE(files.empty()) << kCorpusDir;

  std::set<std::string> ids;
  int cases = 0, as_small = 0, traps = 0;
  std::vector<std::string> known_missed;
  for (const std::filesystem::path& file : files) {
    const FileReport report = check_corpus_file(file, ids);
    std::cout << file.filename().string() << ": " << report.as_small << "/" << report.cases
              << " as small as expected\n";
    cases += report.cases;
    as_small += report.as_small;
    if (file.filename() == kTrapFile) traps = report.cases;
    known_missed.insert(known_missed.end(), report.known_missed.begin(), report.known_missed.end());
  }
  std::cout << "project corpus: " << as_small << "/" << cases << " as small as expected, " << known_missed.size()
            << " known missed\n";
  for (const std::string& miss : known_missed) std::cout << "  known missed: " << miss << "\n";
  // The corpus's own promises (docs/corpus.md).
  EXPECT_GE(cases, 400);
  EXPECT_GE(traps, 60);
  EXPECT_LE(known_missed.size(), kKnownMissed.size());
}

}  // namespace
}  // namespace eqsat::testing
