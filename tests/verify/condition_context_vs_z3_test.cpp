// Substitution of conditions (passes/condition_context.h) against Z3: for random
// and/or/not/select trees over integer comparisons, some of them guarding a
// division, the substituted form must equal its input wherever the input is
// defined. The pass is not a rule, so this is its proof obligation, checked on
// many shapes instead of once.
#include <gtest/gtest.h>

#include <random>

#include "ir/parse.h"
#include "ir/print.h"
#include "passes/condition_context.h"
#include "tests/support/sweep.h"
#include "verify/equivalence.h"

namespace eqsat::verify {
namespace {

using Status = EquivalenceResult::Status;

class RandomCondition {
 public:
  // `truncating`: terms are also truncdiv/truncmod of a sum by a constant of
  // either sign (INDEX), which a context that fixes the sum's sign makes floor.
  RandomCondition(DType t, uint64_t seed, bool truncating = false) : t_(t), rng_(seed), truncating_(truncating) {}

  // A BOOL tree: chains of and/or, negations, selects between comparisons.
  Expr boolean(int depth) {
    switch (pick_in(0, depth <= 0 ? 1 : 6)) {
      case 0:
      case 1:
        return comparison();
      case 2:
      case 3:
        return Expr::make(pick_in(0, 1) ? Op::And : Op::Or, DType::Bool, {boolean(depth - 1), boolean(depth - 1)});
      case 4:
        return Expr::make(Op::Not, DType::Bool, {boolean(depth - 1)});
      case 5:
        return Expr::make(Op::Select, DType::Bool, {boolean(depth - 1), boolean(depth - 1), boolean(depth - 1)});
      default: {
        // A comparison of a select: its branches are read under the condition.
        Expr value = Expr::make(Op::Select, t_, {boolean(depth - 1), term(), term()});
        return Expr::make(pick_compare(), DType::Bool, {value, term()});
      }
    }
  }

