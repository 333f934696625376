// `eqsat batch`, run as a user runs it: the spec's example, one output line per input
// line whatever the line holds, errors that name their position, files and stdin.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rules/rule.h"
#include "tests/tools/run_eqsat.h"

namespace eqsat::testing {
namespace {

// The example of shared/spec/expressions.md, input and output, verbatim.
const std::string kSpecInput =
    R"~({"id": "a1", "bounds": {"i": [0, 7]}, "input": "select(i < 16, i + 0, 3)"}
{"id": "a2", "vars": {"x": "INT32"}, "input": "(x + 1) - 1"}
{"id": "a3", "vars": {"x": "FP32"}, "input": "x + 0.0"}
)~";
const std::string kSpecOutput =
    R"~({"id": "a1", "bounds": {"i": [0, 7]}, "input": "select(i < 16, i + 0, 3)", "output": "i", "cost": 1}
{"id": "a2", "vars": {"x": "INT32"}, "input": "(x + 1) - 1", "output": "x", "cost": 1}
{"id": "a3", "vars": {"x": "FP32"}, "input": "x + 0.0", "output": "x + 0.0", "cost": 3}
)~";

TEST(Batch, SpecExampleGivesTheSpecOutput) {
  TempDir dir;
  ToolRun run = run_eqsat({"batch", dir.write("in.jsonl", kSpecInput)});
  ASSERT_EQ(run.status, 0) << run.err;
  std::vector<Json> got = json_lines(run.out);
  std::vector<Json> want = json_lines(kSpecOutput);
  ASSERT_EQ(got.size(), want.size()) << run.out;
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i], want[i]) << "line " << i + 1;
    EXPECT_EQ(keys_of(got[i]), keys_of(want[i])) << "member order, line " << i + 1;
  }
  // The layout too: ", " between members and ": " after keys, like the spec.
  EXPECT_EQ(run.out, kSpecOutput);
  EXPECT_EQ(run.err, "");
}

