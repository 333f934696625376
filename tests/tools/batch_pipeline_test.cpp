// The batch's threads (tools/batch_pipeline.h), called directly: any number of them,
// more than the machine's cores too, writes what one thread writes, line for line and
// in order; threads that never get work end cleanly.
#include "tools/batch_pipeline.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "tools/batch.h"

namespace eqsat::cli {
namespace {

const Simplifier& default_simplifier() {
  static const Simplifier simplifier = *Simplifier::from_flags({});
  return simplifier;
}

// 700 lines (22 steps of 32 and a part): cases, errors, a blank line, a slow case.
std::string mixed_input() {
  std::string input;
  for (int i = 0; i < 700; ++i) {
    if (i % 97 == 5) {
      input += "not json";
    } else if (i == 301) {
      input += "";
    } else if (i % 250 == 17) {
      input += R"~({"id": "slow", "bounds": {"x": [0, 100]}, "input": "(x - 50) % 3 + (x - 50) // 3 * 3"})~";
    } else {
      input += R"~({"id": ")~" + std::to_string(i) + R"~(", "input": "x * 1 + )~" + std::to_string(i) + "\"}";
    }
    input += "\n";
  }
  return input;
}

// What the one-thread loop of `eqsat batch` writes.
std::string one_at_a_time(const std::string& input, BatchTally& tally) {
  std::istringstream in(input);
  std::string line, out;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    out += run_batch_line(line, number, default_simplifier(), {}, &tally) + "\n";
  }
  return out;
}

TEST(BatchPipeline, AnyNumberOfThreadsWritesWhatOneWrites) {
  const std::string input = mixed_input();
  BatchTally serial_tally;
  const std::string expected = one_at_a_time(input, serial_tally);
  for (unsigned threads : {2u, 3u, 8u}) {
    BatchThreads batch_threads(threads);
    std::istringstream in(input);
    std::ostringstream out;
    BatchTally tally;
    EXPECT_EQ(batch_threads.run(in, default_simplifier(), {}, out, tally), 700u) << threads << " threads";
    EXPECT_EQ(out.str(), expected) << threads << " threads";
  }
}

TEST(BatchPipeline, EmptyInputWritesNothing) {
  BatchThreads batch_threads(4);
  std::istringstream in("");
  std::ostringstream out;
  BatchTally tally;
  EXPECT_EQ(batch_threads.run(in, default_simplifier(), {}, out, tally), 0u);
  EXPECT_EQ(out.str(), "");
}

TEST(BatchPipeline, ThreadsStartedButNeverRunEndWithTheirOwner) {
  // As when the rules fail to load after the threads started: they are released and
  // joined. (What fails here is a hang, or a thread left to touch what is gone, which
  // the sanitizer build reports.)
  for (int i = 0; i < 20; ++i) BatchThreads batch_threads(3);
}

}  // namespace
}  // namespace eqsat::cli
