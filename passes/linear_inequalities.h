// Bounds on INDEX linear forms implied by known linear inequalities: the
// transitive reasoning of a condition context (TVM's analyzer with its
// transitive comparisons, Halide's facts in scope).
//
// Comparisons are read as sums of atoms with integer coefficients (an atom is
// any subterm that is not + - * by a constant: `x`, `a * d`, `max(a, b)`). With
// `a - b <= -1` and `b - c <= -1` known, the upper bound of `a - c` is -2, so
// `a + 1 < c` holds. The bound of a form P is found by eliminating its atoms
// one at a time with the known inequalities L <= c: P = k*L + (P - k*L) for a
// positive integer k that removes one atom of P, so upper(P) <= k*c +
// upper(P - k*L). The search is bounded (a few eliminations) and what is left
// is bounded by the atoms' intervals. Every step is a sum of true inequalities,
// so every bound found holds; a bound not found is only a missed fold.
//
// Atoms also bring what their operation guarantees, wherever they are defined:
//   max(u, w) >= u and >= w;  min(u, w) <= u and <= w;
//   N % m in [0, m - 1] and m*(N // m) <= N <= m*(N // m) + m - 1 for m >= 1 (a
//   constant, or a term the inequalities bound below by 1), the mirror for m <= -1.
// (`max(a, b) * 2 >= a + b` is the sum of the two max facts.)
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ir/expr.h"
#include "ir/pool_allocator.h"
#include "passes/linear_form.h"

namespace eqsat {

// Maps keyed by an atom's printed text. Their entries come from the thread's free
// lists (ir/pool_allocator.h): forms are read, copied and dropped at every
// comparison a pass looks at.
template <class V>
using ByText = std::map<std::string, V, std::less<std::string>, PoolAllocator<std::pair<const std::string, V>>>;
using Coefficients = ByText<Int>;
using AtomsByText = ByText<Expr>;

// A linear form over atoms keyed by their printed text: sum of coefficient * atom.
struct LinearTerms {
  Coefficients coefficients;  // no zero coefficient
  AtomsByText atoms;          // the atom of each key
};

// Adds scale * expr (an INDEX term) to `terms` and `constant`. False when a
// coefficient leaves the safe range: the term is then not read at all.
bool read_linear_terms(const Expr &expr, Int scale, LinearTerms &terms, Int &constant);

class LinearInequalities {
 public:
  explicit LinearInequalities(BoundsOracle bounds = {}) : bounds_(std::move(bounds)) {}

  // Records sum(terms) <= bound, and the facts of the atoms it mentions.
  void add(const LinearTerms &terms, Int bound);

  bool empty() const { return inequalities_.empty(); }

  // The least upper (greatest lower) bound of sum(terms) the search finds.
  std::optional<Int> upper_bound(const LinearTerms &terms) const;
  std::optional<Int> lower_bound(const LinearTerms &terms) const;
  // Both at once, as upper_bound then lower_bound find them: the facts of the
  // atoms (the same for sum(terms) and its negation) are gathered once.
  struct Bounds {
    std::optional<Int> lower, upper;
  };
  Bounds bounds(const LinearTerms &terms) const;

 private:
  struct Inequality {
    Coefficients coefficients;
    Int bound;
  };
  // `atoms`: the atom of each key the interval step may meet.
  std::optional<Int> search(const Coefficients &form, const std::vector<Inequality> &known, const AtomsByText &atoms,
                            int depth) const;
  // search() with no inequality known: the sum of each term's bound by its atom's
  // interval (the same intervals asked for, in the same order).
  std::optional<Int> interval_sum(const Coefficients &form, const AtomsByText &atoms) const;
  // The facts of `atom` (see the header comment) appended to `out`.
  // `atoms` gains the atoms the facts mention.
  void atom_facts(const Expr &atom, const std::vector<Inequality> &known, std::vector<Inequality> &out,
                  AtomsByText &atoms) const;
  // The recorded inequalities and the facts of `atoms` (which gains the atoms they mention).
  std::vector<Inequality> with_atom_facts(AtomsByText &atoms) const;

  BoundsOracle bounds_;
  std::vector<Inequality> inequalities_;
  AtomsByText atoms_;
};

}  // namespace eqsat
