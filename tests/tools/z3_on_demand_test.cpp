// The eqsat command loads Z3 when a command first needs it, not when it starts
// (tools/z3_lazy/loader.cpp): every other command runs where libz3 cannot be loaded,
// and the commands that need it say so and fail cleanly.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/tools/run_eqsat.h"

namespace eqsat::testing {
namespace {

// An environment in which the dynamic loader finds a libz3 that cannot be loaded: an
// empty file of that name, first on the search path.
class BrokenZ3 : public ::testing::Test {
 protected:
  void SetUp() override {
#ifndef EQSAT_LAZY_Z3_SONAME
    GTEST_SKIP() << "the eqsat command links Z3 as usual here (-DEQSAT_LAZY_Z3=OFF or not x86-64 Linux)";
#else
    dir_.write(EQSAT_LAZY_Z3_SONAME, "");
    environment_ = "LD_LIBRARY_PATH=" + shell_quote(dir_.path(""));
#endif
  }
  TempDir dir_;
  std::string environment_;
};

TEST_F(BrokenZ3, CommandsThatDoNotProveRunAsUsual) {
  const std::string input = R"~({"id": "a", "input": "x * 2 // 2 + y - y"})~"
                            "\n";
  ToolRun batch = run_eqsat_with(environment_, {"batch", "-"}, input);
  EXPECT_EQ(batch.status, 0) << batch.err;
  EXPECT_EQ(batch.out, R"~({"id": "a", "input": "x * 2 // 2 + y - y", "output": "x", "cost": 1})~"
                       "\n");
  ToolRun two_threads = run_eqsat_with(environment_, {"batch", "-", "--threads", "2"}, input);
  EXPECT_EQ(two_threads.out, batch.out) << two_threads.err;
  ToolRun simplify = run_eqsat_with(environment_, {"simplify-expr", "(x + 0) * 1"});
  EXPECT_EQ(simplify.status, 0) << simplify.err;
  EXPECT_EQ(simplify.out, "x\n");
  // The lock's check compares digests: no proof.
  ToolRun lock = run_eqsat_with(environment_, {"verify-rules", "--check-lock"});
  EXPECT_EQ(lock.status, 0) << lock.err;
}

TEST_F(BrokenZ3, CommandsThatProveFailBeforeAnyWork) {
  const std::string input = R"~({"id": "a", "input": "x * 2 // 2 + y - y"})~"
                            "\n";
  const std::vector<std::vector<std::string>> commands = {
      {"batch", "-", "--verify"},
      {"batch", "-", "--verify", "--threads", "2"},
      {"simplify-expr", "--verify", "x * 2 // 2"},
      {"verify-rules"},
      {"fuzz", "--cases", "3"},
  };
  for (const std::vector<std::string>& args : commands) {
    ToolRun run = run_eqsat_with(environment_, args, input);
    EXPECT_EQ(run.status, 1) << args[0];
    EXPECT_EQ(run.out, "") << args[0];
    EXPECT_TRUE(Contains(run.err, "needs Z3, which cannot be loaded: ")) << args[0];
    EXPECT_TRUE(Contains(run.err, EQSAT_LAZY_Z3_SONAME)) << args[0];  // the loader's reason
  }
}

TEST(Z3OnDemand, AProofLoadsZ3AndGoesThrough) {
  // The stubs' first call loads libz3 and continues into the function with its
  // arguments as given; a proof that needs Z3 (the output differs from the input).
  ToolRun run = run_eqsat({"batch", "-", "--verify"}, R"~({"id": "a", "input": "x * 2 // 2 + y - y"})~"
                                                      "\n");
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_TRUE(Contains(run.out, R"~("output": "x", "cost": 1, "verified": "proved")~"));
}

}  // namespace
}  // namespace eqsat::testing
