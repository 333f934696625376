#include "passes/minmax_form.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ir/map_args.h"
#include "ir/pool_allocator.h"
#include "ir/print.h"
#include "passes/linear_form.h"

namespace eqsat {

namespace {

// Thrown when a coefficient leaves the 128-bit range: the input is then kept.
struct Overflow {};

Int checked_add(Int a, Int b) {
  Int out;
  if (__builtin_add_overflow(a, b, &out)) throw Overflow{};
  return out;
}

Int checked_mul(Int a, Int b) {
  Int out;
  if (__builtin_mul_overflow(a, b, &out)) throw Overflow{};
  return out;
}

Int gcd(Int a, Int b) {
  if (a < 0) a = -a;
  if (b < 0) b = -b;
  while (b != 0) a = std::exchange(b, a % b);
  return a;
}

bool is_ring_op(Op op) { return op == Op::Add || op == Op::Sub || op == Op::Mul || op == Op::Neg; }

bool is_index_minmax(const Expr &expr) {
  return expr.dtype() == DType::Index && (expr.op() == Op::Min || expr.op() == Op::Max);
}

// The pass's maps and tables take their entries from the thread's free lists
// (ir/pool_allocator.h): sums are built and dropped at every node.
template <class K, class V>
using Map = std::map<K, V, std::less<K>, PoolAllocator<std::pair<const K, V>>>;
template <class V>
using ByNode = std::unordered_map<const void *, V, std::hash<const void *>, std::equal_to<const void *>,
                                  PoolAllocator<std::pair<const void *const, V>>>;

// An atom's printed text, by pointer into the pass's table of printed atoms
// (MinMaxOffsets::printed_, whose entries stay put): copying a key copies no
// string. Keys order by the text, as the strings did (one text printed from two
// nodes is one key), so every order below is the text order.
struct TextKey {
  const std::string *text;
  friend bool operator<(TextKey a, TextKey b) { return a.text != b.text && *a.text < *b.text; }
};

// A sum of atoms with integer coefficients plus a constant, INDEX.
struct Linear {
  Map<TextKey, std::pair<Expr, Int>> terms;  // printed atom -> (atom, coefficient != 0)
  Int constant = 0;

  Int coefficient(TextKey text) const {
    auto it = terms.find(text);
    return it == terms.end() ? 0 : it->second.second;
  }

  void add_term(TextKey text, const Expr &atom, Int coefficient) {
    auto [it, inserted] = terms.try_emplace(text, atom, 0);
    it->second.second = checked_add(it->second.second, coefficient);
    if (it->second.second == 0) terms.erase(it);
  }

  void add(const Linear &other, Int scale) {
    for (const auto &[text, term] : other.terms) add_term(text, term.first, checked_mul(term.second, scale));
    constant = checked_add(constant, checked_mul(other.constant, scale));
  }

  // The terms without the constant, as text: which operand is written first.
  std::string shape() const {
    std::string out;
    for (const auto &[text, term] : terms) {
      out += to_string(term.second);  // as print writes an INDEX constant
      out += '*';
      out += *text.text;
      out += ';';
    }
    return out;
  }
};

Expr index_const(Int v) { return Expr::constant(Value::integer(DType::Index, v)); }

// The sum written naively; the linear normal form orders it afterwards.
Expr write(const Linear &linear) {
  Expr out;
  for (const auto &[text, term] : linear.terms) {
    Expr product =
        term.second == 1 ? term.first : Expr::make(Op::Mul, DType::Index, {term.first, index_const(term.second)});
    out = out.valid() ? Expr::make(Op::Add, DType::Index, {out, product}) : product;
  }
  if (!out.valid()) return index_const(linear.constant);
  if (linear.constant != 0) out = Expr::make(Op::Add, DType::Index, {out, index_const(linear.constant)});
  return out;
}

class MinMaxOffsets {
 public:
  explicit MinMaxOffsets(MinMaxConstants constants) : constants_(constants) {}

  bool moved_constant() const { return moved_constant_; }

  Expr rewrite(const Expr &expr) {
    if (expr.op() == Op::Var || expr.op() == Op::Const) return expr;
    if (auto it = memo_.find(expr.identity()); it != memo_.end()) return it->second.second;
    Expr out = rewrite_uncached(expr);
    memo_.emplace(expr.identity(), std::make_pair(expr, out));  // keeps expr alive: its address stays unique
    return out;
  }

