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
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ir/expr.h"
#include "ir/pool_allocator.h"
#include "ir/print.h"
#include "passes/linear_form.h"

namespace eqsat {

// An INDEX atom of a linear form, interned in an AtomTable: one printed text is one
// atom, as when the forms were maps keyed by the text itself. Copying a key copies a
// pointer, and two keys are equal exactly when they point at the same entry; they
// order by their text (compared only when the entries differ), so every walk of a
// form in order is the text order it was.
// An atom's entry in its table: the first term interned with its text, and its
// interval once asked for (AtomTable::interval).
struct AtomEntry {
  Expr expr;
  std::optional<Interval> interval;
};

class AtomKey {
 public:
  const std::string &text() const { return entry_->first; }
  // The first term interned with this text.
  const Expr &expr() const { return entry_->second.expr; }
  friend bool operator==(AtomKey a, AtomKey b) { return a.entry_ == b.entry_; }
  friend bool operator<(AtomKey a, AtomKey b) { return a.entry_ != b.entry_ && a.text() < b.text(); }

 private:
  friend class AtomTable;
  explicit AtomKey(std::pair<const std::string, AtomEntry> &entry) : entry_(&entry) {}
  std::pair<const std::string, AtomEntry> *entry_;
};

// The atoms of the forms read for one pass (a substitution of conditions, a
// combination of conjunctions): each node is printed once, however many
// comparisons and facts read it. Keys stay valid while the table lives.
class AtomTable {
 public:
  AtomKey intern(const Expr &atom);
  // bounds(atom.expr()), asked once per atom: the forms of one pass ask one oracle
  // about one e-graph, whose intervals the asking does not change (it only adds the
  // atom's nodes), and the bounded search asks about the same atoms again and again.
  static Interval interval(AtomKey atom, const BoundsOracle &bounds);

 private:
  template <class V>
  using ByNode = std::unordered_map<const void *, V, std::hash<const void *>, std::equal_to<const void *>,
                                    PoolAllocator<std::pair<const void *const, V>>>;
  ByNode<std::pair<Expr, AtomKey>> by_node_;  // keeps each node alive: its address stays unique
  PrintMemo print_memo_;                      // the atoms of a chain hold one another (ir/print.h)
  // Node-based: the entries AtomKeys point at stay put.
  std::map<std::string, AtomEntry, std::less<>, PoolAllocator<std::pair<const std::string, AtomEntry>>> by_text_;
};

// Maps and sets keyed by interned atoms. Their entries come from the thread's free
// lists (ir/pool_allocator.h): forms are read, copied and dropped at every
// comparison a pass looks at.
template <class V>
using ByAtom = std::map<AtomKey, V, std::less<AtomKey>, PoolAllocator<std::pair<const AtomKey, V>>>;
using Coefficients = ByAtom<Int>;
using AtomSet = std::set<AtomKey, std::less<AtomKey>, PoolAllocator<AtomKey>>;

// A linear form over interned atoms: sum of coefficient * atom.
struct LinearTerms {
  Coefficients coefficients;  // no zero coefficient
  AtomSet atoms;              // every atom read, those whose terms cancelled too
};

// Adds scale * expr (an INDEX term) to `terms` and `constant`, its atoms interned in
// `table`. False when a coefficient leaves the safe range: the term is then not read
// at all.
bool read_linear_terms(const Expr &expr, Int scale, AtomTable &table, LinearTerms &terms, Int &constant);

class LinearInequalities {
 public:
  // `table` interns the atoms of the facts and remembers their intervals: it outlives
  // this object and its copies, and every LinearInequalities sharing it is given the
  // same `bounds`.
  LinearInequalities(AtomTable &table, BoundsOracle bounds = {}) : table_(&table), bounds_(std::move(bounds)) {}

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
  std::optional<Int> search(const Coefficients &form, const std::vector<Inequality> &known, int depth) const;
  // search() with no inequality known, of sign * form (sign 1 or -1: the upper bound
  // of the form or of its negation, without a negated copy of it): the sum of each
  // term's bound by its atom's interval (the same intervals asked for, in the same
  // order).
  std::optional<Int> interval_sum(const Coefficients &form, Int sign) const;
  // The facts of `atom` (see the header comment) appended to `out`.
  void atom_facts(AtomKey atom, const std::vector<Inequality> &known, std::vector<Inequality> &out) const;
  // The recorded inequalities and the facts of their atoms and of `atoms`, in the
  // order of their text.
  std::vector<Inequality> with_atom_facts(const AtomSet &atoms) const;

  AtomTable *table_;
  BoundsOracle bounds_;
  std::vector<Inequality> inequalities_;
  AtomSet atoms_;
};

}  // namespace eqsat
