// Fast-math flags on the command line: --fast-math on every simplifying command, the
// batch case's "fast_math" member, the function attribute in `eqsat simplify`, and the
// checks (--verify, fuzz) under the same flags.
#include <gtest/gtest.h>

#include "tests/tools/run_eqsat.h"
#include "tools/engine.h"
#include "tools/facts_input.h"
#include "tools/fuzz.h"

namespace eqsat::testing {
namespace {

TEST(FastMathFlag, SimplifyExprFoldsOnlyWithTheFlag) {
  ToolRun strict = run_eqsat({"simplify-expr", "--var", "x:FP32", "x + 0.0"});
  EXPECT_EQ(strict.status, 0) << strict.err;
  EXPECT_EQ(strict.out, "x + 0.0\n");
  ToolRun relaxed = run_eqsat({"simplify-expr", "--var", "x:FP32", "--fast-math", "nsz", "--verify", "x + 0.0"});
  EXPECT_EQ(relaxed.status, 0) << relaxed.err;
  EXPECT_EQ(relaxed.out, "x\n");
  EXPECT_EQ(relaxed.err, "");  // proved under nsz: no warning
  ToolRun all = run_eqsat({"simplify-expr", "--var", "x:FP64", "--fast-math", "all", "x * 0.0 + (x - x)"});
  EXPECT_EQ(all.out, "const(0.0, FP64)\n");
}

TEST(FastMathFlag, UnknownFlagIsAnError) {
  ToolRun run = run_eqsat({"simplify-expr", "--fast-math", "nsz,fast", "x + 0"});
  EXPECT_EQ(run.status, 2);  // a usage error, like every bad flag value
  EXPECT_TRUE(Contains(run.err, "unknown fast-math flag 'fast' (expected nsz, nnan, ninf, reassoc, all or none)"));
}

TEST(FastMathFlag, BatchCaseGrantsItsOwnFlags) {
  const std::string input =
      R"~({"id": "strict", "vars": {"x": "FP32"}, "input": "x + 0.0"}
{"id": "nsz", "vars": {"x": "FP32"}, "fast_math": ["nsz"], "input": "x + 0.0"}
{"id": "nnan", "vars": {"x": "FP32"}, "fast_math": ["nnan"], "input": "x == x"}
{"id": "bad", "vars": {"x": "FP32"}, "fast_math": ["nsz", "fast"], "input": "x + 0.0"}
{"id": "not-array", "vars": {"x": "FP32"}, "fast_math": "nsz", "input": "x + 0.0"}
)~";
  ToolRun run = run_eqsat({"batch", "-", "--verify"}, input);
  EXPECT_EQ(run.status, 0) << run.err;
  const std::vector<Json> out = json_lines(run.out);
  ASSERT_EQ(out.size(), 5u) << run.out;
  EXPECT_EQ(out[0]["output"], "x + 0.0");
  EXPECT_EQ(out[1]["output"], "x");
  EXPECT_EQ(out[1]["verified"], "proved");               // under the case's nsz
  EXPECT_EQ(out[1]["fast_math"], Json::array({"nsz"}));  // kept, like every input member
  EXPECT_EQ(out[2]["output"], "True");
  EXPECT_EQ(out[3]["error"],
            "fast_math[1]: unknown fast-math flag 'fast' (expected nsz, nnan, ninf, reassoc, all or none)");
  EXPECT_EQ(out[4]["error"], "fast_math: expected an array of flag names, such as [\"nsz\", \"nnan\"]");
}

TEST(FastMathFlag, RunFlagsAddToTheCaseFlags) {
  ToolRun run = run_eqsat({"batch", "-", "--fast-math", "nsz"},
                          R"~({"vars": {"x": "FP32"}, "fast_math": ["nnan"], "input": "x * 0.0"})~"
                          "\n");
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(json_lines(run.out)[0]["output"], "0.0");
}

const char* const kTwoFunctions =
    "@fast_math(nsz)\n"
    "def relaxed(x: Tensor[[64], FP32]) -> Tensor[[64], FP32]:\n"
    "    return x + 0\n"
    "def strict(x: Tensor[[64], FP32]) -> Tensor[[64], FP32]:\n"
    "    return x + 0\n";

TEST(FastMathFlag, SimplifyFileHonoursTheFunctionAttributeAndTheRunFlag) {
  ToolRun run = run_eqsat({"simplify", "-"}, kTwoFunctions);
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out,
            "@fast_math(nsz)\ndef relaxed(x: Tensor[[64], FP32]) -> Tensor[[64], FP32]:\n    return x\n\n\n"
            "def strict(x: Tensor[[64], FP32]) -> Tensor[[64], FP32]:\n    return x + 0.0\n");
  ToolRun everywhere = run_eqsat({"simplify", "-", "--fast-math", "nsz"}, kTwoFunctions);
  EXPECT_EQ(everywhere.status, 0) << everywhere.err;
  EXPECT_EQ(everywhere.out,
            "@fast_math(nsz)\ndef relaxed(x: Tensor[[64], FP32]) -> Tensor[[64], FP32]:\n    return x\n\n\n"
            "def strict(x: Tensor[[64], FP32]) -> Tensor[[64], FP32]:\n    return x\n");
}

// The fuzzer checks results under the run's flags: with every flag granted, the
// fast-math rules fire on random float cases and every result is proved under them.
TEST(FastMathFlag, FuzzChecksUnderTheRunsFlags) {
  cli::EngineFlags flags;
  flags.fast_math = "nsz,nnan,ninf";
  Result<cli::Simplifier> simplifier = cli::Simplifier::from_flags(flags);
  ASSERT_TRUE(simplifier) << simplifier.error().describe();
  cli::FuzzOptions options;
  options.seed = 3;
  options.cases = 150;
  options.timeout_seconds = 10;
  options.keep_going = true;
  const cli::FuzzReport report = cli::run_fuzz(options, *simplifier);
  for (const cli::FuzzFailure& failure : report.failures) {
    ADD_FAILURE() << "case " << failure.case_number << ": " << failure.reason << "\n" << failure.reproducer;
  }
  EXPECT_EQ(report.cases, 150u);
}

// A fuzzer reproducer carries the run's flags, so `eqsat batch --verify` replays the
// case under the semantics it failed under.
TEST(FastMathFlag, FuzzReproducersCarryTheFlags) {
  verify::RandomCase random_case;
  random_case.facts.var_dtypes["x"] = DType::FP32;
  random_case.input = *cli::parse_under(random_case.facts, "x + 0.0", "input");
  const std::string line = cli::case_line(random_case, "r1", FastMath{FastMathFlag::Nsz} | FastMathFlag::Ninf);
  EXPECT_EQ(line, R"({"id": "r1", "vars": {"x": "FP32"}, "fast_math": ["nsz", "ninf"], "input": "x + 0.0"})");
  Result<FastMath> read_back = cli::fast_math_from_json(Json::parse(line));
  ASSERT_TRUE(read_back);
  EXPECT_EQ(*read_back, FastMath{FastMathFlag::Nsz} | FastMathFlag::Ninf);
  // Without flags the line is what it always was.
  EXPECT_EQ(cli::case_line(random_case, "r1"), R"({"id": "r1", "vars": {"x": "FP32"}, "input": "x + 0.0"})");
}

}  // namespace
}  // namespace eqsat::testing
