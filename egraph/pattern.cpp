#include "egraph/pattern.h"

#include <algorithm>
#include <cassert>

namespace eqsat {

namespace {

uint32_t add_pattern_node(const Expr& expr, const std::vector<PatternVar>& vars, Pattern& out) {
  PatternNode node;
  node.dtype = expr.dtype();
  switch (expr.op()) {
    case Op::Var: {
      node.kind = PatternNode::Kind::Var;
      auto it = std::find_if(vars.begin(), vars.end(), [&](const PatternVar& v) { return v.name == expr.name(); });
      assert(it != vars.end() && "pattern variable missing from the variable list");
      node.var = static_cast<uint32_t>(it - vars.begin());
      break;
    }
    case Op::Const:
      node.kind = PatternNode::Kind::Const;
      node.value = expr.value();
      break;
    default:
      node.kind = PatternNode::Kind::Op;
      node.op = expr.op();
      for (const Expr& arg : expr.args()) node.children.push_back(add_pattern_node(arg, vars, out));
      break;
  }
  out.nodes.push_back(std::move(node));
  return static_cast<uint32_t>(out.nodes.size() - 1);
}

// The e-node of an operation of a pattern, whose children's classes are in `built`.
ENode node_of(const PatternNode& pnode, const ClassId* built) {
  ENode node;
  node.op = pnode.op;
  node.dtype = pnode.dtype;
  for (uint32_t child : pnode.children) node.children.push_back(built[child]);
  return node;
}

// A non-owning reference to a callable taking no arguments: the matcher's continuation.
// (A template parameter would instantiate a new matcher for every nesting depth.)
class Continuation {
 public:
  template <class F>
  Continuation(const F& f)  // NOLINT: implicit on purpose, like std::function_ref
      : object_(&f), call_([](const void* o) { (*static_cast<const F*>(o))(); }) {}
  void operator()() const { call_(object_); }

 private:
  const void* object_;
  void (*call_)(const void*);
};

// Backtracking matcher in continuation-passing style: `match` tries to match pattern
// node `p` against class `id`, extending `subst`, and calls `next` for each success.
class Matcher {
 public:
  Matcher(const EGraph& egraph, const Pattern& pattern, const std::vector<PatternVar>& vars)
      : egraph_(egraph), pattern_(pattern), vars_(vars) {}

  void match(uint32_t p, ClassId id, Subst& subst, Continuation next) const {
    const PatternNode& pnode = pattern_.nodes[p];
    const EClass& eclass = egraph_.eclass(id);
    if (eclass.dtype != pnode.dtype) return;
    switch (pnode.kind) {
      case PatternNode::Kind::Var: {
        ClassId& slot = subst[pnode.var];
        if (slot.valid()) {
          if (egraph_.find(slot) == eclass.id) next();
          return;
        }
        if (vars_[pnode.var].const_only && !eclass.known_constant) return;
        slot = eclass.id;
        // A constant-only variable reads the class's facts.
        const uint32_t outer = newest_;
        if (vars_[pnode.var].const_only) newest_ = std::max(newest_, eclass.changed_at);
        next();
        newest_ = outer;
        slot = ClassId();
        return;
      }
      case PatternNode::Kind::Const:
        if (const std::optional<Value>& constant = egraph_.data(eclass).constant;
            constant && *constant == pnode.value) {
          const uint32_t outer = newest_;
          newest_ = std::max(newest_, eclass.changed_at);
          next();
          newest_ = outer;
        }
        return;
      case PatternNode::Kind::Op: {
        const uint32_t outer = newest_;
        for (const ENode& node : eclass.nodes) {
          if (node.op != pnode.op || node.dtype != pnode.dtype) continue;
          newest_ = std::max<uint32_t>(outer, node.added_at);
          match_children(pnode, node, 0, false, subst, next);
          if (egraph_.sorts_operands(node.op, node.dtype) && node.children[0] != node.children[1]) {
            match_children(pnode, node, 0, true, subst, next);
          }
        }
        newest_ = outer;
        return;
      }
    }
  }

  // The newest change epoch among the nodes and facts the match in progress has read.
  uint32_t newest() const { return newest_; }

 private:
  void match_children(const PatternNode& pnode, const ENode& node, std::size_t i, bool swapped, Subst& subst,
                      Continuation next) const {
    if (i == pnode.children.size()) {
      next();
      return;
    }
    std::size_t child = (swapped && i < 2) ? 1 - i : i;
    auto rest = [&] { match_children(pnode, node, i + 1, swapped, subst, next); };
    match(pnode.children[i], node.children[child], subst, rest);
  }

