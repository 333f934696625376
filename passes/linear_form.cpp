#include "passes/linear_form.h"

#include <algorithm>
#include <boost/container/small_vector.hpp>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ir/map_args.h"
#include "ir/pool_allocator.h"
#include "ir/print.h"

namespace eqsat {

namespace {

// An atom's entry in the normalizer's table: the term first interned with its
// structure, and its printed text, printed when first compared. Most atoms are never
// compared with another (a polynomial of one term), and printing every atom of a
// deep chain (a quotient of a max of a quotient...) was quadratic in its depth.
struct AtomEntry {
  AtomEntry(Expr term, PrintMemo &texts) : expr(std::move(term)), memo(&texts) {}
  Expr expr;
  mutable std::optional<std::string> text;
  PrintMemo *memo;  // the normalizer's: the atoms of a chain hold one another (ir/print.h)
};

// An atom of the normal form: a subterm that is not + - * (or a quotient the
// normal form writes), interned by its structure. Atoms order by their printed
// text, so the normal form does not depend on where they are stored; one
// structure is one atom (the normalizer's table holds it once), so equality is
// that of the entry.
class Atom {
 public:
  explicit Atom(const AtomEntry &entry) : entry_(&entry) {}
  const std::string &text() const {
    // A variable prints as its name: nothing to print (most atoms are variables).
    if (entry_->expr.op() == Op::Var) return entry_->expr.name();
    if (!entry_->text) entry_->text = entry_->memo->print(entry_->expr);
    return *entry_->text;
  }
  // The term first interned with this structure.
  const Expr &expr() const { return entry_->expr; }
  friend bool operator==(Atom a, Atom b) { return a.entry_ == b.entry_; }
  friend bool operator<(Atom a, Atom b) { return a.entry_ != b.entry_ && a.text() < b.text(); }
  // An order of no meaning, without printing: for tables only looked up.
  struct ByEntry {
    bool operator()(Atom a, Atom b) const { return std::less<const AtomEntry *>{}(a.entry_, b.entry_); }
  };

 private:
  const AtomEntry *entry_;
};

// A product of atoms, sorted by their text; empty for the constant term. Most
// have one or two atoms: those are stored inline (a polynomial is rebuilt many
// times over, and its monomials with it).
using Monomial = boost::container::small_vector<Atom, 2>;
// Monomial -> coefficient, without zero coefficients. Coefficients are exact
// for INDEX and, for a fixed-width dtype, the signed representative of the
// residue modulo 2^n (so that products of two of them fit in 128 bits).
using Poly = std::map<Monomial, Int, std::less<Monomial>, PoolAllocator<std::pair<const Monomial, Int>>>;

// Products with more terms than this stay unexpanded (an atom): expanding
// (a + b + c) * (d + e + f) would only make the expression bigger.
constexpr std::size_t kMaxTerms = 12;

// Thrown when an INDEX coefficient leaves the 128-bit range; the subtree is
// then kept.
struct CoefficientOverflow {};

DType signed_of_width(DType t) {
  switch (t) {
    case DType::UInt8:
      return DType::Int8;
    case DType::UInt16:
      return DType::Int16;
    case DType::UInt32:
      return DType::Int32;
    case DType::UInt64:
      return DType::Int64;
    default:
      return t;
  }
}

Int gcd(Int a, Int b) {
  while (b != 0) a = std::exchange(b, a % b);
  return a < 0 ? -a : a;
}

bool is_ring_op(Op op) { return op == Op::Add || op == Op::Sub || op == Op::Mul || op == Op::Neg; }

// x // c or x % c of INDEX with a positive constant c: a polynomial in x's
// terms.
bool is_index_divmod(const Expr &expr) {
  return expr.dtype() == DType::Index && (expr.op() == Op::FloorDiv || expr.op() == Op::FloorMod) &&
         expr.arg(1).is_const() && expr.arg(1).value().i > 0;
}

// truncdiv(x, c) or truncmod(x, c) of INDEX with a nonzero constant c: the
// truncating twin, a polynomial in x's terms too (see truncdivmod_poly).
bool is_index_truncdivmod(const Expr &expr) {
  return expr.dtype() == DType::Index && (expr.op() == Op::TruncDiv || expr.op() == Op::TruncMod) &&
         expr.arg(1).is_const() && expr.arg(1).value().i != 0;
}

// Any division or remainder of INDEX: // % truncdiv truncmod, by any divisor.
bool is_index_division(const Expr &expr) { return expr.dtype() == DType::Index && is_integer_division(expr.op()); }

class Normalizer {
 public:
  Normalizer(LinearMode mode, BoundsOracle bounds) : mode_(mode), bounds_(std::move(bounds)) {}

  Expr normalize(const Expr &expr) {
    if (expr.op() == Op::Var || expr.op() == Op::Const) return expr;
    if (auto it = nodes_.find(expr.identity()); it != nodes_.end() && it->second.normal) return *it->second.normal;
    Expr out = normalize_uncached(expr);
    facts_of(expr).normal = out;
    return out;
  }

  // The INDEX sum `expr` as one floor quotient, where its polynomial is L + N // m or
  // L - N // m (m > 0, L not zero, no other term holding a quotient of the pass):
  // (m*L + N) // m, or (m*L - N + m - 1) // m, since L + N // m = (m*L + N) // m for
  // every integer L and -(N // m) = (m - 1 - N) // m. Halide writes `2 * x + (2 * x +
  // y) // 5` so, as `(x * 12 + y) // 5`: the terms moved in may cancel with the
  // numerator's, which the normal form (moving multiples of m out of a numerator, never
  // in) does not see. nullopt where the sum has no such shape.
  std::optional<Expr> as_one_quotient(const Expr &expr) {
    if (expr.dtype() != DType::Index || (expr.op() != Op::Add && expr.op() != Op::Sub)) return std::nullopt;
    try {
      std::optional<Poly> poly = to_poly(expr, DType::Index);
      if (!poly) return std::nullopt;
      const Monomial *quotient = nullptr;
      Int sign = 0;
      for (const auto &[monomial, k] : *poly) {
        const bool holds_quotient =
            std::any_of(monomial.begin(), monomial.end(), [&](Atom a) { return quotients_.contains(a); });
        if (!holds_quotient) continue;
        if (quotient != nullptr || monomial.size() != 1 || (k != 1 && k != -1)) return std::nullopt;
        quotient = &monomial;
        sign = k;
      }
      if (quotient == nullptr || poly->size() < 2) return std::nullopt;
      const auto &[numerator, m] = quotients_.find(quotient->front())->second;
      Poly rest = *poly;
      rest.erase(*quotient);
      Poly pulled = sum(DType::Index, scaled(DType::Index, rest, m), scaled(DType::Index, numerator, sign));
      if (sign < 0) accumulate(DType::Index, pulled, Monomial{}, m - 1);
      if (!has_terms(pulled)) return std::nullopt;
      const Expr written = from_poly(division_atom(Op::FloorDiv, pulled, m), DType::Index);
      // Its terms of one coefficient factored, where that is smaller (`x + z + (y + (x +
      // z)) // 3` is `((x + z) * 4 + y) // 3`, as Halide writes it).
      if (std::optional<Expr> grouped = factored(pulled)) {
        const Expr smaller = Expr::make(Op::FloorDiv, DType::Index, {*grouped, constant(DType::Index, m)});
        if (smaller.tree_size() < written.tree_size()) return smaller;
      }
      return written;
    } catch (const CoefficientOverflow &) {
      return std::nullopt;
    }
  }

  // The INDEX polynomial p written with the most of its terms that share one coefficient
  // k > 1 (two at least; of equal counts the smallest k) as one product, the others
  // after it as from_poly writes them: `x * 4 + y + z * 4` as `(x + z) * 4 + y`. nullopt
  // where no two terms share such a coefficient.
  std::optional<Expr> factored(const Poly &p) const {
    std::optional<Int> shared;
    std::size_t most = 1;
    for (const auto &[monomial, k] : p) {
      if (monomial.empty() || k <= 1) continue;
      std::size_t count = 0;
      for (const auto &[other, j] : p) count += !other.empty() && j == k;
      if (count > most || (count == most && count > 1 && k < *shared)) {
        most = count;
        shared = k;
      }
    }
    if (!shared) return std::nullopt;
    Poly group, rest;
    for (const auto &[monomial, k] : p) {
      if (!monomial.empty() && k == *shared) {
        group.emplace(monomial, 1);
      } else {
        rest.emplace(monomial, k);
      }
    }
    const DType t = DType::Index;
    return from_poly(rest, t, Expr::make(Op::Mul, t, {from_poly(group, t), constant(t, *shared)}));
  }

