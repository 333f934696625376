// Each interval transfer function (egraph/interval.h) against Z3: for random operand
// intervals, no operand values inside them may give a defined result outside the
// computed interval. A wider interval only costs a missed fold; a narrower one is a
// miscompile, and this is the test that catches it.
#include <gtest/gtest.h>

#include <random>

#include "egraph/interval.h"
#include "tests/support/sweep.h"
#include "verify/z3_semantics.h"

namespace eqsat::verify {
namespace {

class IntervalVsZ3 : public ::testing::Test {
 protected:
  Int min_of(DType t) const { return t == DType::Index ? -(Int(1) << 31) : dtype_min(t); }
  Int max_of(DType t) const { return t == DType::Index ? (Int(1) << 31) - 1 : dtype_max(t); }

  // v lies in iv (v of dtype t, read as its integer).
  z3::expr within(const z3::expr& v, DType t, const Interval& iv) {
    if (t == DType::Bool) return (v && ctx_.bool_val(iv.contains(1))) || (!v && ctx_.bool_val(iv.contains(0)));
    const unsigned bits = v.get_sort().bv_size();
    const bool is_signed = t == DType::Index || is_signed_int(t);
    auto le = [&](const z3::expr& a, const z3::expr& b) { return is_signed ? z3::sle(a, b) : z3::ule(a, b); };
    auto constant = [&](Int c) {
      return sem_.constant(Value::integer(t == DType::Index ? DType::Index : t, c), scratch_);
    };
    (void)bits;
    z3::expr r = ctx_.bool_val(true);
    if (iv.lo && *iv.lo > min_of(t)) r = *iv.lo > max_of(t) ? ctx_.bool_val(false) : r && le(constant(*iv.lo), v);
    if (iv.hi && *iv.hi < max_of(t)) r = *iv.hi < min_of(t) ? ctx_.bool_val(false) : r && le(v, constant(*iv.hi));
    return r;
  }

  Interval random_interval(DType t) {
    if (t == DType::Bool) {
      const int k = int(rng_() % 3);
      return k == 0 ? Interval::point(0) : k == 1 ? Interval::point(1) : Interval::range(0, 1);
    }
    std::uniform_int_distribution<int> start(-40, 40), width(0, 24);
    Int lo = start(rng_), hi = lo + width(rng_);
    if (is_unsigned(t)) {
      lo = lo < 0 ? -lo : lo;
      hi = lo + width(rng_);
    }
    if (rng_() % 5 == 0) {  // near the top of a fixed-width dtype, to exercise wrap-around
      if (t != DType::Index) {
        hi = dtype_max(t) - int(rng_() % 3);
        lo = hi - width(rng_);
      }
    }
    Interval iv = Interval::range(lo, hi);
    if (t == DType::Index && rng_() % 6 == 0) iv.lo.reset();
    if (t == DType::Index && rng_() % 6 == 0) iv.hi.reset();
    return iv;
  }

  void check(Op op, DType result, const std::vector<DType>& operand_dtypes) {
    std::vector<Interval> ivs;
    std::vector<z3::expr> terms;
    z3::expr hyp = ctx_.bool_val(true);
    for (std::size_t i = 0; i < operand_dtypes.size(); ++i) {
      const DType t = operand_dtypes[i];
      ivs.push_back(random_interval(t));
      terms.push_back(sem_.variable("v" + std::to_string(i) + "_" + std::to_string(counter_++), t));
      hyp = hyp && within(terms.back(), t, ivs.back());
    }
    const DType operand = op == Op::Select ? operand_dtypes[1] : operand_dtypes[0];
    const Interval computed = interval_of(op, result, operand, ivs);
    Conditions cond(ctx_);
    const z3::expr value = sem_.apply(op, result, terms, operand_dtypes, cond);
    z3::solver solver(ctx_);
    solver.add(hyp && cond.defined && cond.fits && !within(value, result, computed));
    std::string where = std::string(op_info(op).name) + " " + std::string(dtype_name(result)) + " of";
    for (const Interval& iv : ivs) where += " " + iv.to_string();
    where += " gives " + computed.to_string();
    ++checked_;
    ASSERT_EQ(solver.check(), z3::unsat) << where << "; but " << solver.get_model().to_string();
  }

  z3::context ctx_;
  Semantics sem_{ctx_, IndexModel::BitVector,
                 32};  // INDEX as 32 bits whose results fit: exact, and bit operations work
  Conditions scratch_{ctx_};
  std::mt19937_64 rng_{2024};
  int counter_ = 0;
  int checked_ = 0;
};

constexpr DType kIntegers[] = {DType::Index, DType::Int8, DType::UInt8, DType::Int32, DType::UInt16};
constexpr int kTrials = testing::sweep_count(12);

TEST_F(IntervalVsZ3, ArithmeticBitwiseAndShifts) {
  for (DType t : kIntegers) {
    for (Op op : {Op::Add, Op::Sub, Op::Mul, Op::FloorDiv, Op::FloorMod, Op::TruncDiv, Op::TruncMod, Op::Min, Op::Max,
                  Op::BitAnd, Op::BitOr, Op::BitXor, Op::Shl, Op::Shr}) {
      for (int i = 0; i < kTrials; ++i) check(op, t, {t, t});
    }
    for (Op op : {Op::Neg, Op::Abs, Op::BitNot}) {
      for (int i = 0; i < kTrials; ++i) check(op, t, {t});
    }
  }
  EXPECT_GT(checked_, 1000 * kTrials / 12);  // 1000 in a full sweep of 12 trials, scaled to a sample
}

TEST_F(IntervalVsZ3, ComparisonsLogicAndSelect) {
  for (DType t : kIntegers) {
    for (Op op : {Op::Eq, Op::Ne, Op::Lt, Op::Le, Op::Gt, Op::Ge}) {
      for (int i = 0; i < kTrials; ++i) check(op, DType::Bool, {t, t});
    }
    for (int i = 0; i < kTrials; ++i) check(Op::Select, t, {DType::Bool, t, t});
  }
  for (int i = 0; i < kTrials; ++i) {
    check(Op::And, DType::Bool, {DType::Bool, DType::Bool});
    check(Op::Or, DType::Bool, {DType::Bool, DType::Bool});
    check(Op::Not, DType::Bool, {DType::Bool});
  }
}

TEST_F(IntervalVsZ3, Casts) {
  const DType targets[] = {DType::Index, DType::Bool, DType::Int8, DType::UInt8, DType::Int32, DType::UInt16};
  for (DType from : kIntegers) {
    for (DType to : targets) {
      if (from == to) continue;
      for (int i = 0; i < kTrials; ++i) check(Op::Cast, to, {from});
    }
  }
  for (DType to : targets) {
    if (to != DType::Bool) check(Op::Cast, to, {DType::Bool});
  }
}

}  // namespace
}  // namespace eqsat::verify
