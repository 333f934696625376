// Whether this kernel gives transparent huge pages when a program advises them
// (MADV_HUGEPAGE): anything but "[never]" in its setting. Read here, apart from
// egraph/heap_pages.cpp's own reading, so that the tests of --huge-pages have an
// expectation of their own.
#pragma once

#include <fstream>
#include <string>

namespace eqsat::testing {

inline bool kernel_has_transparent_huge_pages() {
  std::ifstream file("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string text;
  std::getline(file, text);
  return !text.empty() && text.find("[never]") == std::string::npos;
}

// Whether eqsat's heap can take the advice here: the kernel gives huge pages, and the
// build is not under AddressSanitizer, whose allocator does not use the heap that
// egraph/heap_pages.cpp would mark.
inline bool heap_can_take_huge_pages() {
#if defined(__SANITIZE_ADDRESS__)
  return false;
#else
  return kernel_has_transparent_huge_pages();
#endif
}

}  // namespace eqsat::testing