// Fuzz case 2969 of seed 38001: its assumptions have no model (x >= 11, y <= 6 and
// x < y), and the interval analysis narrowed a cycle of classes a step at a time,
// never settling: the run took 21 GB and two minutes before the analysis was bounded
// (egraph/egraph.cpp, EGraph::rebuild). Now it ends at once; with no model, any output
// is equal to the input, and Z3 proves it so.
TEST(Batch, AssumptionsWithNoModelDoNotKeepTheAnalysisNarrowing) {
  const std::string line =
      R"~({"id": "fuzz-seed38001-case2969", "vars": {"b_int32": "INT32", "c_int32": "INT32", "q": "BOOL"}, )~"
      R"~("bounds": {"b_int32": [7, 28], "c_int32": [-5, -5], "x": [11, null], "y": [null, 6], "z": [8, 21]}, )~"
      R"~("assume": ["x < y", "z != 0"], "input": "min(-(max(select(z % 1 >= -34 + 0, x // -y, y + x + (x + 8)), )~"
      R"~(x) % 2), truncdiv(select(not select(not True, x - 0, z) > 0, abs(cast(b_int32, INDEX) + (x + 16)), )~"
      R"~(cast(truncmod(7 - b_int32, 4) + max(c_int32, abs(8)), INDEX)), select(x + y != min(y, x) or (not q or )~"
      R"~(x < 6), x, z) + min(select(not z == 3, max(y, z + x), y - z + truncmod(x, -5)), -15)))"})~"
      "\n";
  ToolRun run = run_eqsat({"batch", "--verify", "-"}, line);
  ASSERT_EQ(run.status, 0) << run.err;
  std::vector<Json> got = json_lines(run.out);
  ASSERT_EQ(got.size(), 1u) << run.out;
  EXPECT_TRUE(got[0].contains("output")) << run.out;
  EXPECT_EQ(got[0]["verified"], "proved") << run.out;
}

TEST(Batch, ReadsStdinGivenDash) {
  ToolRun run = run_eqsat({"batch", "-"}, kSpecInput);
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out, kSpecOutput);
}

TEST(Batch, WritesTheOutputFileGivenDashO) {
  TempDir dir;
  ToolRun run = run_eqsat({"batch", dir.write("in.jsonl", kSpecInput), "-o", dir.path("out.jsonl")});
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(dir.read("out.jsonl"), kSpecOutput);
}

TEST(Batch, RefusesToOverwriteItsInput) {
  TempDir dir;
  const std::string in = dir.write("in.jsonl", kSpecInput);
  ToolRun run = run_eqsat({"batch", in, "-o", in});
  EXPECT_EQ(run.status, 1);
  EXPECT_TRUE(Contains(run.err, "is the input file"));
  EXPECT_EQ(dir.read("in.jsonl"), kSpecInput);
}

TEST(Batch, MissingFileIsAnErrorNamingIt) {
  TempDir dir;
  ToolRun run = run_eqsat({"batch", dir.path("no-such.jsonl")});
  EXPECT_NE(run.status, 0);
  EXPECT_EQ(run.out, "");
  EXPECT_TRUE(Contains(run.err, "no-such.jsonl"));
  EXPECT_TRUE(Contains(run.err, "No such file"));
}

TEST(Batch, DirectoryIsAnErrorNamingIt) {
  TempDir dir;
  ToolRun run = run_eqsat({"batch", dir.path("")});
  EXPECT_EQ(run.status, 1);
  EXPECT_TRUE(Contains(run.err, "is a directory"));
}

// Every kind of bad line still gets exactly one output line, in order, and the run
// goes on to the good case at the end.
struct BadLine {
  std::string line;
  std::string error;  // expected to be a substring of the output's "error"
  bool keeps_fields;  // the input's members are echoed (a JSON object case)
};

const std::vector<BadLine> kBadLines = {
    {R"~({"id": "j1", "input": })~", "line 1: invalid JSON: column 23: syntax error", false},
    {"[1, 2]", "line 2: expected a JSON object, got an array", false},
    {R"("x + 0")", "line 3: expected a JSON object, got a string", false},
    {"", "line 4: blank line", false},
    {"   \t ", "line 5: blank line", false},
    {R"~({"id": "m1"})~", "input: missing", true},
    {R"~({"id": "m2", "input": 7})~", "input: expected a string", true},
    {R"~({"id": "v1", "vars": {"x": "INT7"}, "input": "x"})~", "vars: unknown dtype 'INT7' for 'x'", true},
    {R"~({"id": "v2", "vars": {"x": 32}, "input": "x"})~", "vars: the dtype of 'x' must be a string", true},
    {R"~({"id": "v3", "vars": ["x"], "input": "x"})~", "vars: expected an object", true},
    {R"~({"id": "b1", "bounds": {"x": [0]}, "input": "x"})~", "bounds: 'x' must be [lo, hi] with integers or null",
     true},
    {R"~({"id": "b2", "bounds": {"x": [0, 7.5]}, "input": "x"})~", "bounds: 'x' must be [lo, hi]", true},
    {R"~({"id": "b3", "bounds": {"x": "0:7"}, "input": "x"})~", "bounds: 'x' must be [lo, hi]", true},
    {R"~({"id": "b4", "bounds": {"x": [7, 0]}, "input": "x"})~", "bounds: 'x' has an empty range: 7 > 0", true},
    {R"~({"id": "b5", "vars": {"f": "FP32"}, "bounds": {"f": [0, 1]}, "input": "f"})~",
     "bounds: 'f' is FP32; bounds apply to integer variables only", true},
    {R"~({"id": "u1", "input": "foo(x) + 1"})~", "input: column 1: ", true},
    {R"~({"id": "u2", "input": "pl.x + 1"})~", "input: column 1: unknown name 'pl.x'", true},
    {R"~({"id": "s1", "input": "(x + 1"})~", "input: column 7: ", true},
    {R"~({"id": "s2", "input": "x + * 2"})~", "input: column 5: ", true},
    {R"~({"id": "t1", "vars": {"p": "BOOL"}, "input": "p + 1"})~", "input: column 3: ", true},
    {R"~({"id": "a1", "assume": ["x + 1"], "input": "x"})~", "assume[0]: expected a BOOL condition, got INDEX", true},
    {R"~({"id": "a2", "assume": ["x > 0", "x <"], "input": "x"})~", "assume[1]: column 4: ", true},
    {R"~({"id": "a3", "assume": "x > 0", "input": "x"})~", "assume: expected a list of BOOL expressions", true},
    {R"~({"id": "a4", "assume": [3], "input": "x"})~", "assume[0]: expected a string", true},
};

TEST(Batch, EveryBadLineGetsOneErrorLineAndTheRunGoesOn) {
  std::string input;
  for (const BadLine& bad : kBadLines) input += bad.line + "\n";
  input += R"~({"id": "ok", "input": "(x + 0) * 1"})~"
           "\n";
  TempDir dir;
  ToolRun run = run_eqsat({"batch", dir.write("in.jsonl", input)});
  ASSERT_EQ(run.status, 0) << run.err;
  std::vector<Json> got = json_lines(run.out);
  ASSERT_EQ(got.size(), kBadLines.size() + 1) << run.out;
  for (std::size_t i = 0; i < kBadLines.size(); ++i) {
    const BadLine& bad = kBadLines[i];
    SCOPED_TRACE("line " + std::to_string(i + 1) + ": " + bad.line);
    ASSERT_TRUE(got[i].is_object()) << got[i];
    ASSERT_TRUE(got[i].contains("error")) << got[i];
    EXPECT_TRUE(Contains(got[i]["error"].get<std::string>(), bad.error));
    EXPECT_FALSE(got[i].contains("output"));
    EXPECT_FALSE(got[i].contains("cost"));
    if (bad.keeps_fields) {
      // Every input member, unchanged and in order, then the error.
      Json expected = Json::parse(bad.line);
      expected["error"] = got[i]["error"];
      EXPECT_EQ(got[i], expected);
      EXPECT_EQ(keys_of(got[i]), keys_of(expected));
    } else {
      EXPECT_EQ(keys_of(got[i]), std::vector<std::string>{"error"});
    }
  }
  EXPECT_EQ(got.back()["output"], "x");
  EXPECT_EQ(got.back()["cost"], 1);
}

TEST(Batch, LastLineWithoutNewlineAndCrLfEndings) {
  ToolRun run = run_eqsat({"batch", "-"}, "{\"input\": \"x + 0\"}\r\n{\"input\": \"0 + x\"}");
  ASSERT_EQ(run.status, 0) << run.err;
  std::vector<Json> got = json_lines(run.out);
  ASSERT_EQ(got.size(), 2u) << run.out;
  EXPECT_EQ(got[0]["output"], "x");
  EXPECT_EQ(got[1]["output"], "x");
}

TEST(Batch, EmptyInputGivesEmptyOutput) {
  ToolRun run = run_eqsat({"batch", "-"}, "");
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out, "");
}

TEST(Batch, PassesEveryOtherFieldThroughInOrder) {
  const std::string line =
      R"~({"note": "kept", "input": "x * 1", "extra": {"nested": [1, null, "two"]}, "id": 3, "expected": "x"})~";
  ToolRun run = run_eqsat({"batch", "-"}, line + "\n");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out, line.substr(0, line.size() - 1) + R"~(, "output": "x", "cost": 1})~"
                                                       "\n");
}