 private:
  Expr normalize_uncached(const Expr &expr) {
    if ((is_integer(expr.dtype()) && is_ring_op(expr.op())) || is_index_division(expr)) {
      try {
        std::optional<Poly> poly = to_poly(expr, expr.dtype());
        if (poly && mode_ == LinearMode::ModForm) poly = to_mod_form(*poly);
        if (poly) return from_poly(*poly, expr.dtype());
      } catch (const CoefficientOverflow &) {
      }
      return with_normal_args(expr);
    }
    if (is_comparison(expr.op()) && is_integer(expr.arg(0).dtype())) {
      try {
        if (std::optional<Expr> compared = normalize_compare(expr)) return *compared;
      } catch (const CoefficientOverflow &) {
      }
    }
    if (expr.op() == Op::And || expr.op() == Op::Or) {
      try {
        if (std::optional<Expr> combined = combine_comparisons(expr)) return *combined;
      } catch (const CoefficientOverflow &) {
      }
    }
    return with_normal_args(expr);
  }

  // --- Chains of `and` / `or` over comparisons of one linear form. ---
  // A comparison `P OP d` read as the set of values P may take: an interval
  // and points left out. P's sign is fixed (its first coefficient positive), so
  // `x < y` and `y <= x` describe the same P = x - y.
  struct ValueSet {
    std::optional<Int> lo, hi;
    std::vector<Int> excluded;
  };
  struct Constraint {
    DType dtype;
    Poly p;  // without constant
    ValueSet values;
    bool order;  // from < or <= (INDEX only)
  };

  // An integer comparison `lhs OP rhs` as `P OP d`: > and >= turned into < and <=,
  // P = lhs - rhs without its constant (in ModForm with mod_form), d that constant
  // moved to the right. nullopt for an order comparison of a fixed-width dtype (moving
  // a term across it can wrap) or a side that is no polynomial.
  struct Difference {
    DType dtype;
    Op op;  // Eq, Ne, Lt or Le
    Poly p;
    Int d;
  };
  std::optional<Difference> difference_of(const Expr &cmp, bool mod_form) {
    const DType t = cmp.arg(0).dtype();
    Op op = cmp.op();
    Expr lhs = cmp.arg(0), rhs = cmp.arg(1);
    const bool equality = op == Op::Eq || op == Op::Ne;
    if (!equality && t != DType::Index) return std::nullopt;
    if (op == Op::Gt || op == Op::Ge) {
      std::swap(lhs, rhs);
      op = op == Op::Gt ? Op::Lt : Op::Le;
    }
    std::optional<Poly> a = to_poly(lhs, t);
    std::optional<Poly> b = to_poly(rhs, t);
    if (!a || !b) return std::nullopt;
    Poly p = sum(t, std::move(*a), scaled(t, *b, -1));
    if (mod_form) p = to_mod_form(p);
    Int d = 0;
    if (auto it = p.find(Monomial{}); it != p.end()) {
      d = mul(t, it->second, -1);
      p.erase(it);
    }
    return Difference{t, op, std::move(p), d};
  }

  std::optional<Constraint> constraint_of(const Expr &cmp) {
    if (!is_comparison(cmp.op()) || !is_integer(cmp.arg(0).dtype())) return std::nullopt;
    std::optional<Difference> difference = difference_of(cmp, /*mod_form=*/false);
    if (!difference) return std::nullopt;
    const DType t = difference->dtype;
    Op op = difference->op;
    Poly &p = difference->p;  // p OP d
    Int d = difference->d;
    const bool equality = op == Op::Eq || op == Op::Ne;
    if (p.empty()) return std::nullopt;  // decided: left to normalize_compare
    if (p.begin()->second < 0) {
      if (!equality) {  // -P < d is P > -d; -P <= d is P >= -d
        op = op == Op::Lt ? Op::Gt : Op::Ge;
      }
      p = scaled(t, p, -1);
      d = mul(t, d, -1);
    }
    Constraint out{t, std::move(p), {}, !equality};
    switch (op) {
      case Op::Eq:
        out.values.lo = out.values.hi = d;
        break;
      case Op::Ne:
        out.values.excluded.push_back(d);
        break;
      case Op::Lt:
        out.values.hi = add(t, d, -1);
        break;
      case Op::Le:
        out.values.hi = d;
        break;
      case Op::Gt:
        out.values.lo = add(t, d, 1);
        break;
      default:  // Ge
        out.values.lo = d;
        break;
    }
    return out;
  }

  // The complement of a set a single constraint describes (one side, a point or
  // a point left out).
  static ValueSet complement(const ValueSet &v) {
    ValueSet out;
    if (!v.excluded.empty()) {
      out.lo = out.hi = v.excluded.front();
    } else if (v.lo && v.hi) {
      out.excluded.push_back(*v.lo);  // a point
    } else if (v.hi) {
      out.lo = *v.hi + 1;
    } else if (v.lo) {
      out.hi = *v.lo - 1;
    }
    return out;
  }

  // The intersection of sets; nullopt when it is empty.
  static std::optional<ValueSet> intersect(const std::vector<ValueSet> &sets) {
    ValueSet out;
    std::vector<Int> excluded;
    for (const ValueSet &v : sets) {
      if (v.lo) out.lo = out.lo ? std::max(*out.lo, *v.lo) : *v.lo;
      if (v.hi) out.hi = out.hi ? std::min(*out.hi, *v.hi) : *v.hi;
      excluded.insert(excluded.end(), v.excluded.begin(), v.excluded.end());
    }
    std::sort(excluded.begin(), excluded.end());
    excluded.erase(std::unique(excluded.begin(), excluded.end()), excluded.end());
    // Points left out at an edge move the edge.
    for (bool moved = true; moved;) {
      moved = false;
      if (out.lo && std::binary_search(excluded.begin(), excluded.end(), *out.lo)) {
        out.lo = *out.lo + 1;
        moved = true;
      }
      if (out.hi && std::binary_search(excluded.begin(), excluded.end(), *out.hi)) {
        out.hi = *out.hi - 1;
        moved = true;
      }
      if (out.lo && out.hi && *out.lo > *out.hi) return std::nullopt;
    }
    for (Int e : excluded) {
      if ((!out.lo || *out.lo < e) && (!out.hi || e < *out.hi)) out.excluded.push_back(e);
    }
    return out;
  }

  Expr compare_expr(Op op, const Poly &p, DType t, Int d) {
    const Expr e = Expr::make(op, DType::Bool, {from_poly(p, t), constant(t, d)});
    std::optional<Expr> normal = normalize_compare(e);
    return normal ? *normal : e;
  }

  // The comparisons that say P is in `v` (and = true) or that P is not in it
  // (and = false: the leaves of an `or`).
  std::vector<Expr> leaves_of(const ValueSet &v, const Constraint &c, bool conjunction) {
    std::vector<Expr> out;
    if (conjunction) {
      if (v.lo && v.hi && *v.lo == *v.hi) return {compare_expr(Op::Eq, c.p, c.dtype, *v.lo)};
      if (v.lo) out.push_back(compare_expr(Op::Ge, c.p, c.dtype, *v.lo));
      if (v.hi) out.push_back(compare_expr(Op::Le, c.p, c.dtype, *v.hi));
      for (Int e : v.excluded) out.push_back(compare_expr(Op::Ne, c.p, c.dtype, e));
    } else {
      if (v.lo && v.hi && *v.lo == *v.hi && v.excluded.empty()) return {compare_expr(Op::Ne, c.p, c.dtype, *v.lo)};
      if (v.lo) out.push_back(compare_expr(Op::Lt, c.p, c.dtype, *v.lo));
      if (v.hi) out.push_back(compare_expr(Op::Gt, c.p, c.dtype, *v.hi));
      for (Int e : v.excluded) out.push_back(compare_expr(Op::Eq, c.p, c.dtype, e));
    }
    return out;
  }

  static void flatten(const Expr &expr, Op op, std::vector<Expr> &out) {
    if (expr.op() == op) {
      flatten(expr.arg(0), op, out);
      flatten(expr.arg(1), op, out);
    } else {
      out.push_back(expr);
    }
  }

