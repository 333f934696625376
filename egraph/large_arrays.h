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

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

#include "egraph/parallel_range.h"

namespace eqsat {

// madvise's MADV_POPULATE_WRITE (Linux 5.14): back a range's pages now, writable,
// without writing them. Also used by egraph/heap_pages.cpp.
#ifdef MADV_POPULATE_WRITE
inline constexpr int kMadvisePopulateWrite = MADV_POPULATE_WRITE;
#else
inline constexpr int kMadvisePopulateWrite = 23;  // Linux 5.14's value, for older headers
#endif

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
    void* storage = map_aligned(rounded_to_huge_pages(bytes));
    madvise(storage, rounded_to_huge_pages(bytes), MADV_HUGEPAGE);  // advice only: ignored where unsupported
    return static_cast<T*>(storage);
  }

  // Storage for `grown` elements (more than n) that holds the n of `storage`, which it
  // replaces; the elements from n on are left for the caller to write. Where both are
  // mappings of their own, the pages of the old one move into the new one (mremap),
  // resident as they are, instead of being copied into fresh pages that are slow on
  // first touch: a table that doubles then touches only its new half for the first
  // time. For trivially copyable elements only.
  T* grow(T* storage, std::size_t n, std::size_t grown) {
    static_assert(std::is_trivially_copyable_v<T>, "grow moves pages, not elements");
    const std::size_t bytes = n * sizeof(T), grown_bytes = grown * sizeof(T);
    if (from_standard_allocator(bytes)) {
      T* fresh = allocate(grown);
      if (n > 0) std::memcpy(static_cast<void*>(fresh), storage, bytes);
      deallocate(storage, n);
      return fresh;
    }
    const std::size_t mapped = bytes < kHugePage ? rounded_to_pages(bytes) : rounded_to_huge_pages(bytes);
    if (grown_bytes < kHugePage) {
      void* moved = mremap(storage, mapped, rounded_to_pages(grown_bytes), MREMAP_MAYMOVE);
      if (moved == MAP_FAILED) throw std::bad_alloc();
      // Populated as a new array of this size is (Linux 5.14; advice only).
      madvise(static_cast<char*>(moved) + mapped, rounded_to_pages(grown_bytes) - mapped, kMadvisePopulateWrite);
      return static_cast<T*>(moved);
    }
    // Onto a place aligned to 2 MB that the new size takes whole (mapped first, so that
    // no other mapping can take it meanwhile: MREMAP_FIXED replaces it).
    const std::size_t rounded = rounded_to_huge_pages(grown_bytes);
    void* target = map_aligned(rounded);
    void* moved = mremap(storage, mapped, rounded, MREMAP_MAYMOVE | MREMAP_FIXED, target);
    if (moved == MAP_FAILED) {
      munmap(target, rounded);
      throw std::bad_alloc();
    }
    madvise(moved, rounded, MADV_HUGEPAGE);
    return static_cast<T*>(moved);
  }

  void deallocate(T* storage, std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (from_standard_allocator(bytes)) {
      std::allocator<T>().deallocate(storage, n);
    } else if (bytes < kHugePage) {
      munmap(storage, bytes);
    } else {
      munmap(storage, rounded_to_huge_pages(bytes));
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
  static std::size_t rounded_to_pages(std::size_t bytes) { return (bytes + 4095) & ~std::size_t{4095}; }
  static std::size_t rounded_to_huge_pages(std::size_t bytes) { return (bytes + kHugePage - 1) & ~(kHugePage - 1); }
  // A mapping of `rounded` bytes (a multiple of 2 MB) that starts on a 2 MB boundary.
  static void* map_aligned(std::size_t rounded) {
    void* mapped = mmap(nullptr, rounded + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED) throw std::bad_alloc();
    const auto start = reinterpret_cast<std::uintptr_t>(mapped);
    const std::uintptr_t aligned = (start + kHugePage - 1) & ~(kHugePage - 1);
    if (aligned > start) munmap(mapped, aligned - start);
    if (const std::uintptr_t tail = start + kHugePage - aligned; tail > 0) {
      munmap(reinterpret_cast<void*>(aligned + rounded), tail);
    }
    return reinterpret_cast<void*>(aligned);
  }
};

// An array of trivially copyable elements in LargeArrayAllocator's storage that can
// double keeping its pages (LargeArrayAllocator::grow): the hash-cons table, which a
// saturation doubles again and again (egraph/node_memo.h). Its size is its capacity.
template <class T, MidSize kMidSize>
class GrowableArray {
 public:
  GrowableArray() = default;
  GrowableArray(const GrowableArray& other) { *this = other; }
  GrowableArray(GrowableArray&& other) noexcept { swap(other); }
  GrowableArray& operator=(const GrowableArray& other) {
    if (this != &other) {
      assign(other.size_, T{});
      if (size_ > 0) std::memcpy(static_cast<void*>(data_), other.data_, size_ * sizeof(T));
    }
    return *this;
  }
  GrowableArray& operator=(GrowableArray&& other) noexcept {
    GrowableArray(std::move(other)).swap(*this);
    return *this;
  }
  ~GrowableArray() { release(); }
  void swap(GrowableArray& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
  }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }

  // Fresh storage of n elements, each `value`.
  void assign(std::size_t n, const T& value) {
    release();
    if (n > 0) data_ = LargeArrayAllocator<T, kMidSize>().allocate(n);
    size_ = n;
    std::fill(data_, data_ + n, value);
  }
  // n elements (more than now), the first ones as they are, the others `value`. The
  // new ones are written by `threads` threads (in the calling task arena), a 2 MB piece
  // at a time: their pages are fresh, and backing them is most of a large table's
  // growth (about 4.5 ms a 2 MB page on this project's machine class, whichever thread
  // asks), so on several threads each backs its own pieces. (`sum 11` on two threads,
  // whose apply's batches pass theirs: 0.958x and 0.963x the time, 11 runs alternated.)
  void grow(std::size_t n, const T& value, unsigned threads = 1) {
    data_ = LargeArrayAllocator<T, kMidSize>().grow(data_, size_, n);
    constexpr std::size_t kPiece = std::max<std::size_t>(1, LargeArrayAllocator<T, kMidSize>::kHugePage / sizeof(T));
    T* const added = data_ + size_;
    const std::size_t count = n - size_;
    for_range(threads, (count + kPiece - 1) / kPiece, 1, [&](std::size_t piece) {
      std::fill(added + piece * kPiece, added + std::min(count, (piece + 1) * kPiece), value);
    });
    size_ = n;
  }

 private:
  void release() {
    if (data_ != nullptr) LargeArrayAllocator<T, kMidSize>().deallocate(data_, size_);
    data_ = nullptr;
    size_ = 0;
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace eqsat
