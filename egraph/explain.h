// Explanations: why two terms of an e-graph are equal, as a chain of rule applications
// (egg's explanations, src/explain.rs, in our own terms).
//
// When explanations are on (EGraph::enable_explanations, before anything is added),
// every id the e-graph hands out stands for one exact term: its node as it was added,
// children being the exact ids the caller passed (operand order kept, not
// canonicalized). Adding a term whose canonical form exists but whose exact form is new
// gives a fresh id joined to the existing class (the e-graph's classes, sizes and
// results are unchanged: the extra ids are never class representatives).
//
// Every merge records an edge between the two exact terms merged, with its reason:
//   rule        a rewrite: the left side's instance (as matched) and the right side's;
//   analysis    the constant analysis found the class's value (folding, or facts about
//               intervals that leave one value);
//   given       an equality from the facts (--assume, --bound and what assert_facts
//               derives from them), shown as "fact";
//   congruence  two terms with the same operation and equal operands.
// The edges form a spanning forest of each class (the proof forest). Congruence edges
// are found lazily, when a proof is asked for: terms whose canonical forms agree and
// whose operands are already connected are joined, until nothing changes; so the
// recording during saturation costs one vector entry per id and one per merge.
//
// A proof between two terms follows the forest path between them; a congruence edge
// becomes the proofs of its operands, at their positions. The result is flat: every
// step rewrites one subterm of the whole term and names its reason.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "egraph/class_id.h"
#include "egraph/enode.h"
#include "egraph/union_find.h"
#include "ir/expr.h"

namespace eqsat {

class EGraph;

struct Reason {
  enum class Kind : uint8_t { Given, Rule, Analysis, Congruence };
  Kind kind = Kind::Given;
  std::string_view rule;  // Kind::Rule: the rule's name (copied when recorded)

  static Reason given() { return Reason{Kind::Given, {}}; }
  static Reason analysis() { return Reason{Kind::Analysis, {}}; }
  static Reason congruence() { return Reason{Kind::Congruence, {}}; }
  static Reason rewrite(std::string_view name) { return Reason{Kind::Rule, name}; }
};

// One step of a flat proof: the whole term after rewriting the subterm at `path`.
struct ProofStep {
  // A rule's name; or "analysis" (the value of the class is known), "fact" (from the
  // facts given),
  // "commute" (operands of a commutative operation swapped: the e-graph stores them in
  // one order, so no rule is needed).
  std::string reason;
  bool is_rule = false;
  bool forward = true;    // a rule applied left to right (false: right to left)
  std::vector<int> path;  // operand indices from the root to the rewritten subterm
  Expr before;            // the subterm before the step
  Expr after;             // the subterm after the step
  Expr term;              // the whole term after the step
};

struct Proof {
  Expr start;  // the first term
  std::vector<ProofStep> steps;
  bool truncated = false;  // stopped at the step limit
};

class Explainer {
 public:
  // --- Recording (called by EGraph). ---
  // The id just handed out and its exact node; `id` is the next id in order.
  void add_term(ClassId id, const ENode& exact);
  // The id of an exact node already recorded, if any.
  std::optional<ClassId> find_exact(const ENode& exact) const;
  // `a` (a rule's left side, or a class folded to a constant) was merged with `b`.
  void record(ClassId a, ClassId b, Reason reason);

  // --- Reading. ---
  std::size_t num_terms() const { return nodes_.size(); }
  const ENode& exact_node(ClassId id) const { return nodes_[id.value]; }
  Expr term(const EGraph& egraph, ClassId id) const;
  // A chain from the term of `from` to the term of `to` (they must be in one class).
  // Stops after `max_steps` steps (truncated).
  Proof prove(const EGraph& egraph, ClassId from, ClassId to, std::size_t max_steps = 10000);
  // Whether every two terms of one e-class are connected by the forest (after the
  // congruence edges are found). For tests.
  bool forest_matches(const EGraph& egraph);

 private:
  struct Link {
    ClassId parent;  // invalid: a root
    Reason::Kind kind = Reason::Kind::Given;
    uint32_t rule = 0;    // index into rule_names_
    bool forward = true;  // the recorded direction runs from this term to its parent
  };
  struct Edge {
    ClassId from, to;
    Reason::Kind kind;
    uint32_t rule;
    bool forward;
  };

  void link(ClassId a, ClassId b, Reason::Kind kind, uint32_t rule);
  void reroot(ClassId id);
  std::vector<Edge> path(ClassId from, ClassId to) const;
  void add_congruences(const EGraph& egraph);
  void prove_into(const EGraph& egraph, ClassId from, ClassId to, std::vector<int>& at, Expr& whole, Proof& proof,
                  std::size_t max_steps);
  void step(const EGraph& egraph, Proof& proof, Expr& whole, const std::vector<int>& at, Expr after, std::string reason,
            bool is_rule, bool forward);

  std::vector<ENode> nodes_;  // exact nodes by id
  std::vector<Link> links_;
  std::unordered_map<ENode, ClassId, ENodeHash> exact_ids_;
  std::vector<std::string> rule_names_;
  std::unordered_map<std::string, uint32_t> rule_index_;
  UnionFind connected_;  // which terms the forest connects
};

}  // namespace eqsat
