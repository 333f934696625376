// Huge pages for the heap (egraph/heap_pages.h): off until asked for; once on, the
// heap's mapping carries the kernel's huge-page advice, and so does what it grows into
// once the runner has looked (advise_heap_growth). Asked for large e-graphs only, the
// advice waits for the runner to look with an e-graph of kLargeEGraphNodes e-nodes.
//
// The advice, once on, stays on for the rest of the process: each scenario runs in a
// child process of its own (EXPECT_EXIT), which exits 0 when everything it checks
// holds and otherwise says on stderr what did not.
#include "egraph/heap_pages.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

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

TEST(HeapPages, WhereTheAdviceCannotTakeEffectItIsRefusedAndNothingIsMarked) {
  if (heap_can_take_huge_pages()) GTEST_SKIP() << "this build and kernel take the advice";
  EXPECT_FALSE(use_huge_pages_for_heap(HugeHeap::kForLargeEGraphs));
  EXPECT_FALSE(use_huge_pages_for_heap(HugeHeap::kFromNow));
  advise_heap_growth(kLargeEGraphNodes);
  EXPECT_FALSE(heap_uses_huge_pages());
}

TEST(HeapPages, AskedForNowMarksTheHeapAndItsGrowth) {
  if (!heap_can_take_huge_pages()) GTEST_SKIP() << "no huge pages for the heap here";
  EXPECT_EXIT(end_scenario(marks_now()), ::testing::ExitedWithCode(0), "");
}

TEST(HeapPages, AskedForLargeEGraphsWaitsForTheRunnerToSeeOne) {
  if (!heap_can_take_huge_pages()) GTEST_SKIP() << "no huge pages for the heap here";
  EXPECT_EXIT(end_scenario(waits_for_a_large_egraph()), ::testing::ExitedWithCode(0), "");
}

TEST(HeapPages, AskedForNowAfterLargeEGraphsMarksAtOnce) {
  if (!heap_can_take_huge_pages()) GTEST_SKIP() << "no huge pages for the heap here";
  EXPECT_EXIT(end_scenario(asked_now_after_waiting_marks_now()), ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace eqsat
