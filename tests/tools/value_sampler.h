// Values to test an expression on: the edges of a variable's range, the values where
// dtypes misbehave (0, -1, wrap points, signed zeros, NaN, infinities), and random
// values in range. Deterministic for a given seed. Used with ir/evaluate.h to compare
// an expression with its rewrite (tests/tools/project_corpus_test.cpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <vector>

#include "ir/dtype.h"
#include "ir/value.h"

namespace eqsat::testing {

// The values an integer variable may take: its dtype's range, narrowed by bounds.
struct IntRange {
  std::optional<Int> lo;  // nullopt: unbounded (INDEX only)
  std::optional<Int> hi;

  static IntRange of(DType dtype, std::optional<Int> lo, std::optional<Int> hi) {
    IntRange r{lo, hi};
    if (dtype != DType::Index) {
      r.lo = std::max(lo.value_or(dtype_min(dtype)), dtype_min(dtype));
      r.hi = std::min(hi.value_or(dtype_max(dtype)), dtype_max(dtype));
    }
    return r;
  }
  bool contains(Int v) const { return (!lo || *lo <= v) && (!hi || v <= *hi); }
};

class ValueSampler {
 public:
  explicit ValueSampler(uint64_t seed) : random_(seed) {}

  // The edges of the range and the special values inside it, each once.
  std::vector<Value> edges(DType dtype, const IntRange& range) const {
    std::vector<Value> out;
    auto add = [&](Value v) {
      if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
    };
    if (dtype == DType::Bool) return {Value::boolean(false), Value::boolean(true)};
    if (is_float(dtype)) {
      const double inf = std::numeric_limits<double>::infinity();
      for (double f : {0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, 16777216.0, 1e10, -1e10, 1e-45, -1e-45, 65504.0,
                       3.4028234663852886e38, inf, -inf, std::numeric_limits<double>::quiet_NaN()}) {
        add(Value::floating(dtype, f));
      }
      return out;
    }
    std::vector<Int> candidates = {0,
                                   1,
                                   -1,
                                   2,
                                   -2,
                                   3,
                                   4,
                                   7,
                                   8,
                                   -8,
                                   127,
                                   128,
                                   -128,
                                   255,
                                   256,
                                   32767,
                                   65535,
                                   2147483647,
                                   -Int(2147483648),
                                   Int(1) << 32,
                                   (Int(1) << 62),
                                   -(Int(1) << 62)};
    for (const std::optional<Int>& edge : {range.lo, range.hi}) {
      if (!edge) continue;
      for (Int d : {0, 1, -1}) candidates.insert(candidates.begin(), *edge + d);
    }
    for (Int v : candidates) {
      if (range.contains(v)) add(Value::integer(dtype, v));
    }
    return out;
  }

  // A random value: mostly small ones (where the interesting cases live), sometimes
  // anywhere in the range, sometimes an edge.
  Value random(DType dtype, const IntRange& range) {
    if (dtype == DType::Bool) return Value::boolean(coin(0.5));
    if (is_float(dtype)) {
      if (coin(0.25)) return pick(edges(dtype, range));
      if (coin(0.5)) return Value::floating(dtype, std::uniform_real_distribution<double>(-100.0, 100.0)(random_));
      const double magnitude = std::ldexp(1.0, std::uniform_int_distribution<int>(-140, 120)(random_));
      return Value::floating(dtype, (coin(0.5) ? -1 : 1) * magnitude * uniform(1.0, 2.0));
    }
    if (coin(0.2)) return pick(edges(dtype, range));
    const Int wide = Int(1) << 40;  // an open INDEX side: far, but far from overflow too
    Int lo = range.lo.value_or(-wide), hi = range.hi.value_or(wide);
    if (coin(0.6)) {  // small
      lo = std::max<Int>(lo, -64);
      hi = std::min<Int>(hi, 64);
      if (lo > hi) lo = hi = range.lo ? *range.lo : *range.hi;
    }
    return Value::integer(dtype, lo + uniform_below(UInt(hi - lo) + 1));
  }

 private:
  bool coin(double p) { return std::bernoulli_distribution(p)(random_); }
  double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(random_); }
  Value pick(const std::vector<Value>& values) {
    return values[std::uniform_int_distribution<std::size_t>(0, values.size() - 1)(random_)];
  }
  // Uniform in [0, n) for n up to 2^65 (UINT64's range plus one).
  Int uniform_below(UInt n) {
    const UInt r = (UInt(random_()) << 64) | UInt(random_());
    return Int(r % n);
  }

  std::mt19937_64 random_;
};

}  // namespace eqsat::testing
