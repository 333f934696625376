// The transitive reasoning of condition contexts (passes/linear_inequalities.h)
// and the combined quotient/remainder conjunctions (passes/divmod_conjunction.h)
// against Z3: on random implications `not (P1 and P2) or Q` and chains of
// comparisons over sums, products, min/max and floor division/modulo atoms, the rewritten
// form must equal its input wherever the input is defined. These passes are not
// rules, so this is their proof obligation, checked on many shapes.
#include <gtest/gtest.h>

#include <random>

#include "ir/print.h"
#include "passes/condition_context.h"
#include "passes/divmod_conjunction.h"
#include "verify/equivalence.h"

namespace eqsat::verify {
namespace {

using Status = EquivalenceResult::Status;

class RandomImplication {
 public:
  explicit RandomImplication(uint64_t seed) : rng_(seed) {}

  // not (c1 and c2 [and c3]) or q, or an and chain of comparisons.
  Expr implication() {
    Expr premise = comparison();
    for (int i = pick_in(1, 2); i > 0; --i) premise = both(premise, comparison());
    return Expr::make(Op::Or, DType::Bool, {Expr::make(Op::Not, DType::Bool, {premise}), comparison()});
  }
  Expr chain() {
    Expr result = comparison();
    for (int i = pick_in(1, 3); i > 0; --i) result = both(result, comparison());
    return result;
  }

 private:
  int pick_in(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  static Expr both(const Expr &a, const Expr &b) { return Expr::make(Op::And, DType::Bool, {a, b}); }
  Expr constant(int lo, int hi) { return Expr::constant(Value::integer(DType::Index, pick_in(lo, hi))); }
  Expr var() { return Expr::var(std::string(1, "abc"[pick_in(0, 2)]), DType::Index); }
  Expr atom() {
    switch (pick_in(0, 7)) {
      case 0:
        return Expr::make(pick_in(0, 1) ? Op::Min : Op::Max, DType::Index, {var(), sum()});
      case 1:
        return Expr::make(Op::FloorMod, DType::Index, {var(), pick_in(0, 1) ? var() : constant(-4, 4)});
      case 2:
        return Expr::make(Op::FloorDiv, DType::Index, {var(), pick_in(0, 1) ? var() : constant(-4, 4)});
      case 3:  // products share factors: a * c < b * c
        return Expr::make(Op::Mul, DType::Index, {var(), var()});
      case 4: {  // a rounded multiple: a // b * b
        const Expr divisor = var();
        return Expr::make(Op::Mul, DType::Index, {Expr::make(Op::FloorDiv, DType::Index, {var(), divisor}), divisor});
      }
      default:
        return var();
    }
  }
  // a, a + 2, a - b, a * 3, atoms of atoms
  Expr sum() {
    switch (pick_in(0, 4)) {
      case 0:
        return Expr::make(Op::Add, DType::Index, {var(), constant(-3, 3)});
      case 1:
        return Expr::make(Op::Sub, DType::Index, {var(), var()});
      case 2:
        return Expr::make(Op::Mul, DType::Index, {var(), constant(-3, 3)});
      default:
        return var();
    }
  }
  Expr term() {
    Expr t = pick_in(0, 2) == 0 ? atom() : sum();
    if (pick_in(0, 2) == 0) t = Expr::make(Op::Add, DType::Index, {t, atom()});
    if (pick_in(0, 3) == 0) t = Expr::make(Op::Mul, DType::Index, {t, constant(-4, 5)});
    return t;
  }
  Expr comparison() {
    static constexpr Op kOps[] = {Op::Eq, Op::Ne, Op::Lt, Op::Le, Op::Gt, Op::Ge};
    const Op op = kOps[pick_in(0, 5)];
    return Expr::make(op, DType::Bool, {term(), pick_in(0, 1) ? term() : constant(-9, 9)});
  }

  std::mt19937_64 rng_;
};

// Remainder windows and quotient/remainder pairs, which the pass looks for.
class RandomDivMod {
 public:
  explicit RandomDivMod(uint64_t seed) : rng_(seed) {}

