// A time limit for Z3 queries that does not use Z3's own `timeout` parameter.
//
// Z3's timeout runs a `scoped_timer` whose thread pool in Z3 4.8.12 (Debian 12's
// libz3) can deadlock: the query thread waits for a mutex that the timer thread keeps
// while it waits for the query. Seen here on a single nonlinear INDEX query that never
// returned, even alone in the process. Instead, a watchdog thread of ours interrupts
// the context (Z3_interrupt, which is meant to be called from another thread) when the
// time is up; the query then returns `unknown`.
//
// The time counted is the CPU time of the thread that asks (Z3 solves on the caller's
// thread), not the wall clock: a proof then gets the same budget on a machine busy with
// other work as on an idle one, so whether a rule is proved within its timeout does not
// depend on what else runs (a test suite in parallel, a build). A wall-clock cap of four
// times the limit stays as a backstop for a query that stops using CPU at all. Once the
// time is up the watchdog interrupts again every 20 ms until the deadline ends, since Z3
// ignores an interrupt that comes while no query runs (the query still being built).
#pragma once

#include <z3++.h>

#include <atomic>
#include <condition_variable>
#include <ctime>
#include <mutex>
#include <thread>

namespace eqsat::verify {

class Z3Deadline {
 public:
  // Interrupts every query on `ctx` once the calling thread has used `timeout_ms` of
  // CPU time from now (or four times that of wall-clock time has passed), and every
  // query that starts after that. Construct it on the thread that runs the queries.
  Z3Deadline(z3::context& ctx, unsigned timeout_ms);
  ~Z3Deadline();  // stops the watchdog; no interrupt after this returns
  Z3Deadline(const Z3Deadline&) = delete;
  Z3Deadline& operator=(const Z3Deadline&) = delete;

  // Whether the time ran out (and the context was interrupted).
  bool expired() const { return expired_.load(); }

 private:
  z3::context& ctx_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::atomic<bool> expired_ = false;
  std::thread watchdog_;
};

}  // namespace eqsat::verify
