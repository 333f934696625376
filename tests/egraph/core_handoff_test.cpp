// The handoff between a saturation's threads (egraph/core_handoff.h): measured once
// per process, then remembered; a test or a benchmark may assume a figure instead.
#include "egraph/core_handoff.h"

#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <cmath>
#include <limits>

namespace eqsat {
namespace {

// A round trip takes some time, or never completes (+infinity, a partner that did not
// answer); every later call answers what the first one measured.
TEST(CoreHandoff, MeasuredOnceThenRemembered) {
  const double first = handoff_round_trip_nanoseconds();
  EXPECT_GT(first, 0.0);
  EXPECT_FALSE(std::isnan(first));
  EXPECT_EQ(handoff_round_trip_nanoseconds(), first);
  EXPECT_EQ(threads_hand_off_cheaply(), first < kCheapHandoffNanoseconds);
}

// The partner of a measurement is another thread of the caller's task arena, not a
// thread started for it: the runner measures from its run's arena, where a third
// thread on two cores now and then got no core within the measurement's patience. An
// arena of one thread has no partner to give.
TEST(CoreHandoff, ThePartnerIsAThreadOfTheCallersArena) {
  tbb::task_arena alone(1);
  double measured = 0;
  alone.execute([&] { measured = measure_handoff_round_trip_nanoseconds(); });
  EXPECT_EQ(measured, std::numeric_limits<double>::infinity());
}

// The two hosts measured in docs/performance.md: the batch splits on the first only.
TEST(CoreHandoff, AnAssumedFigureDecidesWhetherTheHandoffIsCheap) {
  const double measured = handoff_round_trip_nanoseconds();
  assume_handoff_round_trip_nanoseconds(100);
  EXPECT_TRUE(threads_hand_off_cheaply());
  EXPECT_EQ(handoff_round_trip_nanoseconds(), 100);
  assume_handoff_round_trip_nanoseconds(430);
  EXPECT_FALSE(threads_hand_off_cheaply());
  assume_handoff_round_trip_nanoseconds(std::numeric_limits<double>::infinity());
  EXPECT_FALSE(threads_hand_off_cheaply());
  assume_handoff_round_trip_nanoseconds(measured);
}

}  // namespace
}  // namespace eqsat
