#include "tools/batch_pipeline.h"

#include <atomic>
#include <condition_variable>
#include <exception>
#include <map>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "egraph/heap_pages.h"

namespace eqsat::cli {

namespace {

// Lines in flight at once per thread: read, being simplified, or done and waiting for
// an earlier line to be written. Output is in input order, so a slow case holds back
// the lines after it; the window is what the other threads may run ahead meanwhile.
// Wide enough that a case taking a thousand times the median one (~40 us) does not
// idle them, small enough (a few MB of lines) that memory stays bounded on any input.
// The pipeline counts it in steps (kLinesPerStep lines at most): a file's steps are
// full, those of a pipe fed a line at a time hold a line, and there the window is the
// input's pace anyway.
constexpr std::size_t kLinesInFlightPerThread = 1024;

// Lines that go through the pipeline together, at most, when the reader has them at
// once: a hand-over between threads costs about as much as a short case, so the lines
// of a file go a few at a time. A line that is all the input holds for now (a pipe fed
// a line at a time) goes alone, at once.
constexpr std::size_t kLinesPerStep = 32;

// Consecutive input lines on their way through the pipeline together.
struct Step {
  std::size_t index = 0;           // steps read before it
  std::size_t first_number = 0;    // of texts[0], 1-based
  std::vector<std::string> texts;  // the input lines, then their results
  BatchTally tally;
};

}  // namespace

class Pipeline {
 public:
  Pipeline(unsigned threads, std::istream& in, const Simplifier& simplifier, const CaseOptions& options,
           std::ostream& out, BatchTally& tally)
      : max_steps_in_flight_(kLinesInFlightPerThread / kLinesPerStep * threads),
        in_(in),
        simplifier_(simplifier),
        options_(options),
        out_(out),
        tally_(tally) {}

  // What each thread runs: steps until the input ends (or another thread failed).
  void work() {
    try {
      while (std::optional<Step> step = read()) {
        for (std::size_t i = 0; i < step->texts.size(); ++i) {
          step->texts[i] = run_batch_line(step->texts[i], step->first_number + i, simplifier_, options_, &step->tally);
        }
        write(std::move(*step));
      }
    } catch (...) {
      std::lock_guard lock(writing_);
      if (!failure_) failure_ = std::current_exception();
      stopped_.store(true, std::memory_order_relaxed);
      room_.notify_all();
    }
  }

  std::size_t lines_read() const { return published_.load(std::memory_order_acquire); }
  std::exception_ptr failure() const { return failure_; }

 private:
  // The next step: a line, waiting for it if need be, then those the input holds
  // already, once the window has room. None at the end of the input.
  std::optional<Step> read() {
    std::lock_guard lock(reading_);
    if (input_done_) return std::nullopt;
    {
      std::unique_lock wait(writing_);
      room_.wait(wait, [&] {
        return steps_read_ - steps_written_ < max_steps_in_flight_ || stopped_.load(std::memory_order_relaxed);
      });
    }
    if (stopped_.load(std::memory_order_relaxed)) return std::nullopt;
    Step step;
    step.index = steps_read_;
    step.first_number = lines_read_ + 1;
    std::string text;
    while (step.texts.size() < kLinesPerStep && (step.texts.empty() || in_.rdbuf()->in_avail() > 0) &&
           std::getline(in_, text)) {
      step.texts.push_back(std::move(text));
    }
    if (step.texts.empty()) {
      input_done_ = true;
      return std::nullopt;
    }
    ++steps_read_;
    lines_read_ += step.texts.size();
    published_.store(lines_read_, std::memory_order_release);
    return step;
  }

