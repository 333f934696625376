// The heap's growth populated by another of a saturation's threads.
//
// On several threads, a saturation's search, filter and rebuild run on all of them, but
// its apply makes the new nodes and lists on the run's own thread alone, and the lists
// grow the heap. Once the heap takes huge pages (egraph/heap_pages.h), each fresh 2 MB
// region costs its first toucher about 4.5 ms on this project's machine class, whoever
// touches it; in `sum 11` on two threads, the run's own thread spent about a tenth of
// its time faulting the heap in, inside malloc, while the other thread had nothing to
// do. A GrowthHelper hands that work to the other thread: offered the run's arena at
// the apply's looks, it enqueues one task there, which populates the heap's growth
// (populate_heap_growth) while the apply goes on. Populating changes no byte of the
// heap, so results are the same whichever thread populates what, and when.
// (docs/performance.md, "The heap's growth populated on the other thread").
#pragma once

#include <tbb/task_arena.h>

#include <atomic>
#include <cstddef>
#include <memory>
#include <thread>

#include "egraph/heap_pages.h"

namespace eqsat {

class GrowthHelper {
 public:
  // From this many e-nodes on: the task populates a whole step of the heap's growth
  // (8 MB by default, egraph/heap_pages.cpp), which may stay unused until the run ends,
  // so at most 64 bytes per e-node more (256 with `--huge-pages`, whose steps are 32
  // MB). (`sum 10` on two threads, 57,012 e-nodes at the end, took 482 bytes per
  // e-node instead of 400 with the task from the heap's first huge pages on, and ran
  // in 0.985x the time.)
  static constexpr std::size_t kMinNodes = std::size_t{1} << 17;

  GrowthHelper() = default;
  GrowthHelper(const GrowthHelper&) = delete;
  GrowthHelper& operator=(const GrowthHelper&) = delete;
  // Cancels a task not yet started, stops a running one between two 2 MB pieces and
  // waits for it. Declared after the arena it enqueues into, so that it ends first.
  // (A task never started holds the shared state, not the helper: should the arena
  // never run it, nothing waits for it.)
  ~GrowthHelper() {
    if (!shared_) return;  // never offered a task
    shared_->stop.store(true, std::memory_order_relaxed);
    int enqueued = kEnqueued;
    if (shared_->state.compare_exchange_strong(enqueued, kCancelled, std::memory_order_acq_rel)) return;
    while (shared_->state.load(std::memory_order_acquire) == kRunning) std::this_thread::yield();
  }

  // Enqueues the populating task into `arena` if the e-graph has kMinNodes e-nodes or
  // more, the heap takes huge pages and has grown since it was last populated, and no
  // task is enqueued or running yet.
  void offer(tbb::task_arena& arena, std::size_t egraph_nodes) {
    if (egraph_nodes < kMinNodes || !heap_uses_huge_pages() ||
        (shared_ && shared_->state.load(std::memory_order_acquire) != kIdle) || !heap_growth_unpopulated()) {
      return;
    }
    if (!shared_) shared_ = std::make_shared<Shared>();
    shared_->state.store(kEnqueued, std::memory_order_relaxed);
    arena.enqueue([shared = shared_, offered_by = std::this_thread::get_id()] {
      // The thread that offered the task may take it too, when it works in the arena
      // itself (the apply's batches, on the run's threads): it would then populate
      // what it is about to touch, which is no gain. It leaves the task to be offered
      // again at the next look instead.
      if (std::this_thread::get_id() == offered_by) {
        int enqueued = kEnqueued;
        shared->state.compare_exchange_strong(enqueued, kIdle, std::memory_order_acq_rel);
        return;
      }
      int enqueued = kEnqueued;
      if (!shared->state.compare_exchange_strong(enqueued, kRunning, std::memory_order_acq_rel)) return;
      populate_heap_growth(&shared->stop);
      shared->state.store(kIdle, std::memory_order_release);
    });
  }

 private:
  enum : int { kIdle, kEnqueued, kRunning, kCancelled };
  struct Shared {
    std::atomic<int> state{kIdle};
    std::atomic<bool> stop{false};
  };
  // Made at the first task: every saturation has a helper, the batch's small ones on
  // one thread too, and most never offer one.
  std::shared_ptr<Shared> shared_;
};

}  // namespace eqsat
