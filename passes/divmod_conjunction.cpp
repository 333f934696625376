#include "passes/divmod_conjunction.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ir/map_args.h"
#include "ir/print.h"
#include "passes/linear_inequalities.h"

namespace eqsat {

namespace {

// An operand `P op v` of the chain read as lo <= P <= hi, P with its first
// coefficient positive (so that `x - y < 3` and `y - x > -3` meet).
struct Window {
  LinearTerms form;
  std::optional<Int> lo, hi;
};

// Room for the constants of a window and the combined bounds computed from them.
constexpr Int kLimit = Int(1) << 60;

std::optional<Window> read_window(const Expr &operand, AtomTable &table) {
  const Op op = operand.op();
  if (op != Op::Eq && op != Op::Lt && op != Op::Le && op != Op::Gt && op != Op::Ge) return std::nullopt;
  if (operand.arg(0).dtype() != DType::Index) return std::nullopt;
  Window window;
  Int constant = 0;
  if (!read_linear_terms(operand.arg(0), 1, table, window.form, constant) ||
      !read_linear_terms(operand.arg(1), -1, table, window.form, constant) || window.form.coefficients.empty())
    return std::nullopt;
  if (constant >= kLimit || constant <= -kLimit) return std::nullopt;
  for (const auto &term : window.form.coefficients)
    if (term.second >= kLimit || term.second <= -kLimit) return std::nullopt;
  // P + constant op 0, i.e. P op v.
  Int v = -constant;
  Op relation = op;
  if (window.form.coefficients.begin()->second < 0) {
    for (auto &term : window.form.coefficients) term.second = -term.second;
    v = -v;
    relation = mirrored_comparison(op);
  }
  switch (relation) {
    case Op::Eq:
      window.lo = window.hi = v;
      break;
    case Op::Lt:
      window.hi = v - 1;
      break;
    case Op::Le:
      window.hi = v;
      break;
    case Op::Gt:
      window.lo = v + 1;
      break;
    default:  // Ge
      window.lo = v;
      break;
  }
  return window;
}

std::string key_of(const LinearTerms &form) {
  std::string key;
  for (const auto &[atom, coefficient] : form.coefficients) key += to_string(coefficient) + "*(" + atom.text() + ")+";
  return key;
}

Expr index_constant(Int v) { return Expr::constant(Value::integer(DType::Index, v)); }

// sum of coefficient * atom + constant, as an INDEX expression.
Expr build_sum(const LinearTerms &form, Int constant) {
  std::optional<Expr> sum;
  for (const auto &[key, coefficient] : form.coefficients) {
    const Expr &atom = key.expr();
    Expr term = coefficient == 1 ? atom : Expr::make(Op::Mul, DType::Index, {atom, index_constant(coefficient)});
    sum = sum ? Expr::make(Op::Add, DType::Index, {*sum, term}) : term;
  }
  if (!sum) return index_constant(constant);
  if (constant != 0) sum = Expr::make(Op::Add, DType::Index, {*sum, index_constant(constant)});
  return *sum;
}

Expr compare(Op op, const Expr &a, const Expr &b) { return Expr::make(op, DType::Bool, {a, b}); }

// The windows of one form, intersected over the operands that state them.
struct Group {
  LinearTerms form;
  std::optional<Int> lo, hi;
  std::vector<std::size_t> operands;
};

// The single atom of a one-term form with coefficient 1, or nullptr.
const Expr *single_atom(const Group &group) {
  if (group.form.coefficients.size() != 1 || group.form.coefficients.begin()->second != 1) return nullptr;
  return &group.form.coefficients.begin()->first.expr();
}

bool is_floor_by_positive_constant(const Expr &atom, Op op) {
  return atom.op() == op && atom.dtype() == DType::Index && atom.arg(1).is_const() && atom.arg(1).value().i >= 1 &&
         atom.arg(1).value().i < kLimit;
}

// `N // c == k` with the remainder groups of N % c: the range of N, or nothing.
std::optional<Expr> combine_quotient(const Group &quotient, const Group &remainder) {
  const Expr &q = *single_atom(quotient);
  const Expr &r = *single_atom(remainder);
  const Expr &n = q.arg(0);
  const Int c = q.arg(1).value().i;
  const Int k = *quotient.lo;
  const Int lo = std::max<Int>(remainder.lo.value_or(0), 0);
  const Int hi = std::min<Int>(remainder.hi.value_or(c - 1), c - 1);
  (void)r;
  if (lo > hi) return Expr::constant(Value::boolean(false));
  if (lo == hi) return compare(Op::Eq, n, index_constant(c * k + lo));
  return Expr::make(Op::And, DType::Bool,
                    {compare(Op::Le, index_constant(c * k + lo), n), compare(Op::Le, n, index_constant(c * k + hi))});
}

// A window [k, k + c - 1] of N - c*t: `t == (N - k) // c`, or nothing.
std::optional<Expr> combine_window(const Group &group) {
  if (group.operands.size() < 2 || !group.lo || !group.hi) return std::nullopt;
  const Int width = *group.hi - *group.lo + 1;
  if (width < 2) return std::nullopt;
  for (int sign : {-1, 1}) {
    for (const auto &[t, coefficient] : group.form.coefficients) {
      if (coefficient != sign * width) continue;
      // With sign 1 the form is read negated: -P in [-hi, -lo] holds -P = N - c*t.
      LinearTerms numerator;
      for (const auto &[other, c] : group.form.coefficients) {
        if (other == t) continue;
        numerator.coefficients.emplace(other, sign < 0 ? c : -c);
        numerator.atoms.insert(other);
      }
      const Int k = sign < 0 ? *group.lo : -*group.hi;
      const Expr quotient = Expr::make(Op::FloorDiv, DType::Index, {build_sum(numerator, -k), index_constant(width)});
      return compare(Op::Eq, t.expr(), quotient);
    }
  }
  return std::nullopt;
}

void flatten(const Expr &expr, std::vector<Expr> &operands) {
  if (expr.op() == Op::And) {
    flatten(expr.arg(0), operands);
    flatten(expr.arg(1), operands);
  } else {
    operands.push_back(expr);
  }
}

Expr combine_chain(const std::vector<Expr> &operands) {
  AtomTable table;  // the atoms of the windows: outlives the groups, which point into it
  std::map<std::string, Group> groups;
  std::vector<std::string> order;  // keys in the order of their first operand
  for (std::size_t i = 0; i < operands.size(); ++i) {
    std::optional<Window> window = read_window(operands[i], table);
    if (!window) continue;
    const std::string key = key_of(window->form);
    auto [slot, inserted] = groups.try_emplace(key);
    Group &group = slot->second;
    if (inserted) {
      group.form = window->form;
      order.push_back(key);
    }
    if (window->lo && (!group.lo || *window->lo > *group.lo)) group.lo = window->lo;
    if (window->hi && (!group.hi || *window->hi < *group.hi)) group.hi = window->hi;
    group.operands.push_back(i);
  }
  // Replacements: the first operand of a combination becomes the combined
  // condition, the others are dropped.
  std::map<std::size_t, Expr> replaced;
  std::vector<bool> dropped(operands.size(), false);
  auto use = [&](std::vector<std::size_t> indices, const Expr &combined) {
    std::sort(indices.begin(), indices.end());
    for (std::size_t index : indices)
      if (dropped[index] || replaced.contains(index)) return;
    replaced.emplace(indices.front(), combined);
    for (std::size_t j = 1; j < indices.size(); ++j) dropped[indices[j]] = true;
  };
  for (const std::string &key : order) {
    const Group &quotient = groups.at(key);
    const Expr *q = single_atom(quotient);
    if (!q || !is_floor_by_positive_constant(*q, Op::FloorDiv) || !quotient.lo || quotient.lo != quotient.hi) continue;
    if (*quotient.lo >= kLimit || *quotient.lo <= -kLimit) continue;
    const Expr r = Expr::make(Op::FloorMod, DType::Index, {q->arg(0), q->arg(1)});
    auto remainder = groups.find(key_of(LinearTerms{{{table.intern(r), 1}}, {}}));
    if (remainder == groups.end()) continue;
    std::vector<std::size_t> indices = quotient.operands;
    indices.insert(indices.end(), remainder->second.operands.begin(), remainder->second.operands.end());
    if (std::optional<Expr> combined = combine_quotient(quotient, remainder->second)) use(indices, *combined);
  }
  for (const std::string &key : order) {
    const Group &group = groups.at(key);
    if (std::optional<Expr> combined = combine_window(group)) use(group.operands, *combined);
  }
  if (replaced.empty()) return Expr();
  std::optional<Expr> chain;
  for (std::size_t i = 0; i < operands.size(); ++i) {
    if (dropped[i]) continue;
    auto replacement = replaced.find(i);
    const Expr &operand = replacement != replaced.end() ? replacement->second : operands[i];
    chain = chain ? Expr::make(Op::And, DType::Bool, {*chain, operand}) : operand;
  }
  return *chain;
}

Expr combine(const Expr &expr) {
  if (expr.op() == Op::Const || expr.op() == Op::Var) return expr;
  if (expr.op() == Op::And) {
    std::vector<Expr> operands;
    flatten(expr, operands);
    bool changed = false;
    for (Expr &operand : operands) {
      Expr combined = combine(operand);
      changed = changed || combined != operand;
      operand = std::move(combined);
    }
    Expr chain = combine_chain(operands);
    if (chain.valid()) return chain;
    if (!changed) return expr;
    Expr rebuilt = operands[0];
    for (std::size_t i = 1; i < operands.size(); ++i)
      rebuilt = Expr::make(Op::And, DType::Bool, {rebuilt, operands[i]});
    return rebuilt;
  }
  return map_args(expr, [](const Expr &arg) { return combine(arg); });
}

}  // namespace

Expr combine_divmod_conjunctions(const Expr &expr) { return combine(expr); }

}  // namespace eqsat
