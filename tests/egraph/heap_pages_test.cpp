// Huge pages for the heap (egraph/heap_pages.h): off until asked for; once on, the
// heap's mapping carries the kernel's huge-page advice, and so does what it grows into
// once the runner has looked (advise_heap_growth). Asked for large e-graphs only, the
// advice waits for the runner to look with an e-graph of kLargeEGraphNodes e-nodes.
//
// While the advice waits for a large e-graph, what the heap grows into is populated
// ahead instead: by the runner's looks, and by a HeapAhead around a load (whose 2 MB
// regions, for a load that large, take huge pages).
//
// The advice, once on, stays on for the rest of the process: each scenario runs in a
// child process of its own (EXPECT_EXIT), which exits 0 when everything it checks
// holds and otherwise says on stderr what did not.
#include "egraph/heap_pages.h"

#include <gtest/gtest.h>
#include <malloc.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <tbb/task_arena.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <latch>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "egraph/heap_growth_helper.h"
#include "tests/support/huge_pages.h"

namespace eqsat {
namespace {

using ::eqsat::testing::heap_can_take_huge_pages;

// The VmFlags line of the mapping that holds `address` (/proc/self/smaps), or "" if
// no mapping does.
std::string flags_of_mapping_at(std::uintptr_t address) {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    std::uintptr_t from = 0, to = 0;
    char dash = 0;
    std::istringstream header(line);
    if (header >> std::hex >> from >> dash >> to && dash == '-') {
      inside = from <= address && address < to;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line + " ";
    }
  }
  return "";
}

std::uintptr_t heap_end() { return reinterpret_cast<std::uintptr_t>(sbrk(0)); }

// Grows the heap past the step taken when the advice went on, with blocks glibc takes
// from it (under 128 KB). Returns whether it grew.
bool grow_heap(std::vector<std::unique_ptr<char[]>>& blocks) {
  const std::uintptr_t before = heap_end();
  while (heap_end() - before < (std::uintptr_t{48} << 20) && blocks.size() < 4096) {
    blocks.push_back(std::make_unique<char[]>(64 << 10));
    blocks.back()[0] = 1;
  }
  return heap_end() > before;
}

bool top_of_heap_is_marked() { return flags_of_mapping_at(heap_end() - 1).find(" hg ") != std::string::npos; }

// Ends the child process: status 0 if `failure` is empty, else 1 with it on stderr.
[[noreturn]] void end_scenario(const std::string& failure) {
  if (!failure.empty()) std::fprintf(stderr, "%s\n", failure.c_str());
  std::exit(failure.empty() ? 0 : 1);
}

// Pages faulted in by this process so far (minor faults: none of them reads a file).
long page_faults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

// How many of the 4 KB pages of [from, to) are resident.
std::size_t resident_pages(std::uintptr_t from, std::uintptr_t to) {
  from &= ~std::uintptr_t{4095};
  to = (to + 4095) & ~std::uintptr_t{4095};
  if (to <= from) return 0;
  std::vector<unsigned char> in_core((to - from) / 4096);
  if (mincore(reinterpret_cast<void*>(from), to - from, in_core.data()) != 0) return 0;
  std::size_t resident = 0;
  for (unsigned char page : in_core) resident += page & 1;
  return resident;
}

// Whether the kernel populates on request (MADV_POPULATE_WRITE, Linux 5.14).
bool kernel_populates() {
#ifdef MADV_POPULATE_WRITE
  const std::size_t bytes = 4 << 12;
  void* area = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (area == MAP_FAILED) return false;
  const bool populated = madvise(area, bytes, MADV_POPULATE_WRITE) == 0;
  munmap(area, bytes);
  return populated;
#else
  return false;
#endif
}

// Blocks of 64 KB from the heap, not written (malloc, not new char[]()), until the heap
// has grown by `bytes`; their pages are the heap's growth.
std::vector<void*> blocks_growing_the_heap_by(std::uintptr_t bytes) {
  std::vector<void*> blocks;
  const std::uintptr_t before = heap_end();
  while (heap_end() - before < bytes && blocks.size() < 4096) blocks.push_back(std::malloc(64 << 10));
  return blocks;
}

// Writes a byte in every page of the blocks, and returns the page faults that took.
long faults_writing(const std::vector<void*>& blocks) {
  const long before = page_faults();
  for (void* block : blocks) {
    for (std::size_t offset = 0; offset < (64 << 10); offset += 4096) static_cast<volatile char*>(block)[offset] = 1;
  }
  return page_faults() - before;
}

std::string populates_growth_while_waiting() {
  if (!use_huge_pages_for_heap(HugeHeap::kForLargeEGraphs)) return "use_huge_pages_for_heap refused";
  // A load of 4 MB ahead: the heap grows by that much at once and 2 MB more (so that a
  // 2 MB region lies whole inside the load's part), the load's part populated, and the
  // blocks the load takes from it fault nothing in.
  std::vector<void*> loaded;
  {
    const std::uintptr_t before = heap_end();
    const HeapAhead ahead(std::size_t{4} << 20);
    const std::uintptr_t grown = heap_end();
    // (By 6 MB less what the top of the heap held free already: under 512 KB.)
    if (grown - before < (std::uintptr_t{11} << 19)) return "HeapAhead did not grow the heap by 6 MB";
    const std::uintptr_t load_end = before + (std::uintptr_t{4} << 20);
    if (resident_pages(before, load_end) + 2 < (load_end - before) / 4096) {
      return "HeapAhead did not populate the load's part of the heap's growth";
    }
    // A load of 2 MB or more: a 2 MB region inside it takes huge pages.
    const std::uintptr_t region = (before + (std::uintptr_t{2} << 20) - 1) & ~((std::uintptr_t{2} << 20) - 1);
    if (flags_of_mapping_at(region).find(" hg ") == std::string::npos) {
      return "no 2 MB region of a 4 MB HeapAhead is marked: " + flags_of_mapping_at(region);
    }
    while (loaded.size() < 48) loaded.push_back(std::malloc(64 << 10));  // 3 MB of the 4
    if (heap_end() != grown) return "the heap grew again inside what HeapAhead took";
    // Unpopulated, the 768 pages would fault 768 times; the first blocks may come from
    // the room the top of the heap had before (up to 128 KB, 32 pages, not populated).
    if (const long faults = faults_writing(loaded); faults > 48) {
      return "writing 3 MB loaded inside HeapAhead faulted " + std::to_string(faults) + " pages";
    }
  }
  // The runner's look populates what the heap grew since the last one. (Not the room
  // the HeapAhead left at the top of the heap past its load, up to 2 MB: that is taken
  // first, unwritten.)
  const std::uintptr_t before_room = heap_end();
  const std::vector<void*> room = blocks_growing_the_heap_by(1);
  // Meanwhile the heap grows 1 MB past each request (less what its top held free, under
  // the 64 KB asked for), so that most of a step is untouched when the look comes.
  if (heap_end() - before_room < (std::uintptr_t{15} << 16)) {
    return "the heap grew by " + std::to_string(heap_end() - before_room) + " bytes while waiting, under 1 MB";
  }
  const std::uintptr_t before = heap_end();
  const std::vector<void*> blocks = blocks_growing_the_heap_by(std::uintptr_t{2} << 20);
  const std::uintptr_t grown = heap_end();
  if (grown <= before) return "the heap did not grow";
  advise_heap_growth(1);
  if (heap_uses_huge_pages()) return "marked for an e-graph of one e-node";
  if (top_of_heap_is_marked()) return "the heap's growth after a HeapAhead is marked";
  if (resident_pages(before, grown) + 2 < (grown - before) / 4096) return "the runner's look did not populate";
  const long faults = faults_writing(blocks);
  for (void* block : blocks) std::free(block);
  for (void* block : loaded) std::free(block);
  for (void* block : room) std::free(block);
  if (faults > 48)
    return "writing what the heap grew by faulted " + std::to_string(faults) + " pages after the runner's look";
  return "";
}

std::string populates_nothing_unasked() {
  const std::uintptr_t before = heap_end();
  {
    const HeapAhead ahead(std::size_t{4} << 20);
    if (heap_end() - before >= (std::uintptr_t{4} << 20)) return "HeapAhead grew the heap unasked";
  }
  const std::uintptr_t start = heap_end();
  const std::vector<void*> blocks = blocks_growing_the_heap_by(std::uintptr_t{1} << 20);
  advise_heap_growth(1);
  if (heap_growth_unpopulated()) return "growth to populate unasked";
  populate_heap_growth();
  const bool populated = resident_pages(start, heap_end()) * 2 > (heap_end() - start) / 4096;
  for (void* block : blocks) std::free(block);
  return populated ? "the runner's look populated unasked" : "";
}

// A saturation on several threads populates the heap's growth on a thread other than
// the one that allocates (egraph/heap_growth_helper.h).
std::string populates_growth_on_another_thread() {
  if (heap_growth_unpopulated()) return "growth to populate before huge pages were asked for";
  const std::uintptr_t before = heap_end();
  if (!use_huge_pages_for_heap(HugeHeap::kFromNow)) return "use_huge_pages_for_heap refused";
  // Asked, the heap grew by a step (32 MB), marked and not populated.
  const std::uintptr_t grown = heap_end();
  const std::size_t pages = (grown - before) / 4096;
  if (grown - before < (std::uintptr_t{16} << 20)) return "the heap did not grow by a step when asked";
  if (!heap_growth_unpopulated()) return "the step is not counted as growth to populate";
  if (resident_pages(before, grown) * 4 > pages) return "most of the step was resident before it was populated";
  // Stopped, it populates nothing.
  const std::atomic<bool> stop{true};
  populate_heap_growth(&stop);
  if (resident_pages(before, grown) * 4 > pages) return "populate_heap_growth populated after it was stopped";
  std::thread([] { populate_heap_growth(); }).join();
  if (heap_growth_unpopulated()) return "growth left to populate after populate_heap_growth";
  if (resident_pages(before, grown) + 32 < pages) {
    return "populate_heap_growth left " + std::to_string(pages - resident_pages(before, grown)) + " of " +
           std::to_string(pages) + " pages of the step out";
  }
  return "";
}

// A saturation on several threads offers its arena a GrowthHelper's task at the apply's
// looks (runner.cpp): it populates the heap's growth there, once the e-graph is large.
std::string a_growth_helper_populates_in_the_arena() {
  if (!use_huge_pages_for_heap(HugeHeap::kFromNow)) return "use_huge_pages_for_heap refused";
  if (!heap_growth_unpopulated()) return "the step taken when asked is not counted as growth";
  tbb::task_arena arena(2);
  {
    GrowthHelper helper;
    helper.offer(arena, GrowthHelper::kMinNodes - 1);  // a small e-graph: no task
    helper.offer(arena, GrowthHelper::kMinNodes);
    // (The task runs on the arena's worker: wait for it, at most a minute.)
    for (int waited = 0; heap_growth_unpopulated() && waited < 6000; ++waited) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  if (heap_growth_unpopulated()) return "the helper's task did not populate the heap's growth";
  return "";
}

std::string marks_now() {
  if (heap_uses_huge_pages()) return "on before it was asked for";
  advise_heap_growth(kLargeEGraphNodes);  // not asked for: does nothing, however large
  if (heap_uses_huge_pages()) return "the runner's look turned it on unasked";
  if (!use_huge_pages_for_heap(HugeHeap::kFromNow)) return "use_huge_pages_for_heap refused";
  if (!heap_uses_huge_pages()) return "not on once asked for";
  if (!use_huge_pages_for_heap(HugeHeap::kFromNow)) return "refused when asked again";
  // The top of the heap, grown by a step when the advice went on, is marked ("hg").
  if (!top_of_heap_is_marked()) return "the top of the heap is not marked: " + flags_of_mapping_at(heap_end() - 1);
  std::vector<std::unique_ptr<char[]>> blocks;
  if (!grow_heap(blocks)) return "the heap did not grow";
  advise_heap_growth(0);  // on: marks the growth whatever the e-graph's size
  if (!top_of_heap_is_marked()) return "the heap's growth is not marked";
  return "";
}

std::string waits_for_a_large_egraph() {
  if (!use_huge_pages_for_heap(HugeHeap::kForLargeEGraphs)) return "use_huge_pages_for_heap refused";
  if (heap_uses_huge_pages()) return "on before any e-graph was large";
  std::vector<std::unique_ptr<char[]>> blocks;
  if (!grow_heap(blocks)) return "the heap did not grow";
  advise_heap_growth(kLargeEGraphNodes - 1);
  if (heap_uses_huge_pages() || top_of_heap_is_marked()) return "marked for an e-graph below kLargeEGraphNodes";
  advise_heap_growth(kLargeEGraphNodes);
  if (!heap_uses_huge_pages()) return "not on for an e-graph of kLargeEGraphNodes";
  if (!top_of_heap_is_marked()) return "the top of the heap is not marked: " + flags_of_mapping_at(heap_end() - 1);
  if (!grow_heap(blocks)) return "the heap did not grow";
  advise_heap_growth(kLargeEGraphNodes);
  if (!top_of_heap_is_marked()) return "the heap's growth is not marked";
  return "";
}

std::string asked_now_after_waiting_marks_now() {
  if (!use_huge_pages_for_heap(HugeHeap::kForLargeEGraphs)) return "use_huge_pages_for_heap refused";
  if (!use_huge_pages_for_heap(HugeHeap::kFromNow)) return "refused kFromNow after kForLargeEGraphs";
  if (!heap_uses_huge_pages() || !top_of_heap_is_marked()) return "kFromNow did not mark the heap at once";
  return "";
}

// Minor faults of the calling thread so far.
long thread_page_faults() {
  rusage usage{};
  getrusage(RUSAGE_THREAD, &usage);
  return usage.ru_minflt;
}

// The page faults a thread takes writing a byte in every page of 1 MB of heap blocks
// (64 KB each, from its own arena). As a batch's freed memory stays in each thread's
// heap (tools/batch_command.cpp), the heap keeps what it frees here.
long faults_writing_this_threads_heap() {
  std::vector<void*> blocks;
  const long before = thread_page_faults();
  for (int i = 0; i < 16; ++i) {
    auto* block = static_cast<volatile char*>(std::malloc(64 << 10));
    for (int offset = 0; offset < (64 << 10); offset += 4096) block[offset] = 1;
    blocks.push_back(const_cast<char*>(block));
  }
  const long faults = thread_page_faults() - before;
  for (void* block : blocks) std::free(block);
  return faults;
}

// Uses a page of stack per call: `depth` pages below the caller's frame.
__attribute__((noinline)) int use_stack(int depth) {
  volatile char frame[4096];
  frame[0] = static_cast<char>(depth);
  frame[sizeof frame - 1] = 1;
  return depth == 0 ? frame[0] : use_stack(depth - 1) + frame[sizeof frame - 1];
}

// The page faults a new thread takes using 256 KB of its stack, after `prepare`.
template <class Prepare>
long faults_of_a_new_thread_using_its_stack(Prepare prepare) {
  long faults = -1;
  std::thread([&] {
    prepare();
    const long before = thread_page_faults();
    const int pages = use_stack(64);
    faults = pages == 64 ? thread_page_faults() - before : -1;
  }).join();
  return faults;
}

std::string a_populated_thread_heap_takes_blocks_without_faults() {
  mallopt(M_TRIM_THRESHOLD, 16 << 20);
  // Two threads alive at once, so that each has an arena of its own (glibc gives a new
  // thread the arena of one that ended).
  long plain = -1, populated = -1;
  std::latch plain_measured(1), populated_measured(1);
  std::thread first([&] {
    plain = faults_writing_this_threads_heap();
    plain_measured.count_down();
    populated_measured.wait();
  });
  plain_measured.wait();
  std::thread([&] {
    populate_thread_heap(std::size_t{3} << 19);
    populated = faults_writing_this_threads_heap();
  }).join();
  populated_measured.count_down();
  first.join();
  if (plain < 200) return "a new thread's 256 pages of heap took only " + std::to_string(plain) + " faults";
  if (populated > 16) return "populated ahead, they took " + std::to_string(populated) + " faults";
  return "";
}

std::string a_populated_thread_stack_grows_without_faults() {
  const long populated = faults_of_a_new_thread_using_its_stack([] { populate_thread_stack(std::size_t{512} << 10); });
  const long plain = faults_of_a_new_thread_using_its_stack([] {});
  if (plain < 48) return "a new thread's 64 pages of stack took only " + std::to_string(plain) + " faults";
  if (populated > 8) return "populated ahead, they took " + std::to_string(populated) + " faults";
  return "";
}

// Each scenario's child is a fresh run of this test binary ("threadsafe" death tests),
// not a fork: a fork inherits the heap that the tests run before it in the same
// process left (free space at its top, which a HeapAhead then need not grow into), and
// the scenarios are about how a heap grows.
class HeapPages : public ::testing::Test {
 protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

TEST_F(HeapPages, WhileWaitingForALargeEGraphTheHeapsGrowthIsPopulatedAhead) {
  if (!heap_can_take_huge_pages()) GTEST_SKIP() << "no huge pages for the heap here";
  if (!kernel_populates()) GTEST_SKIP() << "this kernel does not populate on request (Linux 5.14)";
  EXPECT_EXIT(end_scenario(populates_growth_while_waiting()), ::testing::ExitedWithCode(0), "");
}

TEST_F(HeapPages, AnotherThreadPopulatesTheHeapsGrowthInHugePages) {
  if (!heap_can_take_huge_pages()) GTEST_SKIP() << "no huge pages for the heap here";
  if (!kernel_populates()) GTEST_SKIP() << "this kernel does not populate on request (Linux 5.14)";
  EXPECT_EXIT(end_scenario(populates_growth_on_another_thread()), ::testing::ExitedWithCode(0), "");
}

TEST_F(HeapPages, AGrowthHelperPopulatesTheHeapsGrowthOnTheArenasThread) {
  if (!heap_can_take_huge_pages()) GTEST_SKIP() << "no huge pages for the heap here";
  if (!kernel_populates()) GTEST_SKIP() << "this kernel does not populate on request (Linux 5.14)";
  EXPECT_EXIT(end_scenario(a_growth_helper_populates_in_the_arena()), ::testing::ExitedWithCode(0), "");
}

TEST_F(HeapPages, NotAskedForNothingIsPopulatedAhead) {
  if (!heap_can_take_huge_pages()) GTEST_SKIP() << "HeapAhead does nothing in this build or kernel";
  EXPECT_EXIT(end_scenario(populates_nothing_unasked()), ::testing::ExitedWithCode(0), "");
}

// A batch's worker threads populate the first pages of their heaps and stacks while the
// rules load (tools/batch_pipeline.h): their first cases then fault none of them in.
// (In a child of its own, each scenario compares a populated thread with a plain one.
// glibc gives a new thread the arena of one that ended, so the two heaps' threads are
// alive at once; a stack it may reuse too, but its pages given back.)
TEST_F(HeapPages, AThreadsHeapPopulatedAheadTakesItsFirstBlocksWithoutFaults) {
  if (!heap_can_take_huge_pages()) GTEST_SKIP() << "populate_thread_heap does nothing in this build";
  if (!kernel_populates()) GTEST_SKIP() << "this kernel does not populate on request (Linux 5.14)";
  EXPECT_EXIT(end_scenario(a_populated_thread_heap_takes_blocks_without_faults()), ::testing::ExitedWithCode(0), "");
}

TEST_F(HeapPages, AThreadsStackPopulatedAheadGrowsWithoutFaults) {
  if (!heap_can_take_huge_pages()) GTEST_SKIP() << "populate_thread_stack does nothing in this build";
  if (!kernel_populates()) GTEST_SKIP() << "this kernel does not populate on request (Linux 5.14)";
  EXPECT_EXIT(end_scenario(a_populated_thread_stack_grows_without_faults()), ::testing::ExitedWithCode(0), "");
}

TEST_F(HeapPages, WhereTheAdviceCannotTakeEffectItIsRefusedAndNothingIsMarked) {
  if (heap_can_take_huge_pages()) GTEST_SKIP() << "this build and kernel take the advice";
  EXPECT_FALSE(use_huge_pages_for_heap(HugeHeap::kForLargeEGraphs));
  EXPECT_FALSE(use_huge_pages_for_heap(HugeHeap::kFromNow));
  advise_heap_growth(kLargeEGraphNodes);
  EXPECT_FALSE(heap_uses_huge_pages());
}

TEST_F(HeapPages, AskedForNowMarksTheHeapAndItsGrowth) {
  if (!heap_can_take_huge_pages()) GTEST_SKIP() << "no huge pages for the heap here";
  EXPECT_EXIT(end_scenario(marks_now()), ::testing::ExitedWithCode(0), "");
}

TEST_F(HeapPages, AskedForLargeEGraphsWaitsForTheRunnerToSeeOne) {
  if (!heap_can_take_huge_pages()) GTEST_SKIP() << "no huge pages for the heap here";
  EXPECT_EXIT(end_scenario(waits_for_a_large_egraph()), ::testing::ExitedWithCode(0), "");
}

TEST_F(HeapPages, AskedForNowAfterLargeEGraphsMarksAtOnce) {
  if (!heap_can_take_huge_pages()) GTEST_SKIP() << "no huge pages for the heap here";
  EXPECT_EXIT(end_scenario(asked_now_after_waiting_marks_now()), ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace eqsat
