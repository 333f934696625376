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
    if (eclass.data.dtype != pnode.dtype) return;
    switch (pnode.kind) {
      case PatternNode::Kind::Var: {
        ClassId& slot = subst[pnode.var];
        if (slot.valid()) {
          if (egraph_.find(slot) == eclass.id) next();
          return;
        }
        if (vars_[pnode.var].const_only && !eclass.data.constant) return;
        slot = eclass.id;
        next();
        slot = ClassId();
        return;
      }
      case PatternNode::Kind::Const:
        if (eclass.data.constant && *eclass.data.constant == pnode.value) next();
        return;
      case PatternNode::Kind::Op:
        for (const ENode& node : eclass.nodes) {
          if (node.op != pnode.op || node.dtype != pnode.dtype) continue;
          match_children(pnode, node, 0, false, subst, next);
          if (egraph_.sorts_operands(node.op, node.dtype) && node.children[0] != node.children[1]) {
            match_children(pnode, node, 0, true, subst, next);
          }
        }
        return;
    }
  }

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
};

}  // namespace

Pattern Pattern::from_expr(const Expr& expr, const std::vector<PatternVar>& vars) {
  Pattern pattern;
  pattern.root = add_pattern_node(expr, vars, pattern);
  return pattern;
}

void collect_matches(const EGraph& egraph, const Pattern& pattern, const std::vector<PatternVar>& vars, ClassId id,
                     std::vector<Subst>& found) {
  found.clear();
  Subst subst(vars.size(), ClassId());
  auto record = [&] { found.push_back(subst); };
  Matcher(egraph, pattern, vars).match(pattern.root, egraph.find(id), subst, record);
  // Symmetric patterns can match one way twice (both orders of a commutative node).
  if (found.size() > 1) {
    // Every substitution has one id per variable: compare them as plain arrays.
    const std::size_t width = vars.size();
    std::sort(found.begin(), found.end(), [width](const Subst& a, const Subst& b) {
      for (std::size_t i = 0; i < width; ++i) {
        if (a[i] != b[i]) return a[i] < b[i];
      }
      return false;
    });
    found.erase(std::unique(found.begin(), found.end()), found.end());
  }
}

void match_pattern(const EGraph& egraph, const Pattern& pattern, const std::vector<PatternVar>& vars, ClassId id,
                   const std::function<void(const Subst&)>& on_match) {
  std::vector<Subst> found;
  collect_matches(egraph, pattern, vars, id, found);
  for (const Subst& s : found) on_match(s);
}

ClassId instantiate(EGraph& egraph, const Pattern& pattern, std::span<const ClassId> subst) {
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
    const PatternNode& pnode = pattern.nodes[i];
    switch (pnode.kind) {
      case PatternNode::Kind::Var:
        built[i] = subst[pnode.var];
        assert(built[i].valid() && "right-hand side uses an unbound variable");
        break;
      case PatternNode::Kind::Const:
        built[i] = egraph.add_constant(pnode.value);
        break;
      case PatternNode::Kind::Op: {
        ENode node;
        node.op = pnode.op;
        node.dtype = pnode.dtype;
        for (uint32_t child : pnode.children) node.children.push_back(built[child]);
        built[i] = egraph.add(std::move(node));
        break;
      }
    }
  }
  return built[pattern.root];
}

}  // namespace eqsat
