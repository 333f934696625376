#include "egraph/core_handoff.h"

#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>
#include <mutex>
#include <optional>

namespace eqsat {

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kRounds = 5;                                 // the answer is their median
constexpr uint32_t kTripsPerRound = 400;                   // a round takes 40-200 µs where the handoff is cheap or not
constexpr auto kPatience = std::chrono::milliseconds(20);  // for the whole measurement

constexpr double kNever = std::numeric_limits<double>::infinity();

// The line the two threads hand back and forth: the caller writes odd values, the
// partner answers each with the next even one. Alone on its cache line.
struct alignas(64) Line {
  std::atomic<uint32_t> value{0};
};

// Spins until `line` holds `wanted` or `give_up` is set (then false). Looks at the
// clock every 1,024 spins only (a clock read costs about as much as a spin): on the
// caller's side, sets `give_up` itself once `deadline` has passed.
bool wait_for(const Line& line, uint32_t wanted, std::atomic<bool>& give_up, const Clock::time_point* deadline) {
  for (uint32_t spins = 1;; ++spins) {
    if (line.value.load(std::memory_order_acquire) == wanted) return true;
    if ((spins & 1023) == 0) {
      if (give_up.load(std::memory_order_relaxed)) return false;
      if (deadline != nullptr && Clock::now() > *deadline) {
        give_up.store(true, std::memory_order_relaxed);
        return false;
      }
    }
  }
}

}  // namespace

double measure_handoff_round_trip_nanoseconds() {
  // The partner is a task of the calling thread's task arena, so that one of the
  // arena's own threads answers: the runner asks from its run's arena, whose other
  // thread may still be spinning for work after a parallel phase. A thread started for
  // the measurement made a third on two cores there, and now and then (1 run of `sum
  // 11` in 30) got no core within the patience: the batches then ran on one thread.
  if (tbb::this_task_arena::max_concurrency() < 2) return kNever;  // no thread to hand lines to
  Line line;
  std::atomic<bool> give_up{false};
  constexpr uint32_t kTrips = kRounds * kTripsPerRound;
  tbb::task_group partner;
  partner.run([&] {
    for (uint32_t trip = 0; trip < kTrips; ++trip) {
      if (!wait_for(line, 2 * trip + 1, give_up, nullptr)) return;
      line.value.store(2 * trip + 2, std::memory_order_release);
    }
  });
  const Clock::time_point deadline = Clock::now() + kPatience;
  std::array<double, kRounds> rounds{};
  uint32_t trip = 0;
  for (double& round : rounds) {
    const Clock::time_point start = Clock::now();
    for (uint32_t i = 0; i < kTripsPerRound && !give_up.load(std::memory_order_relaxed); ++i, ++trip) {
      line.value.store(2 * trip + 1, std::memory_order_release);
      wait_for(line, 2 * trip + 2, give_up, &deadline);
    }
    round = std::chrono::duration<double, std::nano>(Clock::now() - start).count() / kTripsPerRound;
  }
  // (A partner no thread took is run here: it sees `give_up` and returns.)
  partner.wait();
  if (give_up.load()) return kNever;
  // The first round includes the partner's start: the median leaves it out.
  std::nth_element(rounds.begin(), rounds.begin() + kRounds / 2, rounds.end());
  return rounds[kRounds / 2];
}

namespace {

std::mutex remembered_mutex;
std::optional<double> remembered;  // measured, or assumed (assume_handoff_round_trip_nanoseconds)

}  // namespace

double handoff_round_trip_nanoseconds() {
  {
    const std::lock_guard<std::mutex> lock(remembered_mutex);
    if (remembered) return *remembered;
  }
  // Measured without the lock: the measurement waits for a task of the caller's arena,
  // and a thread that waits in TBB may take another task, which could ask too. (Two
  // first calls at once both measure; the first to finish is remembered.)
  const double measured = measure_handoff_round_trip_nanoseconds();
  const std::lock_guard<std::mutex> lock(remembered_mutex);
  if (!remembered) remembered = measured;
  return *remembered;
}

void assume_handoff_round_trip_nanoseconds(double nanoseconds) {
  const std::lock_guard<std::mutex> lock(remembered_mutex);
  remembered = nanoseconds;
}

bool threads_hand_off_cheaply() { return handoff_round_trip_nanoseconds() < kCheapHandoffNanoseconds; }

}  // namespace eqsat
