// Storage for the engine's largest arrays, in huge pages where the system grants them.
//
// A large saturation allocates its largest arrays (the hash-cons table, the class
// records, the rebuild's pending list) again and again as they grow, and every fresh
// 4 KB page costs a page fault on first touch. On this project's machine class (a
// virtual machine) a fault costs about 20 microseconds: `sum 10` took 21,000 of them,
// a good part of its run (docs/performance.md, "New root nodes by the batch; huge
// pages for the largest arrays"). An array of 2 MB or more
// taken from this allocator is aligned to 2 MB and marked for transparent huge pages
// (madvise MADV_HUGEPAGE), so the kernel faults it in 2 MB at a time; it also takes
// fewer TLB entries, which the hash-cons's random probes miss. Smaller arrays come from
// the standard allocator as usual. Where the kernel does not do huge pages the advice
// is ignored and the array is an ordinary one.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>

namespace eqsat {

template <class T>
class HugePageAllocator {
 public:
  using value_type = T;
  static constexpr std::size_t kHugePage = std::size_t{2} << 20;

  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) {}

  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kHugePage) return std::allocator<T>().allocate(n);
    const std::size_t rounded = (bytes + kHugePage - 1) & ~(kHugePage - 1);
    void* storage = std::aligned_alloc(kHugePage, rounded);
    if (storage == nullptr) throw std::bad_alloc();
    madvise(storage, rounded, MADV_HUGEPAGE);  // advice only: ignored where unsupported
    return static_cast<T*>(storage);
  }
  void deallocate(T* storage, std::size_t n) {
    if (n * sizeof(T) < kHugePage) {
      std::allocator<T>().deallocate(storage, n);
    } else {
      std::free(storage);
    }
  }

  template <class U>
  friend bool operator==(const HugePageAllocator&, const HugePageAllocator<U>&) {
    return true;
  }
};

}  // namespace eqsat
