// The constant folder (ir/fold.cpp) against Z3's evaluation of the same operation on the
// same constants, for every operation and dtype, on each dtype's edges and on random
// values. Two independent implementations of the spec must agree wherever the folder
// folds, and the folder may only decline where the operation is undefined or in its
// documented refusals (float min/max of NaN or mixed zeros, INDEX beyond 2^100).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "ir/fold.h"
#include "verify/z3_semantics.h"

namespace eqsat::verify {
namespace {

constexpr DType kAll[] = {DType::Index, DType::Bool,  DType::Int8,   DType::Int16,  DType::Int32,
                          DType::Int64, DType::UInt8, DType::UInt16, DType::UInt32, DType::UInt64,
                          DType::FP16,  DType::BF16,  DType::FP32,   DType::FP64};

std::vector<Value> samples(DType t, std::mt19937_64& rng) {
  std::vector<Value> out;
  if (t == DType::Bool) return {Value::boolean(false), Value::boolean(true)};
  if (is_float(t)) {
    const double inf = std::numeric_limits<double>::infinity();
    for (double d : {0.0, -0.0, 1.0, -1.0, 0.5, 3.0, -2.5, 1e-40, 65504.0, 1e30, 3.4e38, inf, -inf, std::nan("")}) {
      out.push_back(Value::floating(t, d));
    }
    std::uniform_real_distribution<double> mant(-2.0, 2.0);
    std::uniform_int_distribution<int> exp(-30, 30);
    for (int i = 0; i < 4; ++i) out.push_back(Value::floating(t, std::ldexp(mant(rng), exp(rng))));
    return out;
  }
  std::vector<Int> edges = {0, 1, -1, 2, -2, 7, 8, 63, 64};
  if (t == DType::Index) {
    for (int k : {31, 32, 63, 64, 99}) {
      edges.push_back(Int(1) << k);
      edges.push_back(-(Int(1) << k));
      edges.push_back((Int(1) << k) - 1);
    }
  } else {
    const Int lo = dtype_min(t), hi = dtype_max(t);
    for (Int v : {lo, lo + 1, hi, hi - 1, hi / 2, lo / 2}) edges.push_back(v);
  }
  for (Int e : edges) out.push_back(Value::integer(t, e));
  for (int i = 0; i < 4; ++i) {
    const uint64_t r = rng();
    out.push_back(Value::integer(t, i % 2 ? Int(int64_t(r)) : Int(int64_t(r) >> (r % 60))));
  }
  return out;
}

bool folder_may_decline(Op op, DType operand, const std::vector<Value>& args) {
  if (operand == DType::Index) return true;  // results beyond 2^100 are not folded
  if (is_float(operand) && (op == Op::Min || op == Op::Max)) {
    const double a = args[0].f, b = args[1].f;
    return std::isnan(a) || std::isnan(b) || (a == b && std::signbit(a) != std::signbit(b));
  }
  return false;
}

class FoldVsZ3 : public ::testing::Test {
 protected:
  // Evaluates op(args) with Z3: the value, or nullopt when undefined. `representable`
  // turns false when an INDEX result leaves the 128-bit model (nothing to compare).
  std::optional<Value> z3_eval(Op op, DType result, const std::vector<Value>& args, bool& representable) {
    Conditions cond(ctx_);
    std::vector<z3::expr> terms;
    std::vector<DType> dtypes;
    for (const Value& v : args) {
      terms.push_back(sem_.constant(v, cond));
      dtypes.push_back(v.dtype);
    }
    Conditions op_cond(ctx_);
    const z3::expr value = sem_.apply(op, result, terms, dtypes, op_cond);
    representable = model_.eval(op_cond.fits, true).is_true();
    if (!model_.eval(op_cond.defined, true).is_true()) return std::nullopt;
    return sem_.model_value(model_, value, result);
  }

