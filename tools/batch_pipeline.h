// The batch's lines on several threads, written in input order.
//
// Every thread, the caller's among them, takes the next step of lines from the input
// (one reader at a time), simplifies them, and hands them to the writer, which writes
// the steps in input order as they complete: unlike chunks with a barrier, no thread
// waits for a slow case while lines remain to simplify; a slow case holds back only
// the writing of the lines after it.
//
// On plain threads rather than TBB's: the cases of a batch are independent and need
// nothing of a scheduler but this loop, and TBB's start took 3.4 ms (loading its
// allocator, reading the process's mappings, making its worker), on a second core but
// slowing the rules' loading on the first by 1.6 ms. The threads start before the
// rules load, and meanwhile populate the first pages of their heaps and stacks, which
// their first cases faulted in one at a time (docs/performance.md, "The batch's
// threads without TBB").
#pragma once

#include <condition_variable>
#include <cstddef>
#include <istream>
#include <mutex>
#include <ostream>
#include <thread>
#include <vector>

#include "tools/batch.h"

namespace eqsat::cli {

class Pipeline;

// The threads of a batch on more than one, started ahead: while the caller loads the
// rules, each makes its malloc arena and populates its first pages (what the first
// cases would otherwise fault in on the way), then waits for run().
class BatchThreads {
 public:
  explicit BatchThreads(unsigned threads);  // this one and threads - 1 started here
  ~BatchThreads();                          // those run() did not take, released and joined
  BatchThreads(const BatchThreads&) = delete;
  BatchThreads& operator=(const BatchThreads&) = delete;

  // Simplifies the lines of `in` (run_batch_line) on the threads, this one among them,
  // and writes their results to `out` in input order. The tallies are merged in line
  // order too, so the output and the messages do not depend on the thread count.
  // Returns the number of lines read. An exception on any thread stops the others at
  // their next step and is rethrown here. Once only.
  std::size_t run(std::istream& in, const Simplifier& simplifier, const CaseOptions& options, std::ostream& out,
                  BatchTally& tally);

 private:
  void start(Pipeline* pipeline);  // hands the waiting threads their work (none: nullptr)

  unsigned threads_;
  std::mutex mutex_;
  std::condition_variable started_;
  bool released_ = false;
  Pipeline* pipeline_ = nullptr;  // while run() runs
  std::vector<std::jthread> others_;
};

}  // namespace eqsat::cli
