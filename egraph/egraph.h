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

#include <array>
#include <boost/container/options.hpp>
#include <boost/container/vector.hpp>
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
#include "egraph/intern_index.h"
#include "egraph/large_arrays.h"
#include "egraph/node_memo.h"
#include "egraph/parent.h"
#include "egraph/part_order.h"
#include "egraph/union_find.h"
#include "ir/expr.h"
#include "ir/fast_math.h"

namespace eqsat {

// A class's list of nodes or parents: a vector whose size and capacity are 32-bit
// (16 bytes where std::vector takes 24), as no class holds 4 billion entries.
template <class T>
using ClassList =
    boost::container::vector<T, void, boost::container::vector_options_t<boost::container::stored_size<uint32_t>>>;

struct EClass {
  ClassId id;
  // The change epoch (EGraph::change_epoch) of the last change a pattern match could
  // see here: a node added or re-canonicalized, a merge into it, its data refined.
  // (Parent lists are not part of it: matching never reads them.) No older than any
  // of its nodes' `added_at`, so no older than their `formed_at` either.
  uint32_t changed_at = 0;
  // The class's analysis data (EGraph::data) lives in a table of its own: most
  // classes know nothing beyond what their dtype implies, and those take no entry
  // (kNoFacts). Full data in every record would make it four times as large, and an
  // e-graph holds tens of thousands of classes made for a rule's new inner nodes.
  static constexpr uint32_t kNoFacts = static_cast<uint32_t>(-1);
  uint32_t facts = kNoFacts;
  DType dtype = DType::Index;
  bool known_constant = false;     // the data's constant is known (read by every search)
  ClassList<ENode> nodes;          // canonical and sorted after rebuild
  ClassList<ParentEntry> parents;  // nodes that use this class
};
static_assert(sizeof(EClass) == 48, "an e-graph holds tens of thousands of class records: keep them small");

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
  // On by default: the children of a commutative operation (commutes_in_every_reading
  // in ir/op.h: not `and`/`or`, whose order guards their second operand) are kept in
  // class-id order, so `a + b` and `b + a` are one node, and patterns match
  // such nodes in both operand orders (egraph/pattern.h); no commutativity rule is
  // needed. Off, every operand order is a node of its own and commutativity must be
  // written as rules, as other engines (egg) do: the standard workloads
  // (../shared/spec/egraph-workloads.md) count nodes that way. Set only while empty.
  void set_builtin_commutativity(bool on);
  bool builtin_commutativity() const { return builtin_commutativity_; }
  // Whether nodes of `op` on `dtype` keep their two operands sorted.
  bool sorts_operands(Op op, DType dtype) const {
    return builtin_commutativity_ && commutes_in_every_reading(op, dtype);
  }

