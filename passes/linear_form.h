// Linear (polynomial) normal forms of integer arithmetic, TVM's canonical
// simplifier in miniature.
//
// Rewrite rules see one node at a time, so they cannot find that the y's of
// `(x * 3 + y) - (y + x * 2)` cancel without associativity and commutativity
// rules, which blow the e-graph up exponentially in the length of a sum.
// Instead, a tree of
// + - * and unary - over one integer dtype is read as a polynomial: a map from
// monomials (sorted products of atoms, an atom being any other subterm) to
// integer coefficients, with like terms collected. Writing the polynomial back
// gives the sum with every cancellation done, in one canonical order.
//
// Why it is sound: these are the identities of a commutative ring, which INDEX
// (the integers) is and INTn/UINTn (the integers modulo 2^n) are too;
// coefficients are computed exactly for INDEX and modulo 2^n for the
// fixed-width dtypes. Floats are left alone (IEEE addition is not associative).
// Comparisons are normalized as `P < 0` or `P == 0` with P = lhs - rhs: for ==
// and != in every integer dtype (adding a constant is a bijection modulo 2^n),
// for < and <= only for INDEX (moving a term across a fixed-width comparison
// can wrap).
//
// simplify_expr adds these forms to the e-graph as equalities, so the extractor
// still chooses the cheapest spelling and the rules keep working on both.
#pragma once

#include <functional>
#include <memory>

#include "egraph/interval.h"
#include "ir/expr.h"

namespace eqsat {

// An expression equal to `expr` for every valuation, with every maximal + - *
// tree of an integer dtype written as a canonical collected polynomial and
// every integer comparison moved to `terms < terms + constant` form (decided
// when it is constant). Returns `expr` itself when nothing changes.
//
// Floor division and modulo of INDEX by a positive constant take part: the
// multiples of the divisor leave the numerator (`(x * 8 + y + 9) // 4` is `x *
// 2 + 2 + (y + 1) // 4`), a common factor of divisor and numerator cancels,
// nested quotients combine. The mode chooses how quotients and remainders of
// one numerator are written, so that they meet:
//   Plain    as they are;
//   DivForm  N % m as N - m * (N // m)        (x // 8 * 4 + x // 2 % 4 is x //
//   2); ModForm  k * (N // m), m | k, as (k/m) * (N - N % m)   (x - x // 8 * 8
//   is x % 8).
//
// truncdiv and truncmod of INDEX by a nonzero constant take part too, in the
// identities that hold for every sign of the numerator: a negative divisor's
// sign leaves (`truncdiv(x, -5)` is `-truncdiv(x, 5)`, `truncmod(x, -2)` is
// `truncmod(x, 2)`), a factor common to the divisor and every coefficient
// cancels (`truncdiv(x * 2 + y * 4, 2)` is `x + y * 2`), nested quotients
// combine (`truncdiv(truncdiv(x, 2), 3)` is `truncdiv(x, 6)`), and DivForm and
// ModForm spell `truncmod(N, m)` as `N - m * truncdiv(N, m)` and back (`x -
// truncdiv(x, 3) * 3` is `truncmod(x, 3)`). A quotient compared with a
// constant becomes a comparison of its numerator (`truncdiv(x, 2) > 3` is
// `7 < x`). The multiples of the divisor never leave a truncating numerator
// whose sign is unknown: `truncdiv(x + 4, 4)` is not `truncdiv(x, 4) + 1` at
// x = -1.
enum class LinearMode { Plain, DivForm, ModForm };

// The interval of an INDEX subterm's values under the run's facts (variable
// bounds, assumptions), as the e-graph's interval analysis knows it. With one,
// the normalizer also folds by bounds, as TVM's canonical simplifier and
// tinygrad's "fold divmod with bounds" do. Writing N = g*S + s with g the gcd
// of the large terms' coefficients and s the sum of the small terms:
//   - N // c and N % c when s's interval lies in one block [k*g, (k+1)*g) and g
//     divides c: N // c = (S + k) // (c/g), N % c = g*((S + k) % (c/g)) + s - k*g
//     (`(a * 4 + b) // 12` with 0 <= b < 4 is `a // 3`); g = c is the case of a
//     remainder that stays in one block (`(x * 8 + y) // 8` is x for 0 <= y < 8);
//   - N < d when s's interval is shorter than g: N < d iff S < k for the k with
//     g*k + lower(s) >= d and g*(k-1) + upper(s) < d (`a * 4 + b < 16` with 0
//     <= b < 4 is `a < 4`).
// A truncating division whose numerator the bounds show non-negative is the
// floor one, and one whose numerator is non-positive its mirror image
// (truncdiv(N, c) = -((-N) // c)); the folds above then apply.
// An empty function (the default) knows nothing, and no bound is used.
using BoundsOracle = std::function<Interval(const Expr &)>;

Expr normalize_linear(const Expr &expr, LinearMode mode = LinearMode::Plain, BoundsOracle bounds = {});

// The same, for many subterms of one expression: results are remembered by
// node, so normalizing every subterm of a tree costs about as much as
// normalizing the tree.
class LinearNormalizer {
 public:
  explicit LinearNormalizer(LinearMode mode, BoundsOracle bounds = {});
  ~LinearNormalizer();
  LinearNormalizer(const LinearNormalizer &) = delete;
  LinearNormalizer &operator=(const LinearNormalizer &) = delete;
  Expr normalize(const Expr &expr);
  // An INDEX sum whose polynomial is L + N // m or L - N // m (m > 0 a constant, no
  // term of L a quotient) written as one quotient, (m*L + N) // m or (m*L - N + m -
  // 1) // m, its numerator collected (`x + (y + w - x) // 2` is `(w + x + y) // 2`),
  // and the numerator's terms of one coefficient factored where that is smaller (`x +
  // z + (y + (x + z)) // 3` is `((x + z) * 4 + y) // 3`).
  // Returns `expr` itself for any other term.
  Expr as_one_quotient(const Expr &expr);

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace eqsat
