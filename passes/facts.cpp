#include "passes/facts.h"

#include <algorithm>

namespace eqsat {

VarTyper Facts::var_typer() const {
  return index_by_default([this](std::string_view name) -> std::optional<DType> {
    auto it = var_dtypes.find(std::string(name));
    if (it == var_dtypes.end()) return std::nullopt;
    return it->second;
  });
}

namespace {

// An assumed comparison between two integer classes, normalized so that it holds.
struct Atom {
  Op op;  // Eq Ne Lt Le Gt Ge
  ClassId left;
  ClassId right;
};

ClassId add_comparison(EGraph& egraph, Op op, ClassId left, ClassId right) {
  ENode node;
  node.op = op;
  node.dtype = DType::Bool;
  node.children = {left, right};
  return egraph.add(std::move(node));
}

// Splits a fact into the literals that hold when it does: `holds` says whether `fact`
// itself is known true or known false. Every literal's class is merged with True or
// False, and integer comparisons are collected (negated ones flipped) in `atoms`.
class FactCollector {
 public:
  FactCollector(EGraph& egraph, ClassId true_class, ClassId false_class, std::vector<Atom>& atoms)
      : egraph_(egraph), true_(true_class), false_(false_class), atoms_(atoms) {}

  void collect(const Expr& fact, bool holds) {
    ClassId id = egraph_.add_expr(fact);
    egraph_.merge(id, holds ? true_ : false_);
    switch (fact.op()) {
      case Op::Not:
        collect(fact.arg(0), !holds);
        return;
      case Op::And:  // p and q: both hold
        if (holds) {
          collect(fact.arg(0), true);
          collect(fact.arg(1), true);
        }
        return;
      case Op::Or:  // not (p or q): neither holds
        if (!holds) {
          collect(fact.arg(0), false);
          collect(fact.arg(1), false);
        }
        return;
      default:
        break;
    }
    if (!is_comparison(fact.op())) return;
    const Expr& left = fact.arg(0);
    const Expr& right = fact.arg(1);
    if (!is_integer(left.dtype()) || left.dtype() != right.dtype()) return;  // never floats
    ClassId left_class = egraph_.add_expr(left);
    ClassId right_class = egraph_.add_expr(right);
    Op op = holds ? fact.op() : negated_comparison(fact.op());
    if (!holds) egraph_.merge(add_comparison(egraph_, op, left_class, right_class), true_);
    atoms_.push_back({op, left_class, right_class});
  }

 private:
  EGraph& egraph_;
  ClassId true_;
  ClassId false_;
  std::vector<Atom>& atoms_;
};

// What is known between two classes: nothing, a <= b, or a < b.
enum class Order : uint8_t { None = 0, Le = 1, Lt = 2 };

Order compose(Order a, Order b) {
  if (a == Order::None || b == Order::None) return Order::None;
  return (a == Order::Lt || b == Order::Lt) ? Order::Lt : Order::Le;
}

// The transitive closure of the assumed orders between the classes that appear in
// facts (Floyd–Warshall over at most kMaxOrderClasses classes; facts are few).
constexpr std::size_t kMaxOrderClasses = 48;

class OrderGraph {
 public:
  explicit OrderGraph(const EGraph& egraph) : egraph_(egraph) {}

  // Builds the graph from the atoms; false when there are too many classes for it.
  bool build(const std::vector<Atom>& atoms) {
    std::vector<std::pair<std::size_t, std::size_t>> unequal;
    for (const Atom& atom : atoms) {
      if (!index_of(atom.left) || !index_of(atom.right)) return false;
    }
    order_.assign(classes_.size() * classes_.size(), Order::None);
    for (const Atom& atom : atoms) {
      std::size_t a = *index_of(atom.left), b = *index_of(atom.right);
      switch (atom.op) {
        case Op::Lt:
          add(a, b, Order::Lt);
          break;
        case Op::Le:
          add(a, b, Order::Le);
          break;
        case Op::Gt:
          add(b, a, Order::Lt);
          break;
        case Op::Ge:
          add(b, a, Order::Le);
          break;
        case Op::Eq:
          add(a, b, Order::Le);
          add(b, a, Order::Le);
          break;
        case Op::Ne:
          unequal.emplace_back(a, b);
          break;
        default:
          break;
      }
    }
    // a <= b and a != b: a < b (integers).
    for (auto [a, b] : unequal) {
      if (at(a, b) == Order::Le) at(a, b) = Order::Lt;
      if (at(b, a) == Order::Le) at(b, a) = Order::Lt;
    }
    const std::size_t n = classes_.size();
    for (std::size_t k = 0; k < n; ++k) {
      for (std::size_t i = 0; i < n; ++i) {
        if (at(i, k) == Order::None) continue;
        for (std::size_t j = 0; j < n; ++j) {
          Order through = compose(at(i, k), at(k, j));
          if (through > at(i, j)) at(i, j) = through;
        }
      }
    }
    return true;
  }