  // `a and b and ...` (or `or`): the comparisons of one linear form P become
  // the fewest that say the same (`x <= y and y < x` is False, `x < 1 or x > 0`
  // True, `x != 1 or x != 2` True). An `or` is handled as the negation of the
  // `and` of its leaves' negations. nullopt: no two leaves share a form.
  std::optional<Expr> combine_comparisons(const Expr &expr) {
    const Op op = expr.op();
    const bool conjunction = op == Op::And;
    std::vector<Expr> leaves;
    flatten(expr, op, leaves);
    if (leaves.size() < 2 || leaves.size() > 16) return std::nullopt;
    // Cheap first: a group needs two integer comparisons.
    std::size_t comparisons = 0;
    for (const Expr &leaf : leaves) comparisons += is_comparison(leaf.op()) && is_integer(leaf.arg(0).dtype());
    if (comparisons < 2) return std::nullopt;
    std::vector<std::optional<Constraint>> constraints;
    std::map<std::pair<Poly, DType>, std::vector<std::size_t>> groups;
    for (std::size_t i = 0; i < leaves.size(); ++i) {
      constraints.push_back(constraint_of(leaves[i]));
      if (constraints.back()) groups[{constraints.back()->p, constraints.back()->dtype}].push_back(i);
    }
    std::vector<std::optional<std::vector<Expr>>> replaced(leaves.size());
    bool any = false;
    for (const auto &[key, members] : groups) {
      if (members.size() < 2) continue;
      // Fixed widths: only == and != (P's values are residues, with no order).
      bool ordered = false;
      for (std::size_t i : members) ordered = ordered || constraints[i]->order;
      if (key.second != DType::Index && ordered) continue;
      std::vector<ValueSet> sets;
      for (std::size_t i : members)
        sets.push_back(conjunction ? constraints[i]->values : complement(constraints[i]->values));
      std::optional<ValueSet> meet = intersect(sets);
      // An empty `and` of this group decides the whole chain.
      if (!meet) return Expr::constant(Value::boolean(!conjunction));
      any = true;
      replaced[members.front()] = leaves_of(*meet, *constraints[members.front()], conjunction);
      for (std::size_t j = 1; j < members.size(); ++j) replaced[members[j]] = std::vector<Expr>{};
    }
    if (!any) return std::nullopt;
    std::optional<Expr> out;
    auto append = [&](const Expr &e) { out = out ? Expr::make(op, DType::Bool, {*out, e}) : e; };
    for (std::size_t i = 0; i < leaves.size(); ++i) {
      if (replaced[i]) {
        for (const Expr &e : *replaced[i]) append(e);
      } else {
        append(normalize(leaves[i]));
      }
    }
    return out ? *out : Expr::constant(Value::boolean(conjunction));
  }

  Expr with_normal_args(const Expr &expr) {
    return map_args(expr, [this](const Expr &arg) { return normalize(arg); });
  }

  // --- Coefficient arithmetic in dtype t. ---
  static Int reduce(DType t, Int v) { return t == DType::Index ? v : wrap_to(signed_of_width(t), v); }
  static Int add(DType t, Int a, Int b) {
    std::optional<Int> sum = checked_add(a, b);
    if (!sum) throw CoefficientOverflow{};
    return reduce(t, *sum);
  }
  static Int mul(DType t, Int a, Int b) {
    std::optional<Int> product = checked_mul(a, b);
    if (!product) throw CoefficientOverflow{};
    return reduce(t, *product);
  }

  static void accumulate(DType t, Poly &into, const Monomial &monomial, Int coefficient) {
    Int &slot = into[monomial];
    slot = add(t, slot, coefficient);
    if (slot == 0) into.erase(monomial);
  }

  static Poly scaled(DType t, const Poly &poly, Int factor) {
    Poly out;
    for (const auto &[monomial, coefficient] : poly) accumulate(t, out, monomial, mul(t, coefficient, factor));
    return out;
  }

  static Poly sum(DType t, Poly a, const Poly &b) {
    for (const auto &[monomial, coefficient] : b) accumulate(t, a, monomial, coefficient);
    return a;
  }

  static Poly product(DType t, const Poly &a, const Poly &b) {
    Poly out;
    for (const auto &[ma, ka] : a) {
      for (const auto &[mb, kb] : b) {
        Monomial m;
        std::merge(ma.begin(), ma.end(), mb.begin(), mb.end(), std::back_inserter(m));
        accumulate(t, out, m, mul(t, ka, kb));
      }
    }
    return out;
  }

  Poly atom(const Expr &expr) {
    Expr normal = with_normal_args(expr);
    return Poly{{Monomial{intern(normal)}, 1}};
  }

  // The atom of `term`, by its structure (remembered by node: the same subterm is
  // read again for every sum around it).
  Atom intern(const Expr &term) {
    if (auto it = nodes_.find(term.identity()); it != nodes_.end() && it->second.atom) return *it->second.atom;
    const std::size_t hash = structural_hash(term);
    std::optional<Atom> atom;
    for (auto [it, end] = atoms_.equal_range(hash); it != end && !atom; ++it) {
      if (it->second.expr == term) atom.emplace(it->second);
    }
    if (!atom) atom.emplace(atoms_.emplace(hash, AtomEntry(term, print_memo_))->second);
    facts_of(term).atom = atom;
    return *atom;
  }

  // A hash of the term's structure (op, dtype, name or value, operands),
  // remembered by node: the atoms of a chain share their operands.
  std::size_t structural_hash(const Expr &term) {
    std::size_t hash = static_cast<std::size_t>(term.op()) * 31 + static_cast<std::size_t>(term.dtype());
    auto mix = [&hash](std::size_t part) { hash ^= part + 0x9e3779b97f4a7c15ULL + (hash << 6) + (hash >> 2); };
    // A leaf is hashed on the spot (most atoms are variables).
    if (term.op() == Op::Var) {
      mix(std::hash<std::string>{}(term.name()));
      return hash;
    }
    if (term.op() == Op::Const) {
      mix(hash_value(term.value()));
      return hash;
    }
    if (auto it = nodes_.find(term.identity()); it != nodes_.end() && it->second.hash) return *it->second.hash;
    for (const Expr &arg : term.args()) mix(structural_hash(arg));
    facts_of(term).hash = hash;
    return hash;
  }

  // The polynomial of an expression of integer dtype t. A quotient's or remainder's
  // is remembered by node: the normal form of every subterm is asked for
  // (add_linear_forms walks the tree), and each reads its operands' polynomials
  // again, and a quotient's reading is the costly one (blocks, bounds). The first
  // reading stands for the pass: the bounds only narrow while it runs (merges), so
  // a later reading could only fold more, never differently wrong. Sums and products
  // are read again: copying their polynomial costs about as much.
  std::optional<Poly> to_poly(const Expr &expr, DType t) {
    if (!is_integer_division(expr.op())) return to_poly_uncached(expr, t);
    if (auto it = nodes_.find(expr.identity()); it != nodes_.end() && it->second.read && it->second.read->dtype == t)
      return it->second.read->poly;
    std::optional<Poly> out = to_poly_uncached(expr, t);
    facts_of(expr).read = ReadPoly{t, out};
    return out;
  }

  std::optional<Poly> to_poly_uncached(const Expr &expr, DType t) {
    switch (expr.op()) {
      case Op::Const: {
        Int v = reduce(t, expr.value().i);
        return v == 0 ? Poly{} : Poly{{Monomial{}, v}};
      }
      case Op::Add:
      case Op::Sub: {
        std::optional<Poly> a = to_poly(expr.arg(0), t);
        std::optional<Poly> b = to_poly(expr.arg(1), t);
        if (!a || !b) return std::nullopt;
        return sum(t, std::move(*a), expr.op() == Op::Add ? *b : scaled(t, *b, -1));
      }
      case Op::Neg: {
        std::optional<Poly> a = to_poly(expr.arg(0), t);
        if (!a) return std::nullopt;
        return scaled(t, *a, -1);
      }
      case Op::Mul: {
        std::optional<Poly> a = to_poly(expr.arg(0), t);
        std::optional<Poly> b = to_poly(expr.arg(1), t);
        if (!a || !b) return std::nullopt;
        if (a->size() * b->size() > kMaxTerms) return atom(expr);
        return product(t, *a, *b);
      }
      case Op::FloorDiv:
      case Op::FloorMod:
        if (t == DType::Index && is_index_divmod(expr)) {
          if (std::optional<Poly> p = divmod_poly(expr)) return p;
        } else if (t == DType::Index) {
          if (std::optional<Poly> p = symbolic_divmod_poly(expr)) return p;
        }
        return atom(expr);
      case Op::TruncDiv:
      case Op::TruncMod:
        // By a constant: the truncating twin; by anything else: symbolic divisors.
        if (t == DType::Index && is_index_truncdivmod(expr)) {
          if (std::optional<Poly> p = truncdivmod_poly(expr)) return p;
        } else if (t == DType::Index) {
          if (std::optional<Poly> p = symbolic_divmod_poly(expr)) return p;
        }
        return atom(expr);
      default:
        return atom(expr);
    }
  }

  // --- Writing a polynomial back. ---
  Expr monomial_expr(const Monomial &monomial, DType t) const {
    Expr out = monomial.front().expr();
    for (std::size_t i = 1; i < monomial.size(); ++i) out = Expr::make(Op::Mul, t, {out, monomial[i].expr()});
    return out;
  }
  static Expr constant(DType t, Int v) { return Expr::constant(Value::integer(t, v)); }
  // k * m for k > 0 (k = 1 gives m itself).
  Expr term(const Monomial &monomial, Int k, DType t) const {
    Expr m = monomial_expr(monomial, t);
    return k == 1 ? m : Expr::make(Op::Mul, t, {m, constant(t, k)});
  }

