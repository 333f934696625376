// Huge pages for the C library's heap, where the e-graph's lists live (opt-in).
//
// On this project's machine class (a virtual machine) the first touch of a fresh
// 4 KB page costs 5 to 11 microseconds, most of it the host's work, and a large
// saturation touches thousands: `sum 10` faults 9,100 pages in, a third of its time.
// The engine's largest arrays take huge pages of their own (egraph/large_arrays.h);
// the class lists, parent lists, match lists and the parsed rules come from malloc's
// heap in 4 KB pages, unless the heap is marked for transparent huge pages (madvise
// MADV_HUGEPAGE): the kernel then faults it in 2 MB at a time.
//
// glibc does this itself when started with GLIBC_TUNABLES=glibc.malloc.hugetlb=1,
// which a running program cannot set. use_huge_pages_for_heap does it for the main
// arena, the heap of the process's first thread (the command line's, which runs the
// apply and the rebuild): the heap is grown now by a large step (M_TOP_PAD, room
// taken from the system but not touched) and marked, and the runner marks any later
// growth at each iteration (advise_heap_growth). Threads that allocate from arenas of
// their own (TBB's workers) keep 4 KB pages: sharing the main arena (M_ARENA_MAX 1)
// made a two-thread batch slower (0.10 s against 0.07-0.08 s).
//
// The price is memory: freed space stays in the heap (a step is not given back), and
// a touched 2 MB region is resident whole, so peak memory grows (`sum 10`: 588 ->
// 602-666 bytes per e-node) and moves in 2 MB steps, which for a small e-graph is a
// large part of its memory (`pos 3` reads 320 to 790 bytes per e-node from run to run,
// depending on where the heap's randomized start falls). So it is off unless asked for:
// the command line's `--huge-pages`, or a call from an embedding program, since it
// changes the allocator of the whole process (docs/performance.md, "Huge pages for the
// heap").
#pragma once

namespace eqsat {

// Marks the process's heap for transparent huge pages from now on. Returns whether
// the advice is on: not where the kernel's transparent huge pages are off ("[never]"
// in /sys/kernel/mm/transparent_hugepage/enabled), nor where the C library is not
// glibc on Linux. Call it early, before other threads start (the main arena is the
// one marked); calling it again changes nothing.
bool use_huge_pages_for_heap();

// Whether use_huge_pages_for_heap has put the advice on.
bool heap_uses_huge_pages();

// Marks what the heap grew since the last call, if the advice is on: a comparison
// when nothing grew. Safe from any thread (the runner calls it at each iteration, on
// the thread that runs the saturation).
void advise_heap_growth();

}  // namespace eqsat
