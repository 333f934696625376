// Random testing of every dtype instance of every catalogue rule against the exact
// semantics of ir/fold.h (the constant folder): wherever the guard holds and the left
// side is defined, the right side must be defined and equal (under the rule's
// fast-math flags: poison is undefined, nsz forgives the sign of a zero). This is no proof (verify/
// proves the rules with Z3); it catches a wrong rule before it gets that far.
#include <cmath>
#include <limits>
#include <random>

#include "ir/fold.h"
#include "tests/rules/test_support.h"
#include "tests/support/sweep.h"

namespace eqsat::testing {
namespace {

// Whether a float value breaks the promise of the fast-math flags (a NaN under nnan, an
// infinity under ninf): then the expression is poison, as undefined as a division by zero.
bool poison(const Value& v, FastMath flags) {
  if (!is_float(v.dtype)) return false;
  return (flags.has(FastMathFlag::Nnan) && std::isnan(v.f)) || (flags.has(FastMathFlag::Ninf) && std::isinf(v.f));
}

// The value of a pattern under an assignment of its variables; nullopt where the
// expression is undefined (division by zero, an out-of-range shift, poison under the
// rule's fast-math flags) or not foldable.
std::optional<Value> evaluate(const Pattern& pattern, const std::vector<Value>& values, FastMath flags) {
  std::vector<std::optional<Value>> at(pattern.nodes.size());
  for (std::size_t i = 0; i < pattern.nodes.size(); ++i) {
    const PatternNode& node = pattern.nodes[i];
    switch (node.kind) {
      case PatternNode::Kind::Var:
        at[i] = values[node.var];
        break;
      case PatternNode::Kind::Const:
        at[i] = pattern.value_of(node);
        break;
      case PatternNode::Kind::Op: {
        std::vector<Value> args;
        for (uint32_t child : node.children) {
          if (!at[child]) return std::nullopt;
          args.push_back(*at[child]);
        }
        at[i] = fold(node.op, node.dtype, args);
        // The folder declines float min/max of zeros of both signs (IEEE leaves the
        // sign unspecified); under nsz either zero is the answer.
        const bool both_zeros = args.size() == 2 && is_float(node.dtype) && args[0].f == 0.0 && args[1].f == 0.0;
        if (!at[i] && flags.has(FastMathFlag::Nsz) && (node.op == Op::Min || node.op == Op::Max) && both_zeros) {
          at[i] = args[0];
        }
        break;
      }
    }
    if (at[i] && poison(*at[i], flags)) return std::nullopt;
  }
  return at[pattern.root];
}

// Equal as the spec says, or, under nsz, both zeros.
bool same(const Value& a, const Value& b, FastMath flags) {
  if (a == b) return true;
  return flags.has(FastMathFlag::Nsz) && is_float(a.dtype) && a.dtype == b.dtype && a.f == 0.0 && b.f == 0.0;
}

class Sampler {
 public:
  explicit Sampler(uint64_t seed) : rng_(seed) {}

  Value value(DType dtype) {
    if (dtype == DType::Bool) return Value::boolean(pick(2) == 1);
    if (is_float(dtype)) return float_value(dtype);
    if (dtype == DType::Index) {
      static const Int kSpecial[] = {0, 1, -1, 2, -2, 3, -3, 4, 7, 8, -8, 16, 100, -100};
      switch (pick(4)) {
        case 0:
          return Value::integer(dtype, kSpecial[pick(std::size(kSpecial))]);
        case 1:
          return Value::integer(dtype, Int(pick(41)) - 20);
        // Up to 2^44: products of three stay below the folder's INDEX limit (2^100),
        // beyond which it leaves an expression unfolded, as if undefined.
        case 2:
          return Value::integer(dtype, Int(int64_t(rng_()) >> (19 + pick(45))));
        default:
          return Value::integer(dtype, Int(pick(17)) - 8);
      }
    }
    switch (pick(4)) {
      case 0: {
        const Int edges[] = {dtype_min(dtype), dtype_max(dtype), dtype_min(dtype) + 1, dtype_max(dtype) - 1, 0};
        return Value::integer(dtype, edges[pick(std::size(edges))]);
      }
      case 1:
        return Value::integer(dtype, Int(int64_t(rng_())));
      default:
        return Value::integer(dtype, Int(pick(33)) - 16);
    }
  }

  // An interval around v that the dtype allows; sometimes open on a side.
  Interval interval_around(const Value& v) {
    auto width = [&]() -> std::optional<Int> {
      switch (pick(4)) {
        case 0:
          return std::nullopt;
        case 1:
          return Int(0);
        default:
          return Int(pick(20));
      }
    };
    Interval interval;
    if (auto w = width()) interval.lo = v.i - *w;
    if (auto w = width()) interval.hi = v.i + *w;
    if (v.dtype != DType::Index) interval = interval.intersect(Interval::of_dtype(v.dtype));
    return interval;
  }

