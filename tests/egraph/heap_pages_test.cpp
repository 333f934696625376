// Huge pages for the heap (egraph/heap_pages.h): off until asked for; once on, the
// heap's mapping carries the kernel's huge-page advice, and so does what it grows into
// once the runner has looked (advise_heap_growth).
#include "egraph/heap_pages.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/huge_pages.h"

namespace eqsat {
namespace {

using ::eqsat::testing::kernel_has_transparent_huge_pages;
using ::testing::HasSubstr;

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

TEST(HeapPages, MarksTheHeapAndItsGrowthOnlyOnceAskedFor) {
  EXPECT_FALSE(heap_uses_huge_pages());
  advise_heap_growth();  // off: does nothing
  EXPECT_FALSE(heap_uses_huge_pages());

  const bool on = use_huge_pages_for_heap();
#if defined(__SANITIZE_ADDRESS__)
  EXPECT_FALSE(on) << "AddressSanitizer's allocator does not use the heap it would mark";
  return;
#endif
  ASSERT_EQ(on, kernel_has_transparent_huge_pages());
  if (!on) GTEST_SKIP() << "this kernel's transparent huge pages are off";
  EXPECT_TRUE(heap_uses_huge_pages());
  EXPECT_TRUE(use_huge_pages_for_heap());  // again: nothing changes
  // The top of the heap, grown by a step when the advice went on, is marked ("hg").
  EXPECT_THAT(flags_of_mapping_at(heap_end() - 1), HasSubstr(" hg "));

  // Grow the heap past that step with blocks glibc takes from it (under 128 KB), then
  // let the runner's check see it: the new top is marked too.
  const std::uintptr_t before = heap_end();
  std::vector<std::unique_ptr<char[]>> blocks;
  while (heap_end() - before < (std::uintptr_t{48} << 20) && blocks.size() < 4096) {
    blocks.push_back(std::make_unique<char[]>(64 << 10));
    blocks.back()[0] = 1;
  }
  ASSERT_GT(heap_end(), before) << "the heap did not grow";
  advise_heap_growth();
  EXPECT_THAT(flags_of_mapping_at(heap_end() - 1), HasSubstr(" hg "));
}

}  // namespace
}  // namespace eqsat
