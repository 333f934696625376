// `eqsat verify-rules --changed`: a rule author who adds or edits one rule proves only
// that rule again, and `--write-lock` keeps the proofs of every unchanged instance.
#include <gtest/gtest.h>

#include <string>

#include "tests/tools/run_eqsat.h"

namespace eqsat::testing {
namespace {

const char kAddZero[] = "changed-test-add-zero [index INT32]: x + 0 => x\n";
const char kMulOne[] = "changed-test-mul-one [index]: x * 1 => x\n";
const char kWrongSubSelf[] = "changed-test-wrong [index]: x - x => x\n";

// The lock's line for one instance ("NAME DTYPE PROOF DIGEST"), or "" when it has none.
std::string lock_line(const std::string& lock_text, const std::string& name, const std::string& dtype) {
  for (const std::string& line : lines_of(lock_text)) {
    if (line.rfind(name + " " + dtype + " ", 0) == 0) return line;
  }
  return "";
}

TEST(VerifyRulesChanged, ProvesOnlyTheNewRuleAndKeepsTheOthersProofs) {
  TempDir dir;
  const std::string rules = dir.write("my.rules", kAddZero);
  const std::string lock = dir.path("my.lock");
  ToolRun first = run_eqsat({"verify-rules", rules, "--no-progress", "--write-lock", "--lock", lock});
  ASSERT_EQ(first.status, 0) << first.out << first.err;
  const std::string add_zero_int32 = lock_line(dir.read("my.lock"), "changed-test-add-zero", "INT32");
  ASSERT_NE(add_zero_int32, "");

  dir.write("my.rules", std::string(kAddZero) + kMulOne);
  ToolRun second = run_eqsat({"verify-rules", rules, "--no-progress", "--changed", "--write-lock", "--lock", lock});
  ASSERT_EQ(second.status, 0) << second.out << second.err;
  EXPECT_TRUE(Contains(second.out, "2 rule instances proved and unchanged, not proved again")) << second.out;
  EXPECT_TRUE(Contains(second.out, "changed-test-mul-one INDEX: proved")) << second.out;
  EXPECT_FALSE(Contains(second.out, "changed-test-add-zero")) << second.out;
  EXPECT_TRUE(Contains(second.out, "1 rule instances: 1 proved")) << second.out;

  const std::string after = dir.read("my.lock");
  EXPECT_EQ(lock_line(after, "changed-test-add-zero", "INT32"), add_zero_int32);
  EXPECT_NE(lock_line(after, "changed-test-mul-one", "INDEX"), "");
  ToolRun check = run_eqsat({"verify-rules", rules, "--check-lock", "--lock", lock});
  EXPECT_EQ(check.status, 0) << check.out << check.err;
}

TEST(VerifyRulesChanged, AnEditedRuleIsProvedAgain) {
  TempDir dir;
  const std::string rules = dir.write("my.rules", kAddZero);
  const std::string lock = dir.path("my.lock");
  ASSERT_EQ(run_eqsat({"verify-rules", rules, "--no-progress", "--write-lock", "--lock", lock}).status, 0);

  dir.write("my.rules", "changed-test-add-zero [index INT32]: 0 + x => x\n");
  ToolRun stale = run_eqsat({"verify-rules", rules, "--check-lock", "--lock", lock});
  EXPECT_EQ(stale.status, 1);
  ToolRun again = run_eqsat({"verify-rules", rules, "--no-progress", "--changed", "--write-lock", "--lock", lock});
  ASSERT_EQ(again.status, 0) << again.out << again.err;
  EXPECT_TRUE(Contains(again.out, "0 rule instances proved and unchanged")) << again.out;
  EXPECT_TRUE(Contains(again.out, "2 rule instances: 2 proved")) << again.out;
  EXPECT_EQ(run_eqsat({"verify-rules", rules, "--check-lock", "--lock", lock}).status, 0);
}

TEST(VerifyRulesChanged, AWrongNewRuleLeavesTheLockAsItWas) {
  TempDir dir;
  const std::string rules = dir.write("my.rules", kAddZero);
  const std::string lock = dir.path("my.lock");
  ASSERT_EQ(run_eqsat({"verify-rules", rules, "--no-progress", "--write-lock", "--lock", lock}).status, 0);
  const std::string before = dir.read("my.lock");

  dir.write("my.rules", std::string(kAddZero) + kWrongSubSelf);
  ToolRun refuted = run_eqsat({"verify-rules", rules, "--no-progress", "--changed", "--write-lock", "--lock", lock});
  EXPECT_EQ(refuted.status, 1);
  EXPECT_TRUE(Contains(refuted.out, "changed-test-wrong INDEX: counterexample")) << refuted.out;
  EXPECT_TRUE(Contains(refuted.err, "not writing")) << refuted.err;
  EXPECT_EQ(dir.read("my.lock"), before);
}

TEST(VerifyRulesChanged, WritingTheLockForOneRuleKeepsTheOtherRules) {
  TempDir dir;
  const std::string rules = dir.write("my.rules", std::string(kAddZero) + kMulOne);
  const std::string lock = dir.path("my.lock");
  ASSERT_EQ(run_eqsat({"verify-rules", rules, "--no-progress", "--write-lock", "--lock", lock}).status, 0);

  ToolRun one = run_eqsat(
      {"verify-rules", rules, "--no-progress", "--rule", "changed-test-mul-one", "--write-lock", "--lock", lock});
  ASSERT_EQ(one.status, 0) << one.out << one.err;
  EXPECT_NE(lock_line(dir.read("my.lock"), "changed-test-add-zero", "INT32"), "");
  EXPECT_EQ(run_eqsat({"verify-rules", rules, "--check-lock", "--lock", lock}).status, 0);
}

}  // namespace
}  // namespace eqsat::testing