  // The positive terms first, then the negative ones, each in the polynomial's
  // order: two walks over it (the terms are not copied out). `lead`, when given, is a
  // positive term written before all of them (factored below).
  Expr from_poly(const Poly &poly, DType t, std::optional<Expr> lead = std::nullopt) const {
    // The constant term, when there is one, is the first (its monomial is empty).
    Int c = !poly.empty() && poly.begin()->first.empty() ? poly.begin()->second : 0;
    bool any_negative = false;
    std::optional<Expr> out = std::move(lead);
    auto append = [&](Op op, Expr e) { out = out ? Expr::make(op, t, {*out, std::move(e)}) : std::move(e); };
    for (const auto &[monomial, k] : poly) {
      if (monomial.empty()) continue;
      if (k > 0) {
        append(Op::Add, term(monomial, k, t));
      } else {
        any_negative = true;
      }
    }
    if (!out && c != 0 && any_negative) {
      out = constant(t, c);  // c - terms
      c = 0;
    }
    for (const auto &[monomial, k] : poly) {
      if (monomial.empty() || k > 0) continue;
      if (out) {
        append(Op::Sub, term(monomial, -k, t));
      } else if (k == -1) {
        out = Expr::make(Op::Neg, t, {monomial_expr(monomial, t)});
      } else {
        out = Expr::make(Op::Mul, t, {monomial_expr(monomial, t), constant(t, k)});
      }
    }
    if (!out) return constant(t, c);
    // A constant offset is added with its sign (x + -1, as Halide writes it),
    // so that the rules over x + c see every offset; unsigned dtypes subtract
    // (x - 1, not x + 4294967295).
    if (c < 0 && is_unsigned(t)) return Expr::make(Op::Sub, t, {*out, constant(t, -c)});
    if (c != 0) return Expr::make(Op::Add, t, {*out, constant(t, c)});
    return *out;
  }

  // --- Comparisons. ---
  // lhs OP rhs as `P OP' 0` with P = lhs - rhs, written back with the positive
  // terms on the left and the negative ones and the constant on the right.
  // nullopt: not handled (an ordering of a fixed-width dtype, or an operand too
  // big to expand).
  std::optional<Expr> normalize_compare(const Expr &expr) {
    // Terms OP d, with d the constant moved to the right.
    std::optional<Difference> difference = difference_of(expr, mode_ == LinearMode::ModForm);
    if (!difference) return std::nullopt;
    const DType t = difference->dtype;
    Op op = difference->op;
    Poly &p = difference->p;
    Int d = difference->d;
    const bool equality = op == Op::Eq || op == Op::Ne;
    const bool is_eq = op == Op::Eq;
    if (p.empty()) {
      bool holds = equality ? (d == 0) == is_eq : (op == Op::Lt ? 0 < d : 0 <= d);
      return Expr::constant(Value::boolean(holds));
    }
    if (t == DType::Index) {
      // Divide by the gcd of the coefficients: g*S < d iff S < ceil(d / g); g*S
      // == d has no solution unless g divides d.
      Int g = 0;
      for (const auto &[monomial, k] : p) g = gcd(g, k);
      if (g > 1) {
        if (equality) {
          if (floor_mod(d, g) != 0) return Expr::constant(Value::boolean(!is_eq));
          d = floor_div(d, g);
        } else if (op == Op::Lt) {
          d = -floor_div(-d, g);  // g*S < d iff S < ceil(d / g)
        } else {
          d = floor_div(d, g);  // g*S <= d iff S <= floor(d / g)
        }
        for (auto &[monomial, k] : p) k /= g;
      }
    }
    if (t == DType::Index && !equality) {
      if (std::optional<Expr> lifted = compare_trunc_quotient(p, op, d)) return lifted;
    }
    if (t == DType::Index && !equality && bounds_) {
      const Int bound = op == Op::Le ? add(t, d, 1) : d;  // S <= d is S < d + 1
      if (std::optional<std::pair<Poly, Int>> lt = compare_by_blocks(p, bound)) {
        std::tie(p, d) = std::move(*lt);
        op = Op::Lt;
      }
      // A sum of non-negative terms with positive coefficients is below 1 only
      // when every term is 0: the coefficients do not matter (a * 3 + b * 4 < 1
      // is a + b < 1 for a, b >= 0).
      if ((op == Op::Lt ? d == 1 : d == 0) && all_nonnegative_terms(p)) {
        for (auto &[monomial, k] : p) k = 1;
      }
    }
    Poly left, right;
    for (const auto &[monomial, k] : p) {
      if (k > 0) {
        left[monomial] = k;
      } else {
        right[monomial] = mul(t, k, -1);
      }
    }
    const Op out_op = op;
    if (left.empty()) {
      // -R OP d  is  -d OP R
      return Expr::make(out_op, DType::Bool, {constant(t, mul(t, d, -1)), from_poly(right, t)});
    }
    if (d != 0) right[Monomial{}] = d;
    return Expr::make(out_op, DType::Bool, {from_poly(left, t), from_poly(right, t)});
  }

  // k * truncdiv(N, m) OP d (INDEX, k = 1 or -1, OP < or <=) as a comparison of
  // N, since truncdiv(N, m) for m > 0 is monotone in N. With e the largest
  // quotient allowed, truncdiv(N, m) <= e is N < m*(e+1) for e >= 0 (a
  // non-negative quotient is floor(N/m)) and N <= m*e for e < 0 (a negative one
  // is ceil(N/m)); with f the smallest allowed, truncdiv(N, m) >= f is N >= m*f
  // for f > 0 and N > m*(f-1) for f <= 0. nullopt when p is not such a term.
  std::optional<Expr> compare_trunc_quotient(const Poly &p, Op op, Int d) {
    const DType t = DType::Index;
    if (p.size() != 1 || p.begin()->first.size() != 1) return std::nullopt;
    auto quotient = trunc_quotients_.find(p.begin()->first.front());
    const Int k = p.begin()->second;
    if (quotient == trunc_quotients_.end() || (k != 1 && k != -1)) return std::nullopt;
    const Poly numerator = quotient->second.first;
    const Int m = quotient->second.second;
    const Int e = op == Op::Lt ? add(t, d, -1) : d;  // k * truncdiv(N, m) <= e
    Poly lhs;
    Int bound;  // lhs < bound
    if (k == 1) {
      lhs = numerator;
      bound = e >= 0 ? mul(t, m, add(t, e, 1)) : add(t, mul(t, m, e), 1);
    } else {
      const Int f = mul(t, e, -1);  // truncdiv(N, m) >= f, i.e. -N < -(smallest N)
      lhs = scaled(t, numerator, -1);
      bound = f > 0 ? add(t, 1, mul(t, mul(t, m, f), -1)) : mul(t, mul(t, m, add(t, f, -1)), -1);
    }
    const Expr lifted = Expr::make(Op::Lt, DType::Bool, {from_poly(lhs, t), constant(t, bound)});
    std::optional<Expr> normal = normalize_compare(lifted);
    return normal ? *normal : lifted;
  }

  // --- Floor division and modulo by a positive constant (INDEX only). ---
  // The numerator's polynomial split as c*Q + R: each term's coefficient k =
  // c*q + r, q rounded toward zero (so -y stays -y rather than becoming 3*y -
  // 4*y), except the constant term, whose remainder is taken in [0, c).
  static std::pair<Poly, Poly> split(const Poly &p, Int c) {
    Poly q, r;
    for (const auto &[monomial, k] : p) {
      Int quotient = monomial.empty() ? floor_div(k, c) : k / c;
      Int rest = k - quotient * c;
      if (quotient != 0) q[monomial] = quotient;
      if (rest != 0) r[monomial] = rest;
    }
    return {q, r};
  }

  // R = g*S + g*a + b with g the gcd of c and R's non-constant coefficients, 0
  // <= b < g: then R // c = (S + a) // (c/g) and R % c = g * ((S + a) % (c/g))
  // + b.
  struct Reduced {
    Poly numerator;  // S + a
    Int divisor;     // c / g
    Int g;
    Int b;
  };
  static Reduced reduce_by_gcd(const Poly &r, Int c) {
    Int g = c;
    Int r0 = 0;
    for (const auto &[monomial, k] : r) {
      if (monomial.empty()) {
        r0 = k;
      } else {
        g = gcd(g, k);
      }
    }
    Reduced out{{}, c / g, g, floor_mod(r0, g)};
    for (const auto &[monomial, k] : r) {
      if (!monomial.empty()) out.numerator[monomial] = k / g;
    }
    if (Int a = floor_div(r0, g); a != 0) out.numerator[Monomial{}] = a;
    return out;
  }

  static bool has_terms(const Poly &p) { return p.size() > 1 || (p.size() == 1 && !p.begin()->first.empty()); }