  // --- Fast-math flags (ir/fast_math.h). ---
  // None by default. Under nnan or ninf a float may be poison, and the totality
  // analysis (ClassData::total) must know it: a float variable and float arithmetic are
  // then not total (ir/definedness.h), so `p and f > 0.0` is not turned around. A run
  // granted such flags (run_rewrites) needs an e-graph told them. Set only while
  // empty; clear() keeps them.
  void set_fast_math(FastMath flags);
  FastMath fast_math() const { return fast_math_; }

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
  // Adds `node` to the class of `target`, for `reason`; returns whether that made a
  // change. The same as merge(target, add(node), reason), but a node not yet in the
  // e-graph goes straight into the class instead of into a class of its own that is
  // merged at once (how a rewrite's right side joins its left side): the e-graph is
  // the same, only the ids a fresh class would have taken are not made, so the
  // remaining ids keep their order.
  bool add_to(ClassId target, ENode node, Reason reason = Reason::given());
  // Adds nodes[i] to the class of targets[i] for every i, with the same e-graph after
  // the next rebuild as add_to of each in turn (only the ids chosen as roots may
  // differ), its hash-cons and list work on `threads` threads (in the calling task
  // arena) and the same result for any number. changed[i] (resized to the batch) is
  // whether entry i made a change: its node was new, or it joined two classes.
  // Explanations must be off. For the apply of a large iteration, whose new root
  // nodes come by the ten thousand (egraph/add_batch.cpp).
  void add_all_to(std::span<const ClassId> targets, std::span<const ENode> nodes, std::vector<uint8_t>& changed,
                  unsigned threads);
  // Adds every node of `nodes` as `add` of each in turn would, and gives its class in
  // classes[i] (resized to the batch): a node already present, or equal to an earlier
  // one of the batch, has that one's class; the others get new classes, their ids in
  // the batch's order. Its hash-cons and list work runs on `threads` threads, with the
  // same result for any number. Explanations must be off. For the new inner nodes of
  // a large apply's right sides (egraph/add_batch.cpp).
  void add_all(std::span<const ENode> nodes, std::vector<ClassId>& classes, unsigned threads);
  // Whether the hash-cons is large enough for add_all_to to split its work by parts.
  bool adds_by_parts() const { return memo_.has_parts(); }
  // Starts fetching the hash-cons slot of `node`, for an `add` of it soon after.
  void prefetch(const ENode& node) const { memo_.prefetch(canonicalize(node)); }
  // The same for a node whose children are canonical ids already.
  void prefetch_canonical(ENode node) const { memo_.prefetch(probe_key(node)); }
  // The class of an existing node, if present (the node is canonicalized first).
  // Reads only (no path compression), so threads may look up concurrently while
  // nothing is being changed.
  std::optional<ClassId> lookup(ENode node) const;
  // The class of the constant leaf `value`, if present (interns nothing).
  std::optional<ClassId> lookup_constant(const Value& value) const;
  // Lookup in two steps, for callers whose nodes have canonical operands already
  // (egraph/pattern.h, instance_in_class): `probe` takes a node whose children are
  // canonical ids and returns the class id the hash-cons records for it (invalid if
  // none), which a merge may have made non-canonical since (find gives the class);
  // prefetch_find starts fetching what a find of `id` reads (the apply fetches the
  // classes it will merge a few matches ahead).
  ClassId probe(ENode node) const { return memo_.find(probe_key(node)); }
  void prefetch_find(ClassId id) const { union_find_.prefetch(id); }
  // `probe` in steps, for callers with many lookups to make (egraph/
  // instance_lookup.h, NodeMemo::home_of): `probe_key` puts the operands of a
  // node whose children are canonical ids in the order the hash-cons keeps them,
  // `probe_home_of_operation` gives the slot where its lookup starts (with
  // `probe_slots` slots in all, at least one), `prefetch_probe` starts fetching that
  // slot, and `probe_from` looks the node up from there.
  ENode probe_key(ENode node) const {
    order_operands(node);
    return node;
  }
  // probe_key in place: for a caller that builds the key where it keeps it (a node
  // built field by field and then copied whole waits for its stores to drain).
  // Commutative operations keep their operands in class-id order, so that `a + b` and
  // `b + a` are one node and no commutativity rule is needed (unless turned off).
  // Returns whether it swapped them.
  bool order_operands(ENode& node) const {
    if (sorts_operands(node.op, node.dtype) && node.children[1] < node.children[0]) {
      std::swap(node.children[0], node.children[1]);
      return true;
    }
    return false;
  }
  std::size_t probe_slots() const { return memo_.slots(); }
  // Where the lookup of the operation node with these operands starts, in the order
  // given (already ordered as order_operands would: see sorts_operands), hashed from
  // them where the caller keeps them.
  std::size_t probe_home_of_operation(Op op, DType dtype, const ClassId* children, std::size_t arity) const {
    return memo_.home_of_operation(op, dtype, children, arity);
  }
  void prefetch_probe(std::size_t home) const { memo_.prefetch_home(home); }
  ClassId probe_from(std::size_t home, const ENode& key) const { return memo_.find_from(home, key); }

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
  // Restores congruence, hash-consing and the analyses after merges. With `threads`
  // above 1 the repair of the classes' lists (independent per class) runs on TBB
  // threads, in the calling task arena: the e-graph is the same as with one.
  void rebuild(unsigned threads = 1);
  bool needs_rebuild() const { return !pending_.empty() || !analysis_pending_.empty(); }
  // Congruence rounds the rebuilds made so far (egraph/rebuild_rounds.cpp): only a
  // large rebuild goes by rounds. For tests and reports.
  std::size_t congruence_rounds() const { return congruence_rounds_; }

