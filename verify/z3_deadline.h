// A time limit for Z3 queries that does not use Z3's own `timeout` parameter.
//
// Z3's timeout runs a `scoped_timer` whose thread pool in Z3 4.8.12 (Debian 12's
// libz3) can deadlock: the query thread waits for a mutex that the timer thread keeps
// while it waits for the query. Seen here on a single nonlinear INDEX query that never
// returned, even alone in the process. Instead, a watchdog thread of ours interrupts
// the context (Z3_interrupt, which is meant to be called from another thread) when the
// time is up; the query then returns `unknown`.
#pragma once

#include <z3++.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace eqsat::verify {

class Z3Deadline {
 public:
  // Interrupts every query on `ctx` still running `timeout_ms` from now.
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