  void check(Op op, DType result, const std::vector<Value>& args) {
    std::string where = std::string(op_info(op).name) + " " + std::string(dtype_name(result)) + " (";
    for (const Value& v : args) where += value_text(v) + " " + std::string(dtype_name(v.dtype)) + ", ";
    where += ")";
    SCOPED_TRACE(where);
    const std::optional<Value> folded = fold(op, result, args);
    // fp.min(-0.0, +0.0) is unspecified in SMT-LIB, and Z3 will not evaluate it.
    if (!folded && is_float(args[0].dtype) && folder_may_decline(op, args[0].dtype, args)) return;
    bool representable = true;
    std::optional<Value> z3v;
    try {
      z3v = z3_eval(op, result, args, representable);
    } catch (const z3::exception& e) {
      FAIL() << where << ": Z3 error " << e.msg();
    }
    if (!representable) return;
    ++checked_;
    if (folded) {
      ASSERT_TRUE(z3v) << where << ": folder gives " << value_text(*folded) << ", Z3 says undefined";
      ASSERT_EQ(*folded, *z3v) << where << ": folder " << value_text(*folded) << ", Z3 " << value_text(*z3v);
    } else if (z3v && !folder_may_decline(op, args[0].dtype, args)) {
      FAIL() << where << ": the folder declines a defined operation; Z3 gives " << value_text(*z3v);
    }
  }

  // Every query is a ground term: one context, and one (empty) model evaluates them all.
  static z3::model empty_model(z3::context& ctx) {
    z3::solver solver(ctx);
    solver.check();
    return solver.get_model();
  }

  z3::context ctx_;
  // INDEX as a 128-bit vector: exact for these operands (the folder stops at 2^100),
  // and bit operations work.
  Semantics sem_{ctx_, IndexModel::BitVector, 128};
  z3::model model_ = empty_model(ctx_);
  std::mt19937_64 rng_{12345};
  int checked_ = 0;
};

TEST_F(FoldVsZ3, ArithmeticAndBitwise) {
  const Op binary[] = {Op::Add, Op::Sub, Op::Mul,    Op::FloorDiv, Op::FloorMod, Op::TruncDiv, Op::TruncMod,
                       Op::Min, Op::Max, Op::BitAnd, Op::BitOr,    Op::BitXor,   Op::Div};
  for (DType t : kAll) {
    if (t == DType::Bool) continue;
    const std::vector<Value> vs = samples(t, rng_);
    for (Op op : binary) {
      const bool int_only = op == Op::FloorDiv || op == Op::FloorMod || op == Op::TruncDiv || op == Op::TruncMod ||
                            op == Op::BitAnd || op == Op::BitOr || op == Op::BitXor;
      if (int_only && is_float(t)) continue;
      if (op == Op::Div && !is_float(t)) continue;
      for (const Value& a : vs)
        for (const Value& b : vs) check(op, t, {a, b});
    }
    for (Op op : {Op::Neg, Op::Abs, Op::BitNot}) {
      if (op == Op::BitNot && is_float(t)) continue;
      for (const Value& a : vs) check(op, t, {a});
    }
  }
  EXPECT_GT(checked_, 10000);
}

TEST_F(FoldVsZ3, Shifts) {
  for (DType t : kAll) {
    if (!is_integer(t)) continue;
    std::vector<Value> amounts;
    for (Int s : {-1, 0, 1, 2, 7, 8, 15, 16, 31, 32, 63, 64, 65, 99, 127, 200}) amounts.push_back(Value::integer(t, s));
    for (const Value& a : samples(t, rng_))
      for (const Value& s : amounts) {
        check(Op::Shl, t, {a, s});
        check(Op::Shr, t, {a, s});
      }
  }
}

TEST_F(FoldVsZ3, Comparisons) {
  for (DType t : kAll) {
    const std::vector<Value> vs = samples(t, rng_);
    for (Op op : {Op::Eq, Op::Ne, Op::Lt, Op::Le, Op::Gt, Op::Ge}) {
      if (t == DType::Bool && op != Op::Eq && op != Op::Ne) continue;
      for (const Value& a : vs)
        for (const Value& b : vs) check(op, DType::Bool, {a, b});
    }
  }
}

TEST_F(FoldVsZ3, LogicAndSelect) {
  for (bool p : {false, true})
    for (bool q : {false, true}) {
      check(Op::And, DType::Bool, {Value::boolean(p), Value::boolean(q)});
      check(Op::Or, DType::Bool, {Value::boolean(p), Value::boolean(q)});
    }
  check(Op::Not, DType::Bool, {Value::boolean(true)});
  for (DType t : kAll) {
    const std::vector<Value> vs = samples(t, rng_);
    for (bool c : {false, true}) check(Op::Select, t, {Value::boolean(c), vs[0], vs[1]});
  }
}

TEST_F(FoldVsZ3, CastsBetweenEveryPairOfDtypes) {
  for (DType from : kAll) {
    const std::vector<Value> vs = samples(from, rng_);
    for (DType to : kAll) {
      for (const Value& v : vs) check(Op::Cast, to, {v});
    }
  }
}

}  // namespace
}  // namespace eqsat::verify