TEST(Batch, ResultsOfAnEarlierRunAreReplaced) {
  // Re-running a batch on its own output gives the same shape, not stale members.
  const std::string line = R"~({"id": "r", "input": "x + 0", "output": "stale", "error": "stale", "cost": 99})~";
  ToolRun run = run_eqsat({"batch", "-"}, line + "\n");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out, R"~({"id": "r", "input": "x + 0", "output": "x", "cost": 1})~"
                     "\n");
}

TEST(Batch, BoundsMayExceedInt64AndBeOpen) {
  const std::string input =
      R"~({"id": "big", "bounds": {"i": [0, 18446744073709551615]}, "input": "i >= 0"})~"
      "\n"
      R"~({"id": "neg", "bounds": {"i": [-9223372036854775808, -1]}, "input": "i < 0"})~"
      "\n"
      R"~({"id": "open", "bounds": {"i": [null, -1], "j": [0, null], "k": [null, null]}, "input": "i < 0"})~"
      "\n";
  ToolRun run = run_eqsat({"batch", "-"}, input);
  ASSERT_EQ(run.status, 0) << run.err;
  std::vector<Json> got = json_lines(run.out);
  ASSERT_EQ(got.size(), 3u);
  for (const Json& result : got) {
    EXPECT_FALSE(result.contains("error")) << result;
    EXPECT_EQ(result["output"], "True") << result;
  }
}