 private:
  Expr rewrite_uncached(const Expr &expr) {
    if (expr.dtype() == DType::Index && is_ring_op(expr.op())) return rewrite_sum(expr);
    if (is_index_minmax(expr)) {
      std::vector<Linear> operands;
      flatten(expr, expr.op(), Linear{}, operands);
      return minmax(expr.op(), std::move(operands));
    }
    return map_args(expr, [this](const Expr &arg) { return rewrite(arg); });
  }

  // Adds scale * expr to `out`. With `rewrite_atoms`, each atom is first put in
  // normal form, and read through when that made it a sum (`min(..) + k`).
  void read(const Expr &expr, Int scale, Linear &out, bool rewrite_atoms) {
    switch (expr.op()) {
      case Op::Add:
        read(expr.arg(0), scale, out, rewrite_atoms);
        read(expr.arg(1), scale, out, rewrite_atoms);
        return;
      case Op::Sub:
        read(expr.arg(0), scale, out, rewrite_atoms);
        read(expr.arg(1), checked_mul(scale, -1), out, rewrite_atoms);
        return;
      case Op::Neg:
        read(expr.arg(0), checked_mul(scale, -1), out, rewrite_atoms);
        return;
      case Op::Mul:
        for (int k = 0; k < 2; ++k)
          if (expr.arg(k).is_const())
            return read(expr.arg(1 - k), checked_mul(scale, expr.arg(k).value().i), out, rewrite_atoms);
        break;
      case Op::Const:
        out.constant = checked_add(out.constant, checked_mul(scale, expr.value().i));
        return;
      default:
        break;
    }
    Expr atom = expr;
    if (rewrite_atoms) {
      // A product of two sums is an atom whose factors are normalized inside.
      atom = expr.op() == Op::Mul ? with_rewritten_args(expr) : rewrite(expr);
      if (is_ring_op(atom.op()) && expr.op() != Op::Mul) return read(atom, scale, out, false);
    }
    out.add_term(printed(atom), atom, scale);
  }

  // print(atom), remembered by node: a subterm is read again for every sum and
  // chain around it. A variable prints as its name (copied, not printed).
  TextKey printed(const Expr &atom) {
    auto it = printed_.find(atom.identity());
    if (it == printed_.end()) {
      std::string text = atom.op() == Op::Var ? atom.name() : print_memo_.print(atom);
      it = printed_.emplace(atom.identity(), std::make_pair(atom, std::move(text))).first;
    }
    return TextKey{&it->second.second};
  }

  Expr with_rewritten_args(const Expr &expr) {
    return map_args(expr, [this](const Expr &arg) { return rewrite(arg); });
  }

  // The operands of a chain min(min(a, b), ...) (or max), each plus `offset`,
  // read through sums `min(..) + t` of the same operation: min(a, min(b, d) +
  // 1) is min(a, b + 1, d + 1).
  void flatten(const Expr &expr, Op op, const Linear &offset, std::vector<Linear> &operands) {
    if (expr.op() == op) {
      flatten(expr.arg(0), op, offset, operands);
      flatten(expr.arg(1), op, offset, operands);
      return;
    }
    Linear operand;
    read(expr, 1, operand, true);
    for (const auto &[text, term] : operand.terms) {
      if (term.first.op() != op || term.second != 1) continue;
      const Expr atom = term.first;
      Linear inner = operand;  // the terms beside the inner chain: its offset
      inner.add_term(text, atom, -1);
      inner.add(offset, 1);
      flatten(atom, op, inner, operands);
      return;
    }
    operand.add(offset, 1);
    operands.push_back(std::move(operand));
  }

