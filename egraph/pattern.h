// Patterns: terms with variables, matched against the e-graph (e-matching).
//
// A pattern is a small tree stored in a flat vector. Its variables are shared with the
// right side and the guard of a rewrite, so they are numbered: a match (`Subst`) gives
// the class each variable stands for. A variable marked `const_only` matches only a
// class whose constant analysis knows its value (written `c`, `c0`, `c1`, ... in rules).
// Commutative operations are matched in both operand orders, because the e-graph
// stores them in one canonical order only (unless its built-in commutativity is off:
// then each order is a node of its own and is matched as it stands).
#pragma once

#include <boost/container/small_vector.hpp>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "egraph/egraph.h"

namespace eqsat {

struct PatternVar {
  std::string name;
  DType dtype = DType::Index;
  bool const_only = false;
};

// A node of a pattern: 24 bytes, with its operands inline (an operation has at most
// three) and its constant, if any, in the pattern's list of constants. The built-in
// catalogue holds some 16,000 of them, and every fresh page of memory the start-up
// touches costs a page fault (docs/performance.md, "Start-up").
struct PatternNode {
  enum class Kind : uint8_t { Var, Const, Op };
  [[no_unique_address]] InlineChildren<uint32_t> children;  // Kind::Op: indices into Pattern::nodes
  Kind kind = Kind::Op;
  Op op = Op::Const;           // Kind::Op
  DType dtype = DType::Index;  // result dtype (all kinds)
  uint32_t var = 0;            // Kind::Var: index into the rewrite's variables
  uint32_t constant = 0;       // Kind::Const: index into Pattern::constants
};
static_assert(sizeof(PatternNode) == 24, "the catalogue holds thousands of pattern nodes: keep them small");

struct Pattern {
  std::vector<PatternNode> nodes;  // children come before their parents
  std::vector<Value> constants;    // the values of the Kind::Const nodes
  uint32_t root = 0;

  const PatternNode& root_node() const { return nodes[root]; }
  DType dtype() const { return nodes[root].dtype; }
  // The value of a Kind::Const node of this pattern.
  const Value& value_of(const PatternNode& node) const { return constants[node.constant]; }
  // Builds a pattern from an expression whose variables are looked up in `vars` by name
  // (a name not in `vars` is a program error in the caller).
  static Pattern from_expr(const Expr& expr, const std::vector<PatternVar>& vars);
};

// A match: the class bound to each pattern variable (invalid ClassId if unbound).
using Subst = boost::container::small_vector<ClassId, 4>;

// Calls `on_match` for every distinct way `pattern` matches class `id` of a rebuilt
// e-graph.
void match_pattern(const EGraph& egraph, const Pattern& pattern, const std::vector<PatternVar>& vars, ClassId id,
                   const std::function<void(const Subst&)>& on_match);

// Replaces the contents of `found` with every distinct way `pattern` matches class
// `id` of a rebuilt e-graph, in increasing order (the order `match_pattern` reports
// them in). With `newest`, it also gives for each match the newest change epoch
// (egraph/egraph.h) among what the match read: the nodes it went through (the root's
// `formed_at`, the others' `added_at`) and the classes whose facts it checked (a
// constant, a constant-only variable). Compiles the pattern for the one call: the runner's search keeps a
// compiled program per rewrite (egraph/match_program.h) and writes matches into flat
// lists instead.
void collect_matches(const EGraph& egraph, const Pattern& pattern, const std::vector<PatternVar>& vars, ClassId id,
                     std::vector<Subst>& found, std::vector<uint32_t>* newest = nullptr);

// Adds the instance of `pattern` under `subst` (the class of each variable) to the
// e-graph and returns its class.
ClassId instantiate(EGraph& egraph, const Pattern& pattern, std::span<const ClassId> subst);
inline ClassId instantiate(EGraph& egraph, const Pattern& pattern, const Subst& subst) {
  return instantiate(egraph, pattern, std::span<const ClassId>(subst.data(), subst.size()));
}

// Adds the instance of `pattern` under `subst` to the class `target`, for `reason`;
// returns whether that made a change. The same as merging `target` with
// instantiate(...), without a fresh class for a new root node (EGraph::add_to).
bool instantiate_into(EGraph& egraph, const Pattern& pattern, std::span<const ClassId> subst, ClassId target,
                      Reason reason);

// The root node of an instance of `pattern`, an operation, whose operands are the
// classes `operands` (one per operand of the root); set_root_instance writes it into
// `node`, a default ENode, where it is kept (a node returned, built a field at a time,
// and then copied into a list waits for its stores to drain).
ENode root_instance(const Pattern& pattern, std::span<const ClassId> operands);
void set_root_instance(ENode& node, const Pattern& pattern, std::span<const ClassId> operands);

// Whether the instance of `pattern` under `subst` is in the e-graph already, every node
// of it, with its root in the class of `target`. Then instantiate_into would change
// nothing that a rebuild does not undo: the runner skips such matches. For a rebuilt
// e-graph and a substitution of canonical classes (as a search gives). Reads only, so
// several threads may ask at once while the e-graph is not being changed.
bool instance_in_class(const EGraph& egraph, const Pattern& pattern, std::span<const ClassId> subst, ClassId target);

// Starts fetching the hash-cons slots of the nodes of the instance of `pattern` under
// `subst` (canonical classes) whose operands are all variables: those an instantiate
// of it looks up first, and the only ones known before anything is looked up. The
// apply calls it a few matches ahead, so that the memory accesses of several matches
// overlap.
void prefetch_instance(const EGraph& egraph, const Pattern& pattern, std::span<const ClassId> subst);

// The e-node of operation `pnode` of a pattern, its operands the classes of its
// children in `classes` (one per node of the pattern, by index). Inline: the apply
// builds one per new node of a right side.
// set_operation_node writes it into `node`, a default ENode, where it is kept.
inline void set_operation_node(ENode& node, const PatternNode& pnode, const ClassId* classes) {
  node.op = pnode.op;
  node.dtype = pnode.dtype;
  for (uint32_t child : pnode.children) node.children.push_back(classes[child]);
}
inline ENode operation_node(const PatternNode& pnode, const ClassId* classes) {
  ENode node;
  set_operation_node(node, pnode, classes);
  return node;
}

}  // namespace eqsat