  const EGraph& egraph_;
  const Pattern& pattern_;
  const std::vector<PatternVar>& vars_;
  mutable uint32_t newest_ = 0;
};

}  // namespace

Pattern Pattern::from_expr(const Expr& expr, const std::vector<PatternVar>& vars) {
  Pattern pattern;
  pattern.root = add_pattern_node(expr, vars, pattern);
  return pattern;
}

void collect_matches(const EGraph& egraph, const Pattern& pattern, const std::vector<PatternVar>& vars, ClassId id,
                     std::vector<Subst>& found, std::vector<uint32_t>* newest) {
  found.clear();
  if (newest) newest->clear();
  const std::size_t width = vars.size();
  Subst subst(width, ClassId());
  Matcher matcher(egraph, pattern, vars);
  auto record = [&] {
    found.push_back(subst);
    if (newest) newest->push_back(matcher.newest());
  };
  matcher.match(pattern.root, egraph.find(id), subst, record);
  // Every substitution has one id per variable: compare them as plain arrays.
  auto less = [width](const Subst& a, const Subst& b) {
    for (std::size_t i = 0; i < width; ++i) {
      if (a[i] != b[i]) return a[i] < b[i];
    }
    return false;
  };
  // The matcher goes through nodes in their sorted order, so the matches often come
  // out increasing already. Otherwise sort them, and drop a match found twice (both
  // orders of a commutative node of a symmetric pattern), keeping the older way: that
  // is the one an earlier search found.
  bool increasing = true;
  for (std::size_t i = 1; i < found.size() && increasing; ++i) increasing = less(found[i - 1], found[i]);
  if (increasing) return;
  thread_local std::vector<uint32_t> order;
  thread_local std::vector<Subst> sorted;
  thread_local std::vector<uint32_t> sorted_newest;
  order.resize(found.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<uint32_t>(i);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return less(found[a], found[b]); });
  sorted.clear();
  sorted_newest.clear();
  for (uint32_t i : order) {
    if (!sorted.empty() && !less(sorted.back(), found[i])) {
      if (newest) sorted_newest.back() = std::min(sorted_newest.back(), (*newest)[i]);
      continue;
    }
    sorted.push_back(found[i]);
    if (newest) sorted_newest.push_back((*newest)[i]);
  }
  found.swap(sorted);
  if (newest) newest->swap(sorted_newest);
}

void match_pattern(const EGraph& egraph, const Pattern& pattern, const std::vector<PatternVar>& vars, ClassId id,
                   const std::function<void(const Subst&)>& on_match) {
  std::vector<Subst> found;
  collect_matches(egraph, pattern, vars, id, found);
  for (const Subst& s : found) on_match(s);
}

namespace {

// Adds the instance of a pattern node whose children's classes are in `built`.
ClassId add_instance_node(EGraph& egraph, const PatternNode& pnode, std::span<const ClassId> subst,
                          const ClassId* built) {
  switch (pnode.kind) {
    case PatternNode::Kind::Var:
      assert(subst[pnode.var].valid() && "right-hand side uses an unbound variable");
      return subst[pnode.var];
    case PatternNode::Kind::Const:
      return egraph.add_constant(pnode.value);
    case PatternNode::Kind::Op:
      break;
  }
  return egraph.add(node_of(pnode, built));
}

// The instance of every node but the root, into `built` (by pattern node).
template <class Body>
auto with_instance(EGraph& egraph, const Pattern& pattern, std::span<const ClassId> subst, Body body) {
  // Patterns are small: the classes built for their nodes fit on the stack.
  constexpr std::size_t kOnStack = 32;
  ClassId on_stack[kOnStack];
  std::vector<ClassId> on_heap;
  ClassId* built = on_stack;
  if (pattern.nodes.size() > kOnStack) {
    on_heap.resize(pattern.nodes.size());
    built = on_heap.data();
  }
  for (std::size_t i = 0; i < pattern.nodes.size(); ++i) {
    if (i != pattern.root) built[i] = add_instance_node(egraph, pattern.nodes[i], subst, built);
  }
  return body(built);
}

}  // namespace

ClassId instantiate(EGraph& egraph, const Pattern& pattern, std::span<const ClassId> subst) {
  return with_instance(egraph, pattern, subst, [&](const ClassId* built) {
    return add_instance_node(egraph, pattern.root_node(), subst, built);
  });
}

bool instantiate_into(EGraph& egraph, const Pattern& pattern, std::span<const ClassId> subst, ClassId target,
                      Reason reason) {
  return with_instance(egraph, pattern, subst, [&](const ClassId* built) {
    const PatternNode& root = pattern.root_node();
    if (root.kind == PatternNode::Kind::Op) return egraph.add_to(target, node_of(root, built), reason);
    return egraph.merge(target, add_instance_node(egraph, root, subst, built), reason);
  });
}

void prefetch_instance(const EGraph& egraph, const Pattern& pattern, std::span<const ClassId> subst) {
  for (const PatternNode& pnode : pattern.nodes) {
    if (pnode.kind != PatternNode::Kind::Op) continue;
    ENode node;
    node.op = pnode.op;
    node.dtype = pnode.dtype;
    bool known = true;
    for (uint32_t child : pnode.children) {
      const PatternNode& c = pattern.nodes[child];
      known = known && c.kind == PatternNode::Kind::Var;
      if (known) node.children.push_back(subst[c.var]);
    }
    if (known) egraph.prefetch(node);
  }
}

}  // namespace eqsat