  // min(a, b, ...) (or max) with the operands that another one with the same
  // terms dominates dropped (min(x, x + 1) is x), then the terms common to all
  // operands, and the constant of the operand written first, moved out:
  // min(a - k, b - k, ...) + k.
  Expr minmax(Op op, std::vector<Linear> operands) {
    std::vector<Linear> kept;
    kept.reserve(operands.size());
    // kept[i]'s terms as text, searched in turn: chains are short (a map of the
    // texts allocated a node and a string per operand).
    std::vector<std::string> shapes;
    shapes.reserve(operands.size());
    for (Linear &operand : operands) {
      std::string shape = operand.shape();
      const auto same = std::find(shapes.begin(), shapes.end(), shape);
      if (same == shapes.end()) {
        kept.push_back(std::move(operand));
        shapes.push_back(std::move(shape));
        continue;
      }
      Linear &other = kept[same - shapes.begin()];
      if (op == Op::Min ? operand.constant < other.constant : operand.constant > other.constant)
        other.constant = operand.constant;
    }
    Linear common = kept[0];
    common.constant = 0;
    for (std::size_t i = 1; i < kept.size(); ++i) {
      Linear next;
      for (const auto &[text, term] : common.terms)
        if (kept[i].coefficient(text) == term.second) next.add_term(text, term.first, term.second);
      common = std::move(next);
    }
    // The operand written first: its terms print first, and it is never a
    // constant one (min(y + 1, 4) stays rather than becoming min(y - 3, 0) + 4).
    std::size_t first = 0;
    // Without common terms the operands, and so their shapes, are as they were.
    if (!common.terms.empty()) {
      for (std::size_t i = 0; i < kept.size(); ++i) {
        kept[i].add(common, -1);
        shapes[i] = kept[i].shape();
      }
    }
    for (std::size_t i = 1; i < kept.size(); ++i)
      if (shapes[first].empty() || (!shapes[i].empty() && shapes[i] < shapes[first])) first = i;
    // A factor of every coefficient and constant leaves too, turning min into max
    // when it is negative (the first operand's first coefficient): min(x * -4 + 8,
    // y * -4) is max(x - 2, y) * -4. The constants then stay where they are.
    Int factor = 0;
    for (const Linear &operand : kept) {
      for (const auto &[text, term] : operand.terms) factor = gcd(factor, term.second);
      factor = gcd(factor, operand.constant);
    }
    if (!kept[first].terms.empty() && kept[first].terms.begin()->second.second < 0) factor = -factor;
    if (factor > 1 || factor < -1) {
      Expr chain;
      const Op scaled_op = factor > 0 ? op : (op == Op::Min ? Op::Max : Op::Min);
      for (const Linear &operand : kept) {
        Linear divided;
        for (const auto &[text, term] : operand.terms) divided.add_term(text, term.first, term.second / factor);
        divided.constant = operand.constant / factor;
        Expr written = write(divided);
        chain = chain.valid() ? Expr::make(scaled_op, DType::Index, {chain, written}) : written;
      }
      Expr scaled = Expr::make(Op::Mul, DType::Index, {chain, index_const(factor)});
      if (common.terms.empty()) return scaled;
      return Expr::make(Op::Add, DType::Index, {scaled, write(common)});
    }
    common.constant = constants_ == MinMaxConstants::MoveOut ? kept[first].constant : 0;
    moved_constant_ = moved_constant_ || common.constant != 0;
    for (Linear &operand : kept) operand.constant = checked_add(operand.constant, -common.constant);
    // In a canonical order, so that equal chains are written alike (each
    // operand's shape computed once: the constants changed since, not the terms).
    std::vector<std::pair<std::string, std::size_t>> order;
    order.reserve(kept.size());
    for (std::size_t i = 0; i < kept.size(); ++i) order.emplace_back(std::move(shapes[i]), i);
    // A stable insertion sort: chains are short, and std::stable_sort allocates a buffer.
    auto before = [&](const auto &l, const auto &r) {
      return l.first != r.first ? l.first < r.first : kept[l.second].constant < kept[r.second].constant;
    };
    for (std::size_t i = 1; i < order.size(); ++i) {
      for (std::size_t j = i; j > 0 && before(order[j], order[j - 1]); --j) std::swap(order[j], order[j - 1]);
    }
    std::vector<Linear> sorted;
    sorted.reserve(kept.size());
    for (const auto &[shape, i] : order) sorted.push_back(std::move(kept[i]));
    kept = std::move(sorted);
    Expr chain = write_chain(op, std::move(kept));
    if (common.terms.empty() && common.constant == 0) return chain;
    return Expr::make(Op::Add, DType::Index, {chain, write(common)});
  }