TEST(Batch, AssumptionsAreUsed) {
  ToolRun run = run_eqsat({"batch", "-"}, R"~({"assume": ["n > 8"], "input": "select(n > 4, 1, 0)"})~"
                                          "\n");
  ASSERT_EQ(run.status, 0) << run.err;
  std::vector<Json> got = json_lines(run.out);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0]["output"], "1") << got[0];
}

TEST(Batch, ReportAddsTheRunnerReport) {
  // A fold the rules make (min(x, x) would be folded by the min/max normal form
  // before any rule runs).
  ToolRun run = run_eqsat({"batch", "-", "--report"}, R"~({"id": "r", "input": "not (not (x < y))"})~"
                                                      "\n");
  ASSERT_EQ(run.status, 0) << run.err;
  std::vector<Json> got = json_lines(run.out);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(keys_of(got[0]), (std::vector<std::string>{"id", "input", "output", "cost", "report"}));
  const Json& report = got[0]["report"];
  ASSERT_TRUE(report.is_object()) << got[0];
  EXPECT_EQ(report["stop_reason"], "saturated");
  EXPECT_GE(report["iterations"].get<int>(), 1);
  EXPECT_GE(report["nodes"].get<int>(), 1);
  EXPECT_GE(report["classes"].get<int>(), 1);
  ASSERT_TRUE(report["rule_fires"].is_object());
  EXPECT_FALSE(report["rule_fires"].empty());
}

TEST(Batch, LimitsAreAppliedAndStillGiveAnAnswer) {
  ToolRun run = run_eqsat({"batch", "-", "--iter-limit", "0", "--report"}, R"~({"input": "(x + 0) * 1"})~"
                                                                           "\n");
  ASSERT_EQ(run.status, 0) << run.err;
  std::vector<Json> got = json_lines(run.out);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0]["report"]["iterations"], 0) << got[0];
  EXPECT_EQ(got[0]["output"], "(x + 0) * 1") << got[0];
  EXPECT_EQ(got[0]["cost"], 5);

  run = run_eqsat({"batch", "-", "--node-limit", "1", "--time-limit", "0.5"}, R"~({"input": "(x + 0) * 1"})~"
                                                                              "\n");
  ASSERT_EQ(run.status, 0) << run.err;
  got = json_lines(run.out);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_TRUE(got[0].contains("output")) << got[0];
}

TEST(Batch, CostProfileFromFile) {
  TempDir dir;
  const std::string profile = dir.write("costs.json", R"~({"name": "dear-add", "ops": {"add": 10}})~");
  ToolRun run = run_eqsat({"batch", "-", "--costs", profile}, R"~({"input": "x + 1"})~"
                                                              "\n");
  ASSERT_EQ(run.status, 0) << run.err;
  std::vector<Json> got = json_lines(run.out);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0]["cost"], 12) << got[0];
}

TEST(Batch, BadCostProfileIsFatalAndNamesTheFile) {
  TempDir dir;
  const std::string bad = dir.write("bad-costs.json", R"~({"ops": {"frobnicate": 3}})~");
  ToolRun run = run_eqsat({"batch", "-", "--costs", bad}, R"~({"input": "x"})~"
                                                          "\n");
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.out, "");
  EXPECT_TRUE(Contains(run.err, "eqsat: error: "));
  EXPECT_TRUE(Contains(run.err, "bad-costs.json"));
  EXPECT_TRUE(Contains(run.err, "frobnicate"));

  run = run_eqsat({"batch", "-", "--costs", dir.path("missing-costs.json")}, R"~({"input": "x"})~"
                                                                             "\n");
  EXPECT_EQ(run.status, 1);
  EXPECT_TRUE(Contains(run.err, "missing-costs.json"));
}

const char kAddZeroRule[] =
    "# x + 0 is x.\n"
    "cli-test-add-zero [index]: x + 0 => x\n";

// Proves a rule file with Z3 and writes its lock, the way a rule author does before
// running their rules: `eqsat verify-rules FILE --write-lock --lock LOCK`.
std::string prove_into_lock(TempDir& dir, const std::string& rules) {
  const std::string lock = dir.path("my.lock");
  ToolRun proof = run_eqsat({"verify-rules", rules, "--no-progress", "--write-lock", "--lock", lock});
  EXPECT_EQ(proof.status, 0) << proof.out << proof.err;
  return lock;
}

