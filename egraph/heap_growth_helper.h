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
#include <thread>

#include "egraph/heap_pages.h"

namespace eqsat {

class GrowthHelper {
 public:
  GrowthHelper() = default;
  GrowthHelper(const GrowthHelper&) = delete;
  GrowthHelper& operator=(const GrowthHelper&) = delete;
  // Stops the task between two 2 MB pieces and waits for it: declared after the arena
  // it enqueues into, so that it ends first.
  ~GrowthHelper() {
    stop_.store(true, std::memory_order_relaxed);
    while (busy_.load(std::memory_order_acquire)) std::this_thread::yield();
  }

  // From this many e-nodes on: the task populates a whole step of the heap's growth
  // (8 MB, egraph/heap_pages.cpp), which may stay unused until the run ends, so at
  // most 64 bytes per e-node more. (`sum 10` on two threads, 57,012 e-nodes at the
  // end, took 482 bytes per e-node instead of 400 with the task from the heap's first
  // huge pages on, and ran in 0.985x the time.)
  static constexpr std::size_t kMinNodes = std::size_t{1} << 17;

  // Enqueues the populating task into `arena` if the e-graph has kMinNodes e-nodes or
  // more, the heap takes huge pages and has grown since it was last populated, and no
  // task is enqueued or running yet.
  void offer(tbb::task_arena& arena, std::size_t egraph_nodes) {
    if (egraph_nodes < kMinNodes || !heap_uses_huge_pages() || busy_.load(std::memory_order_acquire) ||
        !heap_growth_unpopulated()) {
      return;
    }
    busy_.store(true, std::memory_order_relaxed);
    arena.enqueue([this] {
      populate_heap_growth(&stop_);
      busy_.store(false, std::memory_order_release);
    });
  }

 private:
  std::atomic<bool> busy_{false};  // a task is enqueued or running
  std::atomic<bool> stop_{false};
};

}  // namespace eqsat