  // sum = sign * (n // c) + rest: the terms t of sign * rest whose multiple
  // c * t cancels a term of n, or of an operand of a min or max of n, move into
  // the numerator (n // c + t = (n + c * t) // c) and on into that min or max:
  // min(x * 12 + y, z) // 4 - x * 3 is min(y, z - x * 12) // 4.
  std::optional<Expr> move_into_quotient(const Linear &sum, TextKey text, const Expr &atom, Int sign) {
    if (atom.op() != Op::FloorDiv || atom.dtype() != DType::Index || !atom.arg(1).is_const() ||
        atom.arg(1).value().i <= 0)
      return std::nullopt;
    const Int divisor = atom.arg(1).value().i;
    Linear numerator;
    read(atom.arg(0), 1, numerator, true);
    std::vector<Linear> targets{numerator};
    for (const auto &[inner_text, inner] : numerator.terms)
      if (is_index_minmax(inner.first) && inner.second == 1) flatten(inner.first, inner.first.op(), Linear{}, targets);
    Linear rest = sum;
    rest.add_term(text, atom, -sign);
    Linear moved;  // c * t
    Linear taken;  // t, as it leaves the sum
    for (const auto &[rest_text, rest_term] : rest.terms) {
      const Int scaled = checked_mul(checked_mul(rest_term.second, sign), divisor);
      for (const Linear &target : targets) {
        const Int in_target = target.coefficient(rest_text);
        if (in_target != 0 && checked_add(in_target, scaled) == 0) {
          moved.add_term(rest_text, rest_term.first, scaled);
          taken.add_term(rest_text, rest_term.first, rest_term.second);
          break;
        }
      }
    }
    if (moved.terms.empty()) return std::nullopt;
    rest.add(taken, -1);
    Expr new_numerator = rewrite(Expr::make(Op::Add, DType::Index, {atom.arg(0), write(moved)}));
    Expr quotient = Expr::make(Op::FloorDiv, DType::Index, {new_numerator, atom.arg(1)});
    if (sign == -1) quotient = Expr::make(Op::Neg, DType::Index, {quotient});
    return Expr::make(Op::Add, DType::Index, {quotient, write(rest)});
  }

  // A chain of three or more operands, those that share a term (the one most
  // share, not all) grouped, so that it leaves them: min(z, y - x, w - x) is
  // min(min(y, w) - x, z).
  Expr write_chain(Op op, std::vector<Linear> operands) {
    Map<std::pair<TextKey, Int>, std::size_t> sharing;
    if (operands.size() >= 3)
      for (const Linear &operand : operands)
        for (const auto &[text, term] : operand.terms) ++sharing[{text, term.second}];
    const std::pair<TextKey, Int> *best = nullptr;
    std::size_t best_count = 1;
    for (const auto &[term, count] : sharing)
      if (count > best_count && count < operands.size()) {
        best = &term;
        best_count = count;
      }
    Expr chain;
    auto append = [&](const Expr &written) {
      chain = chain.valid() ? Expr::make(op, DType::Index, {chain, written}) : written;
    };
    if (best) {
      std::vector<Linear> group, others;
      for (Linear &operand : operands)
        (operand.coefficient(best->first) == best->second ? group : others).push_back(std::move(operand));
      append(minmax(op, std::move(group)));
      for (const Linear &operand : others) append(write(operand));
      return chain;
    }
    for (const Linear &operand : operands) append(write(operand));
    return chain;
  }

  // m1 - m2 for a min (or max) of one shared operand b whose other operands
  // differ by a constant: with d = b - a, min(a + k1, b) - min(a + k2, b) is
  // min(k1, d) - min(k2, d), a clamp of d.
  std::optional<Expr> difference(const Expr &m1, const Expr &m2) {
    if (m1.op() != m2.op()) return std::nullopt;
    Linear first[2], second[2];
    for (int k = 0; k < 2; ++k) {
      read(m1.arg(k), 1, first[k], false);
      read(m2.arg(k), 1, second[k], false);
    }
    for (int i = 0; i < 2; ++i) {
      for (int j = 0; j < 2; ++j) {
        const Linear &b = first[1 - i];
        const Linear &a1 = first[i], &a2 = second[j];
        if (b.shape() != second[1 - j].shape() || b.constant != second[1 - j].constant) continue;
        if (a1.terms.empty() || a1.shape() != a2.shape()) continue;
        const Int k1 = a1.constant, k2 = a2.constant;
        Linear a = a1;
        a.constant = 0;
        Linear d = b;  // b - a
        d.add(a, -1);
        Linear e = a;  // a - b
        e.add(b, -1);
        auto make = [](Op op, const Expr &x, Int c) { return Expr::make(op, DType::Index, {x, index_const(c)}); };
        const Int neg_k1 = checked_mul(k1, -1), neg_k2 = checked_mul(k2, -1);
        if (m1.op() == Op::Min) {
          if (k1 >= k2) return make(Op::Add, make(Op::Max, make(Op::Min, write(d), k1), k2), neg_k2);
          return make(Op::Add, make(Op::Min, make(Op::Max, write(e), neg_k2), neg_k1), k1);
        }
        if (k1 >= k2) return make(Op::Add, make(Op::Min, make(Op::Max, write(e), neg_k1), neg_k2), k1);
        return make(Op::Add, make(Op::Max, make(Op::Min, write(d), k2), k1), neg_k2);
      }
    }
    return std::nullopt;
  }

