// Huge pages for the C library's heap, where the e-graph's lists live (asked for by the
// program: the command line does, the library does not).
//
// On this project's machine class (a virtual machine) the first touch of a fresh
// 4 KB page costs 5 to 11 microseconds, most of it the host's work, and a large
// saturation touches thousands: `sum 10` faults 9,100 pages in, a third of its time.
// The engine's largest arrays take huge pages of their own (egraph/large_arrays.h);
// the class lists, parent lists, match lists and the parsed rules come from malloc's
// heap in 4 KB pages, unless the heap is marked for transparent huge pages (madvise
// MADV_HUGEPAGE): the kernel then faults it in 2 MB at a time.
//
// glibc does this itself when started with GLIBC_TUNABLES=glibc.malloc.hugetlb=1,
// which a running program cannot set. use_huge_pages_for_heap does it for the main
// arena, the heap of the process's first thread (the command line's, which runs the
// apply and the rebuild): the heap is grown by a large step (M_TOP_PAD, room taken
// from the system but not touched) and marked, and the runner marks any later growth
// at each iteration (advise_heap_growth). Threads that allocate from arenas of their
// own (TBB's workers) keep 4 KB pages: sharing the main arena (M_ARENA_MAX 1) made a
// two-thread batch slower (0.10 s against 0.07-0.08 s).
//
// The price is memory: freed space stays in the heap (a step is not given back), and
// a touched 2 MB region is resident whole, so peak memory moves in 2 MB steps. For a
// large e-graph that is a few percent (`sum 10`: 520 -> 532-583 bytes per e-node); for
// a small one it can be most of its memory (`pos 3`, 6,536 e-nodes, reads 310 to 790
// bytes per e-node from run to run, depending on where the heap's randomized start
// falls). So there are two ways to turn it on:
//   - HugeHeap::kForLargeEGraphs waits for the first iteration of a saturation whose
//     e-graph holds kLargeEGraphNodes e-nodes or more (the runner also looks every 64
//     matches of an apply), and marks the heap from there on, in 8 MB steps: large
//     saturations get most of the speed (`sum 10` 0.80x, 546-553 bytes per e-node),
//     small ones (a batch's cases, `pos 3`) keep 4 KB pages and their memory. The
//     command line's default.
//   - HugeHeap::kFromNow marks the heap at once: the rules loaded next and every
//     e-graph take huge pages (`eqsat --huge-pages`; an empty batch starts in 0.71x
//     the time).
// Neither is on in a program that does not ask (the library, the Python module): it
// changes the allocator of the whole process (docs/performance.md, "Huge pages for
// the heap").
//
// While kForLargeEGraphs waits, the heap's growth in 4 KB pages is populated ahead
// (madvise MADV_POPULATE_WRITE, Linux 5.14): by the runner's looks, for what the heap
// grew since the last one (it grows 1 MB past each request meanwhile, so that most of
// a step is still untouched at the look), and by a HeapAhead around a load of known
// size (the command line's rules). A page populated so costs about 6 microseconds in
// all where its first write would fault it in for 12 (`pos 3` faults 1,122 -> 905
// pages, 0.94x).
#pragma once

#include <atomic>
#include <cstddef>

namespace eqsat {

// When the heap takes huge pages (see above).
enum class HugeHeap {
  kFromNow,          // now, and all its growth
  kForLargeEGraphs,  // once the runner sees an e-graph of kLargeEGraphNodes e-nodes
};

// The size of e-graph from which HugeHeap::kForLargeEGraphs marks the heap: there a
// 2 MB page is at most 128 bytes per e-node (an e-graph takes about 500), and `sum 10`
// (6,896 -> 27,188 -> 54,062 e-nodes at the start of its largest iterations) has most
// of its growth ahead; `pos 3` (at most 12,578 e-nodes, in the middle of an apply)
// stays below.
inline constexpr std::size_t kLargeEGraphNodes = 16384;

// Turns the heap's huge-page advice on, `when` said. Returns whether it is or will
// be on: not where the kernel's transparent huge pages are off ("[never]" in
// /sys/kernel/mm/transparent_hugepage/enabled), nor where the C library is not glibc
// on Linux. Call it early, before other threads start (the main arena is the one
// marked). kFromNow after kForLargeEGraphs marks the heap now; otherwise calling it
// again changes nothing.
bool use_huge_pages_for_heap(HugeHeap when = HugeHeap::kFromNow);

// Whether the heap is marked (kForLargeEGraphs: once an e-graph was large enough).
bool heap_uses_huge_pages();

// Called by the runner at the start of each iteration and every 64 matches of an
// apply, with its e-graph's size: marks what the heap grew since the last call if the
// advice is on (a comparison when nothing grew), and turns it on if it waits for an
// e-graph this large. Safe from any thread (a batch's cases run saturations on all
// its threads).
void advise_heap_growth(std::size_t egraph_nodes);

// Whether the heap has grown since its growth was last populated (only once asked for
// huge pages, use_huge_pages_for_heap: else false).
bool heap_growth_unpopulated();

// Populates, on the calling thread, what the heap has grown into since its growth was
// last populated, 2 MB at a time, until none is left or `stop` is set (checked between
// the pieces); several threads may call it at once, each piece is populated by one.
// Does nothing unless asked for huge pages (use_huge_pages_for_heap).
//
// For a saturation on several threads (runner.cpp): once the heap takes huge pages,
// a 2 MB region costs its first toucher about 4.5 ms on this project's machine class,
// most of it the host's work, whichever thread touches it; the run's own thread,
// which makes the apply's lists alone, would otherwise wait for every one. Populated
// by another of the run's threads meanwhile, the pages are in place when it comes.
// The price: up to a step of the heap's growth (8 MB) resident before it is used.
void populate_heap_growth(const std::atomic<bool>* stop = nullptr);

// Populates about `bytes` of the calling thread's own malloc heap (its arena, made now
// if it has none) and gives them back to it, where they stay while the heap keeps its
// freed memory (M_TRIM_THRESHOLD above `bytes`): for a thread about to allocate about
// that much, such as a batch's worker, whose cases would otherwise fault those pages
// in one at a time (about 10 us a page; populated, about 1 us and 5 more at the first
// write). Does nothing where the C library is not glibc on Linux, or under
// AddressSanitizer.
void populate_thread_heap(std::size_t bytes);

// Populates the `bytes` at the top of the calling thread's stack, below the caller's
// frame: for a thread started to run deep recursions (a batch's worker: its cases
// faulted about 80 pages of its stack in). Not for the process's first thread, whose
// stack the kernel grows on demand. Does nothing where populate_thread_heap does not.
void populate_thread_stack(std::size_t bytes);

// For the lifetime of a HeapAhead, the heap grows `bytes` at a time, and it grows and
// is populated now: for a caller about to allocate about that much (the command line
// loading its rules). For 2 MB or more it grows by 2 MB more, and the 2 MB regions
// inside the load's part take huge pages (one fault each instead of 512; the heap's
// later growth keeps 4 KB pages). Size it at or under what the caller takes: what it
// leaves populated and unused stays resident (at most one 2 MB page, partly). Does
// nothing unless the heap waits for a large e-graph (HugeHeap::kForLargeEGraphs, not
// yet on). On one thread, before others allocate.
class HeapAhead {
 public:
  explicit HeapAhead(std::size_t bytes);
  ~HeapAhead();
  HeapAhead(const HeapAhead&) = delete;
  HeapAhead& operator=(const HeapAhead&) = delete;

 private:
  bool active_ = false;
};

}  // namespace eqsat