  // `numerator // divisor` or `numerator % divisor` as an atom.
  Poly division_atom(Op op, const Poly &given, Int divisor) {
    Poly numerator = given;
    // (N // m1 + R) // m2 = (N + m1*R) // (m1 * m2) for positive m1, m2 and
    // an integer R, since N // m1 + R = (N + m1*R) // m1.
    while (op == Op::FloorDiv) {
      auto inner = quotients_.end();
      for (const auto &[monomial, k] : numerator) {
        if (k == 1 && monomial.size() == 1) inner = quotients_.find(monomial.front());
        if (inner != quotients_.end()) {
          break;
        }
      }
      if (inner == quotients_.end()) break;
      std::optional<Int> combined = checked_mul(divisor, inner->second.second);
      if (!combined) break;
      const Int m1 = inner->second.second;
      Poly rest = numerator;
      rest.erase(Monomial{inner->first});
      numerator = sum(DType::Index, inner->second.first, scaled(DType::Index, rest, m1));
      divisor = *combined;
    }
    // A numerator whose terms are all negative is written with a negative
    // divisor, the smaller spelling: N // m = (-N) // (-m) (`a // -6`, not
    // `-a // 6`), and, for a numerator without a constant, N % m = -((-N) %
    // (-m)) (`-(x % -15)`, which meets `x % -15` in a sum).
    const bool negated = all_terms_negative(numerator) && (op == Op::FloorDiv || !numerator.contains(Monomial{}));
    Expr e = negated
                 ? Expr::make(
                       op, DType::Index,
                       {from_poly(scaled(DType::Index, numerator, -1), DType::Index), constant(DType::Index, -divisor)})
                 : Expr::make(op, DType::Index, {from_poly(numerator, DType::Index), constant(DType::Index, divisor)});
    const Atom key = intern(e);
    if (op == Op::FloorDiv) quotients_.emplace(key, std::make_pair(numerator, divisor));
    if (op == Op::FloorMod && !negated) remainders_.emplace(key, std::make_pair(numerator, divisor));
    return Poly{{Monomial{key}, negated && op == Op::FloorMod ? -1 : 1}};
  }

  // p has a non-constant term and every non-constant coefficient is negative.
  static bool all_terms_negative(const Poly &p) {
    bool any = false;
    for (const auto &[monomial, k] : p) {
      if (monomial.empty()) continue;
      if (k > 0) return false;
      any = true;
    }
    return any;
  }

  std::optional<Poly> divmod_poly(const Expr &expr) {
    Expr numerator = expr.arg(0);
    Int c = expr.arg(1).value().i;
    // (x // d) // c = x // (d * c) for positive d and c.
    while (expr.op() == Op::FloorDiv && numerator.op() == Op::FloorDiv && numerator.arg(1).is_const() &&
           numerator.arg(1).value().i > 0) {
      std::optional<Int> combined = checked_mul(c, numerator.arg(1).value().i);
      if (!combined) break;
      c = *combined;
      numerator = numerator.arg(0);
    }
    std::optional<Poly> p = to_poly(numerator, DType::Index);
    if (!p) return std::nullopt;
    return divmod_by_constant(expr.op(), *p, c);
  }

  // p // c or p % c for a constant c != 0 (floor semantics). A negative divisor
  // is read as a positive one: p // c = (-p) // (-c) and p % c = -((-p) % (-c)).
  Poly divmod_by_constant(Op op, const Poly &given, Int c) {
    if (c < 0) {
      Poly negated = divmod_by_constant(op, scaled(DType::Index, given, -1), mul(DType::Index, c, -1));
      return op == Op::FloorDiv ? negated : scaled(DType::Index, negated, -1);
    }
    const DType dtype = DType::Index;
    Poly absorbed;
    const Poly &p = op == Op::FloorMod ? (absorbed = absorb_remainders(given, c)) : given;
    auto [q, r] = split(p, c);
    if (bounds_ && has_terms(r)) {
      if (std::optional<Poly> folded = divmod_by_blocks(op, p, q, r, c)) return *folded;
    }
    if (op == Op::FloorDiv) {
      if (!has_terms(r)) return q;  // the constant remainder is in [0, c): its quotient is 0
      Reduced red = reduce_by_gcd(r, c);
      if (red.divisor == 1) return sum(dtype, std::move(q), red.numerator);
      return sum(dtype, std::move(q), division_atom(Op::FloorDiv, red.numerator, red.divisor));
    }
    if (!has_terms(r)) return r;  // a constant in [0, c)
    // A remainder depends on each coefficient modulo c only: one nearer 0 than to
    // c is kept, one nearer c is taken minus c (`(x * 7) % 8` is `(-x) % 8`).
    for (auto &[monomial, k] : r) {
      if (!monomial.empty() && 2 * (k < 0 ? -k : k) > c) k = k > 0 ? k - c : k + c;
    }
    Reduced red = reduce_by_gcd(r, c);
    Poly low = red.b == 0 ? Poly{} : Poly{{Monomial{}, red.b}};
    if (red.divisor == 1) return low;
    Poly mod;
    if (mode_ == LinearMode::DivForm) {
      // N % m = N - m * (N // m)
      mod = sum(dtype, red.numerator,
                scaled(dtype, division_atom(Op::FloorDiv, red.numerator, red.divisor), -red.divisor));
    } else {
      mod = division_atom(Op::FloorMod, red.numerator, red.divisor);
    }
    return sum(dtype, scaled(dtype, mod, red.g), low);
  }

  // --- Truncating division and modulo by a nonzero constant (INDEX only). ---
  // truncdiv rounds toward zero and truncmod takes the dividend's sign, so the
  // multiples of the divisor may leave the numerator only where they do not
  // change its sign. What holds for every sign:
  //   truncdiv(N, -c) = -truncdiv(N, c), truncmod(N, -c) = truncmod(N, c);
  //   truncdiv(h*N, h*c) = truncdiv(N, c), truncmod(h*N, h*c) = h*truncmod(N, c)
  //   (the same rational quotient, rounded the same way), and truncdiv(h*N, h)
  //   = N;
  //   truncdiv(truncdiv(N, c1), c2) = truncdiv(N, c1*c2) (as for floors, by
  //   symmetry on the negative side);
  //   truncmod(N, c) = N - c*truncdiv(N, c) (the DivForm and ModForm spellings).
  // With bounds: N >= 0 makes them the floor forms, N <= 0 their mirror image
  // (truncdiv(N, c) = -((-N) // c), truncmod(N, c) = -((-N) % c)), and the
  // floor folds take over.
  std::optional<Poly> truncdivmod_poly(const Expr &expr) {
    const DType dtype = DType::Index;
    const bool quotient = expr.op() == Op::TruncDiv;
    Int c = expr.arg(1).value().i;
    std::optional<Poly> p = to_poly(expr.arg(0), dtype);
    if (!p) return std::nullopt;
    if (!has_terms(*p)) {  // a constant: C++'s / and % truncate (by -1: mul checks the one overflow)
      const Int k = p->empty() ? 0 : p->begin()->second;
      const Int v = c == -1 ? (quotient ? mul(dtype, k, -1) : 0) : (quotient ? k / c : k % c);
      return v == 0 ? Poly{} : Poly{{Monomial{}, v}};
    }
    const Int sign = c < 0 && quotient ? -1 : 1;
    c = c < 0 ? mul(dtype, c, -1) : c;
    if (bounds_) {
      const Interval range = poly_interval(*p);
      if (range.lo && *range.lo >= 0) {
        return scaled(dtype, divmod_by_constant(quotient ? Op::FloorDiv : Op::FloorMod, *p, c), sign);
      }
      if (range.hi && *range.hi <= 0) {
        const Poly mirrored = divmod_by_constant(quotient ? Op::FloorDiv : Op::FloorMod, scaled(dtype, *p, -1), c);
        return scaled(dtype, mirrored, -sign);
      }
    }
    // The common factor h of the divisor and of every coefficient.
    Int h = c;
    for (const auto &[monomial, k] : *p) h = gcd(h, k);
    const Poly numerator = h == 1 ? *p : divided(*p, h);
    const Int divisor = c / h;
    if (quotient) {
      if (divisor == 1) return scaled(dtype, numerator, sign);
      return scaled(dtype, trunc_division_atom(Op::TruncDiv, numerator, divisor), sign);
    }
    if (divisor == 1) return Poly{};
    Poly mod;
    if (mode_ == LinearMode::DivForm) {
      // truncmod(N, m) = N - m * truncdiv(N, m)
      mod = sum(dtype, numerator, scaled(dtype, trunc_division_atom(Op::TruncDiv, numerator, divisor), -divisor));
    } else {
      mod = trunc_division_atom(Op::TruncMod, numerator, divisor);
    }
    return scaled(dtype, mod, h);
  }

  // p with every coefficient divided by h (which divides them all).
  static Poly divided(const Poly &p, Int h) {
    Poly out;
    for (const auto &[monomial, k] : p) out[monomial] = k / h;
    return out;
  }

