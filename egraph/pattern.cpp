#include "egraph/pattern.h"

#include <algorithm>
#include <cassert>
#include <optional>

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

namespace {

// Patterns are small: the classes of their nodes fit on the stack.
constexpr std::size_t kLookupNodes = 32;

}  // namespace

unsigned operation_height(const Pattern& pattern) {
  boost::container::small_vector<unsigned, kLookupNodes> heights(pattern.nodes.size(), 0);
  for (std::size_t i = 0; i < pattern.nodes.size(); ++i) {
    for (uint32_t child : pattern.nodes[i].children) heights[i] = std::max(heights[i], heights[child] + 1);
  }
  return pattern.nodes.empty() ? 0 : heights[pattern.root];
}

bool instance_in_class(const EGraph& egraph, const Pattern& pattern, std::span<const ClassId> subst, ClassId target) {
  if (pattern.nodes.size() > kLookupNodes) return false;  // no harm: it is applied
  ClassId built[kLookupNodes];
  for (std::size_t i = 0; i < pattern.nodes.size(); ++i) {
    const PatternNode& pnode = pattern.nodes[i];
    std::optional<ClassId> found;
    switch (pnode.kind) {
      case PatternNode::Kind::Var:
        assert(egraph.find(subst[pnode.var]) == subst[pnode.var] && "a search gives canonical classes");
        found = subst[pnode.var];
        break;
      case PatternNode::Kind::Const:
        found = egraph.lookup_constant(pnode.value);
        break;
      case PatternNode::Kind::Op:
        if (i == pattern.root) {
          // The root need not be looked up: after a rebuild, a class's list holds its
          // nodes in canonical form, sorted, and the target's is in cache (the matches
          // come by class).
          ENode node = node_of(pnode, built);
          if (egraph.sorts_operands(node.op, node.dtype) && node.children[1] < node.children[0]) {
            std::swap(node.children[0], node.children[1]);
          }
          const std::vector<ENode>& nodes = egraph.eclass(target).nodes;
          return std::binary_search(nodes.begin(), nodes.end(), node);
        }
        found = egraph.probe(node_of(pnode, built));
        if (found) found = egraph.find(*found);
        break;
    }
    if (!found) return false;
    built[i] = *found;
  }
  return built[pattern.root] == egraph.find(target);
}

void prefetch_instance(const EGraph& egraph, const Pattern& pattern, std::span<const ClassId> subst, unsigned stage) {
  if (pattern.nodes.size() > kLookupNodes || stage == 0) return;
  // Stage 2h - 1 fetches the slots of the nodes of height h, stage 2h the union-find
  // entries of the classes found there; the nodes below are looked up.
  const unsigned height = (stage + 1) / 2;
  const bool slots = stage % 2 == 1;
  ClassId built[kLookupNodes];
  // Heights of the nodes; kUnknown where a node's class is not known (not looked up,
  // not present, or a constant, whose lookup is not worth it here).
  constexpr unsigned kUnknown = 0xFF;
  uint8_t heights[kLookupNodes];
  for (std::size_t i = 0; i < pattern.nodes.size(); ++i) {
    const PatternNode& pnode = pattern.nodes[i];
    heights[i] = kUnknown;
    if (pnode.kind == PatternNode::Kind::Var) {
      built[i] = subst[pnode.var];
      heights[i] = 0;
    }
    if (pnode.kind != PatternNode::Kind::Op) continue;
    unsigned below = 0;
    for (uint32_t child : pnode.children) below = std::max<unsigned>(below, heights[child]);
    if (below == kUnknown || below + 1 > height) continue;
    const ENode node = node_of(pnode, built);
    if (below + 1 == height) {
      if (slots) {
        egraph.prefetch_canonical(node);
      } else if (std::optional<ClassId> recorded = egraph.probe(node)) {
        egraph.prefetch_find(*recorded);
      }
    } else if (std::optional<ClassId> recorded = egraph.probe(node)) {
      built[i] = egraph.find(*recorded);
      heights[i] = static_cast<uint8_t>(below + 1);
    }
  }
}

}  // namespace eqsat