  std::size_t size() const { return classes_.size(); }
  ClassId class_at(std::size_t i) const { return classes_[i]; }
  Order order(std::size_t a, std::size_t b) const { return order_[a * classes_.size() + b]; }

 private:
  std::optional<std::size_t> index_of(ClassId id) {
    id = egraph_.find(id);
    for (std::size_t i = 0; i < classes_.size(); ++i) {
      if (classes_[i] == id) return i;
    }
    if (classes_.size() >= kMaxOrderClasses) return std::nullopt;
    classes_.push_back(id);
    return classes_.size() - 1;
  }
  Order& at(std::size_t a, std::size_t b) { return order_[a * classes_.size() + b]; }
  void add(std::size_t a, std::size_t b, Order o) {
    if (a != b && o > at(a, b)) at(a, b) = o;  // a < a only under contradictory facts
  }

  const EGraph& egraph_;
  std::vector<ClassId> classes_;
  std::vector<Order> order_;
};

// Asserts every comparison a derived order decides, in both operand orders, so that
// the input's comparisons extract as True or False without any rule. Pairs with a
// constant side are left to the intervals, which decide them.
void assert_orders(EGraph& egraph, const OrderGraph& graph, ClassId true_class, ClassId false_class) {
  std::vector<std::pair<ClassId, ClassId>> equal;
  for (std::size_t i = 0; i < graph.size(); ++i) {
    for (std::size_t j = 0; j < graph.size(); ++j) {
      const Order o = graph.order(i, j);
      if (i == j || o == Order::None) continue;
      ClassId a = egraph.find(graph.class_at(i)), b = egraph.find(graph.class_at(j));
      if (a == b || egraph.data(a).constant || egraph.data(b).constant) continue;
      auto holds = [&](Op op, ClassId l, ClassId r, bool value) {
        egraph.merge(add_comparison(egraph, op, l, r), value ? true_class : false_class);
      };
      const bool strict = o == Order::Lt;
      holds(Op::Le, a, b, true);  // a <= b, b >= a, not (a > b), not (b < a)
      holds(Op::Ge, b, a, true);
      holds(Op::Gt, a, b, false);
      holds(Op::Lt, b, a, false);
      if (strict) {  // a < b, b > a, a != b, not (a >= b), not (b <= a), not (a == b)
        holds(Op::Lt, a, b, true);
        holds(Op::Gt, b, a, true);
        holds(Op::Ne, a, b, true);
        holds(Op::Ge, a, b, false);
        holds(Op::Le, b, a, false);
        holds(Op::Eq, a, b, false);
      } else if (graph.order(j, i) == Order::Le && i < j) {
        equal.emplace_back(a, b);  // a <= b and b <= a
      }
    }
  }
  for (auto [a, b] : equal) egraph.merge(a, b);
}

// The interval `e op c` gives e, for an integer constant c; nullopt if none.
std::optional<Interval> interval_from_comparison(Op op, Int c, const Interval& current) {
  switch (op) {
    case Op::Lt:
      return Interval::range(std::nullopt, c - 1);
    case Op::Le:
      return Interval::range(std::nullopt, c);
    case Op::Gt:
      return Interval::range(c + 1, std::nullopt);
    case Op::Ge:
      return Interval::range(c, std::nullopt);
    case Op::Eq:
      return Interval::point(c);
    case Op::Ne:
      // Only excluding an edge value narrows an interval.
      if (current.lo && *current.lo == c) return Interval::range(c + 1, current.hi);
      if (current.hi && *current.hi == c) return Interval::range(current.lo, c - 1);
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

// Narrows `id` with `interval`; says whether anything changed.
bool narrow(EGraph& egraph, ClassId id, const Interval& interval) {
  const Interval& current = egraph.data(id).interval;
  Interval tighter = current.intersect(interval);
  if (tighter == current) return false;
  egraph.refine_interval(id, tighter);
  return true;
}

// One round of interval narrowing from the atoms (a comparison with a constant bounds
// the other side) and from the closure (a < b: upper(a) <= upper(b) - 1 and
// lower(b) >= lower(a) + 1). Says whether any interval changed.
bool narrow_intervals(EGraph& egraph, const std::vector<Atom>& atoms, const OrderGraph* graph) {
  bool changed = false;
  for (const Atom& atom : atoms) {
    ClassId left = egraph.find(atom.left), right = egraph.find(atom.right);
    if (auto c = egraph.data(right).constant) {
      if (auto interval = interval_from_comparison(atom.op, c->i, egraph.data(left).interval)) {
        changed |= narrow(egraph, left, *interval);
      }
    } else if (auto c2 = egraph.data(left).constant) {
      if (auto interval = interval_from_comparison(mirrored_comparison(atom.op), c2->i, egraph.data(right).interval)) {
        changed |= narrow(egraph, right, *interval);
      }
    }
  }
  if (graph == nullptr) return changed;
  for (std::size_t i = 0; i < graph->size(); ++i) {
    for (std::size_t j = 0; j < graph->size(); ++j) {
      const Order o = graph->order(i, j);
      if (i == j || o == Order::None) continue;
      const Int gap = o == Order::Lt ? 1 : 0;
      ClassId a = egraph.find(graph->class_at(i)), b = egraph.find(graph->class_at(j));
      if (a == b) continue;
      // Copies: narrowing one class may move the other's storage.
      const Interval ia = egraph.data(a).interval, ib = egraph.data(b).interval;
      if (ib.hi) changed |= narrow(egraph, a, Interval::range(std::nullopt, *ib.hi - gap));
      if (ia.lo) changed |= narrow(egraph, b, Interval::range(*ia.lo + gap, std::nullopt));
    }
  }
  return changed;
}

// `e % c == r` (c, r constants, INDEX, r a possible remainder of c): every value of e
// is k*|c| + r. Looks at every `%` node of the atom's classes.
void seed_congruences(EGraph& egraph, const std::vector<Atom>& atoms) {
  std::vector<std::pair<ClassId, Congruence>> found;
  for (const Atom& atom : atoms) {
    if (atom.op != Op::Eq) continue;
    for (auto [mod_side, value_side] : {std::pair{atom.left, atom.right}, std::pair{atom.right, atom.left}}) {
      const auto& r = egraph.data(value_side).constant;
      if (!r || r->dtype != DType::Index) continue;
      for (const ENode& node : egraph.eclass(mod_side).nodes) {
        if (node.op != Op::FloorMod || node.dtype != DType::Index) continue;
        const auto& c = egraph.data(node.children[1]).constant;
        if (!c || c->i == 0) continue;
        const bool possible = c->i > 0 ? (0 <= r->i && r->i < c->i) : (c->i < r->i && r->i <= 0);
        if (possible) found.emplace_back(node.children[0], Congruence::of(c->i, r->i));
      }
    }
  }
  for (const auto& [id, congruence] : found) egraph.refine_congruence(id, congruence);
}

// Bounds the rounds of interval narrowing along chains (each round moves a bound at
// least one step along a chain; contradictory strict cycles would go on forever).
constexpr int kMaxNarrowingRounds = 16;

}  // namespace

void assert_facts(EGraph& egraph, const Facts& facts) {
  for (const auto& [name, interval] : facts.bounds) egraph.set_var_interval(name, interval);
  // Without assumptions there is nothing to collect, merge or order: the classes of
  // true and false are not made for them (most cases of a batch).
  if (facts.assumptions.empty()) {
    egraph.rebuild();  // (nothing to do unless a bound refined a class already there)
    return;
  }
  ClassId true_class = egraph.add_constant(Value::boolean(true));
  ClassId false_class = egraph.add_constant(Value::boolean(false));
  std::vector<Atom> atoms;
  FactCollector collector(egraph, true_class, false_class, atoms);
  for (const Expr& fact : facts.assumptions) collector.collect(fact, true);
  // Integers assumed equal are one class.
  for (const Atom& atom : atoms) {
    if (atom.op == Op::Eq) egraph.merge(atom.left, atom.right);
  }
  egraph.rebuild();
  if (atoms.empty()) return;
  seed_congruences(egraph, atoms);
  egraph.rebuild();

  OrderGraph graph(egraph);
  const bool ordered = graph.build(atoms);
  if (ordered) {
    assert_orders(egraph, graph, true_class, false_class);
    egraph.rebuild();
  }
  for (int round = 0; round < kMaxNarrowingRounds; ++round) {
    const bool changed = narrow_intervals(egraph, atoms, ordered ? &graph : nullptr);
    egraph.rebuild();
    if (!changed) break;
  }
}

}  // namespace eqsat
