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
  // The heap in huge pages (docs/cli.md) changes where memory comes from, nothing else.
  ToolRun huge = run_eqsat({"batch", path, "--threads", "2", "--huge-pages"});
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_EQ(lines_of(one.out).size(), lines_of(input).size());
  EXPECT_EQ(one.out, two.out);
  EXPECT_EQ(one.out, many.out);
  EXPECT_EQ(one.out, huge.out);
}

TEST(BatchThreads, ABadRuleFileIsReportedBeforeTheInput) {
  // A rule file that does not load is the error reported, on any number of threads,
  // before any about the input, and nothing is written.
  TempDir dir;
  const std::string rules = dir.path("missing.rules");
  const std::string good = dir.write("in.jsonl", "{\"input\": \"x + 0\"}\n{\"input\": \"y * 1\"}\n");
  for (const std::string& input : {good, dir.path("no-such.jsonl"), dir.path("")}) {
    for (const char* threads : {"1", "2"}) {
      ToolRun run = run_eqsat({"batch", input, "--rules", rules, "--threads", threads});
      EXPECT_EQ(run.status, 1) << input << " on " << threads;
      EXPECT_EQ(run.out, "") << input << " on " << threads;
      EXPECT_EQ(run.err, "eqsat: error: " + rules + ": cannot open the rule file\n") << input << " on " << threads;
    }
  }
}

TEST(BatchThreads, AFileLongerThanTheLinesInFlightKeepsItsOrder) {
  // More lines than the pipeline holds at once (1,024 a thread), errors among them:
  // they go out in input order, as on one thread.
  std::string input;
  for (int i = 0; i < 2600; ++i) {
    input += i % 500 == 3
                 ? std::string("not json")
                 : R"~({"id": ")~" + std::to_string(i) + R"~(", "input": "x * 1 + )~" + std::to_string(i) + "\"}";
    input += "\n";
  }
  TempDir dir;
  const std::string path = dir.write("long.jsonl", input);
  ToolRun one = run_eqsat({"batch", path, "--threads", "1"});
  ToolRun two = run_eqsat({"batch", path, "--threads", "2"});
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_EQ(one.out, two.out);
  const std::vector<std::string> lines = lines_of(two.out);
  ASSERT_EQ(lines.size(), 2600u);
  EXPECT_EQ(
      lines[3],
      R"~({"error": "line 4: invalid JSON: column 2: syntax error while parsing value - invalid literal; last read: 'no'"})~");
  EXPECT_EQ(lines[2599], R"~({"id": "2599", "input": "x * 1 + 2599", "output": "x + 2599", "cost": 3})~");
}

TEST(BatchThreads, ASlowCaseKeepsItsPlaceInTheOutput) {
  // tinygrad's shifted recombination was the slowest case of the external corpora: the
  // other threads run ahead of it (tools/batch_command.cpp), and its result is still
  // written in its place, between the fast ones.
  const std::string slow =
      R"~({"id": "slow", "bounds": {"x": [0, 100]}, "input": "(x - 50) % 3 + (x - 50) // 3 * 3"})~";
  std::string input;
  for (int i = 0; i < 300; ++i) {
    input += i % 100 == 7
                 ? slow
                 : R"~({"id": "fast)~" + std::to_string(i) + R"~(", "input": "x * 0 + )~" + std::to_string(i) + "\"}";
    input += "\n";
  }
  ToolRun one = run_eqsat({"batch", "-", "--threads", "1"}, input);
  ToolRun two = run_eqsat({"batch", "-", "--threads", "2"}, input);
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_EQ(one.out, two.out);
  const std::vector<Json> lines = json_lines(two.out);
  ASSERT_EQ(lines.size(), 300u);
  for (int i = 0; i < 300; ++i) {
    if (i % 100 == 7) {
      EXPECT_EQ(lines[i]["id"], "slow");
      EXPECT_EQ(lines[i]["output"], "x + -50");
    } else {
      EXPECT_EQ(lines[i]["output"], std::to_string(i));
    }
  }
}

TEST(BatchThreads, APipeSeesEachResultBeforeTheNextLineIsSent) {
  // A program that feeds eqsat a line at a time and waits for each answer (a compiler
  // keeping one batch process open) must get it: neither the one-thread loop nor the
  // parallel batch holds results back until more input (or the end of it) comes. The
  // feeder waits up to 20 s for the first result, then sends the second line anyway;
  // the test fails if it had to. Through stdin and stdout (where reading stdin flushes
  // stdout anyway), and through a named pipe and `-o FILE` (where only eqsat's own
  // flushing does).
  for (const bool named : {false, true}) {
    for (const char* threads : {"1", "2"}) {
      const std::string what = std::string(named ? "a named pipe" : "stdin") + " on " + threads + " thread(s)";
      TempDir dir;
      const std::string out = dir.path("out");
      const std::string fifo = dir.path("in");
      const std::string feeder = "{ echo '{\"id\": \"a\", \"input\": \"x + 0\"}'; i=0; while [ ! -s " +
                                 shell_quote(out) +
                                 " ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done; echo $i > " +
                                 shell_quote(dir.path("waited")) + "; echo '{\"id\": \"b\", \"input\": \"y * 1\"}'; }";
      const std::string eqsat = shell_quote(EQSAT_BINARY) + " batch --threads " + threads;
      const std::string command = named ? "mkfifo " + shell_quote(fifo) + " && { " + feeder + " > " +
                                              shell_quote(fifo) + " & " + eqsat + " " + shell_quote(fifo) + " -o " +
                                              shell_quote(out) + "; status=$?; wait; exit $status; }"
                                        : feeder + " | " + eqsat + " - > " + shell_quote(out);
      ASSERT_EQ(std::system(command.c_str()), 0) << what;
      EXPECT_LT(std::stoi(dir.read("waited")), 400) << "the first result came only after the second line, " << what;
      const std::vector<Json> lines = json_lines(dir.read("out"));
      ASSERT_EQ(lines.size(), 2u) << what;
      EXPECT_EQ(lines[0]["output"], "x");
      EXPECT_EQ(lines[1]["output"], "y");
    }
  }
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