  // --- Change epochs. ---
  // Every node placed in a class's list (added, moved there by a merge, or changed by
  // re-canonicalization) records the current epoch in its `added_at`; every node given
  // its form (added, or changed by re-canonicalization, but not moved by a merge) in
  // its `formed_at` (egraph/enode.h); and every change of a class's facts or nodes
  // the class's `changed_at`. The runner advances the epoch after each search: a match
  // that reads only facts and nodes no newer than an earlier search (by `formed_at`
  // for its root node, `added_at` for the others) was found by that search
  // (egraph/runner.cpp). The epoch stops at kMaxNodeEpoch (egraph/enode.h); from there
  // on it tells nothing apart.
  uint32_t change_epoch() const { return epoch_; }
  void advance_change_epoch() {
    if (epoch_ < kMaxNodeEpoch) ++epoch_;
  }

  // --- Reading. ---
  ClassId find(ClassId id) const { return union_find_.find(id); }
  const EClass& eclass(ClassId id) const { return class_of(find(id)); }
  const ClassData& data(ClassId id) const { return data(eclass(id)); }
  const ClassData& data(const EClass& eclass) const {
    return eclass.facts == EClass::kNoFacts ? dtype_data(eclass.dtype) : facts_[eclass.facts];
  }
  // The data of a class that knows only what its dtype implies: no constant, the
  // dtype's interval (Interval::of_dtype), no congruence, total (ClassData::total).
  const ClassData& dtype_data(DType dtype) const { return dtype_data_[static_cast<std::size_t>(dtype)]; }
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
  // Inline: the rebuild and the apply canonicalize every node they touch.
  ENode canonicalize(ENode node) const {
    canonicalize_in_place(node);
    return node;
  }
  // canonicalize where the node is kept: whether it changed. (A copy, changed a child
  // at a time and then copied back whole, waits for its stores to drain: that was
  // most of a rebuild's repair of class lists.)
  bool canonicalize_in_place(ENode& node) const {
    bool changed = false;
    for (ClassId& child : node.children) {
      const ClassId root = find(child);
      changed |= root != child;
      child = root;
    }
    return order_operands(node) || changed;
  }
  // canonicalize in place, compressing union-find paths on the way (not for concurrent
  // readers).
  void canonicalize_mut(ENode& node);
  // The number of an interned constant equal to `value` (of hash_value `hash`), if any.
  std::optional<uint32_t> constant_index(const Value& value, std::size_t hash) const;
  // The class of leaf `node` through `classes[slot]` (var_classes_ or
  // constant_classes_), added if it is not there yet.
  ClassId add_leaf(ENode node, std::vector<ClassId>& classes, std::size_t slot);
  bool merge_classes(ClassId a, ClassId b);
  ClassData make_data(const ENode& node) const;
  // Whether `node` is an INDEX sum, difference or product of classes the analyses know
  // nothing of (no constant, unbounded, no congruence): then so is the node, and
  // make_data says so without the transfer functions. Most nodes of a large
  // saturation of unknowns are such nodes.
  bool nothing_known_of_sum_or_product(const ENode& node) const;
  // Adds a constant node to a class whose analysis found its value (egg's `modify`).
  void materialize_constant(ClassId id);
  // A new class holding `node` (canonical, not yet in the hash-cons, its parents not
  // listed), with `data` as its data.
  ClassId new_class(ENode node, const ClassData& data);
  // The phases add_all_to and add_all share (egraph/add_batch.cpp).
  void prepare_batch(std::span<const ENode> nodes, std::size_t first, std::size_t n, unsigned threads);
  void insert_batch(std::span<const ClassId> values, bool values_are_classes, unsigned threads);
  void list_batch(std::span<const ClassId> classes, bool into_classes, unsigned threads);
  // Joins the data of a node just added to canonical class `root` into the class's.
  void join_new_node(ClassId root, const ClassData& incoming);
  // Joins `refined` (the class's data with a fact added) into the class.
  void refine(ClassId id, ClassData refined);
  // Stores `data` as the class's data (in the fact table unless it is dtype_data).
  void set_data(EClass& eclass, const ClassData& data);
  // Frees the class's entry in the fact table, if any.
  void drop_facts(EClass& eclass);
  // Sets the class's kPlainIndex flag from its record (set_data does).
  void mark_plain_index(const EClass& eclass);
  // Congruence for a large rebuild: takes up to kRoundEntries entries off the back of
  // `pending_` and restores congruence for them as one batch, its hash-cons work on
  // `threads` threads (egraph/rebuild_rounds.cpp).
  void congruence_round(unsigned threads);
  // The end of a pending parent's re-canonicalization (the rebuild's loop, or a round):
  // merges class `id`, which holds the node, with the class `found` (invalid if none)
  // that the hash-cons gave for its `canonical` form, else lists the form for the
  // stale-key check, and marks the classes whose lists hold the old form.
  void settle_pending(ClassId id, const ENode& canonical, ClassId found);
  void repair_classes(unsigned threads);
  // Canonicalizes, sorts and deduplicates the node and parent lists of canonical class
  // `id`, and returns its record: reads the union-find (compressed) and writes only that
  // class's record (it may run on a TBB thread; lists are trimmed by the caller, on its
  // own thread).
  const EClass& repair_class(ClassId id);
  // Records that a class's node or parent list changed since the last rebuild, so
  // that the rebuild sorts and deduplicates it (the others are left as they are).
  void mark_dirty(ClassId id);

