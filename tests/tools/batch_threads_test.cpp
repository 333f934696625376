// `eqsat batch --threads N` and `--time R`: parallel batches give the same output as
// sequential ones, and timing adds only the `us` member.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/support/sweep.h"
#include "tests/tools/run_eqsat.h"

namespace eqsat::testing {
namespace {

std::string read_file(const std::filesystem::path& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

TEST(BatchThreads, SameOutputForOneAndTwoThreadsOnEveryCorpus) {
  // Every shared corpus in one input, plus lines that are errors, so that chunks of
  // different sizes and the error paths run in parallel too.
  std::string input = read_file(EQSAT_SHARED_DIR "/corpus/sample.jsonl");
  for (const auto& entry : std::filesystem::directory_iterator(EQSAT_SHARED_DIR "/corpus/external")) {
    if (entry.path().extension() == ".jsonl") input += read_file(entry.path());
  }
  // The sanitizer build's sample of the lines (tests/support/sweep.h).
  input = sampled_lines(input) + "not json\n{\"input\": \"x +\"}\n\n";
  TempDir dir;
  const std::string path = dir.write("all.jsonl", input);
  ToolRun one = run_eqsat({"batch", path, "--threads", "1"});
  ToolRun two = run_eqsat({"batch", path, "--threads", "2"});
  ToolRun many = run_eqsat({"batch", path, "--threads", "7"});
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_EQ(lines_of(one.out).size(), lines_of(input).size());
  EXPECT_EQ(one.out, two.out);
  EXPECT_EQ(one.out, many.out);
}

TEST(BatchThreads, VerifyMessagesComeInLineOrder) {
  const std::string wrong = EQSAT_SOURCE_DIR "/tests/verify/wrong.rules";
  std::string input;
  for (int i = 0; i < 100; ++i) {
    input += R"~({"id": "w)~" + std::to_string(i) + R"~(", "vars": {"x": "INT32"}, "input": "x + 1 > x"})~" + "\n";
  }
  ToolRun run =
      run_eqsat({"batch", "-", "--threads", "2", "--verify", "--rules", wrong, "--allow-unproved-rules"}, input);
  EXPECT_EQ(run.status, 1);
  const std::vector<std::string> messages = lines_of(run.err);
  ASSERT_EQ(messages.size(), 100u);
  for (int i = 0; i < 100; ++i) {
    EXPECT_TRUE(Contains(messages[i], "line " + std::to_string(i + 1) + " (id \"w" + std::to_string(i) + "\")"));
  }
}

TEST(BatchTime, AddsTheMedianMicrosecondsAndNothingElse) {
  const std::string input = R"~({"id": "a1", "bounds": {"i": [0, 7]}, "input": "select(i < 16, i + 0, 3)"}
{"id": "bad", "input": "x +"}
)~";
  ToolRun plain = run_eqsat({"batch", "-"}, input);
  ToolRun timed = run_eqsat({"batch", "-", "--time", "5"}, input);
  ASSERT_EQ(timed.status, 0) << timed.err;
  std::vector<Json> plain_lines = json_lines(plain.out);
  std::vector<Json> timed_lines = json_lines(timed.out);
  ASSERT_EQ(timed_lines.size(), 2u);
  ASSERT_TRUE(timed_lines[0]["us"].is_number()) << timed.out;
  EXPECT_GT(timed_lines[0]["us"].get<double>(), 0.0);
  EXPECT_EQ(keys_of(timed_lines[0]), (std::vector<std::string>{"id", "bounds", "input", "output", "cost", "us"}));
  timed_lines[0].erase("us");
  EXPECT_EQ(timed_lines[0], plain_lines[0]);
  EXPECT_FALSE(timed_lines[1].contains("us"));  // an error is not timed
  EXPECT_EQ(timed_lines[1], plain_lines[1]);
}

TEST(BatchTime, RunsMustBePositive) {
  EXPECT_EQ(run_eqsat({"batch", "-", "--time", "0"}, "").status, 2);
  EXPECT_EQ(run_eqsat({"batch", "-", "--threads", "0"}, "").status, 2);
}

}  // namespace
}  // namespace eqsat::testing
