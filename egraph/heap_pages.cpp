#include "egraph/heap_pages.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include "egraph/large_arrays.h"

// Not under AddressSanitizer, whose allocator is not glibc's heap.
#if defined(__linux__) && defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
#include <malloc.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>
#define EQSAT_HEAP_PAGES 1
#endif

namespace eqsat {

#ifdef EQSAT_HEAP_PAGES
namespace {

constexpr std::uintptr_t kPage = 4096;
constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;
// How far the heap grows past a request while HugeHeap::kForLargeEGraphs waits. The
// runner's next look populates the growth (populate_growth), and what the program
// wrote before that look was faulted in a page at a time. With glibc's 128 KB (its
// default M_TOP_PAD, mallopt(3)) most of each step was written by then; with 1 MB most
// of it is populated first. `pos 3` faults 452 -> 289 pages and runs in 0.952x the
// time (512 KB: 390, 0.965x; 21 runs alternated), for up to 1 MB more resident (295
// -> 453 bytes per e-node); a batch of the external corpora runs in the same time.
constexpr int kWaitingTopPad = 1 << 20;
// How far the heap grows past what a request needs (M_TOP_PAD): large, so that it
// grows rarely and each step is marked before most of it is touched. 8 MB left `sum 10`
// 2,560 more faults (3,374 against 814 at 32 MB) for about 10 bytes per e-node less;
// 64 MB took 60 bytes more (docs/performance.md, "Huge pages for the heap").
constexpr int kHeapStep = 32 << 20;
// The step once an e-graph has grown large (HugeHeap::kForLargeEGraphs), whose
// heap then holds thousands of small blocks already: there a 32 MB step (sum 10: 575-610
// bytes per e-node over 10 runs) took more memory than an 8 MB one (546-550), which
// runs in about 1.07x its time (4 MB: 552-558, 1.14x).
constexpr int kLargeEGraphHeapStep = 8 << 20;

// Atomic: the runner looks from whichever thread runs a saturation (a batch's cases
// run on all of its threads).
std::atomic<bool> advice_on{false};
std::atomic<bool> waiting_for_large{false};    // HugeHeap::kForLargeEGraphs, not yet on
std::atomic<std::uintptr_t> marked_end{0};     // the end of the heap as last marked
std::atomic<std::uintptr_t> populated_end{0};  // the end of the heap as last populated
std::once_flag started;
// Where the main arena's heap starts, taken when asked (early, on one thread: later,
// mallinfo2 counts the other threads' arenas too).
std::uintptr_t heap_start = 0;

bool kernel_has_transparent_huge_pages() {
  std::FILE* file = std::fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
  if (file == nullptr) return false;
  char text[128] = {};
  const std::size_t read = std::fread(text, 1, sizeof text - 1, file);
  std::fclose(file);
  return read > 0 && std::strstr(text, "[never]") == nullptr;
}

// sbrk(0) reads glibc's record of the break: no system call. Only the main arena moves
// the break (other threads' arenas are mappings of their own), and a look that races
// with its move sees the old break or the new one: either is marked at some look.
std::uintptr_t heap_end() { return reinterpret_cast<std::uintptr_t>(sbrk(0)); }

void mark(std::uintptr_t from, std::uintptr_t to) {
  from &= ~(kPage - 1);
  to = (to + kPage - 1) & ~(kPage - 1);
  // Advice only: a failure leaves 4 KB pages, as without it.
  if (to > from) madvise(reinterpret_cast<void*>(from), to - from, MADV_HUGEPAGE);
}

// Populates the whole pages of [from, to) (Linux 5.14 and later: elsewhere the call
// fails and pages fault in as before). Never writes: a page in use is left as it is.
void populate(std::uintptr_t from, std::uintptr_t to) {
  from = (from + kPage - 1) & ~(kPage - 1);
  to &= ~(kPage - 1);
  if (to > from) madvise(reinterpret_cast<void*>(from), to - from, kMadvisePopulateWrite);
}

// Grows the heap by M_TOP_PAD now: blocks the top of the heap cannot hold make it
// grow. (Below the 128 KB from which glibc maps blocks on their own. On a thread with
// an arena of its own the blocks come from there and the heap does not grow.)
void grow_heap_by_top_pad() {
  void* blocks[16] = {};
  const std::uintptr_t before = heap_end();
  for (void*& block : blocks) {
    block = std::malloc(96 << 10);
    if (block == nullptr || heap_end() != before) break;
  }
  for (void* block : blocks) std::free(block);
}

// Grows the heap by a step now and marks it, so that what comes next is allocated
// from marked pages. (On a thread with an arena of its own, the heap's next growth, a
// step too, is marked at the runner's next look.)
void start_marking(int step) {
  mallopt(M_TOP_PAD, step);
  grow_heap_by_top_pad();
  const std::uintptr_t end = heap_end();
  mark(heap_start, end);
  marked_end.store(end);
  advice_on.store(true);
}

// Populates what the heap grew since the last call (4 KB pages, while kForLargeEGraphs
// waits): a page populated ahead costs 0.85 + 5.4 microseconds where its first write
// would fault it in for 12 (docs/performance.md, "Heap growth populated ahead").
void populate_growth() {
  const std::uintptr_t end = heap_end();
  std::uintptr_t from = populated_end.load(std::memory_order_relaxed);
  // The thread that moves the mark populates the stretch.
  do {
    if (end == from) return;
  } while (!populated_end.compare_exchange_weak(from, end, std::memory_order_relaxed));
  if (end > from) populate(from, end);  // (else the heap gave memory back: its next growth is populated from `end`)
}

}  // namespace

bool use_huge_pages_for_heap(HugeHeap when) {
  if (advice_on.load()) return true;
  if (!waiting_for_large.load()) {
    if (!kernel_has_transparent_huge_pages()) return false;
    heap_start = heap_end() - mallinfo2().arena;
    populated_end.store(heap_end());
  }
  if (when == HugeHeap::kForLargeEGraphs) {
    mallopt(M_TOP_PAD, kWaitingTopPad);
    waiting_for_large.store(true);
  } else {
    std::call_once(started, start_marking, kHeapStep);
  }
  return true;
}

bool heap_uses_huge_pages() { return advice_on.load(std::memory_order_relaxed); }

namespace {

// Whether huge pages were asked for the heap (now, or once the e-graph is large).
bool asked_for_huge_pages(std::memory_order order) { return advice_on.load(order) || waiting_for_large.load(order); }

}  // namespace

void advise_heap_growth(std::size_t egraph_nodes) {
  if (!advice_on.load(std::memory_order_relaxed)) {
    if (!waiting_for_large.load(std::memory_order_acquire)) return;
    if (egraph_nodes >= kLargeEGraphNodes) {
      std::call_once(started, start_marking, kLargeEGraphHeapStep);
    } else {
      populate_growth();
    }
    return;
  }
  const std::uintptr_t end = heap_end();
  std::uintptr_t from = marked_end.load(std::memory_order_relaxed);
  // The thread that moves the mark marks the stretch (another may mark the next).
  do {
    if (end <= from) return;
  } while (!marked_end.compare_exchange_weak(from, end, std::memory_order_relaxed));
  mark(from, end);
}

bool heap_growth_unpopulated() {
  if (!asked_for_huge_pages(std::memory_order_relaxed)) return false;
  return heap_end() > populated_end.load(std::memory_order_relaxed);
}

void populate_heap_growth(const std::atomic<bool>* stop) {
  if (!asked_for_huge_pages(std::memory_order_acquire)) return;
  while (stop == nullptr || !stop->load(std::memory_order_relaxed)) {
    const std::uintptr_t end = heap_end();
    std::uintptr_t from = populated_end.load(std::memory_order_relaxed);
    if (end == from) return;
    // A piece up to the next 2 MB boundary, taken by moving the mark past it (else
    // another thread took it first: take the next). A heap that gave memory back is
    // populated from its end on, as in populate_growth.
    const std::uintptr_t to = end < from ? end : std::min(end, (from + kHugePage) & ~(kHugePage - 1));
    if (!populated_end.compare_exchange_weak(from, to, std::memory_order_relaxed)) continue;
    if (to > from) populate(from, to);
  }
}

void populate_thread_heap(std::size_t bytes) {
  // Blocks under the 128 KB from which glibc maps a block on its own (tools/main.cpp),
  // so that they come from the arena, and go back to its top when freed.
  constexpr std::size_t kBlock = 64 << 10;
  std::vector<void*> blocks;
  blocks.reserve(bytes / kBlock + 1);
  for (std::size_t taken = 0; taken < bytes; taken += kBlock) {
    void* block = std::malloc(kBlock);
    if (block == nullptr) break;
    const auto from = reinterpret_cast<std::uintptr_t>(block);
    populate(from, from + kBlock);
    blocks.push_back(block);
  }
  for (auto block = blocks.rbegin(); block != blocks.rend(); ++block) std::free(*block);
}

void populate_thread_stack(std::size_t bytes) {
  pthread_attr_t attributes;
  if (pthread_getattr_np(pthread_self(), &attributes) != 0) return;
  void* low = nullptr;
  std::size_t size = 0;
  const bool known = pthread_attr_getstack(&attributes, &low, &size) == 0;
  pthread_attr_destroy(&attributes);
  if (!known) return;
  // The stack grows down from low + size; the caller's frame is near the top.
  const auto bottom = reinterpret_cast<std::uintptr_t>(low), top = bottom + size;
  const auto here = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
  if (here <= bottom || here > top) return;
  // Below this frame by a page, so that the pages in use are never among those populated.
  const std::uintptr_t to = (here & ~(kPage - 1)) - kPage;
  const std::uintptr_t from = top - std::min<std::uintptr_t>(top - bottom, bytes);
  if (to > from) populate(from, to);
}

HeapAhead::HeapAhead(std::size_t bytes) {
  // Only while the heap is in 4 KB pages and waits for a large e-graph: marked, it
  // grows by large steps of huge pages already.
  if (advice_on.load() || !waiting_for_large.load()) return;
  active_ = true;
  bytes = std::min<std::size_t>(bytes, std::size_t{1} << 30);
  populate_growth();  // what the heap grew by before
  const std::uintptr_t from = heap_end();
  if (bytes < kHugePage) {
    mallopt(M_TOP_PAD, static_cast<int>(bytes));
    grow_heap_by_top_pad();
    populate_growth();
    return;
  }
  // A load of 2 MB or more: the heap grows by 2 MB more than it, so that a 2 MB region
  // lies whole inside what the load takes, and such regions take huge pages (the
  // heap's later growth does not: the kernel maps it apart). Populated up to what the
  // load takes: the huge pages whole, so at most one 2 MB page is left partly unused.
  // The built-in catalogue's loading: an empty batch starts in 0.91x the time.
  mallopt(M_TOP_PAD, static_cast<int>(bytes + kHugePage));
  grow_heap_by_top_pad();
  const std::uintptr_t end = heap_end();
  const std::uintptr_t huge_from = (from + kHugePage - 1) & ~(kHugePage - 1), huge_to = end & ~(kHugePage - 1);
  mark(huge_from, huge_to);
  populate(from, std::min(end, from + bytes));
  populated_end.store(end);
}

HeapAhead::~HeapAhead() {
  if (active_ && !advice_on.load()) mallopt(M_TOP_PAD, kWaitingTopPad);
}

#else

bool heap_growth_unpopulated() { return false; }
void populate_heap_growth(const std::atomic<bool>*) {}
void populate_thread_heap(std::size_t) {}
void populate_thread_stack(std::size_t) {}
HeapAhead::HeapAhead(std::size_t) {}
HeapAhead::~HeapAhead() {}
bool use_huge_pages_for_heap(HugeHeap) { return false; }
bool heap_uses_huge_pages() { return false; }
void advise_heap_growth(std::size_t) {}

#endif

}  // namespace eqsat