  // Writes `step`, and the steps after it that were waiting for it, if every earlier
  // step is written; else keeps it until then. When every line read so far is written,
  // the reader is waiting for input (a pipe) or done, and the output is flushed so that
  // whoever feeds the pipe sees every result so far. A file is flushed only at the end
  // (and when the stream's buffer fills).
  void write(Step step) {
    std::lock_guard lock(writing_);
    waiting_.emplace(step.index, std::move(step));
    bool wrote = false;
    for (auto next = waiting_.begin(); next != waiting_.end() && next->first == steps_written_;
         next = waiting_.erase(next)) {
      Step& done = next->second;
      for (const std::string& text : done.texts) out_ << text << '\n';
      lines_written_ += done.texts.size();
      tally_.unknown += done.tally.unknown;
      for (std::string& message : done.tally.disagreements) tally_.disagreements.push_back(std::move(message));
      ++steps_written_;
      wrote = true;
    }
    if (!wrote) return;
    if (lines_written_ == published_.load(std::memory_order_acquire)) out_ << std::flush;
    room_.notify_all();
  }

  const std::size_t max_steps_in_flight_;
  std::istream& in_;
  const Simplifier& simplifier_;
  const CaseOptions& options_;
  std::ostream& out_;
  BatchTally& tally_;

  // The reader's: one thread reads at a time (and may wait for a pipe meanwhile, which
  // must not keep the writer from writing what is done: the writer's lock is another).
  std::mutex reading_;
  std::size_t steps_read_ = 0;
  std::size_t lines_read_ = 0;
  bool input_done_ = false;
  // Lines read, as the writer may see it without the reader's lock.
  std::atomic<std::size_t> published_{0};

  // The writer's. A reader takes it (inside its own) to wait for room in the window.
  std::mutex writing_;
  std::condition_variable room_;         // a step written, or the pipeline stopped
  std::map<std::size_t, Step> waiting_;  // done, by index, until the steps before are written
  std::size_t steps_written_ = 0;
  std::size_t lines_written_ = 0;
  std::exception_ptr failure_;
  std::atomic<bool> stopped_{false};
};

namespace {

// What each started thread's first cases allocate, about: a fresh arena's pages cost
// 10-13 us each when a case first writes them, 1 us populated ahead (and 5 more at that
// first write, the host's share). The external corpora's worker faulted 315 pages of
// its arena in.
constexpr std::size_t kWarmHeap = std::size_t{3} << 19;  // 1.5 MB
// And of its stack: the corpora's worker faulted about 80 pages of it in.
constexpr std::size_t kWarmStack = std::size_t{512} << 10;

}  // namespace

BatchThreads::BatchThreads(unsigned threads) : threads_(threads) {
  others_.reserve(threads - 1);
  for (unsigned i = 1; i < threads; ++i) {
    try {
      others_.emplace_back([this] {
        try {
          populate_thread_heap(kWarmHeap);
          populate_thread_stack(kWarmStack);
        } catch (const std::bad_alloc&) {
          // Only a head start: without it the cases fault the pages in themselves.
        }
        Pipeline* pipeline = nullptr;
        {
          std::unique_lock lock(mutex_);
          started_.wait(lock, [&] { return released_; });
          pipeline = pipeline_;
        }
        if (pipeline != nullptr) pipeline->work();
      });
    } catch (const std::system_error&) {
      break;  // the system has no more threads to give: the ones started do the work
    }
  }
}

BatchThreads::~BatchThreads() {
  if (!released_) start(nullptr);
}  // (others_ joined)

void BatchThreads::start(Pipeline* pipeline) {
  std::lock_guard lock(mutex_);
  pipeline_ = pipeline;
  released_ = true;
  started_.notify_all();
}

std::size_t BatchThreads::run(std::istream& in, const Simplifier& simplifier, const CaseOptions& options,
                              std::ostream& out, BatchTally& tally) {
  Pipeline pipeline(threads_, in, simplifier, options, out, tally);
  start(&pipeline);
  pipeline.work();
  for (std::jthread& thread : others_) thread.join();
  if (std::exception_ptr failure = pipeline.failure()) std::rethrow_exception(failure);
  out << std::flush;
  return pipeline.lines_read();
}

}  // namespace eqsat::cli
