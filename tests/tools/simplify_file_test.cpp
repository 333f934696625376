// `eqsat simplify FILE`: the Simplify pass from the command line.
#include <gtest/gtest.h>

#include "tests/tools/run_eqsat.h"

namespace eqsat::testing {
namespace {

const char* const kKernel =
    "for ob in pl.range(0, 68, 2):\n"
    "    off: pl.Scalar[pl.INDEX] = ob * 256 + 256\n"
    "    if off == 0:\n"
    "        first_chunk(off)\n"
    "    else:\n"
    "        later_chunk(off)\n";

TEST(SimplifyFileCommand, PrintsTheSimplifiedProgram) {
  TempDir dir;
  ToolRun run = run_eqsat({"simplify", dir.write("k.py", kKernel)});
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out, "for ob in range(0, 68, 2):\n    off: Scalar[INDEX] = ob * 256 + 256\n    later_chunk(off)\n");
}

TEST(SimplifyFileCommand, ReportsWhatEachPassChanged) {
  ToolRun run = run_eqsat({"simplify", "-", "--pipeline", "lower-pipeline,simplify", "--report"}, kKernel);
  EXPECT_EQ(run.status, 0) << run.err;
  const Json report = Json::parse(run.err);
  ASSERT_EQ(report["passes"].size(), 2u);
  EXPECT_EQ(report["passes"][0]["pass"], "lower-pipeline");
  EXPECT_EQ(report["passes"][0]["changed"], false);
  EXPECT_EQ(report["passes"][1]["branches_folded"], 1);
}

TEST(SimplifyFileCommand, ConstantsOnlyKeepsControlFlow) {
  ToolRun run = run_eqsat({"simplify", "-", "--constants-only"}, "n = 2\nif n > 1:\n    f(n)\n");
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out, "if True:\n    f(2)\n");
}

TEST(SimplifyFileCommand, ParseErrorsNameTheFileLineAndColumn) {
  TempDir dir;
  ToolRun run = run_eqsat({"simplify", dir.write("bad.py", "x = 1\nfor i in range(0, 8)\n    f(i)\n")});
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err,
            "eqsat: error: " + dir.path("bad.py") + ": line 2, column 21: expected ':' but found end of line\n");
}

TEST(SimplifyFileCommand, UnknownPassIsAnError) {
  ToolRun run = run_eqsat({"simplify", "-", "--pipeline", "nope"}, "f(1)\n");
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err,
            "eqsat: error: unknown pass 'nope' (known passes: simplify, simplify-constants, lower-pipeline)\n");
}

}  // namespace
}  // namespace eqsat::testing
