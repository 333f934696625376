// A proof that Z3 cannot finish stops at its time limit and says so: the verdict is
// "unknown (timeout ...)", never a hang and never a verdict it did not reach.
#include "verify/z3_deadline.h"

#include <gtest/gtest.h>
#include <z3++.h>

#include <chrono>
#include <ctime>
#include <future>

#include "tests/verify/test_support.h"
#include "verify/rule_prover.h"

namespace eqsat::verify {
namespace {

using testing::parse_one_rule;

// No positive cubes add up to a cube (Fermat, n = 3): true, and far beyond Z3's
// nonlinear integer arithmetic, in the integer and the bit-vector model alike.
const char kFermatCubes[] =
    "r [index]: select(x * x * x + y * y * y == z * z * z and x > 0 and y > 0 and z > 0, 1, 0) => 0";

TEST(Z3Deadline, AProofBeyondZ3StopsAtItsTimeout) {
  const Rule rule = parse_one_rule(kFermatCubes);
  ProverOptions options;
  options.timeout_ms = 300;
  const Outcome outcome = prove_rewrite(rule.rewrites[0], options);
  EXPECT_EQ(outcome.verdict, Verdict::Unknown);
  EXPECT_NE(outcome.unknown_reason.find("timeout"), std::string::npos) << outcome.unknown_reason;
}

// Spins until the calling thread has used `ms` of CPU time.
void use_cpu(int ms) {
  const std::clock_t start = std::clock();
  while (std::clock() - start < CLOCKS_PER_SEC / 1000 * ms) {
  }
}

// The time can run out while a query is still being built, before `check` starts (on a
// short budget, in a slow build): Z3 acts on an interrupt only while a query runs, so the
// deadline must not interrupt just once. Here the budget is spent before the query of
// Fermat's cubes starts; that query must still stop. If it does not within a minute, the
// test interrupts it itself and fails.
TEST(Z3Deadline, AQueryStartedAfterTheTimeRanOutStillStops) {
  z3::context ctx;
  std::future<z3::check_result> result;
  {
    const Z3Deadline deadline(ctx, 5);
    use_cpu(200);  // the watchdog polls every 20 ms: it has long fired
    ASSERT_TRUE(deadline.expired());
    const z3::expr x = ctx.int_const("x"), y = ctx.int_const("y"), z = ctx.int_const("z");
    z3::solver solver(ctx);
    solver.add(x > 0 && y > 0 && z > 0 && x * x * x + y * y * y == z * z * z);
    result = std::async(std::launch::async, [&solver] { return solver.check(); });
    const bool stopped = result.wait_for(std::chrono::seconds(60)) == std::future_status::ready;
    while (result.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) ctx.interrupt();
    EXPECT_TRUE(stopped) << "the query ran on after its deadline";
    EXPECT_EQ(result.get(), z3::unknown);
  }
}

}  // namespace
}  // namespace eqsat::verify