  // A congruence an INDEX value v satisfies (v = k * m + r): none at times, else a
  // small modulus, so that guards over modulus(x) and remainder(x) hold on some
  // samples and are tested.
  Congruence congruence_around(const Value& v) {
    if (pick(2) == 0) return Congruence::unknown();
    const Int modulus = Int(2 + pick(15));
    return Congruence::of(modulus, v.i % modulus);
  }

  std::size_t pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }

 private:
  Value float_value(DType dtype) {
    const double inf = std::numeric_limits<double>::infinity();
    static const double kSpecial[] = {0.0, -0.0, 1.0, -1.0, 0.5, 2.0, -3.0, 1e30, -1e-30, 65504.0};
    switch (pick(4)) {
      case 0:
        return Value::floating(dtype, kSpecial[pick(std::size(kSpecial))]);
      case 1: {
        const double odd[] = {inf, -inf, std::numeric_limits<double>::quiet_NaN()};
        return Value::floating(dtype, odd[pick(3)]);
      }
      default:
        return Value::floating(dtype, std::ldexp(double(int64_t(pick(2001)) - 1000), int(pick(40)) - 20));
    }
  }

  std::mt19937_64 rng_;
};

struct Outcome {
  int fired = 0;  // samples where the guard held and the left side was defined
  std::string failure;
};

Outcome check_instance(const Rewrite& rewrite, Sampler& sampler, int samples) {
  Outcome outcome;
  for (int n = 0; n < samples && outcome.failure.empty(); ++n) {
    std::vector<Value> values;
    for (const PatternVar& var : rewrite.vars) values.push_back(sampler.value(var.dtype));
    if (rewrite.guard) {
      // The guard reads classes: a constant-only variable is a constant class, any
      // other an unknown variable whose interval (and, for INDEX, congruence) holds
      // the sampled value.
      EGraph egraph;
      Subst subst;
      for (std::size_t i = 0; i < rewrite.vars.size(); ++i) {
        const PatternVar& var = rewrite.vars[i];
        if (var.const_only) {
          subst.push_back(egraph.add_constant(values[i]));
          continue;
        }
        const std::string name = "v" + std::to_string(i);
        if (is_integer(var.dtype)) egraph.set_var_interval(name, sampler.interval_around(values[i]));
        subst.push_back(egraph.add_var(name, var.dtype));
        if (var.dtype == DType::Index) egraph.refine_congruence(subst.back(), sampler.congruence_around(values[i]));
      }
      egraph.rebuild();
      if (evaluate_guard(egraph, *rewrite.guard, subst) != Truth::True) continue;
    }
    const std::optional<Value> lhs = evaluate(rewrite.lhs, values, rewrite.fast_math);
    if (!lhs) continue;
    ++outcome.fired;
    const std::optional<Value> rhs = evaluate(rewrite.rhs, values, rewrite.fast_math);
    if (!rhs || !same(*lhs, *rhs, rewrite.fast_math)) {
      outcome.failure = "for";
      for (std::size_t i = 0; i < values.size(); ++i) {
        outcome.failure += " " + rewrite.vars[i].name + "=" + value_text(values[i]);
      }
      outcome.failure += ": left " + value_text(*lhs) + ", right " + (rhs ? value_text(*rhs) : "undefined");
    }
  }
  return outcome;
}

TEST(CatalogueSoundness, EveryInstanceAgreesWithConstantFoldingOnRandomValues) {
  Sampler sampler(20240611);
  std::size_t instance = 0;  // of the catalogue, for the sanitizer build's sample
  for (const Rule& rule : builtin_rules().rules) {
    // A reassociation changes rounding: it is no equality of IEEE values to sample, and
    // is accepted by its shape alone (verify/reassociation.h).
    if (rule.fast_math.has(FastMathFlag::Reassoc)) continue;
    for (std::size_t i = 0; i < rule.rewrites.size(); ++i) {
      if (!in_sweep(instance++)) continue;
      const Outcome outcome = check_instance(rule.rewrites[i], sampler, rule.guard_text.empty() ? 300 : 3000);
      const std::string where = rule.file + ":" + std::to_string(rule.line) + ": " + rule.name + " (" +
                                std::string(dtype_name(rule.dtypes[i])) + ")";
      EXPECT_EQ(outcome.failure, "") << where;
      // A rule whose guard never held on the samples was not tested at all.
      EXPECT_GT(outcome.fired, 0) << where << ": no sample satisfied the guard";
    }
  }
}

}  // namespace
}  // namespace eqsat::testing
