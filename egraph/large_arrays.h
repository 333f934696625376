// Storage for the engine's largest arrays, in huge pages or populated mappings.
//
// A large saturation allocates its largest arrays (the hash-cons table, the class
// records, the rebuild's pending list) again and again as they grow, and every fresh
// 4 KB page is slow on first touch. On this project's machine class (a virtual
// machine) a page faulted on first write costs about 10.7 microseconds, most of it
// work of the host, not the zeroing of the page (docs/performance.md, "New root nodes
// by the batch; huge pages for the largest arrays", and "Pages touched for the first
// time; mid-size arrays populated when made"). So this allocator takes
// - an array of 2 MB or more aligned to 2 MB and marked for transparent huge pages
//   (madvise MADV_HUGEPAGE): the kernel faults it in 2 MB at a time, and it takes
//   fewer TLB entries, which the hash-cons's random probes miss. Where the kernel does
//   not do huge pages the advice is ignored and the array is an ordinary one. It is
//   a mapping of its own, not a block of malloc's: freed, it goes back to the system
//   whatever malloc's settings (with the heap in huge pages, egraph/heap_pages.h, the
//   heap has room for it, and a block freed there stays in the process);
// - with MidSize::Populated, an array of 64 KB to 2 MB as a mapping of its own,
//   populated when made (MAP_POPULATE): the kernel backs all its pages in one call,
//   about half the cost of faulting them one at a time (4.9 against 10.7 microseconds
//   a page, measured). For arrays written whole soon after they are made (a new
//   hash-cons table is filled with empty slots; the class records are kept and fill
//   as they grow), so the pages populated early would be touched anyway. Not for a
//   list freed and grown anew every iteration (the rebuild's pending list): the
//   standard allocator hands it memory already backed, which a fresh mapping never is;
// - other arrays from the standard allocator as usual.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>

namespace eqsat {

// How LargeArrayAllocator takes an array of 64 KB to 2 MB (see above).
enum class MidSize { Standard, Populated };

template <class T, MidSize kMidSize>
class LargeArrayAllocator {
 public:
  using value_type = T;
  static constexpr std::size_t kHugePage = std::size_t{2} << 20;
  static constexpr std::size_t kPopulated = std::size_t{64} << 10;

  template <class U>
  struct rebind {
    using other = LargeArrayAllocator<U, kMidSize>;
  };

  LargeArrayAllocator() = default;
  template <class U>
  LargeArrayAllocator(const LargeArrayAllocator<U, kMidSize>&) {}

  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (from_standard_allocator(bytes)) return std::allocator<T>().allocate(n);
    if (bytes < kHugePage) {
      void* storage = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
      if (storage == MAP_FAILED) throw std::bad_alloc();
      return static_cast<T*>(storage);
    }
    const std::size_t rounded = (bytes + kHugePage - 1) & ~(kHugePage - 1);
    void* mapped = mmap(nullptr, rounded + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED) throw std::bad_alloc();
    const auto start = reinterpret_cast<std::uintptr_t>(mapped);
    const std::uintptr_t aligned = (start + kHugePage - 1) & ~(kHugePage - 1);
    if (aligned > start) munmap(mapped, aligned - start);
    if (const std::uintptr_t tail = start + kHugePage - aligned; tail > 0) {
      munmap(reinterpret_cast<void*>(aligned + rounded), tail);
    }
    void* storage = reinterpret_cast<void*>(aligned);
    madvise(storage, rounded, MADV_HUGEPAGE);  // advice only: ignored where unsupported
    return static_cast<T*>(storage);
  }
  void deallocate(T* storage, std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (from_standard_allocator(bytes)) {
      std::allocator<T>().deallocate(storage, n);
    } else if (bytes < kHugePage) {
      munmap(storage, bytes);
    } else {
      munmap(storage, (bytes + kHugePage - 1) & ~(kHugePage - 1));
    }
  }

  template <class U>
  friend bool operator==(const LargeArrayAllocator&, const LargeArrayAllocator<U, kMidSize>&) {
    return true;
  }

 private:
  static bool from_standard_allocator(std::size_t bytes) {
    return bytes < (kMidSize == MidSize::Populated ? kPopulated : kHugePage);
  }
};

}  // namespace eqsat