  // `truncdiv(numerator, divisor)` or `truncmod(numerator, divisor)` as an atom,
  // divisor > 1; a quotient of a quotient is one quotient.
  Poly trunc_division_atom(Op op, const Poly &given, Int divisor) {
    Poly numerator = given;
    while (op == Op::TruncDiv && numerator.size() == 1 && numerator.begin()->second == 1 &&
           numerator.begin()->first.size() == 1) {
      auto inner = trunc_quotients_.find(numerator.begin()->first.front());
      if (inner == trunc_quotients_.end()) break;
      std::optional<Int> combined = checked_mul(divisor, inner->second.second);
      if (!combined) break;
      numerator = inner->second.first;  // a copy: the map is not changed before it is read
      divisor = *combined;
    }
    Expr e = Expr::make(op, DType::Index, {from_poly(numerator, DType::Index), constant(DType::Index, divisor)});
    const Atom key = intern(e);
    if (op == Op::TruncDiv) trunc_quotients_.emplace(key, std::make_pair(numerator, divisor));
    return Poly{{Monomial{key}, 1}};
  }

  // p with each remainder term k * (M % m), c dividing m, replaced by k * M:
  // they differ by k * m * (M // m), a multiple of c, so p % c is the same
  // (`(v % 5 + w) % 5` is `(v + w) % 5`).
  Poly absorb_remainders(const Poly &p, Int c) {
    Poly out;
    for (const auto &[monomial, k] : p) {
      auto it = monomial.size() == 1 ? remainders_.find(monomial.front()) : remainders_.end();
      if (it == remainders_.end() || it->second.second % c != 0) {
        accumulate(DType::Index, out, monomial, k);
      } else {
        out = sum(DType::Index, std::move(out), scaled(DType::Index, it->second.first, k));
      }
    }
    return out;
  }

  // --- Division by a symbolic divisor (INDEX): // % truncdiv truncmod. ---
  // Writing the divisor D and the numerator N as polynomials:
  //   - a factor G common to every term of both (the gcd of the coefficients
  //     times the atoms all terms share) cancels: N // D = N' // D', N % D = G
  //     * (N' % D'), and the same for truncdiv/truncmod (G != 0 wherever D !=
  //     0, where the left side is defined);
  //   - floor division by a one-term D' = k * M: each numerator term a * m
  //     with M dividing m is D' * q + r with a = k*q + r, and (D'*Q + R) // D'
  //     = Q + R // D', (D'*Q + R) % D' = R % D' for every D' != 0;
  //   - a numerator that is an exact multiple D' * Q: quotient Q, remainder 0
  //     (also for truncdiv/truncmod and a D' of several terms);
  //   - with bounds, R // D' = 0 and R % D' = R when 0 <= R < D' or D' < R <=
  //     0 (by intervals, or by the e-graph knowing `R < D'` as an assumption).
  // (x * y + z) // y is x + z // y, (x * z * 2 + y) % (z * 2) is y % (z * 2),
  // x * x * 2 * y // (x * x * x * 4) is y // (x * 2).
  struct Term {
    Monomial monomial;
    Int k;
  };

  // The multiset difference m - by, when by is contained in m.
  static std::optional<Monomial> divide_monomial(const Monomial &m, const Monomial &by) {
    if (!std::includes(m.begin(), m.end(), by.begin(), by.end())) return std::nullopt;
    Monomial out;
    std::set_difference(m.begin(), m.end(), by.begin(), by.end(), std::back_inserter(out));
    return out;
  }

  // The common factor of every term of a and b, its sign chosen so that b's
  // first coefficient divided by it is positive.
  static Term common_factor(const Poly &a, const Poly &b) {
    Term out{b.begin()->first, 0};
    for (const Poly *p : {&a, &b}) {
      for (const auto &[monomial, k] : *p) {
        out.k = gcd(out.k, k);
        Monomial shared;
        std::set_intersection(out.monomial.begin(), out.monomial.end(), monomial.begin(), monomial.end(),
                              std::back_inserter(shared));
        out.monomial = std::move(shared);
      }
    }
    if (b.begin()->second < 0) out.k = -out.k;
    return out;
  }

  static Poly divided_by(const Poly &p, const Term &t) {
    Poly out;
    for (const auto &[monomial, k] : p) out[*divide_monomial(monomial, t.monomial)] = k / t.k;
    return out;
  }

  static std::optional<Int> constant_of(const Poly &p) {
    if (p.empty()) return Int(0);
    if (p.size() == 1 && p.begin()->first.empty()) return p.begin()->second;
    return std::nullopt;
  }

  // The leading term of a divisor: the one of highest degree (the first such).
  static Term leading(const Poly &d) {
    Term out{{}, 0};
    for (const auto &[monomial, k] : d) {
      if (out.k == 0 || monomial.size() > out.monomial.size()) out = Term{monomial, k};
    }
    return out;
  }

  // N = D*Q + R. One-term D and floor division: every term of N that D's
  // monomial divides gives its quotient, rounded toward zero. Otherwise only an
  // exact division (R = 0) is kept: Q is empty and R = N.
  static std::pair<Poly, Poly> split_symbolic(const Poly &n, const Poly &d, bool floor) {
    const DType t = DType::Index;
    if (d.size() == 1 && floor) {
      const Term lead = leading(d);
      Poly q, r;
      for (const auto &[monomial, a] : n) {
        std::optional<Monomial> rest = divide_monomial(monomial, lead.monomial);
        const Int quotient = rest ? a / lead.k : 0;
        if (quotient != 0) accumulate(t, q, *rest, quotient);
        if (Int remainder = a - quotient * lead.k; remainder != 0) accumulate(t, r, monomial, remainder);
      }
      return {q, r};
    }
    // Long division by the leading term, while a term of the rest is its exact
    // multiple.
    const Term lead = leading(d);
    Poly q, r = n;
    for (std::size_t step = 0; step < kMaxTerms && !r.empty(); ++step) {
      std::optional<Term> next;
      for (const auto &[monomial, a] : r) {
        std::optional<Monomial> rest = divide_monomial(monomial, lead.monomial);
        if (rest && a % lead.k == 0) {
          next = Term{*rest, a / lead.k};
          break;
        }
      }
      if (!next) break;
      const Poly factor{{next->monomial, next->k}};
      accumulate(t, q, next->monomial, next->k);
      r = sum(t, std::move(r), scaled(t, product(t, factor, d), -1));
    }
    if (!r.empty()) return {Poly{}, n};
    return {q, r};
  }

  // Whether 0 <= r < d or d < r <= 0 holds (floor: r // d = 0, r % d = r).
  bool remainder_in_range(const Poly &r, const Poly &d) {
    if (!bounds_) return false;
    const DType t = DType::Index;
    const Interval ri = poly_interval(r), di = poly_interval(d);
    auto known = [&](const Poly &a, const Poly &b) {  // a < b, by the e-graph
      const Interval holds = bounds_(Expr::make(Op::Lt, DType::Bool, {from_poly(a, t), from_poly(b, t)}));
      return holds.lo && *holds.lo == 1;
    };
    if (di.lo && *di.lo > 0 && ri.lo && *ri.lo >= 0) return (ri.hi && *ri.hi < *di.lo) || known(r, d);
    if (di.hi && *di.hi < 0 && ri.hi && *ri.hi <= 0) return (ri.lo && *ri.lo > *di.hi) || known(d, r);
    return false;
  }

  // `n op d` (d not a constant) as an atom of the normal form.
  Poly symbolic_atom(Op op, const Poly &n, const Poly &d) {
    const DType t = DType::Index;
    Expr e = Expr::make(op, t, {from_poly(n, t), from_poly(d, t)});
    const Atom key = intern(e);
    if (op == Op::FloorDiv) symbolic_quotients_.emplace(key, std::make_pair(n, d));
    return Poly{{Monomial{key}, 1}};
  }