  UnionFind union_find_;
  // Class records, by slot. Every class id ever made has a union-find entry and a slot
  // number (4 + 4 bytes), but only canonical ids own a record: a merge frees the
  // absorbed one's record for reuse. (Most ids are made for a rule's new node and
  // merged within the same iteration.)
  static constexpr uint32_t kNoSlot = static_cast<uint32_t>(-1);
  const EClass& class_of(ClassId root) const { return slots_[slot_of_[root.value]]; }
  EClass& class_of(ClassId root) { return slots_[slot_of_[root.value]]; }
  uint32_t new_slot(EClass eclass);
  std::vector<uint32_t> slot_of_;  // by class id
  std::vector<EClass, LargeArrayAllocator<EClass, MidSize::Populated>> slots_;
  std::vector<uint32_t> free_slots_;
  // Analysis data of the classes that know more than their dtype (EClass::facts), and
  // that of the others, by dtype (a member, so that reading it is a plain load).
  std::vector<ClassData> facts_;
  static std::array<ClassData, kNumDTypes> make_dtype_data();
  std::array<ClassData, kNumDTypes> dtype_data_ = make_dtype_data();
  std::vector<uint32_t> free_facts_;
  // Class records of an expression cleared away, their lists emptied but their storage
  // kept: the next expression's classes take them (a batch of small cases does not
  // allocate two lists per class anew).
  std::vector<EClass> spare_classes_;
  std::size_t num_classes_ = 0;
  NodeMemo memo_;
  // Parents to re-canonicalize (egraph/large_arrays.h: a large apply's merges queue
  // millions, and the list is grown anew each iteration).
  std::vector<ParentEntry, LargeArrayAllocator<ParentEntry, MidSize::Standard>> pending_;
  std::vector<ParentEntry> analysis_pending_;  // parents to re-analyse
  // How often the running rebuild's analysis changed each class's data, by class id
  // (0 outside a rebuild; `refined_` lists the classes to reset): past
  // kMaxRefinements the changes stay in the class but no longer re-analyse its
  // parents (EGraph::rebuild).
  std::vector<uint8_t> refinements_;
  std::vector<ClassId> refined_;
  static constexpr uint8_t kMaxRefinements = 16;
  std::vector<ClassId> to_materialize_;
  // Classes whose lists the next rebuild must repair (each listed once: kDirty).
  std::vector<ClassId> dirty_;
  // The repair's marks of the dirty classes whose lists it left to trim (repair_classes).
  std::vector<uint8_t> to_trim_;
  // Flags by class id. kDirty: the class is listed in dirty_. kPlainIndex (kept for
  // canonical ids): the class is INDEX and knows only what its dtype implies (it has
  // no fact entry), which nothing_known_of_sum_or_product asks of every operand of a
  // large apply's new nodes: one byte in a dense array, where the class record takes
  // two dependent loads. (One byte for both: there is a class id per new node.)
  static constexpr uint8_t kDirty = 1, kPlainIndex = 2;
  std::vector<uint8_t> class_flags_;
  // Memo keys inserted by a rebuild, which a later merge of the same rebuild may have
  // made non-canonical: checked (and dropped if stale) at its end.
  std::vector<ENode> maybe_stale_;
  // The work lists of a congruence round (egraph/rebuild_rounds.cpp), kept from one
  // round to the next of a rebuild.
  struct RoundLists {
    std::vector<ParentEntry> entries;  // the entries taken off pending_
    std::vector<ENode> forms;          // each entry's canonical form
    std::vector<uint32_t> homes;       // per entry: its recorded form's home (or none), its form's
    PartOrder order;                   // the hash-cons operations (2 per entry) by home
    std::vector<ClassId> found;        // per entry: the class its form was found in, else invalid
  };
  RoundLists round_;
  // The work lists of add_all_to (egraph/add_batch.cpp), kept from one batch to the next.
  struct AddLists {
    std::vector<ENode> forms;                  // each entry's node, canonical
    std::vector<ClassId> roots;                // each entry's target class, canonical
    std::vector<uint8_t> kinds;                // what each entry's node knows (add_batch.cpp, NodeKind)
    std::vector<uint32_t> homes;               // each entry's hash-cons home (PartOrder::kNoHome if added alone)
    PartOrder order;                           // the insertions by home
    std::vector<ClassId> found;                // per entry: the class its node was found in, else invalid
    std::vector<uint8_t> found_at_home;        // per entry of add_all_to: found in its target's class
    std::vector<std::vector<ClassId>> marked;  // per shard: the classes it marked dirty
    std::vector<uint32_t> appends;             // the list appends, by shard (add_batch.cpp, list_batch)
  };
  AddLists add_lists_;
  std::size_t congruence_rounds_ = 0;

