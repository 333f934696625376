#include "egraph/pattern.h"

#include <algorithm>
#include <cassert>
#include <optional>

#include "egraph/match_program.h"

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
      node.constant = static_cast<uint32_t>(out.constants.size());
      out.constants.push_back(expr.value());
      break;
    default:
      node.kind = PatternNode::Kind::Op;
      node.op = expr.op();
      for (const Expr& arg : expr.args()) node.children.push_back(add_pattern_node(arg, vars, out));
      break;
  }
  out.nodes.push_back(node);
  return static_cast<uint32_t>(out.nodes.size() - 1);
}

}  // namespace

Pattern Pattern::from_expr(const Expr& expr, const std::vector<PatternVar>& vars) {
  Pattern pattern;
  // Sized once: the catalogue's patterns are made by the thousand at start-up, and
  // the copies a growing vector leaves behind are memory it touches for nothing.
  // (Not the constants: a pattern has none to two.)
  pattern.nodes.reserve(expr.tree_size());
  pattern.root = add_pattern_node(expr, vars, pattern);
  return pattern;
}

void collect_matches(const EGraph& egraph, const Pattern& pattern, const std::vector<PatternVar>& vars, ClassId id,
                     std::vector<Subst>& found, std::vector<uint32_t>* newest) {
  found.clear();
  if (newest) newest->clear();
  thread_local std::vector<ClassId> ids;
  ids.clear();
  const MatchProgram program(pattern, vars);
  const std::size_t count = program.run(egraph, id, MatchProgram::kListAll, ids, newest).listed;
  const std::size_t width = vars.size();
  for (std::size_t m = 0; m < count; ++m) found.emplace_back(ids.begin() + m * width, ids.begin() + (m + 1) * width);
}

void match_pattern(const EGraph& egraph, const Pattern& pattern, const std::vector<PatternVar>& vars, ClassId id,
                   const std::function<void(const Subst&)>& on_match) {
  std::vector<Subst> found;
  collect_matches(egraph, pattern, vars, id, found);
  for (const Subst& s : found) on_match(s);
}

namespace {

// Adds the instance of a pattern node whose children's classes are in `built`.
ClassId add_instance_node(EGraph& egraph, const Pattern& pattern, const PatternNode& pnode,
                          std::span<const ClassId> subst, const ClassId* built) {
  switch (pnode.kind) {
    case PatternNode::Kind::Var:
      assert(subst[pnode.var].valid() && "right-hand side uses an unbound variable");
      return subst[pnode.var];
    case PatternNode::Kind::Const:
      return egraph.add_constant(pattern.value_of(pnode));
    case PatternNode::Kind::Op:
      break;
  }
  return egraph.add(operation_node(pnode, built));
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
    if (i != pattern.root) built[i] = add_instance_node(egraph, pattern, pattern.nodes[i], subst, built);
  }
  return body(built);
}

}  // namespace

ClassId instantiate(EGraph& egraph, const Pattern& pattern, std::span<const ClassId> subst) {
  return with_instance(egraph, pattern, subst, [&](const ClassId* built) {
    return add_instance_node(egraph, pattern, pattern.root_node(), subst, built);
  });
}

bool instantiate_into(EGraph& egraph, const Pattern& pattern, std::span<const ClassId> subst, ClassId target,
                      Reason reason) {
  return with_instance(egraph, pattern, subst, [&](const ClassId* built) {
    const PatternNode& root = pattern.root_node();
    if (root.kind == PatternNode::Kind::Op) return egraph.add_to(target, operation_node(root, built), reason);
    return egraph.merge(target, add_instance_node(egraph, pattern, root, subst, built), reason);
  });
}

ENode root_instance(const Pattern& pattern, std::span<const ClassId> operands) {
  ENode node;
  set_root_instance(node, pattern, operands);
  return node;
}

void set_root_instance(ENode& node, const Pattern& pattern, std::span<const ClassId> operands) {
  const PatternNode& root = pattern.root_node();
  assert(root.kind == PatternNode::Kind::Op && operands.size() >= root.children.size());
  assert(node.children.empty() && "set_root_instance writes a default node");
  node.op = root.op;
  node.dtype = root.dtype;
  for (std::size_t k = 0; k < root.children.size(); ++k) node.children.push_back(operands[k]);
}

namespace {

// Patterns are small: the classes of their nodes fit on the stack.
constexpr std::size_t kLookupNodes = 32;

}  // namespace

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
        found = egraph.lookup_constant(pattern.value_of(pnode));
        break;
      case PatternNode::Kind::Op:
        if (i == pattern.root) {
          // The root need not be looked up: after a rebuild, a class's list holds its
          // nodes in canonical form, sorted, and the target's is in cache (the matches
          // come by class).
          const ENode node = egraph.probe_key(operation_node(pnode, built));
          const ClassList<ENode>& nodes = egraph.eclass(target).nodes;
          return std::binary_search(nodes.begin(), nodes.end(), node);
        }
        if (const ClassId recorded = egraph.probe(operation_node(pnode, built)); recorded.valid()) {
          found = egraph.find(recorded);
        }
        break;
    }
    if (!found) return false;
    built[i] = *found;
  }
  return built[pattern.root] == egraph.find(target);
}

void prefetch_instance(const EGraph& egraph, const Pattern& pattern, std::span<const ClassId> subst) {
  for (const PatternNode& pnode : pattern.nodes) {
    if (pnode.kind != PatternNode::Kind::Op) continue;
    ENode node;
    node.op = pnode.op;
    node.dtype = pnode.dtype;
    bool over_variables = true;
    for (uint32_t child : pnode.children) {
      const PatternNode& operand = pattern.nodes[child];
      over_variables = over_variables && operand.kind == PatternNode::Kind::Var;
      if (!over_variables) break;
      node.children.push_back(subst[operand.var]);
    }
    if (over_variables) egraph.prefetch_canonical(node);
  }
}

}  // namespace eqsat
