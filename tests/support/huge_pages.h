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

}  // namespace eqsat::testing