  std::optional<Poly> symbolic_divmod_poly(const Expr &expr) {
    const DType t = DType::Index;
    const Op op = expr.op();
    const bool floor = op == Op::FloorDiv || op == Op::FloorMod;
    const bool quotient = op == Op::FloorDiv || op == Op::TruncDiv;
    std::optional<Poly> d = to_poly(expr.arg(1), t);
    if (!d || d->empty()) return std::nullopt;  // a division by zero stays as it is
    if (std::optional<Int> c = constant_of(*d)) {
      // A negative constant divisor of floor division; positive ones and
      // truncating division by a constant are read elsewhere.
      if (!floor || *c > 0) return std::nullopt;
      std::optional<Poly> n = to_poly(expr.arg(0), t);
      if (!n) return std::nullopt;
      return divmod_by_constant(op, *n, *c);
    }
    std::optional<Poly> n = to_poly(expr.arg(0), t);
    if (!n) return std::nullopt;
    // Where the divisor D is 0 the input is undefined, and the contract
    // (docs/expressions.md: a rewrite must agree wherever its input is defined) asks
    // nothing of the result there. So every fold below may take D != 0, as TVM's
    // analyzer does: `x * y // y` is x, `0 // D` is 0, a common factor of numerator
    // and divisor cancels, and an exact division drops. A division by the constant 0
    // stays as it is (above).
    if (n->empty()) return Poly{};  // 0 // D = 0 % D = 0 wherever D != 0
    Term g = common_factor(*n, *d);
    const bool trivial = (g.k == 1 || g.k == -1) && g.monomial.empty();
    if (trivial) g.k = 1;
    const Poly n1 = divided_by(*n, g), d1 = divided_by(*d, g);
    const Poly factor{{g.monomial, g.k}};
    // The remainder of the reduced division, times the common factor.
    auto times_g = [&](const Poly &rem) { return product(t, factor, rem); };
    if (std::optional<Int> c = constant_of(d1)) {
      if (floor) {
        Poly folded = divmod_by_constant(op, n1, *c);
        return quotient ? folded : times_g(folded);
      }
      // truncdiv(N', c) = N' / c when c divides every coefficient; else kept.
      bool exact = true;
      for (const auto &[monomial, k] : n1) exact = exact && k % *c == 0;
      if (exact) {  // wherever the divisor G * c is nonzero (elsewhere the input is undefined)
        if (!quotient) return Poly{};
        Poly out;
        for (const auto &[monomial, k] : n1) out[monomial] = k / *c;
        return out;
      }
      const Poly kept = symbolic_atom(op, n1, d1);
      return quotient ? kept : times_g(kept);
    }
    auto [q, r] = split_symbolic(n1, d1, floor);
    if (r.empty()) return quotient ? q : Poly{};
    if (!floor) {  // only exact divisions split: q is empty, r = N'
      if (trivial) return std::nullopt;
      const Poly kept = symbolic_atom(op, r, d1);
      return quotient ? kept : times_g(kept);
    }
    if (remainder_in_range(r, d1)) return quotient ? q : times_g(r);
    // Below, a quotient that did not change is still written as a symbolic atom:
    // ModForm reads `D * (N // D)` by it, DivForm spells `N % D` with it.
    if (quotient) return sum(t, std::move(q), symbolic_atom(Op::FloorDiv, r, d1));
    if (mode_ == LinearMode::DivForm) {
      // R % D' = R - D' * (R // D') wherever D' != 0: in a sum the quotients may cancel.
      return times_g(sum(t, r, scaled(t, product(t, d1, symbolic_atom(Op::FloorDiv, r, d1)), -1)));
    }
    return times_g(symbolic_atom(Op::FloorMod, r, d1));
  }

  // ModForm: k * (N // m) with m dividing k is (k/m) * (N - N % m).
  // Likewise k * (N // m2) with a term of N // m1 in p, m1 dividing m2 and
  // m2/m1 dividing k: N // m2 = (N // m1) // (m2/m1), so the term is
  // (k*m1/m2) * (N // m1 - (N // m1) % (m2/m1)) (`x // 3 * 2 - x // 60 * 40` is
  // `x // 3 % 20 * 2`). And k * D * (N // D) * rest for a symbolic D is k *
  // rest * (N - N % D).
  Poly to_mod_form(const Poly &p) {
    Poly out;
    for (const auto &[monomial, k] : p) {
      if (std::optional<Poly> symbolic = symbolic_mod_form(monomial, k)) {
        out = sum(DType::Index, std::move(out), *symbolic);
        continue;
      }
      // A floor quotient, or a truncating one: truncdiv(N, m) * m = N -
      // truncmod(N, m) holds for every sign of N.
      const std::pair<Poly, Int> *division = nullptr;
      bool truncating = false;
      if (monomial.size() == 1) {
        if (auto it = quotients_.find(monomial.front()); it != quotients_.end()) {
          division = &it->second;
        } else if (auto trunc = trunc_quotients_.find(monomial.front()); trunc != trunc_quotients_.end()) {
          division = &trunc->second;
          truncating = true;
        }
      }
      if (division != nullptr && !truncating && k % division->second != 0) {
        if (std::optional<Poly> nested = nested_mod_form(p, division->first, division->second, k)) {
          out = sum(DType::Index, std::move(out), *nested);
          continue;
        }
      }
      if (division == nullptr || k % division->second != 0) {
        accumulate(DType::Index, out, monomial, k);
        continue;
      }
      Int factor = k / division->second;
      Poly numerator = division->first;  // a copy: division_atom may rehash quotients_
      Int m = division->second;
      const Poly remainder =
          truncating ? trunc_division_atom(Op::TruncMod, numerator, m) : division_atom(Op::FloorMod, numerator, m);
      out = sum(DType::Index, std::move(out), scaled(DType::Index, numerator, factor));
      out = sum(DType::Index, std::move(out), scaled(DType::Index, remainder, -factor));
    }
    return out;
  }

  // k * (N // m2) as (k*m1/m2) * ((N // m1) - (N // m1) % (m2/m1)) for a
  // quotient N // m1 that p has a term of (see to_mod_form).
  std::optional<Poly> nested_mod_form(const Poly &p, const Poly &numerator, Int m2, Int k) {
    for (const auto &[monomial, unused] : p) {
      auto it = monomial.size() == 1 ? quotients_.find(monomial.front()) : quotients_.end();
      if (it == quotients_.end() || it->second.first != numerator) continue;
      const Int m1 = it->second.second;
      if (m1 >= m2 || m2 % m1 != 0 || k % (m2 / m1) != 0) continue;
      const Int ratio = m2 / m1, factor = k / ratio;
      const Poly inner{{monomial, 1}};  // a copy: division_atom may rehash quotients_
      return sum(DType::Index, scaled(DType::Index, inner, factor),
                 scaled(DType::Index, division_atom(Op::FloorMod, inner, ratio), -factor));
    }
    return std::nullopt;
  }

  // k * m with m = q * D * rest, q = N // D a symbolic quotient whose divisor
  // D is one term c * M, c dividing k: (k/c) * rest * (N - N % D).
  std::optional<Poly> symbolic_mod_form(const Monomial &monomial, Int k) {
    for (const Atom factor : monomial) {
      auto it = symbolic_quotients_.find(factor);
      if (it == symbolic_quotients_.end() || it->second.second.size() != 1) continue;
      const auto &[divisor_monomial, c] = *it->second.second.begin();
      // Wherever D != 0, as the input's quotient needs (see symbolic_divmod_poly).
      if (k % c != 0) continue;
      Monomial without_q = monomial;
      without_q.erase(std::find(without_q.begin(), without_q.end(), factor));
      std::optional<Monomial> rest = divide_monomial(without_q, divisor_monomial);
      if (!rest) continue;
      const DType t = DType::Index;
      const Poly n = it->second.first, d = it->second.second;  // copies: symbolic_atom may rehash
      const Poly remainder = sum(t, n, scaled(t, symbolic_atom(Op::FloorMod, n, d), -1));
      return product(t, Poly{{*rest, k / c}}, remainder);
    }
    return std::nullopt;
  }

  // --- Folding by bounds (only with an oracle; see BoundsOracle). ---
  Interval atom_interval(Atom key) {
    if (auto it = atom_bounds_.find(key); it != atom_bounds_.end()) return it->second;
    Interval out = bounds_(key.expr());
    atom_bounds_.emplace(key, out);
    return out;
  }

  // The interval of an INDEX polynomial, from its atoms' intervals (a sound
  // over-approximation: the atoms are taken as independent).
  Interval poly_interval(const Poly &p) {
    Interval total = Interval::point(0);
    for (const auto &[monomial, k] : p) {
      Interval term = Interval::point(k);
      for (const Atom atom : monomial) {
        const Interval factors[] = {term, atom_interval(atom)};
        term = interval_of(Op::Mul, DType::Index, DType::Index, factors);
      }
      const Interval addends[] = {total, term};
      total = interval_of(Op::Add, DType::Index, DType::Index, addends);
      if (total.is_all()) break;
    }
    return total;
  }

  // The block sizes g > 1 to try for p = g*S + s, largest first: the gcds of
  // the largest coefficients (and of `modulus`, when it is not 0), leaving at
  // least one term in s.
  static std::vector<Int> block_sizes(const Poly &p, Int modulus) {
    std::vector<Int> magnitudes;
    for (const auto &[monomial, k] : p) {
      if (!monomial.empty()) magnitudes.push_back(k < 0 ? -k : k);
    }
    std::sort(magnitudes.rbegin(), magnitudes.rend());
    std::vector<Int> out;
    Int g = modulus;
    for (std::size_t j = 0; j + 1 < magnitudes.size(); ++j) {
      g = gcd(g, magnitudes[j]);
      if (g <= 1) break;
      if (out.empty() || out.back() != g) out.push_back(g);
    }
    return out;
  }

  // p split as g*S + s: S the terms whose coefficient g divides (divided by g),
  // s the others with p's constant.
  static std::pair<Poly, Poly> blocks(const Poly &p, Int g) {
    Poly big, small;
    for (const auto &[monomial, k] : p) {
      if (!monomial.empty() && k % g == 0) {
        big[monomial] = k / g;
      } else {
        small[monomial] = k;
      }
    }
    return {big, small};
  }

