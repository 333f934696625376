// A proof that Z3 cannot finish stops at its time limit and says so: the verdict is
// "unknown (timeout ...)", never a hang and never a verdict it did not reach.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace eqsat::verify
