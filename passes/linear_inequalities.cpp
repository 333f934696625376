#include "passes/linear_inequalities.h"

#include <algorithm>
#include <boost/container/small_vector.hpp>

#include "ir/print.h"

namespace eqsat {

namespace {

// Coefficients and bounds stay far inside the 128-bit range, so that a sum of a
// few scaled inequalities cannot overflow unnoticed (and checked arithmetic
// catches the rest).
constexpr Int kLimit = Int(1) << 90;

bool in_range(Int v) { return v < kLimit && v > -kLimit; }

// The eliminations one bound may chain: `a < b, b < c, c < d => a + 2 < d` takes three.
constexpr int kMaxEliminations = 3;

// At most this many inequalities take part in one search (the first ones
// recorded, then the atoms' facts): a context is small, and the search
// branches on each inequality that mentions the atom it eliminates.
constexpr std::size_t kMaxInequalities = 32;

std::optional<Int> min_of(std::optional<Int> a, std::optional<Int> b) {
  if (!a) return b;
  if (!b) return a;
  return std::min(*a, *b);
}

}  // namespace

AtomKey AtomTable::intern(const Expr &atom) {
  // A variable prints as its name: found by it, without printing or remembering the node.
  if (atom.op() == Op::Var) {
    auto entry = by_text_.find(atom.name());
    if (entry == by_text_.end()) entry = by_text_.emplace(atom.name(), AtomEntry{atom, std::nullopt}).first;
    return AtomKey(*entry);
  }
  if (auto it = by_node_.find(atom.identity()); it != by_node_.end()) return it->second.second;
  std::string text = print_memo_.print(atom);
  auto entry = by_text_.find(text);
  if (entry == by_text_.end()) entry = by_text_.emplace(std::move(text), AtomEntry{atom, std::nullopt}).first;
  const AtomKey key(*entry);
  by_node_.emplace(atom.identity(), std::make_pair(atom, key));
  return key;
}

Interval AtomTable::interval(AtomKey atom, const BoundsOracle &bounds) {
  std::optional<Interval> &known = atom.entry_->second.interval;
  if (!known) known = bounds(atom.expr());
  return *known;
}

bool read_linear_terms(const Expr &expr, Int scale, AtomTable &table, LinearTerms &terms, Int &constant) {
  if (!in_range(scale)) return false;
  switch (expr.op()) {
    case Op::Add:
      return read_linear_terms(expr.arg(0), scale, table, terms, constant) &&
             read_linear_terms(expr.arg(1), scale, table, terms, constant);
    case Op::Sub:
      return read_linear_terms(expr.arg(0), scale, table, terms, constant) &&
             read_linear_terms(expr.arg(1), -scale, table, terms, constant);
    case Op::Neg:
      return read_linear_terms(expr.arg(0), -scale, table, terms, constant);
    case Op::Mul:
      for (int k = 0; k < 2; ++k) {
        if (!expr.arg(k).is_const()) continue;
        std::optional<Int> scaled = checked_mul(scale, expr.arg(k).value().i);
        return scaled && read_linear_terms(expr.arg(1 - k), *scaled, table, terms, constant);
      }
      break;
    case Op::Const: {
      std::optional<Int> term = checked_mul(scale, expr.value().i);
      if (!term || !in_range(*term)) return false;
      constant += *term;
      return in_range(constant);
    }
    default:
      break;
  }
  const AtomKey key = table.intern(expr);
  auto [term, inserted] = terms.coefficients.try_emplace(key, 0);
  term->second += scale;
  if (!in_range(term->second)) return false;
  if (term->second == 0) {
    terms.coefficients.erase(term);
  } else {
    terms.atoms.insert(key);
  }
  return true;
}

void LinearInequalities::add(const LinearTerms &terms, Int bound) {
  if (terms.coefficients.empty() || !in_range(bound) || inequalities_.size() >= kMaxInequalities) return;
  inequalities_.push_back({terms.coefficients, bound});
  for (const auto &[key, coefficient] : terms.coefficients) atoms_.insert(key);
}

void LinearInequalities::atom_facts(AtomKey key, const std::vector<Inequality> &known,
                                    std::vector<Inequality> &out) const {
  const Expr &atom = key.expr();
  if (atom.dtype() != DType::Index) return;
  // sign * (atom - arg) <= -offset, i.e. atom <= arg - offset (sign 1) or atom >= arg + offset (sign -1):
  // with -sign * arg read as terms T + constant K, sign * atom + T <= -offset - K.
  auto relate = [&](const Expr &arg, Int sign, Int offset) {
    LinearTerms terms;
    Int constant = 0;
    if (!read_linear_terms(arg, -sign, *table_, terms, constant)) return;
    terms.coefficients[key] += sign;
    std::erase_if(terms.coefficients, [](const auto &term) { return term.second == 0; });
    if (!terms.coefficients.empty()) out.push_back({terms.coefficients, -offset - constant});
  };
  auto bound_atom = [&](Int coefficient, Int bound) {  // coefficient * atom <= bound
    out.push_back({{{key, coefficient}}, bound});
  };
  switch (atom.op()) {
    case Op::Max:  // max(u, w) >= u: u - max <= 0
      relate(atom.arg(0), -1, 0);
      relate(atom.arg(1), -1, 0);
      return;
    case Op::Min:  // min(u, w) <= u
      relate(atom.arg(0), 1, 0);
      relate(atom.arg(1), 1, 0);
      return;
    case Op::FloorMod:
    case Op::FloorDiv:
    case Op::Mul:
      break;
    default:
      return;
  }
  // The sign of a divisor m, where the inequalities (or its interval) decide it.
  auto sign_of = [&](const Expr &m) -> int {
    if (m.is_const()) {
      if (!in_range(m.value().i)) return 0;
      return m.value().i > 0 ? 1 : m.value().i < 0 ? -1 : 0;
    }
    LinearTerms terms;
    Int constant = 0;
    if (!read_linear_terms(m, 1, *table_, terms, constant) || terms.coefficients.empty()) return 0;
    std::optional<Int> upper = search(terms.coefficients, known, 1);
    for (auto &term : terms.coefficients) term.second = -term.second;
    std::optional<Int> negated_upper = search(terms.coefficients, known, 1);
    if (negated_upper && constant - *negated_upper >= 1) return 1;  // lower bound of m
    if (upper && constant + *upper <= -1) return -1;
    return 0;
  };
  if (atom.op() == Op::Mul) {
    // (N // m) * m with a symbolic m is N - N % m: N - m + 1 <= atom <= N for m >= 1,
    // N <= atom <= N - m - 1 for m <= -1.
    for (int k = 0; k < 2; ++k) {
      const Expr &quotient = atom.arg(k);
      const Expr &m = atom.arg(1 - k);
      if (quotient.op() != Op::FloorDiv || quotient.arg(1) != m || m.is_const()) continue;
      const int sign = sign_of(m);
      if (sign == 0) return;
      relate(quotient.arg(0), sign, 0);  // atom <= N (m >= 1), atom >= N (m <= -1)
      // -sign * (atom - N + m) <= -1: atom >= N - m + 1 (m >= 1), atom <= N - m - 1 (m <= -1)
      const Expr shifted = Expr::make(Op::Sub, DType::Index, {quotient.arg(0), m});
      relate(shifted, -sign, 1);
      return;
    }
    return;
  }
  const Expr &divisor = atom.arg(1);
  const int sign = sign_of(divisor);
  if (sign == 0) return;
  if (atom.op() == Op::FloorMod) {
    // 0 <= r <= m - 1 (m >= 1) or m + 1 <= r <= 0 (m <= -1).
    bound_atom(-sign, 0);
    relate(divisor, sign, 1);  // r <= m - 1, or r >= m + 1
    return;
  }
  // q = N // m with a constant m: m*q <= N <= m*q + m - 1 (m >= 1), reversed for m <= -1.
  if (!divisor.is_const()) return;
  const Int m = divisor.value().i;
  LinearTerms numerator;
  Int constant = 0;
  if (!read_linear_terms(atom.arg(0), 1, *table_, numerator, constant)) return;
  Coefficients below = numerator.coefficients;  // N - m*q >= 0 (m >= 1): m*q - N <= 0
  Coefficients above = numerator.coefficients;  // N - m*q <= |m| - 1
  for (auto &term : below) term.second = -term.second;
  below[key] += m;
  above[key] -= m;
  std::erase_if(below, [](const auto &term) { return term.second == 0; });
  std::erase_if(above, [](const auto &term) { return term.second == 0; });
  if (sign > 0) {
    out.push_back({below, constant});
    out.push_back({above, m - 1 - constant});
  } else {  // m*q - (m + 1) <= N <= m*q, i.e. N - m*q <= 0 and m*q - N <= -m - 1
    out.push_back({above, -constant});
    out.push_back({below, -m - 1 + constant});
  }
}

std::vector<LinearInequalities::Inequality> LinearInequalities::with_atom_facts(const AtomSet &atoms) const {
  std::vector<Inequality> known = inequalities_;
  std::vector<Inequality> facts;
  // The atoms recorded and those of the query, each once, in text order: the
  // facts come in the order of the atoms (the first ones are kept).
  auto recorded = atoms_.begin();
  auto asked = atoms.begin();
  auto next = [&]() -> AtomKey {
    if (asked == atoms.end() || (recorded != atoms_.end() && *recorded < *asked)) return *recorded++;
    if (recorded == atoms_.end() || *asked < *recorded) return *asked++;
    ++recorded;  // the same atom in both
    return *asked++;
  };
  while (recorded != atoms_.end() || asked != atoms.end()) {
    const AtomKey atom = next();
    atom_facts(atom, inequalities_, facts);
  }
  for (Inequality &fact : facts) {
    if (known.size() >= 2 * kMaxInequalities) break;
    bool fits = in_range(fact.bound);
    for (const auto &term : fact.coefficients) fits = fits && in_range(term.second);
    if (fits) known.push_back(std::move(fact));
  }
  return known;
}

std::optional<Int> LinearInequalities::search(const Coefficients &form, const std::vector<Inequality> &known,
                                              int depth) const {
  if (form.empty()) return Int(0);
  // The first atom is bounded either by its interval or by eliminating it with an
  // inequality that mentions it; the rest of the form is bounded recursively.
  const auto &[key, coefficient] = *form.begin();
  Coefficients rest = form;
  rest.erase(rest.begin());
  std::optional<Int> best;
  if (bounds_) {
    // The atom's own interval: coefficient * atom <= coefficient * hi (or * lo).
    Interval interval = AtomTable::interval(key, bounds_);
    std::optional<Int> side = coefficient > 0 ? interval.hi : interval.lo;
    if (side) {
      std::optional<Int> scaled = checked_mul(coefficient, *side);
      std::optional<Int> others = scaled ? search(rest, known, depth) : std::nullopt;
      if (others) best = checked_add(*scaled, *others);
    }
  }
  if (depth == 0) return best;
  for (const Inequality &inequality : known) {
    auto term = inequality.coefficients.find(key);
    if (term == inequality.coefficients.end()) continue;
    if ((term->second > 0) != (coefficient > 0) || coefficient % term->second != 0) continue;
    const Int k = coefficient / term->second;  // > 0
    std::optional<Int> scaled_bound = checked_mul(k, inequality.bound);
    if (!scaled_bound) continue;
    Coefficients remainder = form;
    bool fits = true;
    for (const auto &[other, c] : inequality.coefficients) {
      Int &slot = remainder[other];
      std::optional<Int> removed = checked_mul(k, c);
      if (removed) slot -= *removed;
      fits = fits && removed && in_range(slot);
    }
    if (!fits) continue;
    std::erase_if(remainder, [](const auto &t) { return t.second == 0; });
    std::optional<Int> others = search(remainder, known, depth - 1);
    if (!others) continue;
    best = min_of(best, checked_add(*scaled_bound, *others));
  }
  return best;
}

std::optional<Int> LinearInequalities::upper_bound(const LinearTerms &terms) const {
  if (terms.coefficients.empty()) return Int(0);
  const std::vector<Inequality> known = with_atom_facts(terms.atoms);
  return search(terms.coefficients, known, kMaxEliminations);
}

namespace {

// Whether atom_facts gives `atom` no fact (then only its interval bounds it).
bool has_no_facts(const Expr &atom) {
  if (atom.dtype() != DType::Index) return true;
  switch (atom.op()) {
    case Op::Max:
    case Op::Min:
    case Op::FloorMod:
    case Op::FloorDiv:
    case Op::Mul:
      return false;
    default:
      return true;
  }
}

}  // namespace

std::optional<Int> LinearInequalities::interval_sum(const Coefficients &form, Int sign) const {
  if (form.empty()) return Int(0);
  if (!bounds_) return std::nullopt;
  // search() bounds the first atom by its interval and the rest recursively,
  // stopping at the first atom without one: a1 + (a2 + (... + (an + 0))). The terms
  // are kept inline (forms are short) and added in that order, so that an overflow
  // gives up where the search's would.
  boost::container::small_vector<Int, 8> terms;
  for (const auto &[key, form_coefficient] : form) {
    const Int coefficient = sign * form_coefficient;
    const Interval interval = AtomTable::interval(key, bounds_);
    const std::optional<Int> side = coefficient > 0 ? interval.hi : interval.lo;
    if (!side) return std::nullopt;
    const std::optional<Int> scaled = checked_mul(coefficient, *side);
    if (!scaled) return std::nullopt;
    terms.push_back(*scaled);
  }
  Int total = 0;
  for (auto it = terms.rbegin(); it != terms.rend(); ++it) {
    const std::optional<Int> sum = checked_add(*it, total);
    if (!sum) return std::nullopt;
    total = *sum;
  }
  return total;
}

LinearInequalities::Bounds LinearInequalities::bounds(const LinearTerms &terms) const {
  if (terms.coefficients.empty()) return Bounds{Int(0), Int(0)};
  // Nothing known and no atom with facts of its own (the common case: a
  // comparison of sums of variables with no assumption): the search is a sum of
  // the atoms' interval bounds, computed without copying the inequalities.
  if (inequalities_.empty() && atoms_.empty() &&
      std::all_of(terms.atoms.begin(), terms.atoms.end(), [](AtomKey atom) { return has_no_facts(atom.expr()); })) {
    Bounds out;
    out.upper = interval_sum(terms.coefficients, 1);
    if (std::optional<Int> negated_upper = interval_sum(terms.coefficients, -1)) out.lower = -*negated_upper;
    return out;
  }
  const std::vector<Inequality> known = with_atom_facts(terms.atoms);
  Bounds out;
  out.upper = search(terms.coefficients, known, kMaxEliminations);
  Coefficients negated = terms.coefficients;
  for (auto &term : negated) term.second = -term.second;
  if (std::optional<Int> negated_upper = search(negated, known, kMaxEliminations)) out.lower = -*negated_upper;
  return out;
}

std::optional<Int> LinearInequalities::lower_bound(const LinearTerms &terms) const {
  LinearTerms negated = terms;
  for (auto &term : negated.coefficients) term.second = -term.second;
  std::optional<Int> upper = upper_bound(negated);
  if (!upper) return std::nullopt;
  return -*upper;
}

}  // namespace eqsat
