#include "verify/z3_deadline.h"

#include <pthread.h>

#include <algorithm>
#include <chrono>

namespace eqsat::verify {

namespace {

using Clock = std::chrono::steady_clock;

// How often the watchdog looks at the CPU clock: short against any useful timeout, long
// enough to cost nothing.
constexpr std::chrono::milliseconds kPollInterval{20};

std::chrono::nanoseconds cpu_time(clockid_t clock) {
  timespec now{};
  clock_gettime(clock, &now);
  return std::chrono::seconds(now.tv_sec) + std::chrono::nanoseconds(now.tv_nsec);
}

}  // namespace

Z3Deadline::Z3Deadline(z3::context& ctx, unsigned timeout_ms) : ctx_(ctx) {
  clockid_t clock{};
  const bool have_cpu_clock = pthread_getcpuclockid(pthread_self(), &clock) == 0;
  const std::chrono::milliseconds budget(timeout_ms);
  const std::chrono::nanoseconds cpu_start = have_cpu_clock ? cpu_time(clock) : std::chrono::nanoseconds{0};
  const Clock::time_point wall_start = Clock::now();
  // Without a CPU clock for the thread, the wall clock is the limit.
  const Clock::time_point wall_cap = wall_start + (have_cpu_clock ? 4 * budget : budget);
  watchdog_ = std::thread([this, clock, have_cpu_clock, budget, cpu_start, wall_cap] {
    std::unique_lock lock(mutex_);
    while (true) {
      const Clock::time_point now = Clock::now();
      if (now >= wall_cap) break;
      if (have_cpu_clock && cpu_time(clock) - cpu_start >= budget) break;
      const Clock::duration wait =
          have_cpu_clock ? std::min<Clock::duration>(kPollInterval, wall_cap - now) : wall_cap - now;
      if (wake_.wait_for(lock, wait, [this] { return stopping_; })) return;
    }
    expired_ = true;
    // Under the lock, so that the destructor (and the context's) cannot run meanwhile.
    // Again at every poll until the destructor: Z3 acts on an interrupt only while a
    // query runs, and on a short budget in a slow build the time can run out while the
    // query is still being built. A single interrupt was then lost and the query ran
    // unbounded (a 50 ms budget under the sanitizers: one test ran 699 s, not 6).
    do {
      ctx_.interrupt();
    } while (!wake_.wait_for(lock, kPollInterval, [this] { return stopping_; }));
  });
}

Z3Deadline::~Z3Deadline() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  watchdog_.join();
}

}  // namespace eqsat::verify