  // A sum: its atoms in normal form, and the terms that cancel with an operand
  // of one min or max of coefficient 1 or -1 moved into it.
  Expr rewrite_sum(const Expr &expr) {
    Linear sum;
    read(expr, 1, sum, true);
    for (const auto &[text1, term1] : sum.terms) {
      if (!is_index_minmax(term1.first) || term1.second != 1) continue;
      for (const auto &[text2, term2] : sum.terms) {
        if (!is_index_minmax(term2.first) || term2.second != -1) continue;
        std::optional<Expr> clamp = difference(term1.first, term2.first);
        if (!clamp) continue;
        Linear rest = sum;
        rest.add_term(text1, term1.first, -1);
        rest.add_term(text2, term2.first, 1);
        return Expr::make(Op::Add, DType::Index, {*clamp, write(rest)});
      }
    }
    for (const auto &[text, term] : sum.terms) {
      const auto &[atom, sign] = term;
      if (sign != 1 && sign != -1) continue;
      if (std::optional<Expr> moved = move_into_quotient(sum, text, atom, sign)) return *moved;
      if (!is_index_minmax(atom)) continue;
      std::vector<Linear> operands;
      flatten(atom, atom.op(), Linear{}, operands);
      // sum = sign * m + rest = sign * (m + sign * rest)
      Linear rest = sum;
      rest.add_term(text, atom, -sign);
      Linear moved;
      for (const auto &[rest_text, rest_term] : rest.terms) {
        const Int c = checked_mul(rest_term.second, sign);
        for (const Linear &operand : operands) {
          const Int in_operand = operand.coefficient(rest_text);
          if (in_operand != 0 && checked_add(in_operand, c) == 0) {
            moved.add_term(rest_text, rest_term.first, c);
            break;
          }
        }
      }
      if (moved.terms.empty()) continue;
      for (Linear &operand : operands) operand.add(moved, 1);
      rest.add(moved, -sign);
      Expr m = minmax(atom.op(), std::move(operands));
      if (sign == -1) m = Expr::make(Op::Neg, DType::Index, {m});
      return Expr::make(Op::Add, DType::Index, {m, write(rest)});
    }
    return write(sum);
  }

  MinMaxConstants constants_;
  bool moved_constant_ = false;  // whether the constants made a difference (see the header)
  ByNode<std::pair<Expr, Expr>> memo_;
  // Entries stay put (a node-based table): TextKeys point into them.
  ByNode<std::pair<Expr, std::string>> printed_;  // keeps each node alive
  PrintMemo print_memo_;                          // the atoms of a chain hold one another (ir/print.h)
};

bool has_index_minmax(const Expr &expr) {
  if (is_index_minmax(expr)) return true;
  for (const Expr &arg : expr.args())
    if (has_index_minmax(arg)) return true;
  return false;
}

}  // namespace

Expr normalize_minmax_offsets(const Expr &expr, MinMaxConstants constants, bool *moved_constant) {
  if (moved_constant) *moved_constant = false;
  if (!has_index_minmax(expr)) return expr;
  try {
    MinMaxOffsets offsets(constants);
    Expr out = offsets.rewrite(expr);
    if (moved_constant) *moved_constant = offsets.moved_constant();
    if (out == expr) return expr;
    out = normalize_linear(out);
    return out == expr ? expr : out;
  } catch (const Overflow &) {
    // Where the other form overflows is not known: the caller must compute it.
    if (moved_constant) *moved_constant = true;
    return expr;
  }
}

}  // namespace eqsat