TEST(Batch, RulesFromAFileRunOnlyWhenALockProvesThem) {
  TempDir dir;
  const std::string rules = dir.write("add-zero.rules", kAddZeroRule);
  ToolRun refused = run_eqsat({"batch", "-", "--rules", rules}, R"~({"input": "x + 0"})~"
                                                                "\n");
  EXPECT_EQ(refused.status, 1);
  EXPECT_TRUE(Contains(refused.err, "'cli-test-add-zero' (INDEX)")) << refused.err;
  EXPECT_TRUE(Contains(refused.err, "--allow-unproved-rules")) << refused.err;

  const std::string lock = prove_into_lock(dir, rules);
  ToolRun accepted = run_eqsat({"batch", "-", "--rules", rules, "--rule-lock", lock}, R"~({"input": "x + 0"})~"
                                                                                      "\n");
  EXPECT_EQ(accepted.status, 0) << accepted.err;
  ToolRun developing = run_eqsat({"batch", "-", "--rules", rules, "--allow-unproved-rules"}, R"~({"input": "x + 0"})~"
                                                                                             "\n");
  EXPECT_EQ(developing.status, 0) << developing.err;
}

TEST(Batch, RulesReplaceTheCatalogue) {
  TempDir dir;
  const std::string rules = dir.write("add-zero.rules", kAddZeroRule);
  const std::string lock = prove_into_lock(dir, rules);
  ToolRun run = run_eqsat({"batch", "-", "--rules", rules, "--rule-lock", lock}, R"~({"input": "x + 0"})~"
                                                                                 "\n"
                                                                                 R"~({"input": "x * 1"})~"
                                                                                 "\n");
  ASSERT_EQ(run.status, 0) << run.err;
  std::vector<Json> got = json_lines(run.out);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0]["output"], "x");
  EXPECT_EQ(got[1]["output"], "x * 1");  // the catalogue's rule for it is not in force
}

TEST(Batch, AddRulesExtendTheCatalogue) {
  TempDir dir;
  const std::string rules = dir.write("add-zero.rules", kAddZeroRule);
  ToolRun run =
      run_eqsat({"batch", "-", "--add-rules", rules, "--allow-unproved-rules"}, R"~({"input": "(x + 0) * 1"})~"
                                                                                "\n");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(json_lines(run.out).at(0)["output"], "x");

  // A name the catalogue already uses is refused.
  ASSERT_FALSE(builtin_rules().rules.empty());
  const std::string& taken = builtin_rules().rules.front().name;
  const std::string clash = dir.write("clash.rules", taken + " [index]: x + 0 => x\n");
  run = run_eqsat({"batch", "-", "--add-rules", clash}, R"~({"input": "x"})~"
                                                        "\n");
  EXPECT_EQ(run.status, 1);
  EXPECT_TRUE(Contains(run.err, "clash.rules"));
  EXPECT_TRUE(Contains(run.err, taken));
}

TEST(Batch, BadRuleFileIsFatalAndNamesTheFile) {
  TempDir dir;
  ToolRun run = run_eqsat({"batch", "-", "--rules", dir.path("missing.rules")}, "");
  EXPECT_EQ(run.status, 1);
  EXPECT_TRUE(Contains(run.err, "missing.rules"));

  const std::string broken = dir.write("broken.rules", "oops [index]: x + => x\n");
  run = run_eqsat({"batch", "-", "--rules", broken}, "");
  EXPECT_EQ(run.status, 1);
  EXPECT_TRUE(Contains(run.err, "broken.rules:1"));
}

TEST(Batch, FlagAfterRulesDoesNotSwallowTheInput) {
  TempDir dir;
  const std::string rules = dir.write("add-zero.rules", kAddZeroRule);
  const std::string in = dir.write("in.jsonl", R"~({"input": "x + 0"})~"
                                               "\n");
  ToolRun run = run_eqsat({"batch", "--rules", rules, "--allow-unproved-rules", in});
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(json_lines(run.out).at(0)["output"], "x");
}

}  // namespace
}  // namespace eqsat::testing
