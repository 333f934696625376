// The command line as a whole: help, version, usage errors.
#include <gtest/gtest.h>

#include "tests/tools/run_eqsat.h"

namespace eqsat::testing {
namespace {

TEST(Cli, HelpOnTheToolAndEveryCommand) {
  ToolRun run = run_eqsat({"--help"});
  EXPECT_EQ(run.status, 0);
  EXPECT_TRUE(Contains(run.out, "batch"));
  EXPECT_TRUE(Contains(run.out, "simplify-expr"));

  run = run_eqsat({"batch", "--help"});
  EXPECT_EQ(run.status, 0);
  for (const char* flag :
       {"--output", "--costs", "--rules", "--add-rules", "--iter-limit", "--node-limit", "--time-limit", "--report"}) {
    EXPECT_TRUE(Contains(run.out, flag));
  }

  run = run_eqsat({"simplify-expr", "--help"});
  EXPECT_EQ(run.status, 0);
  for (const char* flag : {"--var", "--bound", "--assume", "--costs", "--report"}) {
    EXPECT_TRUE(Contains(run.out, flag));
  }
}

TEST(Cli, Version) {
  ToolRun run = run_eqsat({"--version"});
  EXPECT_EQ(run.status, 0);
  EXPECT_TRUE(Contains(run.out, "eqsat "));
}

TEST(Cli, UsageErrorsExitWithStatus2) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {},
           {"frobnicate"},
           {"batch"},
           {"batch", "-", "--frobnicate"},
           {"batch", "-", "--iter-limit", "many"},
           {"batch", "-", "--time-limit", "-1"},
           {"batch", "-", "--iter-limit", "-1"},
           {"batch", "-", "--node-limit", "1.5"},
           {"simplify-expr"},
           {"simplify-expr", "x", "y"},
       }) {
    std::string shown;
    for (const std::string& arg : args) shown += arg + " ";
    SCOPED_TRACE(shown);
    ToolRun run = run_eqsat(args);
    EXPECT_EQ(run.status, 2);
    EXPECT_EQ(run.out, "");
    EXPECT_FALSE(run.err.empty());
  }
}

}  // namespace
}  // namespace eqsat::testing