 private:
  int pick_in(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  Op pick_compare() {
    static constexpr Op kOps[] = {Op::Eq, Op::Ne, Op::Lt, Op::Le, Op::Gt, Op::Ge};
    return kOps[pick_in(0, 5)];
  }
  Expr constant() { return Expr::constant(Value::integer(t_, pick_in(-3, 3))); }
  Expr var() { return Expr::var(std::string(1, "xy"[pick_in(0, 1)]), t_); }
  // x, 2, x + 1, x - y, x * 2, x // y (undefined at y = 0)
  Expr term() {
    if (truncating_ && pick_in(0, 2) == 0) {
      const Op op = pick_in(0, 1) ? Op::TruncDiv : Op::TruncMod;
      const int divisor = pick_in(1, 5) * (pick_in(0, 2) == 0 ? -1 : 1);
      return Expr::make(op, t_,
                        {Expr::make(Op::Add, t_, {var(), constant()}), Expr::constant(Value::integer(t_, divisor))});
    }
    switch (pick_in(0, 5)) {
      case 0:
        return var();
      case 1:
        return constant();
      case 2:
        return Expr::make(Op::Add, t_, {var(), constant()});
      case 3:
        return Expr::make(Op::Sub, t_, {var(), var()});
      case 4:
        return Expr::make(Op::Mul, t_, {var(), constant()});
      default:
        return Expr::make(Op::FloorDiv, t_, {var(), var()});
    }
  }
  // Mostly a variable against a small constant or another variable, so that
  // the comparisons of one tree often decide each other.
  Expr comparison() {
    switch (pick_in(0, 3)) {
      case 0:
      case 1:
        return Expr::make(pick_compare(), DType::Bool, {var(), constant()});
      case 2:
        return Expr::make(pick_compare(), DType::Bool, {var(), var()});
      default:
        return Expr::make(pick_compare(), DType::Bool, {term(), term()});
    }
  }

  DType t_;
  std::mt19937_64 rng_;
  bool truncating_;
};

Facts facts_of(DType t) {
  Facts facts;
  for (const char *name : {"x", "y"}) facts.var_dtypes[name] = t;
  return facts;
}

void check_random_conditions(DType t, uint64_t seed, int cases, bool truncating = false) {
  RandomCondition tree(t, seed, truncating);
  const Facts facts = facts_of(t);
  int substituted = 0;
  const int runs = testing::sweep_count(cases);
  for (int i = 0; i < runs; ++i) {
    const Expr input = tree.boolean(3);
    const Expr output = substitute_conditions(input);
    if (output == input) continue;
    ++substituted;
    const EquivalenceResult result = verify_equivalent(input, output, facts);
    EXPECT_NE(result.status, Status::Counterexample)
        << print(input) << "  =>  " << print(output) << ": " << result.detail;
  }
  // The check means something only if the pass did substitute.
  EXPECT_GT(substituted, runs / 10);
}

// A branch's facts must leave a divisor, a shift amount and a cast float alone: a
// select computes both branches under the strict reading, and `and`/`or` all their
// operands (docs/verification.md). Each of these once substituted `x` for the
// divisor's select, undefined at x = 0 where the input is defined. (The random trees
// below divide by a variable only. Found by `eqsat fuzz --seed 35001 --max-depth 6`.)
TEST(ConditionContextVsZ3, ABranchsFactsKeepEveryDivisorDefined) {
  const Facts facts = facts_of(DType::Index);
  for (const char *text : {"select(x == 0, 0, y // select(x == 0, 1, x))", "x == 0 or y % select(x == 0, 1, x) == 0",
                           "select(x != 0, y // select(x != 0, x, 1), 0) + y // select(x == 0, 1, x)"}) {
    Result<Expr> input = parse_expr(text, facts.var_typer());
    ASSERT_TRUE(input.ok()) << text;
    const Expr output = substitute_conditions(*input);
    const EquivalenceResult result = verify_equivalent(*input, output, facts);
    EXPECT_EQ(result.status, Status::Equal) << text << "  =>  " << print(output) << ": " << result.detail;
  }
}

// Under nnan or ninf a NaN or an infinity is poison, so float arithmetic is partial
// in all its operands and a float comparison may be undefined (ir/definedness.h).
// Proved under the flags the context was given. A context told no flags makes the first
// `1.0 / -0.0` (-inf at q = True), the second `f * f` (an overflow at q = True, where
// the input is f * 0.0) and the third `f > 0.0 and x < 3` (poison at f = NaN, x = 7).
// (The first was found by `eqsat fuzz --seed 35003 --max-depth 5 --fast-math all`.)
TEST(ConditionContextVsZ3, UnderNnanOrNinfABranchsFactsKeepFloatArithmeticDefined) {
  Facts facts;
  facts.var_dtypes = {{"q", DType::Bool}, {"f", DType::FP16}, {"x", DType::Index}};  // FP16: Z3 multiplies it quickly
  const std::vector<const char *> kept = {"select(q, 0.0, 1.0 / select(q, 1.0, -0.0))",
                                          "select(q, 0.0, f * select(q, 0.0, f))", "x < 5 and f > 0.0 and x < 3"};
  // A value passed on by no arithmetic is still decided.
  const std::vector<const char *> changed = {"select(q, 0.0, -select(q, 1.0, f))",
                                             "select(q, f, max(select(q, 2.0, f), 1.0))"};
  for (FastMath flags : {FastMath(FastMathFlag::Nnan), FastMath(FastMathFlag::Ninf), FastMath::all()}) {
    ProverOptions options;
    options.fast_math = flags;
    for (const std::vector<const char *> *texts : {&kept, &changed}) {
      for (const char *text : *texts) {
        Result<Expr> input = parse_expr(text, facts.var_typer());
        ASSERT_TRUE(input.ok()) << text;
        const Expr output = substitute_conditions(*input, {}, {}, flags);
        EXPECT_EQ(output == *input, texts == &kept) << text << "  =>  " << print(output);
        const EquivalenceResult result = verify_equivalent(*input, output, facts, options);
        EXPECT_EQ(result.status, Status::Equal)
            << fast_math_text(flags) << ": " << text << "  =>  " << print(output) << ": " << result.detail;
      }
    }
  }
  // What a context told no flags makes of the first three is wrong under them.
  ProverOptions all;
  all.fast_math = FastMath(FastMathFlag::Nnan) | FastMathFlag::Ninf;
  for (const char *text : kept) {
    Result<Expr> input = parse_expr(text, facts.var_typer());
    ASSERT_TRUE(input.ok()) << text;
    const Expr output = substitute_conditions(*input);
    EXPECT_EQ(verify_equivalent(*input, output, facts, all).status, Status::Counterexample)
        << text << "  =>  " << print(output);
  }
}

TEST(ConditionContextVsZ3, RandomIndexConditions) { check_random_conditions(DType::Index, 11, 150); }

TEST(ConditionContextVsZ3, RandomIndexConditionsOverTruncatingDivisions) {
  check_random_conditions(DType::Index, 14, 150, /*truncating=*/true);
}

TEST(ConditionContextVsZ3, RandomFixedWidthConditions) {
  check_random_conditions(DType::Int8, 12, 150);
  check_random_conditions(DType::UInt8, 13, 150);
}

}  // namespace
}  // namespace eqsat::verify
