// Offsets moved across min and max (passes/minmax_form.h) against Z3: for random
// INDEX sums around min/max trees, the normal form must equal its input
// wherever the input is defined. The pass is not a rule, so this is its proof
// obligation, checked on many shapes instead of once.
#include <gtest/gtest.h>

#include <random>

#include "ir/print.h"
#include "passes/minmax_form.h"
#include "tests/support/sweep.h"
#include "verify/equivalence.h"

namespace eqsat::verify {
namespace {

using Status = EquivalenceResult::Status;

class RandomMinMax {
 public:
  explicit RandomMinMax(uint64_t seed) : rng_(seed) {}

  Expr integer(int depth) {
    switch (pick_in(0, depth <= 0 ? 1 : 8)) {
      case 0:
        return Expr::var(std::string(1, "xyzw"[pick_in(0, 3)]), DType::Index);
      case 1:
        return Expr::constant(Value::integer(DType::Index, pick_in(-9, 9)));
      case 2:
      case 3:
        return binary(Op::Add, depth);
      case 4:
        return binary(Op::Sub, depth);
      case 5:
        return Expr::make(Op::Mul, DType::Index,
                          {integer(depth - 1), Expr::constant(Value::integer(DType::Index, pick_in(-4, 4)))});
      case 6:
        return Expr::make(Op::FloorDiv, DType::Index, {integer(depth - 1), integer(depth - 1)});
      default:
        return binary(pick_in(0, 1) ? Op::Min : Op::Max, depth);
    }
  }

 private:
  int pick_in(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  Expr binary(Op op, int depth) { return Expr::make(op, DType::Index, {integer(depth - 1), integer(depth - 1)}); }

  std::mt19937_64 rng_;
};

TEST(MinMaxFormVsZ3, RandomIndexSumsAroundMinAndMax) {
  RandomMinMax tree(21);
  Facts facts;
  for (const char *name : {"x", "y", "z", "w"}) facts.var_dtypes[name] = DType::Index;
  int normalized = 0;
  const int runs = testing::sweep_count(120);
  for (int i = 0; i < runs; ++i) {
    const Expr input = tree.integer(3);
    const Expr output = normalize_minmax_offsets(input);
    if (output == input) continue;
    ++normalized;
    const EquivalenceResult result = verify_equivalent(input, output, facts);
    EXPECT_NE(result.status, Status::Counterexample)
        << print(input) << "  =>  " << print(output) << ": " << result.detail;
  }
  EXPECT_GT(normalized, runs / 8);  // the check means something only if the pass did move offsets
}

}  // namespace
}  // namespace eqsat::verify
