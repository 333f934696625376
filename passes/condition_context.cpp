#include "passes/condition_context.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ir/definedness.h"
#include "ir/map_args.h"
#include "ir/pool_allocator.h"
#include "ir/print.h"
#include "passes/linear_inequalities.h"

namespace eqsat {

namespace {

// ---------------------------------------------------------------------------
// Comparisons as bounds on a linear form: `P <= v`, `P >= v`, `P == v`, `P != v`.
// ---------------------------------------------------------------------------

enum class Bound { Le, Ge, Eq, Ne };

struct LinearFact {
  DType dtype;  // of P
  Bound bound;
  Int value;
  // P itself: for INDEX, the sum of atoms; for a fixed width, its one term `t` of
  // `t op c` (coefficient 1), which only keys its range.
  LinearTerms terms;
  bool is_index() const { return dtype == DType::Index; }
};

// The form a fact bounds, as the key of its range: its dtype and its terms. Two
// comparisons bound the same form exactly when they have the same key, as when the
// key was the form's text (`index:1*(x)+-1*(y)+`).
struct FormKey {
  DType dtype;
  Coefficients terms;
};

// Orders keys, and the forms of facts against them (a fact is looked up without
// copying its terms).
struct FormOrder {
  using is_transparent = void;
  static std::pair<DType, const Coefficients *> of(const FormKey &key) { return {key.dtype, &key.terms}; }
  static std::pair<DType, const Coefficients *> of(const LinearFact &fact) {
    return {fact.dtype, &fact.terms.coefficients};
  }
  template <class A, class B>
  bool operator()(const A &a, const B &b) const {
    const auto [a_dtype, a_terms] = of(a);
    const auto [b_dtype, b_terms] = of(b);
    return a_dtype != b_dtype ? a_dtype < b_dtype : *a_terms < *b_terms;
  }
};

bool mul_overflows(Int a, Int b, Int &out) { return __builtin_mul_overflow(a, b, &out); }

Int gcd(Int a, Int b) {
  if (a < 0) a = -a;
  if (b < 0) b = -b;
  while (b != 0) a = std::exchange(b, a % b);
  return a;
}

Int floor_div(Int a, Int b) {  // b > 0
  Int q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

Int ceil_div(Int a, Int b) { return -floor_div(-a, b); }  // b > 0

// `P op v` as the bound it states.
// `t op v` of a fixed-width term t as the bound it states.
std::optional<LinearFact> make_fact(DType dtype, AtomKey t, Op op, Int v) {
  LinearFact fact{dtype, Bound::Eq, v, {}};
  fact.terms.coefficients.emplace(t, 1);
  fact.terms.atoms.insert(t);
  switch (op) {
    case Op::Eq:
      fact.bound = Bound::Eq;
      break;
    case Op::Ne:
      fact.bound = Bound::Ne;
      break;
    case Op::Le:
      fact.bound = Bound::Le;
      break;
    case Op::Ge:
      fact.bound = Bound::Ge;
      break;
    case Op::Lt:
      fact.bound = Bound::Le;
      fact.value = v - 1;
      break;
    case Op::Gt:
      fact.bound = Bound::Ge;
      fact.value = v + 1;
      break;
    default:
      return std::nullopt;
  }
  return fact;
}

// Reads an integer comparison as a bound on a linear form (its atoms interned in
// `table`), or nullopt.
std::optional<LinearFact> read_comparison(const Expr &expr, AtomTable &table) {
  if (!is_comparison(expr.op()) || !is_integer(expr.arg(0).dtype())) return std::nullopt;
  const Expr &a = expr.arg(0);
  const Expr &b = expr.arg(1);
  if (a.dtype() != DType::Index) {
    // Fixed width: moving terms across would wrap; only `t op c` is read.
    constexpr Int kLimit = Int(1) << 100;  // far outside every fixed-width range
    if (b.is_const() && !a.is_const() && b.value().i < kLimit && b.value().i > -kLimit)
      return make_fact(a.dtype(), table.intern(a), expr.op(), b.value().i);
    if (a.is_const() && !b.is_const() && a.value().i < kLimit && a.value().i > -kLimit)
      return make_fact(a.dtype(), table.intern(b), mirrored_comparison(expr.op()), a.value().i);
    return std::nullopt;
  }
  LinearTerms linear;
  Int constant = 0;
  if (!read_linear_terms(a, 1, table, linear, constant) || !read_linear_terms(b, -1, table, linear, constant))
    return std::nullopt;
  const Coefficients &terms = linear.coefficients;
  if (terms.empty()) return std::nullopt;  // a constant comparison: the constant folder decides it
  // terms + constant op 0, i.e. P op -constant; P divided by the gcd of its
  // coefficients, signed so that its first coefficient is positive.
  Int divisor = 0;
  for (const auto &term : terms) divisor = gcd(divisor, term.second);
  const bool negate = terms.begin()->second < 0;
  Op op = negate ? mirrored_comparison(expr.op()) : expr.op();
  Int v;
  if (mul_overflows(constant, negate ? 1 : -1, v)) return std::nullopt;
  constexpr Int kLimit = Int(1) << 120;  // room for v - 1 and v + 1
  if (v >= kLimit || v <= -kLimit) return std::nullopt;
  // P: the terms read, scaled in place (their keys stay), and only their atoms (not
  // those whose terms cancelled, which the read also holds).
  LinearTerms reduced;
  reduced.coefficients = std::move(linear.coefficients);
  for (auto &term : reduced.coefficients) term.second = (negate ? -term.second : term.second) / divisor;
  if (linear.atoms.size() == reduced.coefficients.size()) {
    reduced.atoms = std::move(linear.atoms);
  } else {
    for (const auto &term : reduced.coefficients) reduced.atoms.emplace_hint(reduced.atoms.end(), term.first);
  }
  // P / d op v: bounds round inwards; an equality with v not a multiple of d never holds.
  switch (op) {
    case Op::Lt:
      return LinearFact{DType::Index, Bound::Le, floor_div(v - 1, divisor), std::move(reduced)};
    case Op::Le:
      return LinearFact{DType::Index, Bound::Le, floor_div(v, divisor), std::move(reduced)};
    case Op::Gt:
      return LinearFact{DType::Index, Bound::Ge, ceil_div(v + 1, divisor), std::move(reduced)};
    case Op::Ge:
      return LinearFact{DType::Index, Bound::Ge, ceil_div(v, divisor), std::move(reduced)};
    case Op::Eq:
    case Op::Ne:
      if (v % divisor != 0) return std::nullopt;
      return LinearFact{DType::Index, op == Op::Eq ? Bound::Eq : Bound::Ne, v / divisor, std::move(reduced)};
    default:
      return std::nullopt;
  }
}

// What the facts say about one linear form: lo <= P <= hi, P not in excluded.
struct Range {
  std::optional<Int> lo, hi;
  std::set<Int, std::less<Int>, PoolAllocator<Int>> excluded;

  void add(Bound bound, Int v) {
    switch (bound) {
      case Bound::Le:
        if (!hi || v < *hi) hi = v;
        break;
      case Bound::Ge:
        if (!lo || v > *lo) lo = v;
        break;
      case Bound::Eq:
        add(Bound::Le, v);
        add(Bound::Ge, v);
        break;
      case Bound::Ne:
        excluded.insert(v);
        break;
    }
  }

  bool contains(Int v) const { return (!lo || *lo <= v) && (!hi || v <= *hi) && !excluded.contains(v); }

  // Whether `P bound v` holds for every P of the range (true), for none (false).
  std::optional<bool> decide(Bound bound, Int v) const {
    switch (bound) {
      case Bound::Le:
        if (hi && *hi <= v) return true;
        if (lo && *lo > v) return false;
        return std::nullopt;
      case Bound::Ge:
        if (lo && *lo >= v) return true;
        if (hi && *hi < v) return false;
        return std::nullopt;
      case Bound::Eq:
        if (!contains(v)) return false;
        if (lo && hi && *lo == v && *hi == v) return true;
        return std::nullopt;
      case Bound::Ne:
        if (!contains(v)) return true;
        if (lo && hi && *lo == v && *hi == v) return false;
        return std::nullopt;
    }
    return std::nullopt;
  }
};

Bound negated(Bound bound) {
  switch (bound) {
    case Bound::Le:
      return Bound::Ge;  // with v + 1, see Context::assume
    case Bound::Ge:
      return Bound::Le;
    case Bound::Eq:
      return Bound::Ne;
    case Bound::Ne:
      return Bound::Eq;
  }
  return bound;
}

// The comparison that is true exactly where `expr` is false, for integer
// comparisons (`x < y` and `y <= x`); nullopt otherwise.
std::optional<Expr> negated(const Expr &expr) {
  if (!is_comparison(expr.op()) || !is_integer(expr.arg(0).dtype())) return std::nullopt;
  const Expr &a = expr.arg(0);
  const Expr &b = expr.arg(1);
  switch (expr.op()) {
    case Op::Eq:
      return Expr::make(Op::Ne, DType::Bool, {a, b});
    case Op::Ne:
      return Expr::make(Op::Eq, DType::Bool, {a, b});
    case Op::Lt:
      return Expr::make(Op::Le, DType::Bool, {b, a});
    case Op::Le:
      return Expr::make(Op::Lt, DType::Bool, {b, a});
    case Op::Gt:
      return Expr::make(Op::Le, DType::Bool, {a, b});
    case Op::Ge:
      return Expr::make(Op::Lt, DType::Bool, {a, b});
    default:
      return std::nullopt;
  }
}

// ---------------------------------------------------------------------------
// The context: BOOL terms known true or false, and bounds on linear forms.
// ---------------------------------------------------------------------------

// read_comparison's answers by node, for one substitution: the operands of a
// chain are read as facts once for every other operand, and decided again in
// each context. Its table interns the atoms of every form the substitution reads.
class ComparisonReader {
 public:
  const std::optional<LinearFact> &read(const Expr &expr) {
    auto it = read_.find(expr.identity());
    if (it == read_.end())
      it = read_.emplace(expr.identity(), std::make_pair(expr, read_comparison(expr, table_))).first;
    return it->second.second;
  }

  AtomTable &table() { return table_; }

 private:
  AtomTable table_;  // declared first: the forms below point into it
  using Entry = std::pair<const void *const, std::pair<Expr, std::optional<LinearFact>>>;
  std::unordered_map<const void *, Entry::second_type, std::hash<const void *>, std::equal_to<const void *>,
                     PoolAllocator<Entry>>
      read_;  // keeps each node alive
};

class Context {
 public:
  // `reader` outlives the context and its copies. `flags`: the run's fast-math flags,
  // which say what may be undefined (ir/definedness.h).
  Context(BoundsOracle bounds, ComparisonReader &reader, FastMath flags)
      : reader_(&reader), flags_(flags), inequalities_(reader.table(), std::move(bounds)) {}

  FastMath flags() const { return flags_; }

  // The context of the facts that hold wherever the expression is evaluated (the
  // assumptions and bounds it started with), not only where a branch is taken: set
  // on that context once it holds them, and kept by its copies.
  const Context &everywhere() const { return everywhere_ != nullptr ? *everywhere_ : *this; }
  void hold_everywhere() { everywhere_ = this; }

  // Records that `fact` has the value `value`.
  void assume(const Expr &fact, bool value) {
    if (fact.is_const()) return;
    if (fact.op() == Op::Not) return assume(fact.arg(0), !value);
    // `a and b` true: both true; `a or b` false: both false.
    if ((fact.op() == Op::And && value) || (fact.op() == Op::Or && !value)) {
      assume(fact.arg(0), value);
      assume(fact.arg(1), value);
      return;
    }
    known_.emplace_back(fact, value);
    if (const std::optional<LinearFact> &linear = reader_->read(fact); linear) {
      Bound bound = value ? linear->bound : negated(linear->bound);
      Int v = linear->value;
      if (!value && linear->bound == Bound::Le) v += 1;  // not (P <= v): P >= v + 1
      if (!value && linear->bound == Bound::Ge) v -= 1;  // not (P >= v): P <= v - 1
      auto range = ranges_.find(*linear);
      if (range == ranges_.end())
        range = ranges_.emplace(FormKey{linear->dtype, linear->terms.coefficients}, Range{}).first;
      range->second.add(bound, v);
      if (linear->is_index()) record_inequality(linear->terms, bound, v);
    }
  }

  // The value of the BOOL term `expr` where the facts hold, if they decide it.
  std::optional<bool> decide(const Expr &expr) const {
    if (std::optional<bool> known = known_value(expr)) return known;
    const std::optional<LinearFact> &linear = reader_->read(expr);
    return linear ? decide_linear(expr, *linear) : std::nullopt;
  }

  // The same for a comparison made for this one question (the order of a min's
  // operands, the sign of a quotient's numerator): no other node is the same node,
  // so its reading is not remembered (an entry per question that no later question
  // could find).
  std::optional<bool> decide_fresh(const Expr &comparison) const {
    if (std::optional<bool> known = known_value(comparison)) return known;
    const std::optional<LinearFact> linear = read_comparison(comparison, reader_->table());
    return linear ? decide_linear(comparison, *linear) : std::nullopt;
  }

 private:
  const Context *everywhere_ = nullptr;
  // The value of `expr` when it, or its negation, is a fact.
  std::optional<bool> known_value(const Expr &expr) const {
    if (known_.empty()) return std::nullopt;
    std::optional<Expr> negation = negated(expr);
    for (const auto &[fact, value] : known_) {
      if (fact == expr) return value;
      if (negation && fact == *negation) return !value;
    }
    return std::nullopt;
  }

  // The value of the comparison `expr`, read as `linear`, by the ranges, the
  // inequalities and the known equalities.
  std::optional<bool> decide_linear(const Expr &expr, const LinearFact &linear) const {
    auto range = ranges_.find(linear);
    if (range != ranges_.end())
      if (std::optional<bool> decided = range->second.decide(linear.bound, linear.value)) return decided;
    if (linear.is_index())
      if (std::optional<bool> decided = implied(linear)) return decided;
    if (std::optional<bool> decided = substituted(expr)) return decided;
    return refuted_by_substitution(expr);
  }

  // `v == c` (or `v != c`) of an integer variable and a constant, decided False (True)
  // when some fact, with v replaced by c, folds to the opposite of what is known of it:
  // were v == c, that fact could not hold. (`i == 3` is False where `i % 2 == 0`.)
  std::optional<bool> refuted_by_substitution(const Expr &comparison) const {
    if ((comparison.op() != Op::Eq && comparison.op() != Op::Ne) || !is_integer(comparison.arg(0).dtype())) {
      return std::nullopt;
    }
    const int var_side = comparison.arg(0).op() == Op::Var ? 0 : 1;
    const Expr &v = comparison.arg(var_side);
    const Expr &c = comparison.arg(1 - var_side);
    if (v.op() != Op::Var || !c.is_const()) return std::nullopt;
    const std::map<std::string, Expr> replacement{{v.name(), c}};
    for (const auto &[fact, value] : known_) {
      const std::optional<bool> folded = folded_with(fact, replacement);
      if (folded && *folded != value) return comparison.op() == Op::Ne;
    }
    return std::nullopt;
  }

  // An integer comparison with every variable a known equality `u == w` names (w a
  // variable or a constant) replaced by w, decided when the linear normal form
  // of the result is a constant: `a * a == b * b` is True where a == b.
  std::optional<bool> substituted(const Expr &comparison) const {
    std::map<std::string, Expr> replacements;
    for (const auto &[fact, value] : known_) {
      // `u == w` known true, or `u != w` known false.
      const bool equal = (fact.op() == Op::Eq && value) || (fact.op() == Op::Ne && !value);
      if (!equal || !is_integer(fact.arg(0).dtype())) continue;
      for (int k = 0; k < 2; ++k) {
        const Expr &u = fact.arg(k);
        const Expr &w = fact.arg(1 - k);
        if (u.op() != Op::Var || !(w.op() == Op::Var || w.is_const()) || replacements.contains(u.name())) continue;
        // Of two variables, the later name is replaced, so that no replacement undoes another.
        if (w.op() == Op::Var && w.name() >= u.name()) continue;
        replacements.emplace(u.name(), w);
        break;
      }
    }
    if (replacements.empty()) return std::nullopt;
    return folded_with(comparison, replacements);
  }

  // The value of the BOOL term `expr` with the variables `replacements` names replaced,
  // when that changes it and its linear normal form is then a constant.
  static std::optional<bool> folded_with(const Expr &expr, const std::map<std::string, Expr> &replacements) {
    const Expr replaced = replace_vars(expr, replacements);
    if (replaced == expr) return std::nullopt;
    const Expr normal = normalize_linear(replaced);
    if (!normal.is_const()) return std::nullopt;
    return normal.value().i != 0;
  }

  static Expr replace_vars(const Expr &expr, const std::map<std::string, Expr> &replacements) {
    if (expr.op() == Op::Var) {
      auto replacement = replacements.find(expr.name());
      return replacement != replacements.end() && replacement->second.dtype() == expr.dtype() ? replacement->second
                                                                                              : expr;
    }
    return map_args(expr, [&](const Expr &arg) { return replace_vars(arg, replacements); });
  }

  // P <= v, P >= v and P == v of an INDEX form as inequalities P <= v and -P <= -v.
  void record_inequality(const LinearTerms &terms, Bound bound, Int v) {
    if (bound == Bound::Le || bound == Bound::Eq) inequalities_.add(terms, v);
    if (bound == Bound::Ge || bound == Bound::Eq) {
      LinearTerms negated = terms;
      for (auto &term : negated.coefficients) term.second = -term.second;
      inequalities_.add(negated, -v);
    }
  }

  // `P bound v` decided by the bounds of P the inequalities imply
  // (passes/linear_inequalities.h), or by those of P / f for a factor f of
  // every atom of P whose sign they imply.
  std::optional<bool> implied(const LinearFact &linear) const {
    if (std::optional<bool> decided = bounded(linear)) return decided;
    return factored(linear);
  }

  std::optional<bool> bounded(const LinearFact &linear) const {
    Range range;
    const LinearInequalities::Bounds bounds = inequalities_.bounds(linear.terms);
    if (bounds.upper) range.add(Bound::Le, *bounds.upper);
    if (bounds.lower) range.add(Bound::Ge, *bounds.lower);
    // Contradictory facts (lo > hi) hold nowhere: nothing is concluded from them.
    if (range.lo && range.hi && *range.lo > *range.hi) return std::nullopt;
    return range.decide(linear.bound, linear.value);
  }

  // P = f * Q with f >= 1 (f <= -1): P compared with 0 (or P < 0, P > 0) is Q
  // compared the same way (mirrored), as `a * d < b * d` is `a < b` for d > 0.
  std::optional<bool> factored(const LinearFact &linear) const {
    const Int v = linear.value;
    const bool against_zero = v == 0 || (linear.bound == Bound::Le && v == -1) || (linear.bound == Bound::Ge && v == 1);
    if (!against_zero || inequalities_.empty()) return std::nullopt;
    // The factors of each atom; a factor common to all.
    ByAtom<std::vector<Expr>> factors;
    for (AtomKey atom : linear.terms.atoms) flatten_product(atom.expr(), factors[atom]);
    for (const Expr &candidate : factors.begin()->second) {
      if (candidate.is_const()) continue;
      bool common = true;
      for (const auto &[key, list] : factors)
        common = common && std::any_of(list.begin(), list.end(), [&](const Expr &f) { return f == candidate; });
      if (!common) continue;
      LinearTerms sign_of;
      const AtomKey factor = reader_->table().intern(candidate);
      sign_of.coefficients.emplace(factor, 1);
      sign_of.atoms.insert(factor);
      const std::optional<Int> lo = inequalities_.lower_bound(sign_of);
      const std::optional<Int> hi = inequalities_.upper_bound(sign_of);
      const int sign = lo && *lo >= 1 ? 1 : hi && *hi <= -1 ? -1 : 0;
      if (sign == 0) continue;
      // Q: each atom with one `candidate` factor removed.
      LinearFact quotient{linear.dtype, linear.bound, v, {}};
      Int constant = 0;  // Q = terms + constant
      for (const auto &[key, coefficient] : linear.terms.coefficients) {
        std::vector<Expr> rest = factors.at(key);
        rest.erase(std::find(rest.begin(), rest.end(), candidate));
        Expr atom = rest.empty() ? Expr::constant(Value::integer(DType::Index, 1)) : rest[0];
        for (std::size_t i = 1; i < rest.size(); ++i) atom = Expr::make(Op::Mul, DType::Index, {atom, rest[i]});
        if (!read_linear_terms(atom, coefficient, reader_->table(), quotient.terms, constant)) return std::nullopt;
      }
      if (quotient.terms.coefficients.empty()) return std::nullopt;
      if (sign < 0) {
        quotient.bound = linear.bound == Bound::Le ? Bound::Ge : linear.bound == Bound::Ge ? Bound::Le : linear.bound;
        quotient.value = -v;
      }
      // terms + constant bound value: terms bound value - constant.
      quotient.value -= constant;
      return bounded(quotient);
    }
    return std::nullopt;
  }

  static void flatten_product(const Expr &expr, std::vector<Expr> &factors) {
    if (expr.op() == Op::Mul && expr.dtype() == DType::Index) {
      flatten_product(expr.arg(0), factors);
      flatten_product(expr.arg(1), factors);
    } else {
      factors.push_back(expr);
    }
  }

  ComparisonReader *reader_;
  FastMath flags_;
  std::vector<std::pair<Expr, bool>> known_;
  // The range of each linear form.
  std::map<FormKey, Range, FormOrder, PoolAllocator<std::pair<const FormKey, Range>>> ranges_;
  LinearInequalities inequalities_;
};

Expr bool_constant(bool b) { return Expr::constant(Value::boolean(b)); }

void flatten(const Expr &expr, Op op, std::vector<Expr> &operands) {
  if (expr.op() == op) {
    flatten(expr.arg(0), op, operands);
    flatten(expr.arg(1), op, operands);
  } else {
    operands.push_back(expr);
  }
}

Expr rewrite(const Expr &expr, const Context &context);

// truncdiv(n, c) or truncmod(n, c) of INDEX with a constant c > 0 (truncmod:
// c != 0, the remainder does not depend on the divisor's sign) where the
// context shows n >= 0: the floor division (modulo) by c (by |c|), which the
// linear forms and the floor rules fold further. nullopt otherwise.
std::optional<Expr> as_floor_division(Op op, DType dtype, const std::vector<Expr> &args, const Context &context) {
  if (dtype != DType::Index || (op != Op::TruncDiv && op != Op::TruncMod) || !args[1].is_const()) return std::nullopt;
  const Int c = args[1].value().i;
  if (c == 0 || (op == Op::TruncDiv && c < 0)) return std::nullopt;
  const Expr zero = Expr::constant(Value::integer(DType::Index, 0));
  const std::optional<bool> nonnegative = context.decide_fresh(Expr::make(Op::Ge, DType::Bool, {args[0], zero}));
  if (!nonnegative || !*nonnegative) return std::nullopt;
  Int magnitude = c;
  if (c < 0 && mul_overflows(c, -1, magnitude)) return std::nullopt;
  const Expr divisor = Expr::constant(Value::integer(DType::Index, magnitude));
  return Expr::make(op == Op::TruncDiv ? Op::FloorDiv : Op::FloorMod, DType::Index, {args[0], divisor});
}

// min(a, b) or max(a, b) of an integer dtype whose operands the context orders
// (`min(x, y)` where `x <= y` is assumed): the operand it picks. nullopt otherwise.
std::optional<Expr> as_decided_minmax(Op op, DType dtype, const std::vector<Expr> &args, const Context &context) {
  if ((op != Op::Min && op != Op::Max) || !is_integer(dtype)) return std::nullopt;
  const std::optional<bool> in_order = context.decide_fresh(Expr::make(Op::Le, DType::Bool, {args[0], args[1]}));
  if (!in_order) return std::nullopt;
  return (op == Op::Min) == *in_order ? args[0] : args[1];
}

// A chain `a and b and ...` (or `a or b or ...`): each operand rewritten in
// the context of the others (see the header for which).
Expr rewrite_chain(const Expr &expr, const Context &context) {
  const Op op = expr.op();
  const bool is_and = op == Op::And;  // operands known true (and) or false (or)
  std::vector<Expr> operands;
  flatten(expr, op, operands);
  bool all_defined = true;
  for (const Expr &operand : operands) all_defined = all_defined && !may_be_undefined(operand, context.flags());
  bool changed = false;
  for (std::size_t i = 0; i < operands.size(); ++i) {
    Context inner = context;
    for (std::size_t j = 0; j < operands.size(); ++j)
      if (j != i && (j < i || all_defined)) inner.assume(operands[j], is_and);
    Expr rewritten = rewrite(operands[i], inner);
    if (rewritten != operands[i]) {
      operands[i] = rewritten;
      changed = true;
    }
  }
  if (!changed) return expr;
  // The absorbing constant decides the chain; the neutral one drops out.
  std::vector<Expr> kept;
  for (const Expr &operand : operands) {
    if (operand.is_const()) {
      if ((operand.value().i != 0) != is_and) return bool_constant(!is_and);
      continue;
    }
    kept.push_back(operand);
  }
  if (kept.empty()) return bool_constant(is_and);
  Expr chain = kept[0];
  for (std::size_t i = 1; i < kept.size(); ++i) chain = Expr::make(op, DType::Bool, {chain, kept[i]});
  return chain;
}

// An integer comparison with a select on one side, `select(c, t, f) op o`, is
// `select(c, t op o, f op o)`: decided when both branches are, each in its
// context (`select(x >= 0, x, x * -1) >= 0` is True). Only a select whose
// branches are not selects is split, so the work stays linear.
std::optional<bool> decide_through_select(const Expr &expr, const Context &context) {
  if (!is_comparison(expr.op()) || !is_integer(expr.arg(0).dtype())) return std::nullopt;
  for (int k = 0; k < 2; ++k) {
    const Expr &value = expr.arg(k);
    if (value.op() != Op::Select || value.arg(1).op() == Op::Select || value.arg(2).op() == Op::Select ||
        expr.arg(1 - k).op() == Op::Select)
      continue;
    auto branch = [&](const Expr &side) {
      return k == 0 ? Expr::make(expr.op(), DType::Bool, {side, expr.arg(1)})
                    : Expr::make(expr.op(), DType::Bool, {expr.arg(0), side});
    };
    const Expr split = rewrite(
        Expr::make(Op::Select, DType::Bool, {value.arg(0), branch(value.arg(1)), branch(value.arg(2))}), context);
    if (split.is_const()) return split.value().i != 0;
  }
  return std::nullopt;
}

// Whether operand k of `expr` is one whose value decides whether `expr` is defined
// under `flags` (ir/definedness.h): an integer division's or modulo's divisor, a
// shift's amount, the float of a cast to an integer; under nnan or ninf, every
// operand of float arithmetic (`1.0 / d` is infinite at d = 0.0, poison under ninf).
bool decides_definedness(const Expr &expr, std::size_t k, FastMath flags) {
  if (!is_partial(expr.op(), expr.dtype(), expr.arg(0).dtype(), flags)) return false;
  if (is_float(expr.dtype())) return true;
  return expr.op() == Op::Cast ? k == 0 : k == 1;
}

Expr rewrite(const Expr &expr, const Context &context) {
  if (expr.op() == Op::Const || expr.op() == Op::Var) {
    if (expr.dtype() == DType::Bool && expr.op() == Op::Var)
      if (std::optional<bool> decided = context.decide(expr)) return bool_constant(*decided);
    return expr;
  }
  if (expr.dtype() == DType::Bool)
    if (std::optional<bool> decided = context.decide(expr)) return bool_constant(*decided);
  switch (expr.op()) {
    case Op::And:
    case Op::Or:
      return rewrite_chain(expr, context);
    case Op::Not: {
      Expr operand = rewrite(expr.arg(0), context);
      if (operand.is_const()) return bool_constant(operand.value().i == 0);
      return operand == expr.arg(0) ? expr : Expr::make(Op::Not, DType::Bool, {operand});
    }
    case Op::Select: {
      Expr condition = rewrite(expr.arg(0), context);
      if (condition.is_const()) return rewrite(expr.arg(condition.value().i != 0 ? 1 : 2), context);
      Context when_true = context;
      when_true.assume(condition, true);
      Context when_false = context;
      when_false.assume(condition, false);
      Expr if_true = rewrite(expr.arg(1), when_true);
      Expr if_false = rewrite(expr.arg(2), when_false);
      // Both branches decided alike: the condition no longer matters.
      if (if_true.is_const() && if_true == if_false) return if_true;
      if (condition == expr.arg(0) && if_true == expr.arg(1) && if_false == expr.arg(2)) return expr;
      return Expr::make(Op::Select, expr.dtype(), {condition, if_true, if_false});
    }
    default:
      break;
  }
  if (std::optional<bool> decided = decide_through_select(expr, context)) return bool_constant(*decided);
  std::vector<Expr> args;
  args.reserve(expr.args().size());
  bool changed = false;
  for (std::size_t k = 0; k < expr.args().size(); ++k) {
    const Expr &arg = expr.arg(k);
    // An operand whose value decides whether the operation is defined (a divisor, a
    // shift amount, a cast float) is rewritten with the facts that hold everywhere
    // only. Facts of a branch hold where it is taken, but under the strict reading
    // (docs/verification.md) a select computes both branches, and `and`/`or` all their
    // operands: `select(q, 0, 1 % select(q, 1, x))` is defined at q, x = 0, and with
    // the else branch's `not q` its divisor would read `x`, undefined there. Elsewhere
    // a value changed where the facts fail is a value the select or chain discards.
    args.push_back(rewrite(arg, decides_definedness(expr, k, context.flags()) ? context.everywhere() : context));
    changed = changed || args.back() != arg;
  }
  if (std::optional<Expr> floor = as_floor_division(expr.op(), expr.dtype(), args, context)) return *floor;
  if (std::optional<Expr> picked = as_decided_minmax(expr.op(), expr.dtype(), args, context)) return *picked;
  return changed ? Expr::make(expr.op(), expr.dtype(), std::move(args)) : expr;
}

// Whether `rewrite` asks the context anything about `expr`: it does about BOOL
// subterms, truncating divisions and remainders, and integer min/max only.
bool asks_context(const Expr &expr) {
  const Op op = expr.op();
  if (expr.dtype() == DType::Bool || op == Op::TruncDiv || op == Op::TruncMod || op == Op::Min || op == Op::Max)
    return true;
  for (const Expr &arg : expr.args())
    if (asks_context(arg)) return true;
  return false;
}

}  // namespace

Expr substitute_conditions(const Expr &expr, const std::vector<Expr> &assumptions, BoundsOracle bounds,
                           FastMath flags) {
  // Nothing known and nothing asked: nothing is decided.
  if (assumptions.empty() && !asks_context(expr)) return expr;
  ComparisonReader reader;
  Context context(std::move(bounds), reader, flags);
  for (const Expr &assumption : assumptions) context.assume(assumption, true);
  context.hold_everywhere();
  return rewrite(expr, context);
}

}  // namespace eqsat
