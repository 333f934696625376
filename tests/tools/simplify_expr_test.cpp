// `eqsat simplify-expr`: one expression from the command line, the result alone on
// stdout; --var, --bound and --assume; errors that name the flag and the position.
#include <gtest/gtest.h>

#include <string>

#include "tests/tools/run_eqsat.h"

namespace eqsat::testing {
namespace {

TEST(SimplifyExpr, PrintsOnlyTheResult) {
  ToolRun run = run_eqsat({"simplify-expr", "(x + 0) * 1 + (3 + 4)"});
  EXPECT_EQ(run.status, 0);
  EXPECT_EQ(run.out, "x + 7\n");
  EXPECT_EQ(run.err, "");
}

TEST(SimplifyExpr, VarDeclaresDtypes) {
  EXPECT_EQ(run_eqsat({"simplify-expr", "--var", "x:FP32", "x + 0.0"}).out, "x + 0.0\n");
  EXPECT_EQ(run_eqsat({"simplify-expr", "--var", "x:FP32", "x * 1.0"}).out, "x\n");
  EXPECT_NE(run_eqsat({"simplify-expr", "--var", "x:INT32", "x + 1 > x"}).out, "True\n");  // INT32 wraps
  EXPECT_EQ(run_eqsat({"simplify-expr", "x + 1 > x"}).out, "True\n");                      // INDEX never wraps
  EXPECT_EQ(run_eqsat({"simplify-expr", "--var", "p:pl.BOOL", "--var", "q:BOOL", "p or not p"}).out, "True\n");
}

TEST(SimplifyExpr, BoundsClosedAndOpen) {
  EXPECT_EQ(run_eqsat({"simplify-expr", "--bound", "i=0:7", "i < 16"}).out, "True\n");
  EXPECT_EQ(run_eqsat({"simplify-expr", "--bound", "i=0:", "i >= 0"}).out, "True\n");
  EXPECT_EQ(run_eqsat({"simplify-expr", "--bound", "i=:-1", "i < 0"}).out, "True\n");
  EXPECT_EQ(run_eqsat({"simplify-expr", "--bound", "i=-8:-1", "--bound", "j=0:3", "i < j"}).out, "True\n");
  EXPECT_EQ(run_eqsat({"simplify-expr", "--bound", "i=:", "i >= 0"}).out, "i >= 0\n");
  EXPECT_EQ(run_eqsat({"simplify-expr", "--bound", "i=0:18446744073709551616", "i >= 0"}).out, "True\n");
}

TEST(SimplifyExpr, AssumptionsAreUsed) {
  EXPECT_EQ(run_eqsat({"simplify-expr", "--assume", "n > 8", "select(n > 4, 1, 0)"}).out, "1\n");
  ToolRun run = run_eqsat({"simplify-expr", "--assume", "n > 8", "--assume", "m < 0", "n > 4 and m < 1"});
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out, "True\n");
}

TEST(SimplifyExpr, ExpressionStartingWithMinusAfterDoubleDash) {
  ToolRun run = run_eqsat({"simplify-expr", "--", "-x + x"});
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out, "0\n");
}

TEST(SimplifyExpr, ReportGoesToStderr) {
  ToolRun run = run_eqsat({"simplify-expr", "--report", "(x + 0) * 1"});
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out, "x\n");
  std::vector<Json> report = json_lines(run.err);
  ASSERT_EQ(report.size(), 1u) << run.err;
  EXPECT_EQ(keys_of(report[0]), (std::vector<std::string>{"output", "cost", "report"}));
  EXPECT_EQ(report[0]["output"], "x");
  EXPECT_EQ(report[0]["cost"], 1);
  EXPECT_EQ(report[0]["report"]["stop_reason"], "minimal");
  EXPECT_TRUE(report[0]["report"].contains("iterations"));
  EXPECT_TRUE(report[0]["report"].contains("nodes"));
  EXPECT_TRUE(report[0]["report"].contains("classes"));
  EXPECT_TRUE(report[0]["report"]["rule_fires"].is_object());
}

TEST(SimplifyExpr, CostsAndLimitsFlags) {
  TempDir dir;
  const std::string profile = dir.write("costs.json", R"~({"ops": {"add": 10}})~");
  ToolRun run = run_eqsat({"simplify-expr", "--costs", profile, "--report", "x + 1"});
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(json_lines(run.err).at(0)["cost"], 12);

  run = run_eqsat({"simplify-expr", "--iter-limit", "0", "(x + 0) * 1"});
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out, "(x + 0) * 1\n");

  run = run_eqsat({"simplify-expr", "--costs", dir.path("nope.json"), "x"});
  EXPECT_EQ(run.status, 1);
  EXPECT_TRUE(Contains(run.err, "nope.json"));
}

// Bad input: exit status 1, nothing on stdout, one message naming the flag and reason.
struct BadFlags {
  std::vector<std::string> args;
  std::string message;
};

TEST(SimplifyExpr, BadInputNamesTheFlagAndPosition) {
  const std::vector<BadFlags> cases = {
      {{"x + * 2"}, "eqsat: error: EXPR: column 5: "},
      {{"(x + 1"}, "eqsat: error: EXPR: column 7: "},
      {{"--var", "x:INT7", "x"}, "eqsat: error: --var 'x:INT7': unknown dtype 'INT7' for 'x'"},
      {{"--var", "x", "x"}, "eqsat: error: --var 'x': expected NAME:DTYPE"},
      {{"--var", ":INT32", "x"}, "eqsat: error: --var ':INT32': empty variable name"},
      {{"--var", "x:INT32", "--var", "x:INT8", "x"}, "eqsat: error: --var 'x:INT8': 'x' is already declared INT32"},
      {{"--bound", "n", "n"}, "eqsat: error: --bound 'n': expected NAME=LO:HI"},
      {{"--bound", "n=0", "n"}, "eqsat: error: --bound 'n=0': expected NAME=LO:HI"},
      {{"--bound", "n=a:3", "n"}, "eqsat: error: --bound 'n=a:3': LO 'a' is not an integer"},
      {{"--bound", "n=0:1.5", "n"}, "eqsat: error: --bound 'n=0:1.5': HI '1.5' is not an integer"},
      {{"--bound", "n=5:3", "n"}, "eqsat: error: --bound 'n=5:3': 'n' has an empty range: 5 > 3"},
      {{"--bound", "n=0:3", "--bound", "n=1:2", "n"}, "eqsat: error: --bound 'n=1:2': 'n' is bounded twice"},
      {{"--var", "f:FP32", "--bound", "f=0:1", "f"}, "eqsat: error: --bound 'f=0:1': 'f' is FP32"},
      {{"--assume", "x + 1", "x"}, "eqsat: error: --assume 'x + 1': expected a BOOL condition, got INDEX"},
      {{"--assume", "x <", "x"}, "eqsat: error: --assume 'x <': column 4: "},
  };
  for (const BadFlags& bad : cases) {
    std::vector<std::string> args = {"simplify-expr"};
    args.insert(args.end(), bad.args.begin(), bad.args.end());
    ToolRun run = run_eqsat(args);
    SCOPED_TRACE(bad.message);
    EXPECT_EQ(run.status, 1);
    EXPECT_EQ(run.out, "");
    EXPECT_TRUE(Contains(run.err, bad.message));
    EXPECT_EQ(lines_of(run.err).size(), 1u) << run.err;
  }
}

}  // namespace
}  // namespace eqsat::testing
