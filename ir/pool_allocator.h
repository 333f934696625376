// An allocator for small objects made and dropped by the thousand per expression:
// a free list per thread and object size, so that an object freed is the next one
// allocated.
//
// The normal-form passes build and drop many small maps per expression (a
// polynomial is a `std::map` rebuilt at every sum and product, a memo table lives
// for one pass), one allocation per entry, and every `Expr` node is one allocation.
// With the general-purpose allocator that was about a fifth of the time of a small
// case; a free list takes an object and gives it back in a few instructions.
// Memory is never returned to the system while the thread lives: a list holds at
// most as many objects as the thread ever held at once (its destructor frees them
// when the thread ends). An object freed by another thread than the one that made
// it joins the list of the thread that frees it.
//
// Stateless: every instance is interchangeable with every other, so maps using it
// copy, move and swap as with `std::allocator`. Only single-object allocations
// (map and hash-table nodes, shared nodes) use the lists; arrays (bucket arrays)
// go to `new`.
#pragma once

#include <cstddef>
#include <new>
#include <utility>

namespace eqsat {

namespace pool_detail {

// The free chunks of one size on this thread, linked through their first bytes.
template <std::size_t Size, std::size_t Align>
class FreeList {
 public:
  FreeList() = default;
  FreeList(const FreeList &) = delete;
  FreeList &operator=(const FreeList &) = delete;
  ~FreeList() {
    while (head_ != nullptr) ::operator delete (std::exchange(head_, head_->next), std::align_val_t{Align});
    // Objects freed later in the thread's exit (a thread_local or static destroyed
    // after this list) go straight back to the system.
    ended_ = true;
  }

  void *take() {
    if (head_ == nullptr) return ::operator new (Size, std::align_val_t{Align});
    return std::exchange(head_, head_->next);
  }

  void give(void *chunk) {
    if (ended_) {
      ::operator delete (chunk, std::align_val_t{Align});
      return;
    }
    head_ = new (chunk) Chunk{head_};
  }

  static FreeList &of_this_thread() {
    thread_local FreeList list;
    return list;
  }

 private:
  struct Chunk {
    Chunk *next;
  };
  Chunk *head_ = nullptr;
  bool ended_ = false;
};

}  // namespace pool_detail

// Under AddressSanitizer every object goes to `new` and `delete`, so that a use after
// free of a pooled object is still caught (a free list would hand the chunk out again).
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kPoolObjects = false;
#else
inline constexpr bool kPoolObjects = true;
#endif

template <class T>
class PoolAllocator {
 public:
  using value_type = T;

  PoolAllocator() = default;
  template <class U>
  PoolAllocator(const PoolAllocator<U> &) {}  // NOLINT(google-explicit-constructor): rebinding

  T *allocate(std::size_t n) {
    if (n != 1 || !kPoolObjects) return static_cast<T *>(::operator new (n * sizeof(T), std::align_val_t{alignof(T)}));
    return static_cast<T *>(List::of_this_thread().take());
  }

  void deallocate(T *p, std::size_t n) {
    if (n != 1 || !kPoolObjects) {
      ::operator delete (p, std::align_val_t{alignof(T)});
      return;
    }
    List::of_this_thread().give(p);
  }

  friend bool operator==(const PoolAllocator &, const PoolAllocator &) { return true; }

 private:
  // A chunk must hold the link of the free list while it is free.
  static constexpr std::size_t kSize = sizeof(T) < sizeof(void *) ? sizeof(void *) : sizeof(T);
  static constexpr std::size_t kAlign = alignof(T) < alignof(void *) ? alignof(void *) : alignof(T);
  using List = pool_detail::FreeList<kSize, kAlign>;
};

}  // namespace eqsat
