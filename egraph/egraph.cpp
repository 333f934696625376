#include "egraph/egraph.h"

#include <algorithm>
#include <array>
#include <boost/container/small_vector.hpp>
#include <cassert>
#include <sstream>

#include "egraph/parallel_range.h"
#include "ir/definedness.h"
#include "ir/fold.h"

namespace eqsat {

namespace {

// Facts a constant, an interval and a congruence imply about each other: an integer
// constant is a point interval and a constant congruence; a congruence trims the
// interval's ends to values it allows (x ≡ 1 mod 4 in [0, 10]: [1, 9]); a point
// interval or a constant congruence is a constant.
void settle(ClassData& data) {
  // INDEX and the fixed-width integers carry congruences (egraph/congruence.h);
  // a fixed-width one is constant only when it is the exact value.
  const bool has_congruence = is_integer(data.dtype);
  if (!has_congruence) data.congruence = Congruence::unknown();
  if (!data.constant && has_congruence && data.congruence.is_constant()) {
    data.constant = Value::integer(data.dtype, data.congruence.remainder);
  }
  if (data.constant && (is_integer(data.dtype) || data.dtype == DType::Bool)) {
    data.interval = data.interval.intersect(Interval::point(data.constant->i));
    if (has_congruence) data.congruence = Congruence::constant(data.constant->i);
  }
  if (data.congruence.modulus >= 2) {
    Interval trimmed = data.interval;
    if (trimmed.lo) trimmed.lo = round_up_to(data.congruence, *trimmed.lo);
    if (trimmed.hi) trimmed.hi = round_down_to(data.congruence, *trimmed.hi);
    // Empty only under contradictory facts: then keep the interval as it was.
    if (!(trimmed.lo && trimmed.hi && *trimmed.lo > *trimmed.hi)) data.interval = trimmed;
  }
  if (!data.constant && data.interval.is_point()) {
    if (data.dtype == DType::Bool) {
      data.constant = Value::boolean(*data.interval.lo != 0);
    } else if (is_integer(data.dtype)) {
      data.constant = Value::integer(data.dtype, *data.interval.lo);
      if (has_congruence) data.congruence = Congruence::constant(*data.interval.lo);
    }
  }
}

// Whether a node is defined on every value its operands may take, by their intervals:
// a total operation (not is_partial under `flags`, ir/definedness.h), an integer
// division by a class without zero, a shift by a class within [0, width).
bool defined_on_operands(const ENode& node, DType operand, std::span<const Interval> intervals, FastMath flags) {
  if (is_integer_division(node.op)) return is_integer(node.dtype) && !intervals[1].contains(0);
  switch (node.op) {
    case Op::Shl:
    case Op::Shr:
      return is_integer(node.dtype) && intervals[1].within(Interval::range(0, bit_width(node.dtype) - 1));
    default:
      return !is_partial(node.op, node.dtype, operand, flags);
  }
}

// Frees the storage of a work list that a large rebuild grew (over 64 KB); small ones
// keep theirs, so that the many small runs of a batch allocate nothing.
template <class T, class Allocator>
void release_if_large(std::vector<T, Allocator>& list) {
  if (list.capacity() * sizeof(T) > (std::size_t{64} << 10)) std::vector<T, Allocator>().swap(list);
}

// Trims a class's node or parent list that the rebuild's deduplication left much
// smaller than its storage.
template <class T>
bool needs_trim(const ClassList<T>& list) {
  return list.capacity() > 2 * list.size() + 16;
}
template <class T>
void trim(ClassList<T>& list) {
  if (needs_trim(list)) list.shrink_to_fit();
}

// Sorts a class's node or parent list in repair. Such a list is mostly the sorted list
// of the last repair with entries appended since (new nodes, or a merged class's
// sorted list), and re-canonicalization moves only the few entries whose operands were
// merged: its sorted prefix is kept and the rest merged in (sorted first unless it is
// sorted already), O(n + k log k) for k entries after the prefix instead of
// O(n log n). Equal entries are interchangeable (nodes differ only in their epochs, of
// which the caller's deduplication keeps the minima), so the result is that of a full
// sort. (Callgrind, sum 9: the repair's sorts took half the instructions, the
// repair as a whole 9% fewer.)
template <class T>
void sort_mostly_sorted(ClassList<T>& list) {
  const auto sorted_end = std::is_sorted_until(list.begin(), list.end());
  if (sorted_end == list.end()) return;
  if (std::is_sorted_until(sorted_end, list.end()) != list.end()) std::sort(sorted_end, list.end());
  std::inplace_merge(list.begin(), sorted_end, list.end());
}

}  // namespace

std::array<ClassData, kNumDTypes> EGraph::make_dtype_data() {
  std::array<ClassData, kNumDTypes> data;
  for (int t = 0; t < kNumDTypes; ++t) {
    data[t].dtype = static_cast<DType>(t);
    data[t].interval = Interval::of_dtype(data[t].dtype);
    data[t].total = true;  // most classes are: the partial ones take an entry
  }
  return data;
}

void EGraph::set_data(EClass& eclass, const ClassData& data) {
  assert(data.dtype == eclass.dtype);
  eclass.known_constant = data.constant.has_value();
  if (data == dtype_data(eclass.dtype)) {
    drop_facts(eclass);
  } else if (eclass.facts != EClass::kNoFacts) {
    facts_[eclass.facts] = data;
  } else if (!free_facts_.empty()) {
    eclass.facts = free_facts_.back();
    free_facts_.pop_back();
    facts_[eclass.facts] = data;
  } else {
    eclass.facts = static_cast<uint32_t>(facts_.size());
    facts_.push_back(data);
  }
  mark_plain_index(eclass);
}

void EGraph::mark_plain_index(const EClass& eclass) {
  uint8_t& flags = class_flags_[eclass.id.value];
  if (eclass.facts == EClass::kNoFacts && eclass.dtype == DType::Index) {
    flags |= kPlainIndex;
  } else {
    flags &= static_cast<uint8_t>(~kPlainIndex);
  }
}

void EGraph::drop_facts(EClass& eclass) {
  if (eclass.facts == EClass::kNoFacts) return;
  free_facts_.push_back(eclass.facts);
  eclass.facts = EClass::kNoFacts;
}

uint32_t EGraph::intern_symbol(std::string_view name) {
  const std::size_t hash = std::hash<std::string_view>{}(name);
  const uint32_t found = symbol_index_.find(hash, [&](uint32_t index) { return symbols_[index] == name; });
  if (found != InternIndex::kAbsent) return found;
  const auto index = static_cast<uint32_t>(symbols_.size());
  symbols_.emplace_back(name);
  symbol_index_.insert(hash, index);
  return index;
}

std::optional<uint32_t> EGraph::constant_index(const Value& value, std::size_t hash) const {
  const uint32_t found = constant_index_.find(hash, [&](uint32_t index) { return constants_[index] == value; });
  if (found == InternIndex::kAbsent) return std::nullopt;
  return found;
}

uint32_t EGraph::intern_constant(const Value& value) {
  uint32_t* small = nullptr;
  if (value.dtype == DType::Index && value.i >= kSmallIndexMin &&
      value.i < kSmallIndexMin + static_cast<Int>(kSmallIndexCount)) {
    small = &small_index_constants_[static_cast<std::size_t>(value.i - kSmallIndexMin)];
    if (*small != 0) return *small - 1;
  }
  const std::size_t hash = hash_value(value);
  uint32_t index;
  if (std::optional<uint32_t> found = constant_index(value, hash)) {
    index = *found;
  } else {
    index = static_cast<uint32_t>(constants_.size());
    constants_.push_back(value);
    constant_index_.insert(hash, index);
  }
  if (small) *small = index + 1;
  return index;
}

void EGraph::canonicalize_mut(ENode& node) {
  for (ClassId& child : node.children) child = union_find_.find_mut(child);
  order_operands(node);
}

void EGraph::set_builtin_commutativity(bool on) {
  assert(union_find_.size() == 0 && "built-in commutativity changes node identity: set it while empty");
  builtin_commutativity_ = on;
}

void EGraph::set_fast_math(FastMath flags) {
  assert(union_find_.size() == 0 && "the totality analysis reads the flags: set them while empty");
  fast_math_ = flags;
}

std::optional<ClassId> EGraph::lookup(ENode node) const {
  const ClassId id = memo_.find(canonicalize(std::move(node)));
  if (!id.valid()) return std::nullopt;
  return find(id);
}

std::optional<ClassId> EGraph::lookup_constant(const Value& value) const {
  const std::optional<uint32_t> index = constant_index(value, hash_value(value));
  if (!index) return std::nullopt;
  ENode leaf;
  leaf.op = Op::Const;
  leaf.dtype = value.dtype;
  leaf.payload = *index;
  return lookup(leaf);
}

bool EGraph::nothing_known_of_sum_or_product(const ENode& node) const {
  if (node.dtype != DType::Index || (node.op != Op::Add && node.op != Op::Sub && node.op != Op::Mul)) return false;
  for (ClassId child : node.children) {
    const ClassId root = find(child);
    const ClassData& known = class_flags_[root.value] & kPlainIndex ? dtype_data(DType::Index) : data(class_of(root));
    if (known.dtype != DType::Index || known.constant || !known.interval.is_all() || !known.congruence.is_unknown() ||
        !known.total)
      return false;
  }
  return true;
}

ClassData EGraph::make_data(const ENode& node) const {
  ClassData data;
  data.dtype = node.dtype;
  data.interval = Interval::of_dtype(node.dtype);
  data.total = true;  // a leaf; an operation's below
  switch (node.op) {
    case Op::Var: {
      auto it = var_intervals_.find(node.payload);
      if (it != var_intervals_.end()) data.interval = data.interval.intersect(it->second);
      data.total = !variable_may_be_undefined(node.dtype, fast_math_);
      break;
    }
    case Op::Const:
      data.constant = constants_[node.payload];
      data.total = !constant_is_poison(*data.constant, fast_math_);
      break;
    default: {
      if (nothing_known_of_sum_or_product(node)) return data;  // the dtype's interval, no congruence
      boost::container::small_vector<Value, 3> constants;
      boost::container::small_vector<Interval, 3> intervals;
      boost::container::small_vector<Congruence, 3> congruences;
      for (ClassId child : node.children) {
        const ClassData& child_data = this->data(child);
        if (child_data.constant) constants.push_back(*child_data.constant);
        intervals.push_back(child_data.interval);
        congruences.push_back(child_data.congruence);
        data.total = data.total && child_data.total;
      }
      if (constants.size() == node.children.size()) {
        data.constant = fold(node.op, node.dtype, std::span<const Value>(constants.data(), constants.size()));
      } else if (node.op == Op::Select) {
        // A decided condition picks a branch even if the other one is not constant.
        const ClassData& cond = this->data(node.children[0]);
        if (cond.constant) data.constant = this->data(node.children[cond.constant->i ? 1 : 2]).constant;
      }
      DType operand = class_of(find(node.children[node.op == Op::Select ? 1 : 0])).dtype;
      data.total =
          data.total &&
          defined_on_operands(node, operand, std::span<const Interval>(intervals.data(), intervals.size()), fast_math_);
      data.interval = data.interval.intersect(
          interval_of(node.op, node.dtype, operand, std::span<const Interval>(intervals.data(), intervals.size())));
      data.congruence = congruence_of(node.op, node.dtype, operand,
                                      std::span<const Congruence>(congruences.data(), congruences.size()));
      break;
    }
  }
  settle(data);
  return data;
}

void EGraph::enable_explanations() {
  assert(union_find_.size() == 0 && "enable explanations before adding anything");
  explain_ = std::make_unique<Explainer>();
}

ClassId EGraph::add(ENode node) {
  if (explain_) {
    // One id per exact term: an exact node seen before has its id; a new exact form of
    // an existing node gets a fresh id, joined to that node's class (never its root).
    if (auto id = explain_->find_exact(node)) return *id;
    if (const ClassId existing = memo_.find(canonicalize(node)); existing.valid()) {
      ClassId id = union_find_.make_set();
      slot_of_.push_back(kNoSlot);  // never a root: it holds no class
      class_flags_.push_back(0);
      union_find_.link(find(existing), id);
      explain_->add_term(id, node);
      return id;
    }
    explain_->add_term(ClassId(static_cast<uint32_t>(union_find_.size())), node);
  }
  canonicalize_mut(node);
  if (const ClassId existing = memo_.find(node); existing.valid()) return union_find_.find_mut(existing);

  const ClassId id = new_class(node, make_data(node));
  for (ClassId child : node.children) {
    class_of(child).parents.emplace_back(node, id);  // children are canonical
    mark_dirty(child);
  }
  memo_.emplace(node, id);
  if (node.op != Op::Const && data(class_of(id)).constant) materialize_constant(id);
  return id;
}

ClassId EGraph::new_class(ENode node, const ClassData& data) {
  const ClassId id = union_find_.make_set();
  class_flags_.push_back(0);  // set_data sets kPlainIndex
  // The record: a spare one, with its lists' storage (EGraph::clear); else the one a
  // merge freed last, taken as it is: empty lists that keep their storage if small
  // (merge_classes), no facts; else a new one.
  uint32_t slot;
  if (!spare_classes_.empty()) {
    slot = new_slot(std::move(spare_classes_.back()));
    spare_classes_.pop_back();
  } else if (!free_slots_.empty()) {
    slot = free_slots_.back();
    free_slots_.pop_back();
  } else {
    slot = new_slot(EClass());
  }
  EClass& eclass = slots_[slot];
  eclass.id = id;
  eclass.changed_at = epoch_;
  eclass.dtype = node.dtype;
  set_data(eclass, data);
  node.added_at = node.formed_at = static_cast<uint16_t>(epoch_);
  eclass.nodes.push_back(node);
  slot_of_.push_back(slot);
  ++num_classes_;
  return id;
}

bool EGraph::add_to(ClassId target, ENode node, Reason reason) {
  if (explain_) return merge(target, add(std::move(node)), reason);
  canonicalize_mut(node);
  if (const ClassId existing = memo_.find(node); existing.valid()) return merge(target, existing, reason);
  ClassData incoming = make_data(node);
  // A node of known value brings its constant leaf along (see add): that path is rare,
  // and taken as it is.
  if (incoming.constant && node.op != Op::Const) return merge(target, add(std::move(node)), reason);
  // What add and merge would do, with the fresh class left out: it would have no
  // parents, so `target`'s class stays the root.
  const ClassId root = union_find_.find_mut(target);
  node.added_at = node.formed_at = static_cast<uint16_t>(epoch_);
  for (ClassId child : node.children) {
    class_of(child).parents.emplace_back(node, root);
    mark_dirty(child);
  }
  memo_.emplace(node, root);
  EClass& eclass = class_of(root);
  eclass.nodes.push_back(node);
  eclass.changed_at = epoch_;
  mark_dirty(root);
  // A node that knows only what its dtype implies adds nothing to a class that is
  // total (any class's other facts are at least as precise as the dtype's): most new
  // nodes of a saturation, where the join cost 355 instructions a node (`pos 3`).
  if (!(incoming == dtype_data(node.dtype)) || !data(eclass).total) join_new_node(root, incoming);
  return true;
}

void EGraph::join_new_node(ClassId root, const ClassData& incoming) {
  EClass& eclass = class_of(root);
  ClassData joined = data(eclass);
  JoinResult join = join_class_data(joined, incoming);
  settle(joined);
  if (join.contradiction) ++contradictions_;
  if (joined != data(eclass)) {
    set_data(eclass, joined);
    analysis_pending_.insert(analysis_pending_.end(), eclass.parents.begin(), eclass.parents.end());
    to_materialize_.push_back(root);
  }
}

void EGraph::materialize_constant(ClassId id) {
  id = find(id);
  const ClassData& facts = data(class_of(id));
  if (!facts.constant) return;
  ENode leaf;
  leaf.op = Op::Const;
  leaf.dtype = facts.dtype;
  leaf.payload = intern_constant(*facts.constant);
  if (const ClassId existing = memo_.find(leaf); existing.valid() && find(existing) == id) return;
  ClassId constant_class = add(leaf);
  merge(id, constant_class, Reason::analysis());
}

ClassId EGraph::add_leaf(ENode node, std::vector<ClassId>& classes, std::size_t slot) {
  if (explain_) return add(std::move(node));
  if (slot < classes.size() && classes[slot].valid()) return union_find_.find_mut(classes[slot]);
  const ClassId id = add(std::move(node));
  if (slot >= classes.size()) classes.resize(slot + 1);
  classes[slot] = id;
  return id;
}

ClassId EGraph::add_constant(const Value& value) {
  ENode leaf;
  leaf.op = Op::Const;
  leaf.dtype = value.dtype;
  leaf.payload = intern_constant(value);
  return add_leaf(leaf, constant_classes_, leaf.payload);
}

ClassId EGraph::add_var(std::string_view name, DType dtype) {
  ENode leaf;
  leaf.op = Op::Var;
  leaf.dtype = dtype;
  leaf.payload = intern_symbol(name);
  return add_leaf(leaf, var_classes_, std::size_t{leaf.payload} * kNumDTypes + static_cast<std::size_t>(dtype));
}

ClassId EGraph::add_expr(const Expr& expr) {
  switch (expr.op()) {
    case Op::Var:
      return add_var(expr.name(), expr.dtype());
    case Op::Const:
      return add_constant(expr.value());
    default: {
      ENode node;
      node.op = expr.op();
      node.dtype = expr.dtype();
      for (const Expr& arg : expr.args()) node.children.push_back(add_expr(arg));
      return add(std::move(node));
    }
  }
}

void EGraph::set_var_interval(std::string_view name, const Interval& interval) {
  uint32_t symbol = intern_symbol(name);
  auto [it, inserted] = var_intervals_.emplace(symbol, interval);
  if (!inserted) it->second = it->second.intersect(interval);
  // Refine any variable classes already present (one per dtype the name was used with).
  for (int t = 0; t < kNumDTypes; ++t) {
    ENode leaf;
    leaf.op = Op::Var;
    leaf.dtype = static_cast<DType>(t);
    leaf.payload = symbol;
    if (auto id = lookup(leaf)) refine_interval(*id, it->second);
  }
}

void EGraph::refine_interval(ClassId id, const Interval& interval) {
  ClassData refined = data(id);
  refined.interval = refined.interval.intersect(interval);
  refine(id, refined);
}

void EGraph::refine_congruence(ClassId id, const Congruence& congruence) {
  ClassData refined = data(id);
  refined.congruence = refined.congruence.intersect(congruence);
  refine(id, refined);
}

void EGraph::refine(ClassId id, ClassData refined) {
  EClass& eclass = class_of(find(id));
  eclass.changed_at = epoch_;
  settle(refined);
  ClassData joined = data(eclass);
  JoinResult join = join_class_data(joined, refined);
  settle(joined);
  set_data(eclass, joined);
  if (join.changed) {
    analysis_pending_.insert(analysis_pending_.end(), eclass.parents.begin(), eclass.parents.end());
    to_materialize_.push_back(eclass.id);
  }
}

bool EGraph::merge(ClassId a, ClassId b, Reason reason) {
  if (!merge_classes(a, b)) return false;
  if (explain_) explain_->record(a, b, reason);
  return true;
}

// The storage a merge leaves to the absorbed class's lists, emptied, if they held at
// most this many entries: the next new class takes that record as it is (new_class).
// Most classes are born for one new node and merged soon after, and their lists'
// storage was freed only for the next class to allocate it again: kept, `sum 11`'s
// apply ran in 0.947x the time on one thread and 0.912x on two, and the records of free
// slots hold about 10 bytes per e-node more (docs/performance.md, session 47).
constexpr std::size_t kKeptRecordList = 4;

// Congruence merges found by `rebuild` go straight here: explanations find those
// themselves (egraph/explain.h).
bool EGraph::merge_classes(ClassId a, ClassId b) {
  a = union_find_.find_mut(a);
  b = union_find_.find_mut(b);
  if (a == b) return false;
  assert(class_of(a).dtype == class_of(b).dtype && "merged e-classes of different dtypes");
  // The class with more parents stays the root: fewer parents move.
  if (class_of(a).parents.size() < class_of(b).parents.size()) std::swap(a, b);
  EClass& root = class_of(a);
  EClass& absorbed = class_of(b);
  union_find_.link(a, b);
  root.changed_at = epoch_;
  --num_classes_;
  mark_dirty(a);

  pending_.insert(pending_.end(), absorbed.parents.begin(), absorbed.parents.end());
  // (Classes that know only their dtype, the common case, have nothing to join.)
  if (root.facts != EClass::kNoFacts || absorbed.facts != EClass::kNoFacts) {
    const ClassData absorbed_data = data(absorbed);
    ClassData joined = data(root);
    JoinResult join = join_class_data(joined, absorbed_data);
    settle(joined);
    if (join.contradiction) ++contradictions_;
    // Parents of a side whose facts got more precise must be re-analysed.
    if (joined != data(root)) {
      analysis_pending_.insert(analysis_pending_.end(), root.parents.begin(), root.parents.end());
      to_materialize_.push_back(a);
    }
    if (joined != absorbed_data) {
      analysis_pending_.insert(analysis_pending_.end(), absorbed.parents.begin(), absorbed.parents.end());
    }
    drop_facts(absorbed);
    set_data(root, joined);
  }
  // The absorbed nodes are new in this class (a search of it never saw them), but not
  // their forms: their `formed_at` stays (egraph/enode.h).
  const std::size_t moved = root.nodes.size();
  root.nodes.insert(root.nodes.end(), absorbed.nodes.begin(), absorbed.nodes.end());
  for (std::size_t i = moved; i < root.nodes.size(); ++i) root.nodes[i].added_at = static_cast<uint16_t>(epoch_);
  root.parents.insert(root.parents.end(), std::make_move_iterator(absorbed.parents.begin()),
                      std::make_move_iterator(absorbed.parents.end()));
  absorbed.nodes.clear();
  if (absorbed.nodes.capacity() > kKeptRecordList) absorbed.nodes.shrink_to_fit();
  absorbed.parents.clear();
  if (absorbed.parents.capacity() > kKeptRecordList) absorbed.parents.shrink_to_fit();
  // The absorbed class's record is free for the next new class: most classes are
  // born for one new node and merged at once, so records are reused, not piled up,
  // and so is their small lists' storage (kKeptRecordList).
  free_slots_.push_back(slot_of_[b.value]);
  slot_of_[b.value] = kNoSlot;
  return true;
}

void EGraph::settle_pending(ClassId id, const ENode& canonical, ClassId found) {
  if (found.valid()) {
    merge_classes(found, id);
  } else {
    maybe_stale_.push_back(canonical);
  }
  // The node's class holds it, and its children list it as a parent, in the old form:
  // those lists need repair, and the class changed for a search.
  const ClassId holder = union_find_.find_mut(id);
  class_of(holder).changed_at = epoch_;
  mark_dirty(holder);
  for (ClassId child : canonical.children) mark_dirty(child);
}

void EGraph::rebuild(unsigned threads) {
  // Nothing merged, nothing to re-analyse, no list changed: every invariant holds
  // already (a merge marks its root dirty, an added node its operands). Most cases
  // assert no facts, and the rebuild after asserting none is such a one.
  if (pending_.empty() && analysis_pending_.empty() && to_materialize_.empty() && dirty_.empty() &&
      maybe_stale_.empty())
    return;
  // The pending loop below waits mostly for memory: the union-find entries of a
  // parent's operands, then the hash-cons slots of its old and new forms, all rarely
  // in cache. It starts fetching those of the entries it will take next (it takes
  // them from the back), the union-find entries kFetchFinds places ahead and the
  // slots kFetchSlots places ahead, once the entries fetched before are in. A merge
  // in between may change a find, which only makes a fetch useless.
  constexpr std::size_t kFetchFinds = 16, kFetchSlots = 8;
  // Rounds take a large rebuild's entries in a large e-graph (whatever the size of its
  // hash-cons, which a batch of cases' history sets: the choice must not depend on it).
  constexpr std::size_t kRoundMinEntries = 4096, kRoundMinNodes = 24576;
  while (!pending_.empty() || !analysis_pending_.empty() || !to_materialize_.empty()) {
    while (!pending_.empty()) {
      // A large rebuild goes by rounds (egraph/rebuild_rounds.cpp) while it has
      // enough entries for one.
      if (pending_.size() >= kRoundMinEntries && memo_.size() >= kRoundMinNodes) {
        congruence_round(threads);
        continue;
      }
      if (pending_.size() > kFetchFinds) {
        const ParentEntry& ahead = pending_[pending_.size() - 1 - kFetchFinds];
        const ENode recorded = ahead.node();
        for (ClassId child : recorded.children) union_find_.prefetch(child);
        memo_.prefetch(recorded);
      }
      if (pending_.size() > kFetchSlots)
        memo_.prefetch(canonicalize(pending_[pending_.size() - 1 - kFetchSlots].node()));
      const ENode node = pending_.back().node();
      const ClassId id = pending_.back().holder();
      pending_.pop_back();
      ENode canonical = node;
      canonicalize_mut(canonical);
      // The recorded form names a class that was merged away: it is a stale key that
      // no lookup (always of a canonical node) can hit any more.
      if (!(canonical == node)) memo_.erase(node);
      auto [existing, inserted] = memo_.emplace(canonical, id);
      settle_pending(id, canonical, inserted ? ClassId() : existing);
    }
    while (!analysis_pending_.empty()) {
      const ENode node = analysis_pending_.back().node();
      ClassId id = analysis_pending_.back().holder();
      analysis_pending_.pop_back();
      id = find(id);
      ClassData computed = make_data(canonicalize(node));
      EClass& eclass = class_of(id);
      ClassData joined = data(eclass);
      JoinResult join = join_class_data(joined, computed);
      settle(joined);
      set_data(eclass, joined);
      if (join.contradiction) ++contradictions_;
      if (join.changed) {
        eclass.changed_at = epoch_;
        to_materialize_.push_back(id);
        // Intervals can narrow a step at a time around a cycle of classes (under
        // assumptions with no model, `x < y` with x >= 11 and y <= 6, forever: the
        // analysis then never settled and its pending list grew without end). So a
        // class passes at most kMaxRefinements changes up per rebuild; past that its
        // data still narrows, but its parents keep what they know. That is sound (every
        // class's data holds of its values, only less precisely than it could), and the
        // analysis ends: each class queues its parents a bounded number of times.
        if (id.value >= refinements_.size()) refinements_.resize(std::size_t{id.value} + 1 + id.value / 2, 0);
        uint8_t& times = refinements_[id.value];
        if (times == 0) refined_.push_back(id);
        if (times < kMaxRefinements) {
          ++times;
          analysis_pending_.insert(analysis_pending_.end(), eclass.parents.begin(), eclass.parents.end());
        }
      }
    }
    // Constants found by the analysis become nodes (and may cause more merges).
    std::vector<ClassId> materialize;
    materialize.swap(to_materialize_);
    for (ClassId id : materialize) materialize_constant(id);
  }
  for (ClassId id : refined_) refinements_[id.value] = 0;
  refined_.clear();
  repair_classes(threads);
  // The work lists of a large rebuild are not kept for the next one: a run's peak
  // memory is reached in its apply phases, and they would add to it. Except the pending
  // list, which the next apply's merges fill again: grown anew every iteration through
  // mappings of its own, fresh pages each time, it cost `sum 10` 4.6% of its time (0.954x
  // kept, 7 pairs) for no memory there (`pos 3`: 20-40 bytes per e-node more).
  release_if_large(analysis_pending_);
  release_if_large(maybe_stale_);
  release_if_large(dirty_);
  release_if_large(to_trim_);
  release_if_large(round_.entries);
  release_if_large(round_.forms);
  release_if_large(round_.homes);
  round_.order.release_if_large();
  release_if_large(round_.found);
  memo_.shrink();
}

uint32_t EGraph::new_slot(EClass eclass) {
  if (free_slots_.empty()) {
    slots_.push_back(std::move(eclass));
    return static_cast<uint32_t>(slots_.size() - 1);
  }
  const uint32_t slot = free_slots_.back();
  free_slots_.pop_back();
  slots_[slot] = std::move(eclass);
  return slot;
}

void EGraph::mark_dirty(ClassId id) {
  if (class_flags_[id.value] & kDirty) return;
  class_flags_[id.value] |= kDirty;
  dirty_.push_back(id);
}

// Below this many dirty classes a rebuild repairs them on the calling thread alone.
constexpr std::size_t kParallelRepairMinClasses = 256;
// Dirty classes a repair task takes: class lists vary from one node to thousands.
constexpr std::size_t kRepairGrain = 32;

void EGraph::repair_classes(unsigned threads) {
  // The memo now maps every canonical node to its class, but keys this rebuild
  // inserted may have been made stale by its later merges: drop those, so that it
  // holds exactly the canonical nodes (num_nodes counts them).
  for (const ENode& key : maybe_stale_) {
    if (!(canonicalize(key) == key)) memo_.erase(key);
  }
  maybe_stale_.clear();
  union_find_.compress_all();
  // Canonicalize, sort and deduplicate the nodes and parents of every class whose
  // lists changed; the lists of other classes are still canonical and sorted (a node
  // whose form changes is re-canonicalized above, which marks its class and its
  // children's classes). Each class's repair reads the union-find, which no longer
  // changes, and writes only the class's own record, so the classes may be repaired
  // in any order, on any number of threads, with the same result.
  std::vector<ClassId> dirty;
  dirty.swap(dirty_);
  std::size_t roots = 0;
  for (ClassId id : dirty) {
    class_flags_[id.value] &= static_cast<uint8_t>(~kDirty);
    if (find(id) == id) dirty[roots++] = id;
  }
  dirty.resize(roots);
  // Which of the repaired classes have lists to trim, by position in `dirty`.
  std::vector<uint8_t>& to_trim = to_trim_;
  to_trim.assign(dirty.size(), 0);
  for_range(dirty.size() >= kParallelRepairMinClasses ? threads : 1, dirty.size(), kRepairGrain, [&](std::size_t i) {
    const EClass& eclass = repair_class(dirty[i]);
    to_trim[i] = needs_trim(eclass.nodes) || needs_trim(eclass.parents);
  });
  // Trimmed here, on the calling thread: lists reallocated by the threads of the
  // repair would come from their own malloc arenas, which then hold on to the space
  // (a run on two threads peaked 3% higher per node that way). Only the classes the
  // repair found so: the records of the others were last written by the repair's
  // threads, and reading each back on this one cost a round trip between cores.
  for (std::size_t i = 0; i < dirty.size(); ++i) {
    if (!to_trim[i]) continue;
    EClass& eclass = class_of(dirty[i]);
    trim(eclass.nodes);
    trim(eclass.parents);
  }
  // The list goes back, empty, with its storage: the many small rebuilds of a batch
  // then mark their classes without allocating it anew (rebuild frees it if large).
  dirty.clear();
  dirty_.swap(dirty);
}

const EClass& EGraph::repair_class(ClassId id) {
  EClass& eclass = class_of(id);
  for (ENode& node : eclass.nodes) {
    if (canonicalize_in_place(node)) node.added_at = node.formed_at = static_cast<uint16_t>(epoch_);  // a new form
  }
  sort_mostly_sorted(eclass.nodes);
  // Of equal nodes, keep the oldest epochs: the node a search saw in this list in this
  // form (added_at), and the node that had this form first (formed_at).
  std::size_t kept = 0;
  for (std::size_t i = 0; i < eclass.nodes.size(); ++i) {
    if (kept > 0 && eclass.nodes[kept - 1] == eclass.nodes[i]) {
      ENode& first = eclass.nodes[kept - 1];
      first.added_at = std::min(first.added_at, eclass.nodes[i].added_at);
      first.formed_at = std::min(first.formed_at, eclass.nodes[i].formed_at);
    } else {
      eclass.nodes[kept++] = eclass.nodes[i];
    }
  }
  eclass.nodes.resize(kept);
  for (ParentEntry& parent : eclass.parents) {
    parent.canonicalize([this](ClassId child) { return find(child); }, sorts_operands(parent.op(), parent.dtype()));
  }
  sort_mostly_sorted(eclass.parents);
  eclass.parents.erase(std::unique(eclass.parents.begin(), eclass.parents.end()), eclass.parents.end());
  return eclass;
}

std::vector<ClassId> EGraph::class_ids() const {
  std::vector<ClassId> ids;
  ids.reserve(num_classes_);
  for (uint32_t i = 0; i < union_find_.size(); ++i) {
    if (find(ClassId(i)) == ClassId(i)) ids.push_back(ClassId(i));
  }
  return ids;
}

std::string EGraph::check_invariants() const {
  std::ostringstream why;
  if (needs_rebuild()) return "pending merges: rebuild() was not called";
  std::size_t live = 0;
  std::unordered_map<ENode, ClassId, ENodeHash> seen;
  for (ClassId id : class_ids()) {
    const EClass& eclass = class_of(id);
    ++live;
    for (const ENode& node : eclass.nodes) {
      if (node.dtype != eclass.dtype) {
        why << "class " << eclass.id.value << " holds a node of another dtype";
        return why.str();
      }
      ENode canonical = canonicalize(node);
      if (!(canonical == node)) {
        why << "class " << eclass.id.value << " holds a non-canonical node";
        return why.str();
      }
      auto [it, inserted] = seen.emplace(node, eclass.id);
      if (!inserted && it->second != eclass.id) {
        why << "congruence broken: classes " << it->second.value << " and " << eclass.id.value << " hold the same node";
        return why.str();
      }
      const ClassId memo = memo_.find(node);
      if (!memo.valid() || find(memo) != eclass.id) {
        why << "hash-cons broken: a node of class " << eclass.id.value << " is not in the memo";
        return why.str();
      }
      for (ClassId child : node.children) {
        const EClass& child_class = class_of(child);
        bool listed = std::any_of(child_class.parents.begin(), child_class.parents.end(), [&](const ParentEntry& p) {
          return find(p.holder()) == eclass.id && canonicalize(p.node()) == node;
        });
        if (!listed) {
          why << "class " << child.value << " does not list a parent node of class " << eclass.id.value;
          return why.str();
        }
      }
    }
  }
  if (live != num_classes_) return "class count out of date";
  if (seen.size() != memo_.size()) return "memo holds nodes that no class holds";
  return "";
}

void EGraph::clear() {
  union_find_.clear();
  slot_of_.clear();
  for (EClass& eclass : slots_) {
    // Only the lists' storage is kept: everything else is as in a new record (the
    // fact table is emptied below, so no record may point into it).
    EClass spare;
    spare.nodes = std::move(eclass.nodes);
    spare.parents = std::move(eclass.parents);
    spare.nodes.clear();
    spare.parents.clear();
    spare_classes_.push_back(std::move(spare));
  }
  slots_.clear();
  free_slots_.clear();
  facts_.clear();
  free_facts_.clear();
  num_classes_ = 0;
  memo_.clear();
  pending_.clear();
  dirty_.clear();
  class_flags_.clear();
  maybe_stale_.clear();
  analysis_pending_.clear();
  to_materialize_.clear();
  symbols_.clear();
  symbol_index_.clear();
  constants_.clear();
  constant_index_.clear();
  small_index_constants_.fill(0);
  var_intervals_.clear();
  var_classes_.clear();
  constant_classes_.clear();
  contradictions_ = 0;
  congruence_rounds_ = 0;
  epoch_ = 0;
  if (explain_) explain_ = std::make_unique<Explainer>();
}

}  // namespace eqsat
