// The e-graph: e-classes of equal terms, hash-consed, with deferred rebuild.
//
// Classes are 32-bit ids over a union-find. `add` hash-conses a node (an equal node
// already present returns its class). `merge` only records that two classes are equal;
// `rebuild` then restores the two invariants once, the way egg does:
//   congruence  - two nodes with the same op, payload and (canonical) children are in
//                 the same class;
//   hash-consing - the memo maps every node of every class, in canonical form, to its
//                 class.
// and re-runs the analyses (egraph/analysis.h) upward from the classes that changed.
// Every class has one dtype; merging classes of different dtypes is a bug (asserted).
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "egraph/analysis.h"
#include "egraph/class_id.h"
#include "egraph/enode.h"
#include "egraph/explain.h"
#include "egraph/union_find.h"
#include "ir/expr.h"

namespace eqsat {

struct EClass {
  ClassId id;
  std::vector<ENode> nodes;                        // canonical and sorted after rebuild
  std::vector<std::pair<ENode, ClassId>> parents;  // nodes that use this class
  ClassData data;
};

class EGraph {
 public:
  EGraph() = default;

  // --- Explanations (egraph/explain.h): off unless enabled, before anything is added.
  // With them on, `add` returns an id per exact term (see explain.h); classes, finds
  // and results are the same as without.
  void enable_explanations();
  Explainer* explainer() { return explain_.get(); }
  const Explainer* explainer() const { return explain_.get(); }

  // --- Built-in commutativity. ---
  // On by default: the children of a commutative operation (is_commutative in ir/op.h)
  // are kept in class-id order, so `a + b` and `b + a` are one node, and patterns match
  // such nodes in both operand orders (egraph/pattern.h); no commutativity rule is
  // needed. Off, every operand order is a node of its own and commutativity must be
  // written as rules, as other engines (egg) do: the standard workloads
  // (../shared/spec/egraph-workloads.md) count nodes that way. Set only while empty.
  void set_builtin_commutativity(bool on);
  bool builtin_commutativity() const { return builtin_commutativity_; }
  // Whether nodes of `op` on `dtype` keep their two operands sorted.
  bool sorts_operands(Op op, DType dtype) const { return builtin_commutativity_ && is_commutative(op, dtype); }

  // --- Leaves: variable names and constants are interned; nodes refer to them. ---
  uint32_t intern_symbol(std::string_view name);
  const std::string& symbol_name(uint32_t symbol) const { return symbols_[symbol]; }
  uint32_t intern_constant(const Value& value);
  const Value& constant_value(uint32_t index) const { return constants_[index]; }

  // --- Building. ---
  ClassId add(ENode node);
  ClassId add_expr(const Expr& expr);
  ClassId add_constant(const Value& value);
  ClassId add_var(std::string_view name, DType dtype);
  // The class of an existing node, if present (the node is canonicalized first).
  std::optional<ClassId> lookup(ENode node) const;

  // --- Facts. ---
  // Bounds of a variable; applies to the variable's class now and to a later add_var.
  void set_var_interval(std::string_view name, const Interval& interval);
  // Narrows a class's interval with a fact known about it.
  void refine_interval(ClassId id, const Interval& interval);
  // Narrows a class's congruence with a fact known about it (INDEX classes only;
  // ignored for other dtypes).
  void refine_congruence(ClassId id, const Congruence& congruence);

  // --- Equality. ---
  // Records that `a` and `b` are equal, for `reason` (kept when explanations are on);
  // returns false if they already were.
  bool merge(ClassId a, ClassId b, Reason reason = Reason::given());
  // Restores congruence, hash-consing and the analyses after merges.
  void rebuild();
  bool needs_rebuild() const { return !pending_.empty() || !analysis_pending_.empty(); }

  // --- Reading. ---
  ClassId find(ClassId id) const { return union_find_.find(id); }
  const EClass& eclass(ClassId id) const { return classes_[find(id).value]; }
  const ClassData& data(ClassId id) const { return eclass(id).data; }
  // Canonical class ids in increasing order (a deterministic iteration order).
  std::vector<ClassId> class_ids() const;
  std::size_t num_classes() const { return num_classes_; }
  std::size_t num_nodes() const { return memo_.size(); }
  // Times two classes with different constants were merged (contradictory facts).
  std::size_t contradictions() const { return contradictions_; }

  // Checks congruence, hash-cons canonicity, parent lists and per-class dtype after a
  // rebuild. Returns an empty string when all hold, else a description of the first
  // violation. Expensive: for tests and debug builds.
  std::string check_invariants() const;

  // Removes everything, keeping allocated storage for the next case.
  void clear();

 private:
  ENode canonicalize(ENode node) const;
  bool merge_classes(ClassId a, ClassId b);
  ClassData make_data(const ENode& node) const;
  // Adds a constant node to a class whose analysis found its value (egg's `modify`).
  void materialize_constant(ClassId id);
  // Joins `refined` (the class's data with a fact added) into the class.
  void refine(ClassId id, ClassData refined);
  void repair_classes();

  UnionFind union_find_;
  std::vector<EClass> classes_;  // indexed by id; only canonical ones are live
  std::size_t num_classes_ = 0;
  std::unordered_map<ENode, ClassId, ENodeHash> memo_;
  std::vector<std::pair<ENode, ClassId>> pending_;           // parents to re-canonicalize
  std::vector<std::pair<ENode, ClassId>> analysis_pending_;  // parents to re-analyse
  std::vector<ClassId> to_materialize_;

  std::vector<std::string> symbols_;
  std::unordered_map<std::string, uint32_t> symbol_index_;
  std::vector<Value> constants_;
  std::unordered_map<std::size_t, std::vector<uint32_t>> constant_index_;  // by hash
  std::unordered_map<uint32_t, Interval> var_intervals_;                   // by symbol
  std::size_t contradictions_ = 0;
  std::unique_ptr<Explainer> explain_;

  bool builtin_commutativity_ = true;
};

}  // namespace eqsat
