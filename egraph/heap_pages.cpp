#include "egraph/heap_pages.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

// Not under AddressSanitizer, whose allocator is not glibc's heap.
#if defined(__linux__) && defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#define EQSAT_HEAP_PAGES 1
#endif

namespace eqsat {

#ifdef EQSAT_HEAP_PAGES
namespace {

constexpr std::uintptr_t kPage = 4096;
// How far the heap grows past what a request needs (M_TOP_PAD): large, so that it
// grows rarely and each step is marked before most of it is touched. 8 MB kept 1,500
// more faults of `sum 10` (3,374 against 814 at 32 MB) for 10 bytes per e-node less.
constexpr int kHeapStep = 32 << 20;

bool advice_on = false;
std::uintptr_t marked_end = 0;  // the end of the heap as last marked

bool kernel_has_transparent_huge_pages() {
  std::FILE* file = std::fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
  if (file == nullptr) return false;
  char text[128] = {};
  const std::size_t read = std::fread(text, 1, sizeof text - 1, file);
  std::fclose(file);
  return read > 0 && std::strstr(text, "[never]") == nullptr;
}

// sbrk(0) reads glibc's record of the break: no system call.
std::uintptr_t heap_end() { return reinterpret_cast<std::uintptr_t>(sbrk(0)); }

void mark(std::uintptr_t from, std::uintptr_t to) {
  from &= ~(kPage - 1);
  to = (to + kPage - 1) & ~(kPage - 1);
  // Advice only: a failure leaves 4 KB pages, as without it.
  if (to > from) madvise(reinterpret_cast<void*>(from), to - from, MADV_HUGEPAGE);
}

}  // namespace

bool use_huge_pages_for_heap() {
  if (advice_on) return true;
  if (!kernel_has_transparent_huge_pages()) return false;
  mallopt(M_TOP_PAD, kHeapStep);
  const std::uintptr_t start = heap_end() - mallinfo2().arena;
  // Grow the heap by a step now, so that what comes next (the rules, the first
  // e-graph) is allocated from marked pages: blocks the top of the heap cannot hold
  // make it grow. (Below the 128 KB from which glibc maps blocks on their own.)
  void* blocks[16] = {};
  const std::uintptr_t before = heap_end();
  for (void*& block : blocks) {
    block = std::malloc(96 << 10);
    if (block == nullptr || heap_end() != before) break;
  }
  for (void* block : blocks) std::free(block);
  marked_end = heap_end();
  mark(start, marked_end);
  advice_on = true;
  return true;
}

bool heap_uses_huge_pages() { return advice_on; }

void advise_heap_growth() {
  if (!advice_on) return;
  const std::uintptr_t end = heap_end();
  if (end <= marked_end) return;
  mark(marked_end, end);
  marked_end = end;
}

#else

bool use_huge_pages_for_heap() { return false; }
bool heap_uses_huge_pages() { return false; }
void advise_heap_growth() {}

#endif

}  // namespace eqsat
