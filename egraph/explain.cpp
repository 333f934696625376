#include "egraph/explain.h"

#include <cassert>
#include <functional>
#include <map>

#include "egraph/egraph.h"

namespace eqsat {

namespace {

Expr replace_at(const Expr& whole, const std::vector<int>& path, std::size_t depth, const Expr& replacement) {
  if (depth == path.size()) return replacement;
  std::vector<Expr> args = whole.args();
  args[path[depth]] = replace_at(args[path[depth]], path, depth + 1, replacement);
  return Expr::make(whole.op(), whole.dtype(), std::move(args));
}

Expr subterm_at(const Expr& whole, const std::vector<int>& path) {
  Expr e = whole;
  for (int i : path) e = e.arg(i);
  return e;
}

}  // namespace

void Explainer::add_term(ClassId id, const ENode& exact) {
  assert(id.value == nodes_.size() && "explanation ids are handed out in order");
  nodes_.push_back(exact);
  links_.emplace_back();
  exact_ids_.emplace(exact, id);
  connected_.make_set();
}

std::optional<ClassId> Explainer::find_exact(const ENode& exact) const {
  auto it = exact_ids_.find(exact);
  if (it == exact_ids_.end()) return std::nullopt;
  return it->second;
}

void Explainer::record(ClassId a, ClassId b, Reason reason) {
  uint32_t rule = 0;
  if (reason.kind == Reason::Kind::Rule) {
    auto [it, inserted] = rule_index_.emplace(std::string(reason.rule), static_cast<uint32_t>(rule_names_.size()));
    if (inserted) rule_names_.emplace_back(reason.rule);
    rule = it->second;
  }
  link(a, b, reason.kind, rule);
}

void Explainer::link(ClassId a, ClassId b, Reason::Kind kind, uint32_t rule) {
  reroot(a);
  links_[a.value] = Link{b, kind, rule, true};
  connected_.link(connected_.find_mut(b), connected_.find_mut(a));
}

// Makes `id` the root of its tree by turning the links on its path to the root around.
void Explainer::reroot(ClassId id) {
  ClassId child;  // invalid: `id` itself gets no parent
  Link carried;   // the link to give the current node (pointing at `child`)
  ClassId current = id;
  while (current.valid()) {
    Link old = links_[current.value];
    links_[current.value] = child.valid() ? carried : Link{};
    carried = Link{current, old.kind, old.rule, !old.forward};
    child = current;
    current = old.parent;
  }
}

std::vector<Explainer::Edge> Explainer::path(ClassId from, ClassId to) const {
  std::map<uint32_t, std::size_t> up_index;
  std::vector<ClassId> up;
  for (ClassId v = from; v.valid(); v = links_[v.value].parent) {
    up_index.emplace(v.value, up.size());
    up.push_back(v);
  }
  std::vector<ClassId> down;  // from `to` up to (not including) the common ancestor
  ClassId meet = to;
  while (!up_index.count(meet.value)) {
    down.push_back(meet);
    meet = links_[meet.value].parent;
    assert(meet.valid() && "proof asked for terms the forest does not connect");
  }
  std::vector<Edge> edges;
  for (std::size_t i = 0; i < up_index.at(meet.value); ++i) {
    const Link& l = links_[up[i].value];
    edges.push_back(Edge{up[i], l.parent, l.kind, l.rule, l.forward});
  }
  for (std::size_t i = down.size(); i-- > 0;) {
    const Link& l = links_[down[i].value];
    edges.push_back(Edge{l.parent, down[i], l.kind, l.rule, !l.forward});
  }
  return edges;
}

Expr Explainer::term(const EGraph& egraph, ClassId id) const {
  // Memoized: a term whose subterms are shared is built once per distinct id.
  std::unordered_map<uint32_t, Expr> memo;
  std::function<Expr(ClassId)> build = [&](ClassId i) -> Expr {
    if (auto it = memo.find(i.value); it != memo.end()) return it->second;
    const ENode& node = nodes_[i.value];
    Expr e;
    switch (node.op) {
      case Op::Var:
        e = Expr::var(egraph.symbol_name(node.payload), node.dtype);
        break;
      case Op::Const:
        e = Expr::constant(egraph.constant_value(node.payload));
        break;
      default: {
        std::vector<Expr> args;
        for (ClassId child : node.children) args.push_back(build(child));
        e = Expr::make(node.op, node.dtype, std::move(args));
      }
    }
    memo.emplace(i.value, e);
    return e;
  };
  return build(id);
}

void Explainer::add_congruences(const EGraph& egraph) {
  auto canonical = [&](ENode node) {
    for (ClassId& child : node.children) child = egraph.find(child);
    if (egraph.sorts_operands(node.op, node.dtype) && node.children[1] < node.children[0]) {
      std::swap(node.children[0], node.children[1]);
    }
    return node;
  };
  auto joined = [&](ClassId a, ClassId b) { return connected_.find(a) == connected_.find(b); };
  for (bool changed = true; changed;) {
    changed = false;
    std::unordered_map<ENode, ClassId, ENodeHash> first;  // a term for each canonical form
    for (uint32_t i = 0; i < nodes_.size(); ++i) {
      const ClassId id(i);
      auto [it, inserted] = first.emplace(canonical(nodes_[i]), id);
      if (inserted || joined(it->second, id)) continue;
      const ENode& a = nodes_[i];
      const ENode& b = nodes_[it->second.value];
      bool straight = true;
      for (std::size_t k = 0; k < a.children.size(); ++k) straight = straight && joined(a.children[k], b.children[k]);
      const bool crossed =
          a.children.size() == 2 && joined(a.children[0], b.children[1]) && joined(a.children[1], b.children[0]);
      if (!straight && !crossed) continue;  // operands not connected yet: a later round
      link(id, it->second, Reason::Kind::Congruence, 0);
      changed = true;
    }
  }
}

bool Explainer::forest_matches(const EGraph& egraph) {
  add_congruences(egraph);
  std::unordered_map<uint32_t, ClassId> seen;  // e-class -> forest component
  for (uint32_t i = 0; i < nodes_.size(); ++i) {
    auto [it, inserted] = seen.emplace(egraph.find(ClassId(i)).value, connected_.find(ClassId(i)));
    if (!inserted && it->second != connected_.find(ClassId(i))) return false;
  }
  // And the converse: one component never spans two e-classes.
  std::unordered_map<uint32_t, uint32_t> component_class;
  for (uint32_t i = 0; i < nodes_.size(); ++i) {
    auto [it, inserted] = component_class.emplace(connected_.find(ClassId(i)).value, egraph.find(ClassId(i)).value);
    if (!inserted && it->second != egraph.find(ClassId(i)).value) return false;
  }
  return true;
}

Proof Explainer::prove(const EGraph& egraph, ClassId from, ClassId to, std::size_t max_steps) {
  add_congruences(egraph);
  Proof proof;
  proof.start = term(egraph, from);
  Expr whole = proof.start;
  std::vector<int> at;
  prove_into(egraph, from, to, at, whole, proof, max_steps);
  return proof;
}

void Explainer::step(const EGraph&, Proof& proof, Expr& whole, const std::vector<int>& at, Expr after,
                     std::string reason, bool is_rule, bool forward) {
  if (proof.truncated) return;
  ProofStep s;
  s.reason = std::move(reason);
  s.is_rule = is_rule;
  s.forward = forward;
  s.path = at;
  s.before = subterm_at(whole, at);
  s.after = after;
  whole = replace_at(whole, at, 0, after);
  s.term = whole;
  proof.steps.push_back(std::move(s));
}

void Explainer::prove_into(const EGraph& egraph, ClassId from, ClassId to, std::vector<int>& at, Expr& whole,
                           Proof& proof, std::size_t max_steps) {
  if (from == to) return;
  for (const Edge& edge : path(from, to)) {
    if (proof.truncated) return;
    if (proof.steps.size() >= max_steps) {
      proof.truncated = true;
      return;
    }
    switch (edge.kind) {
      case Reason::Kind::Congruence: {
        const ENode& a = nodes_[edge.from.value];
        const ENode& b = nodes_[edge.to.value];
        bool straight = true;
        for (std::size_t k = 0; k < a.children.size(); ++k) {
          straight = straight && connected_.find(a.children[k]) == connected_.find(b.children[k]);
        }
        if (straight) {
          for (std::size_t k = 0; k < a.children.size(); ++k) {
            at.push_back(static_cast<int>(k));
            prove_into(egraph, a.children[k], b.children[k], at, whole, proof, max_steps);
            at.pop_back();
          }
        } else {
          // The operands are equal crosswise: swap them (the e-graph's canonical order
          // makes a + b and b + a one node), then prove each.
          const Expr current = subterm_at(whole, at);
          step(egraph, proof, whole, at, Expr::make(current.op(), current.dtype(), {current.arg(1), current.arg(0)}),
               "commute", false, true);
          at.push_back(0);
          prove_into(egraph, a.children[1], b.children[0], at, whole, proof, max_steps);
          at.back() = 1;
          prove_into(egraph, a.children[0], b.children[1], at, whole, proof, max_steps);
          at.pop_back();
        }
        break;
      }
      case Reason::Kind::Rule:
        step(egraph, proof, whole, at, term(egraph, edge.to), rule_names_[edge.rule], true, edge.forward);
        break;
      case Reason::Kind::Analysis:
        step(egraph, proof, whole, at, term(egraph, edge.to), "analysis", false, edge.forward);
        break;
      case Reason::Kind::Given:
        step(egraph, proof, whole, at, term(egraph, edge.to), "fact", false, edge.forward);
        break;
    }
  }
}

}  // namespace eqsat