  // Interned leaves: names and constants by number, and their indices (which keep
  // their storage from one case to the next: see egraph/intern_index.h).
  std::vector<std::string> symbols_;
  InternIndex symbol_index_;  // by std::hash of the name
  std::vector<Value> constants_;
  InternIndex constant_index_;  // by hash_value
  // The numbers of the kSmallIndexCount INDEX constants from kSmallIndexMin on, plus one
  // (0: not interned yet), by value - kSmallIndexMin: the normal forms add the same
  // small constants again and again (1 and 2 were 90% of intern_constant's calls over
  // halide.jsonl, about 46 each a case), and a table read costs no hash or probe.
  static constexpr int kSmallIndexMin = -16;
  static constexpr std::size_t kSmallIndexCount = 64;
  std::array<uint32_t, kSmallIndexCount> small_index_constants_{};
  std::unordered_map<uint32_t, Interval> var_intervals_;  // by symbol
  // The class of every leaf added through add_var or add_constant, by its number
  // (a variable's by symbol and dtype): the normal forms add the same few leaves again
  // and again, and a class found here costs no hash-cons lookup. A leaf has no operands,
  // so it never changes form: an entry stays right, a merge only makes it non-canonical
  // (find). Not used with explanations, which give every exact term an id of its own.
  std::vector<ClassId> var_classes_;       // symbol * kNumDTypes + dtype; invalid if none
  std::vector<ClassId> constant_classes_;  // by constant number; invalid if none
  std::size_t contradictions_ = 0;
  uint32_t epoch_ = 0;
  std::unique_ptr<Explainer> explain_;

  bool builtin_commutativity_ = true;
  FastMath fast_math_;
};

}  // namespace eqsat