  // N // c or N % c, N = c*q + r, when r's small terms stay in one block of
  // its large ones (BoundsOracle). nullopt: no such split.
  std::optional<Poly> divmod_by_blocks(Op op, const Poly &p, const Poly &q, const Poly &r, Int c) {
    const DType dtype = DType::Index;
    if (std::optional<Poly> folded = in_one_block(op, q, r, c)) return folded;
    // The same with each coefficient's remainder taken nearest to 0 (tinygrad's
    // congruence: `(3 * a + 3) // 4` is `a + (3 - a) // 4`, which is a for a in
    // [0, 3]).
    // A remainder of exactly c/2 is tried both ways (`(2 * x + 3 * y + 3) % 4`
    // is `3 - 2 * x - y` for x, y in [0, 1]).
    for (bool ties_down : {false, true}) {
      auto [q_near, r_near] = split_nearest(p, c, ties_down);
      if (r_near != r) {
        if (std::optional<Poly> folded = in_one_block(op, q_near, r_near, c)) return folded;
      }
    }
    for (Int g : block_sizes(r, c)) {
      if (g == c) continue;  // the whole remainder: tried above
      // The small terms as they are, then with coefficients nearest to a
      // multiple of g (`40 * a + 5 * b + 4 * c + 1` is `5 * (8 * a + b + c) + (1
      // - c)`).
      auto [big, small] = blocks(r, g);
      Interval range = poly_interval(small);
      if (!range.lo || !range.hi || floor_div(*range.lo, g) != floor_div(*range.hi, g)) {
        std::tie(big, small) = split_nearest(r, g, false);
        small.erase(Monomial{});
        if (auto it = r.find(Monomial{}); it != r.end()) small[Monomial{}] = it->second;
        big.erase(Monomial{});
        range = poly_interval(small);
        if (!range.lo || !range.hi || floor_div(*range.lo, g) != floor_div(*range.hi, g)) continue;
      }
      // r = g*(S + k) + (s - k*g) with 0 <= s - k*g < g.
      const Int k = floor_div(*range.lo, g);
      if (k != 0) accumulate(dtype, big, Monomial{}, k);
      const Int m = c / g;
      if (op == Op::FloorDiv) return sum(dtype, q, division_atom(Op::FloorDiv, big, m));
      Poly mod = mode_ == LinearMode::DivForm ? sum(dtype, big, scaled(dtype, division_atom(Op::FloorDiv, big, m), -m))
                                              : division_atom(Op::FloorMod, big, m);
      if (k != 0) accumulate(dtype, small, Monomial{}, mul(dtype, k, -g));
      return sum(dtype, scaled(dtype, mod, g), small);
    }
    return std::nullopt;
  }

  // N = c*q + r with r in one block [k*c, (k+1)*c): N // c = q + k, N % c =
  // r - k*c.
  std::optional<Poly> in_one_block(Op op, const Poly &q, const Poly &r, Int c) {
    const DType dtype = DType::Index;
    const Interval whole = poly_interval(r);
    if (!whole.lo || !whole.hi || floor_div(*whole.lo, c) != floor_div(*whole.hi, c)) return std::nullopt;
    const Int k = floor_div(*whole.lo, c);
    if (op == Op::FloorDiv) return sum(dtype, q, k == 0 ? Poly{} : Poly{{Monomial{}, k}});
    return sum(dtype, r, k == 0 ? Poly{} : Poly{{Monomial{}, mul(dtype, k, -c)}});
  }

  // p = c*q + r with each term's remainder in (-c/2, c/2] (the constant's in
  // [0, c)); with ties_down, in [-c/2, c/2).
  static std::pair<Poly, Poly> split_nearest(const Poly &p, Int c, bool ties_down) {
    Poly q, r;
    for (const auto &[monomial, k] : p) {
      Int quotient = floor_div(k, c);
      Int rest = k - quotient * c;
      if (!monomial.empty() && (rest > c - rest || (ties_down && rest == c - rest))) {
        quotient += 1;
        rest -= c;
      }
      if (quotient != 0) q[monomial] = quotient;
      if (rest != 0) r[monomial] = rest;
    }
    return {q, r};
  }

  // Every coefficient of p is positive and every monomial's interval is >= 0.
  bool all_nonnegative_terms(const Poly &p) {
    for (const auto &[monomial, k] : p) {
      if (k <= 0 || monomial.empty()) return false;
      const Interval range = poly_interval(Poly{{monomial, 1}});
      if (!range.lo || *range.lo < 0) return false;
    }
    return true;
  }

  // p < d (INDEX, p without constant) as S < k when p = g*S + s with s's
  // interval shorter than g: S >= k gives p >= g*k + lower(s) >= d, S <= k - 1
  // gives p <= g*(k-1) + upper(s) < d. nullopt when no split applies.
  std::optional<std::pair<Poly, Int>> compare_by_blocks(const Poly &p, Int d) {
    for (Int g : block_sizes(p, 0)) {
      auto [big, small] = blocks(p, g);
      const Interval range = poly_interval(small);
      if (!range.lo || !range.hi) continue;
      const std::optional<Int> width = checked_sub(*range.hi, *range.lo);
      const std::optional<Int> above = checked_sub(d, *range.lo);
      if (!width || *width >= g || !above) continue;
      const Int k = -floor_div(-*above, g);  // ceil((d - lower(s)) / g)
      const std::optional<Int> top = checked_mul(g, k - 1);
      const std::optional<Int> reach = top ? checked_add(*top, *range.hi) : std::nullopt;
      if (!reach || *reach >= d) continue;
      return std::make_pair(std::move(big), k);
    }
    return std::nullopt;
  }

  LinearMode mode_;
  BoundsOracle bounds_;
  // The tables live as long as the normalizer (one pass over one expression): their
  // entries come from the thread's free lists (ir/pool_allocator.h).
  template <class K, class V>
  using Map = std::map<K, V, std::less<K>, PoolAllocator<std::pair<const K, V>>>;
  template <class V>
  using ByNode = std::unordered_map<const void *, V, std::hash<const void *>, std::equal_to<const void *>,
                                    PoolAllocator<std::pair<const void *const, V>>>;
  // Tables of atoms, only looked up (never walked in order): ordered by entry.
  template <class V>
  using ByAtom = std::map<Atom, V, Atom::ByEntry, PoolAllocator<std::pair<const Atom, V>>>;
  ByAtom<Interval> atom_bounds_;
  // A quotient's or remainder's polynomial read in one dtype (to_poly).
  struct ReadPoly {
    DType dtype;
    std::optional<Poly> poly;
  };
  // What the pass learnt of one node, each part filled in when first asked: one
  // table for all of them (there were four, each with its own buckets and an entry,
  // holding the node, per node it knew).
  struct NodeFacts {
    explicit NodeFacts(Expr node) : expr(std::move(node)) {}
    Expr expr;                        // keeps the node alive: its address stays unique
    std::optional<Expr> normal;       // its normal form (normalize)
    std::optional<Atom> atom;         // its atom (intern)
    std::optional<std::size_t> hash;  // its structural hash (compound terms only)
    std::optional<ReadPoly> read;     // quotients and remainders only
  };
  ByNode<NodeFacts> nodes_;
  NodeFacts &facts_of(const Expr &node) { return nodes_.try_emplace(node.identity(), node).first->second; }
  PrintMemo print_memo_;  // the atoms' texts (AtomEntry)
  // The atoms, by structural hash: an Atom points at its entry (entries stay put).
  std::multimap<std::size_t, AtomEntry, std::less<std::size_t>, PoolAllocator<std::pair<const std::size_t, AtomEntry>>>
      atoms_;
  // The atoms that are quotients `N // m`: their numerator and divisor.
  ByAtom<std::pair<Poly, Int>> quotients_;
  // The atoms that are truncating quotients `truncdiv(N, m)`, m > 1.
  ByAtom<std::pair<Poly, Int>> trunc_quotients_;
  // The atoms that are remainders `N % m` (m > 0): their numerator and divisor.
  ByAtom<std::pair<Poly, Int>> remainders_;
  // The atoms that are quotients `N // D` by a symbolic D.
  ByAtom<std::pair<Poly, Poly>> symbolic_quotients_;
};

}  // namespace

class LinearNormalizer::Impl : public Normalizer {
 public:
  using Normalizer::Normalizer;
};

LinearNormalizer::LinearNormalizer(LinearMode mode, BoundsOracle bounds)
    : impl_(std::make_unique<Impl>(mode, std::move(bounds))) {}
LinearNormalizer::~LinearNormalizer() = default;

Expr LinearNormalizer::normalize(const Expr &expr) {
  Expr out = impl_->normalize(expr);
  return out == expr ? expr : out;
}

Expr LinearNormalizer::as_one_quotient(const Expr &expr) {
  std::optional<Expr> out = impl_->as_one_quotient(expr);
  return out ? *out : expr;
}

Expr normalize_linear(const Expr &expr, LinearMode mode, BoundsOracle bounds) {
  return LinearNormalizer(mode, std::move(bounds)).normalize(expr);
}

}  // namespace eqsat
