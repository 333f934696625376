// `--verify` on `batch` and `simplify-expr`: every result proved equal to its input by
// Z3 under the case's facts. The wrong results come from tests/verify/wrong.rules, run
// with --allow-unproved-rules, as a rule author's bug would.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/tools/run_eqsat.h"

namespace eqsat::testing {
namespace {

const std::string kWrongRules = EQSAT_SOURCE_DIR "/tests/verify/wrong.rules";

std::vector<std::string> with_wrong_rules(std::vector<std::string> args) {
  for (const char* arg : {"--rules", kWrongRules.c_str(), "--allow-unproved-rules"}) args.push_back(arg);
  return args;
}

TEST(VerifyFlag, BatchMarksEveryProvedResult) {
  ToolRun run = run_eqsat({"batch", "-", "--verify"},
                          R"~({"id": "a1", "bounds": {"i": [0, 7]}, "input": "select(i < 16, i + 0, 3)"}
{"id": "a2", "input": "x // 4 * 4 + x % 4"}
{"id": "a3", "vars": {"x": "FP32"}, "input": "x + 0.0"}
)~");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.err, "");
  std::vector<Json> lines = json_lines(run.out);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0]["output"], "i");
  EXPECT_EQ(lines[1]["output"], "x");
  EXPECT_EQ(lines[2]["output"], "x + 0.0");  // unchanged: proved without Z3
  for (const Json& line : lines) EXPECT_EQ(line["verified"], "proved") << line;
  // `verified` comes last, after the spec's members.
  EXPECT_EQ(keys_of(lines[0]), (std::vector<std::string>{"id", "bounds", "input", "output", "cost", "verified"}));
}

// Cases the fuzzer found wrong (`eqsat fuzz --seed 35001 --max-depth 6`, case 3917,
// minimized): a branch's condition substituted into a divisor of the other branch made
// it undefined where a select computing both branches was defined
// (passes/condition_context.h). Each result now proves equal to its input.
TEST(VerifyFlag, FuzzFindingsProveEqual) {
  ToolRun run = run_eqsat(
      {"batch", "-", "--verify"},
      R"~({"id": "fuzz-seed35001-case3917", "vars": {"q": "BOOL"}, "input": "select(q, 0, 1 % select(q, 1, x))"}
{"id": "chain", "vars": {"q": "BOOL"}, "input": "(not q) and (1 % select(q, 1, x) == 0)"}
)~");
  ASSERT_EQ(run.status, 0) << run.err;
  std::vector<Json> lines = json_lines(run.out);
  ASSERT_EQ(lines.size(), 2u);
  for (const Json& line : lines) EXPECT_EQ(line["verified"], "proved") << line;
}

// Under nnan or ninf a NaN or an infinity is poison, so float arithmetic and float
// variables may be undefined (ir/definedness.h). `eqsat fuzz --seed 35003 --max-depth 5
// --fast-math all` found both: the first became `h > 0.0 and p`, undefined at h = NaN,
// p = False (the lazy reading); the second `select(q, 0.0, const(-inf, BF16))`, whose
// else branch a strict select computes at q = True.
TEST(VerifyFlag, FastMathFuzzFindingsProveEqual) {
  ToolRun run = run_eqsat(
      {"batch", "-", "--verify"},
      R"~({"id": "fuzz-seed35003-case499", "vars": {"h": "FP32", "p": "BOOL"}, "fast_math": ["nsz", "nnan", "ninf"], "input": "p and h + -0.0 > 0.0"}
{"id": "fuzz-seed35003-case1984", "vars": {"q": "BOOL"}, "fast_math": ["ninf"], "input": "select(q, const(0.0, BF16), 1.0 / select(q, 1.0, -0.0))"}
)~");
  ASSERT_EQ(run.status, 0) << run.err;
  std::vector<Json> lines = json_lines(run.out);
  ASSERT_EQ(lines.size(), 2u);
  for (const Json& line : lines) EXPECT_EQ(line["verified"], "proved") << line;
  EXPECT_EQ(lines[0]["output"], "p and h > 0.0");
}