  // Mostly a quotient pinned next to a remainder comparison, or a window of
  // about the divisor's width, among random operands of the same kinds.
  Expr conjunction() {
    const int c = pick_in(2, 4);
    Expr result = operand();
    switch (pick_in(0, 2)) {
      case 0:
        result = both(result, both(Expr::make(Op::Eq, DType::Bool, {quotient(c), constant(pick_in(-3, 3))}),
                                   compare(remainder(c), constant(pick_in(-1, c)))));
        break;
      case 1: {
        const Expr side = window_side(c);
        const int lo = pick_in(-3, 3);
        result = both(Expr::make(Op::Le, DType::Bool, {constant(lo), side}),
                      Expr::make(Op::Lt, DType::Bool, {side, constant(lo + c + pick_in(-1, 1))}));
        break;
      }
      default:
        result = both(result, operand());
        break;
    }
    return result;
  }

 private:
  int pick_in(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  Expr constant(int v) { return Expr::constant(Value::integer(DType::Index, v)); }
  Expr x() { return Expr::var("x", DType::Index); }
  Expr y() { return Expr::var("y", DType::Index); }
  static Expr both(const Expr &a, const Expr &b) { return Expr::make(Op::And, DType::Bool, {a, b}); }
  Expr quotient(int c) { return Expr::make(Op::FloorDiv, DType::Index, {x(), constant(c)}); }
  Expr remainder(int c) { return Expr::make(Op::FloorMod, DType::Index, {x(), constant(c)}); }
  // x - y * c, or y * c - x
  Expr window_side(int c) {
    const Expr scaled = Expr::make(Op::Mul, DType::Index, {y(), constant(c)});
    return pick_in(0, 1) ? Expr::make(Op::Sub, DType::Index, {x(), scaled})
                         : Expr::make(Op::Sub, DType::Index, {scaled, x()});
  }
  // side op bound, in either operand order
  Expr compare(const Expr &side, const Expr &bound) {
    static constexpr Op kOps[] = {Op::Eq, Op::Lt, Op::Le, Op::Gt, Op::Ge};
    const Op op = kOps[pick_in(0, 4)];
    return pick_in(0, 1) ? Expr::make(op, DType::Bool, {side, bound}) : Expr::make(op, DType::Bool, {bound, side});
  }
  Expr operand() {
    const int c = pick_in(2, 4);
    const int kind = pick_in(0, 2);
    const Expr side = kind == 0 ? quotient(c) : kind == 1 ? remainder(c) : window_side(c);
    return compare(side, constant(pick_in(-5, 5)));
  }

  std::mt19937_64 rng_;
};

template <typename Rewrite>
int check(const std::vector<Expr> &inputs, Rewrite rewrite) {
  const Facts facts;
  int rewritten = 0;
  for (const Expr &input : inputs) {
    const Expr output = rewrite(input);
    if (output == input) continue;
    ++rewritten;
    const EquivalenceResult result = verify_equivalent(input, output, facts);
    EXPECT_NE(result.status, Status::Counterexample)
        << print(input) << "  =>  " << print(output) << ": " << result.detail;
  }
  return rewritten;
}

TEST(ImplicationsVsZ3, RandomImplicationsAndChains) {
  RandomImplication random(21);
  std::vector<Expr> inputs;
  for (int i = 0; i < 150; ++i) inputs.push_back(i % 2 ? random.implication() : random.chain());
  const int rewritten = check(inputs, [](const Expr &e) { return substitute_conditions(e); });
  // The check means something only if the pass did rewrite.
  EXPECT_GT(rewritten, 15);
}

TEST(ImplicationsVsZ3, RandomDivModConjunctions) {
  RandomDivMod random(22);
  std::vector<Expr> inputs;
  for (int i = 0; i < 200; ++i) inputs.push_back(random.conjunction());
  const int rewritten = check(inputs, [](const Expr &e) { return combine_divmod_conjunctions(e); });
  EXPECT_GT(rewritten, 40);
}

}  // namespace
}  // namespace eqsat::verify