TEST(VerifyFlag, BatchWithholdsAnUnequalOutputAndNamesTheCase) {
  ToolRun run = run_eqsat(with_wrong_rules({"batch", "-", "--verify"}),
                          R"~({"id": "fine", "vars": {"x": "INT32"}, "input": "x + 1"}
{"id": "wraps", "vars": {"x": "INT32"}, "input": "x + 1 > x"}
{"id": "signed-zero", "vars": {"x": "FP32"}, "input": "x + 0.0"}
)~");
  EXPECT_EQ(run.status, 1);
  std::vector<Json> lines = json_lines(run.out);
  ASSERT_EQ(lines.size(), 3u);  // every line still answered, in order
  EXPECT_EQ(lines[0]["verified"], "proved");
  EXPECT_FALSE(lines[1].contains("output"));
  EXPECT_EQ(lines[1]["error"],
            "verify: the output 'True' is not equal to the input: x = 2147483647 (INT32): input = False, "
            "output = True");
  EXPECT_EQ(lines[2]["error"],
            "verify: the output 'x' is not equal to the input: x = -0.0 (FP32): input = 0.0, output = -0.0");
  EXPECT_TRUE(Contains(run.err, "eqsat: error: line 2 (id \"wraps\"): verify: the output 'True'"));
  EXPECT_TRUE(Contains(run.err, "eqsat: error: line 3 (id \"signed-zero\"): verify: the output 'x'"));
}

TEST(VerifyFlag, WithoutTheFlagAWrongRuleGoesUnnoticed) {
  // What --verify is for: the same run without it exits 0 with the wrong output.
  ToolRun run = run_eqsat(with_wrong_rules({"batch", "-"}), R"~({"vars": {"x": "INT32"}, "input": "x + 1 > x"})~");
  EXPECT_EQ(run.status, 0);
  EXPECT_EQ(json_lines(run.out).at(0)["output"], "True");
}

TEST(VerifyFlag, BoundsAndAssumptionsAreInForce) {
  // max(i, 0) is i only because of the bound; the proof must use it.
  ToolRun run = run_eqsat({"batch", "-", "--verify"},
                          R"~({"bounds": {"i": [0, null]}, "input": "max(i, 0)"}
{"assume": ["n > 8", "i < n"], "input": "select(i < n, i, n)"}
)~");
  ASSERT_EQ(run.status, 0) << run.err;
  for (const Json& line : json_lines(run.out)) {
    EXPECT_EQ(line["output"], "i") << line;
    EXPECT_EQ(line["verified"], "proved") << line;
  }
}

TEST(VerifyFlag, SimplifyExprPrintsOnlyProvedResults) {
  ToolRun proved = run_eqsat({"simplify-expr", "--verify", "x * 2 - x"});
  EXPECT_EQ(proved.status, 0) << proved.err;
  EXPECT_EQ(proved.out, "x\n");
  EXPECT_EQ(proved.err, "");

  ToolRun wrong = run_eqsat(with_wrong_rules({"simplify-expr", "--verify", "--var", "x:INT32", "x + 1 > x"}));
  EXPECT_EQ(wrong.status, 1);
  EXPECT_EQ(wrong.out, "");  // never print a result known to be wrong
  EXPECT_EQ(wrong.err,
            "eqsat: error: verify: the output 'True' is not equal to EXPR: x = 2147483647 (INT32): input = "
            "False, output = True\n");
}

TEST(VerifyFlag, SimplifyExprReportSaysHowItWasVerified) {
  ToolRun run = run_eqsat({"simplify-expr", "--verify", "--report", "--bound", "i=0:7", "i % 8"});
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out, "i\n");
  EXPECT_EQ(json_lines(run.err).at(0)["verified"], "proved");
}

TEST(VerifyFlag, TimeoutMustBePositive) {
  ToolRun run = run_eqsat({"simplify-expr", "--verify", "--verify-timeout", "0", "x"});
  EXPECT_EQ(run.status, 2);
  EXPECT_TRUE(Contains(run.err, "--verify-timeout"));
}

}  // namespace
}  // namespace eqsat::testing
