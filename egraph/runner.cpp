#include "egraph/runner.h"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cassert>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "egraph/core_handoff.h"
#include "egraph/heap_growth_helper.h"
#include "egraph/heap_pages.h"
#include "egraph/instance_lookup.h"
#include "egraph/intern_index.h"
#include "egraph/op_runs.h"

namespace eqsat {

std::string_view stop_reason_name(StopReason reason) {
  switch (reason) {
    case StopReason::Saturated:
      return "saturated";
    case StopReason::IterationLimit:
      return "iteration-limit";
    case StopReason::NodeLimit:
      return "node-limit";
    case StopReason::TimeLimit:
      return "time-limit";
    case StopReason::Minimal:
      return "minimal";
    case StopReason::Stalled:
      return "stalled";
  }
  return "unknown";
}

std::string RunReport::to_json() const {
  std::ostringstream out;
  out << "{\"stop_reason\": \"" << stop_reason_name(stop_reason) << "\", \"iterations\": " << iterations
      << ", \"nodes\": " << nodes << ", \"classes\": " << classes << ", \"seconds\": " << seconds
      << ", \"rule_fires\": {";
  bool first = true;
  for (const auto& [name, count] : rule_fires) {
    out << (first ? "" : ", ") << '"' << name << "\": " << count;
    first = false;
  }
  out << "}, \"search_seconds\": " << search_seconds << ", \"filter_seconds\": " << filter_seconds
      << ", \"apply_seconds\": " << apply_seconds << ", \"rebuild_seconds\": " << rebuild_seconds
      << ", \"apply_batch_threads\": " << apply_batch_threads << ", \"per_iteration\": [";
  for (std::size_t i = 0; i < per_iteration.size(); ++i) {
    const IterationStats& it = per_iteration[i];
    out << (i ? ", " : "") << "{\"nodes\": " << it.nodes << ", \"classes\": " << it.classes
        << ", \"matches\": " << it.matches << ", \"applied\": " << it.applied
        << ", \"dropped_after_merges\": " << it.dropped_after_merges << ", \"merges\": " << it.merges
        << ", \"banned\": " << it.banned << ", \"nodes_after_apply\": " << it.nodes_after_apply
        << ", \"search_seconds\": " << it.search_seconds << ", \"filter_seconds\": " << it.filter_seconds
        << ", \"apply_seconds\": " << it.apply_seconds << ", \"rebuild_seconds\": " << it.rebuild_seconds
        << ", \"merges_first_seconds\": " << it.merges_first_seconds
        << ", \"drop_after_merges_seconds\": " << it.drop_after_merges_seconds
        << ", \"batch_inner_seconds\": " << it.batch_inner_seconds
        << ", \"batch_root_seconds\": " << it.batch_root_seconds << '}';
  }
  out << "]}";
  return out.str();
}

namespace {

// The matches one search task found, flat: the class of each pattern variable
// (`width` ids per match), and the class they matched in as runs (a class and how many
// consecutive matches are in it: a class has many). Flat lists of 32-bit ids are what
// keeps a search of hundreds of thousands of matches small in memory.
struct MatchRun {
  ClassId eclass;
  uint32_t count = 0;
};
// How many matches a rewrite has in a class, all of them (listed or counted), as its
// search at change epoch `at` found them (see SearchMemory::counts).
struct ClassCount {
  ClassId eclass;
  uint32_t count = 0;
  uint32_t at = 0;
};
struct TaskMatches {
  std::size_t rewrite = 0;  // position in the span of rewrites
  std::size_t active = 0;   // position in the iteration's list of rewrites searched
  std::size_t width = 0;
  const std::vector<ClassId>* classes = nullptr;  // the candidate classes of the rewrite
  std::size_t begin = 0, end = 0;                 // this task's slice of them
  // The slice holds only classes that passed the checks made before matching (dtype,
  // no known constant, may_match): the set-up made them (see run_rewrites).
  bool filtered = false;
  std::vector<ClassId> flat;
  std::vector<MatchRun> runs;
  std::size_t listed = 0;   // matches in `flat`
  std::size_t matched = 0;  // matches the search listed, before the filter dropped any
  // What the filter (drop_present) found of each listed match's right side: for a match
  // found RootMissing, its ids in `flat` are then the InstanceFound's ids, all the apply
  // needs. Empty when the matches were not filtered.
  std::vector<InstanceFound::State> found;
  // The matches the filter found Elsewhere (their right side stands in another class),
  // in order, as the two classes to merge: the apply makes them first (its merges
  // pass), and they are left out of `flat`, so that the passes after it do not walk
  // them. (The match's class, the class of its right side.) A rule without variables
  // has no ids to leave out: its matches found so stay listed, as Missing.
  std::vector<std::pair<ClassId, ClassId>> merges;
  // With SearchMemory::counts: the matches of each class of the slice searched, in
  // class order (for the memory's next search).
  std::vector<ClassCount> class_counts;
  // Matches found but not listed in `flat`: an earlier search found them too, and
  // they were applied then (see SearchMemory).
  std::size_t repeated = 0;
  // The new matches the search found (the backoff scheduler's count, and the report's
  // with `repeated`), whether or not the filter kept them.
  std::size_t count() const { return matched; }
  void clear_lists() {
    flat.clear();
    runs.clear();
    found.clear();
    merges.clear();
    class_counts.clear();
    listed = matched = repeated = 0;
  }
  // Appends the lists of `buffer`, a part of the same slice searched and filtered in a
  // buffer of the thread's (see search_and_drop_present).
  void append_lists_of(const TaskMatches& buffer) {
    flat.insert(flat.end(), buffer.flat.begin(), buffer.flat.end());
    runs.insert(runs.end(), buffer.runs.begin(), buffer.runs.end());
    found.insert(found.end(), buffer.found.begin(), buffer.found.end());
    merges.insert(merges.end(), buffer.merges.begin(), buffer.merges.end());
    class_counts.insert(class_counts.end(), buffer.class_counts.begin(), buffer.class_counts.end());
    listed += buffer.listed;
    matched += buffer.matched;
    repeated += buffer.repeated;
  }
};

// Semi-naive apply. Applying a match a second time changes nothing: the nodes of its
// right side are in the e-graph since the first time (the hash-cons keeps them in
// canonical form) and already in the class of its left side. A match that reads only
// nodes and facts no newer than the last search of its rewrite was found by that
// search, and all its matches were applied. So the search still finds every match (the
// reported counts are those of a full search) but lists only the new ones for the
// apply. How old is what a match reads (egraph/enode.h, egraph/egraph.h):
//   - a node below the root: its `added_at`, when it took its place in the class the
//     match scanned (a node a merge moved there is new: the node above pointed at
//     this class, which did not hold it at the last search);
//   - the root node: its `formed_at`, when it got its form. A merge that moves it
//     leaves it old: at the last search it stood in the class it came from with the
//     same operands, so the matches rooted at it that read otherwise old nodes were
//     found there, and their right sides put into that class, now part of this one.
//     (Most of the matches a merge renews are of this kind: comm-add of every moved
//     `+` node.)
//   - the facts of a class (a constant, a constant-only variable, a guard's
//     variables): the class's `changed_at`.
// Only under the simple scheduler without explanations: the backoff scheduler drops
// the matches of a banned rule (they were not applied), and explanations record an
// edge for every match.
//
// A whole class can be counted without running the matcher there, for a rewrite whose
// left side reads two levels (MatchProgram::two_levels: the class's nodes and the
// classes under them). What it reads there is no newer than the class's *region*
// epoch (OpIndex::region_at): the latest `changed_at` of the class and of the classes
// its nodes point at (a class's `changed_at` covers its nodes and their operands' ids,
// egraph/egraph.h). If that is no newer than the last search of the rewrite, every
// match there is old; and if it is no newer than the search that counted the class's
// matches (`counts`), they are the same matches, as many. In `pos 3`'s last
// iteration, which changes nothing, three quarters of the e-nodes stand in such
// classes; in the one before, a fifth.
struct SearchMemory {
  static constexpr uint32_t kNever = static_cast<uint32_t>(-1);
  // By bucket of the rule index: the change epoch of the last search of its rewrites
  // (kNever: none yet). An iteration searches all the rewrites of a bucket or none
  // (run_rewrites), except those whose fast-math flags are not granted, which are
  // never searched in the run.
  std::vector<uint32_t> searched_at;
  // By rewrite position (sized when first used): its matches in each class its last
  // search covered with regions known, by increasing class id.
  std::vector<std::vector<ClassCount>> counts;
  std::vector<uint32_t> counted;  // the rewrites whose `counts` are not empty: a run clears these
};

// The classes holding a node of each operation, in increasing id order: a rewrite whose
// left side is an operation is tried only on those (the rules are indexed by their root
// operation, and classes by the operations of their nodes).
class OpIndex {
 public:
  // The operations a node's operands hold: class_summary_bit of each operand's class.
  using Held = std::array<uint64_t, 3>;
  // A node of a class, with what its operands hold (see with_nodes below).
  struct NodeShape {
    Op op;
    DType dtype;
    Held held;
  };
  // A class's dtype, whether its value is known, and its nodes in `nodes_`.
  struct ClassFacts {
    uint32_t first = 0, count = 0;
    DType dtype = DType::Index;
    bool constant = false;
  };

  // `with_nodes`: also record every class's facts and nodes with their operands'
  // summaries (nodes() below), so that the filter before matching reads none of the
  // e-graph; for small e-graphs (the records cost 32 bytes a node).
  // `with_regions`: also the region epoch of every class (region_at), if with_nodes is
  // false.
  void build(const EGraph& egraph, const std::vector<ClassId>& ids, bool with_nodes, bool with_regions) {
    for (std::vector<ClassId>& list : by_op_) list.clear();
    for (std::vector<uint32_t>& list : counts_by_op_) list.clear();
    dtypes_.fill(0);
    present_ = 0;
    held_anywhere_ = 0;
    summaries_.assign(ids.empty() ? 0 : ids.back().value + 1, 0);  // ids are increasing
    // A small e-graph's lists are short and in cache: the matcher walks them (making
    // the directory cost more than it saved, 0.6% more instructions over the corpora).
    with_runs_ = !with_nodes;
    if (with_runs_) runs_.clear(summaries_.size());
    with_regions_ = with_runs_ && with_regions;
    if (with_regions_) region_at_.resize(summaries_.size());
    for (ClassId id : ids) {
      const EClass& eclass = egraph.eclass(id);
      const auto dtype_bit = uint32_t{1} << static_cast<unsigned>(eclass.dtype);
      present_ |= dtype_bit;
      uint64_t& summary = summaries_[id.value];
      if (eclass.known_constant) summary |= kKnownConstantBit;
      // The nodes are sorted by operation first: one run of nodes per operation.
      const ClassList<ENode>& nodes = eclass.nodes;
      if (with_runs_) runs_.record(id, nodes.data(), nodes.size());
      if (with_regions_) {
        uint32_t region = eclass.changed_at;
        for (const ENode& node : nodes) {
          for (ClassId child : node.children) region = std::max(region, egraph.eclass(child).changed_at);
        }
        region_at_[id.value] = region;
      }
      for (auto first = nodes.begin(); first != nodes.end();) {
        const Op op = first->op;
        const auto end = std::find_if(first + 1, nodes.end(), [op](const ENode& node) { return node.op != op; });
        by_op_[static_cast<std::size_t>(op)].push_back(id);
        counts_by_op_[static_cast<std::size_t>(op)].push_back(static_cast<uint32_t>(end - first));
        dtypes_[static_cast<std::size_t>(op)] |= dtype_bit;
        summary |= class_summary_bit(op);
        first = end;
      }
      held_anywhere_ |= summary;
    }
    if (!with_nodes) {
      // A large e-graph: the records of a small one are not kept through its growth.
      if (nodes_.capacity() > 0) {
        std::vector<NodeShape>().swap(nodes_);
        std::vector<ClassFacts>().swap(facts_);
      }
      return;
    }
    nodes_.clear();
    facts_.resize(summaries_.size());
    for (ClassId id : ids) {
      const EClass& eclass = egraph.eclass(id);
      ClassFacts& facts = facts_[id.value];
      facts.first = static_cast<uint32_t>(nodes_.size());
      facts.dtype = eclass.dtype;
      facts.constant = eclass.known_constant;
      for (const ENode& node : eclass.nodes) {
        NodeShape& shape = nodes_.emplace_back(NodeShape{node.op, node.dtype, {}});
        for (std::size_t i = 0; i < node.children.size(); ++i) shape.held[i] = summary(egraph.find(node.children[i]));
      }
      facts.count = static_cast<uint32_t>(nodes_.size()) - facts.first;
    }
  }
  // The operations of a canonical class's nodes, and kKnownConstantBit if its value is
  // known (egraph/rule_index.h).
  uint64_t summary(ClassId id) const { return summaries_[id.value]; }
  const std::vector<ClassId>& classes_with(Op op) const { return by_op_[static_cast<std::size_t>(op)]; }
  // How many nodes of `op` each class of classes_with(op) holds, in the same order.
  const std::vector<uint32_t>& node_counts_with(Op op) const { return counts_by_op_[static_cast<std::size_t>(op)]; }
  // The dtypes of the classes holding a node of `op`, one bit per dtype.
  uint32_t dtypes_with(Op op) const { return dtypes_[static_cast<std::size_t>(op)]; }
  // The dtypes of all classes, one bit per dtype.
  uint32_t dtypes_present() const { return present_; }
  // Where each (operation, dtype) run of every class's node list is, for an e-graph
  // built without its nodes (a large one); else null.
  const OpRuns* runs() const { return with_runs_ ? &runs_ : nullptr; }
  // Whether build recorded region_at.
  bool has_regions() const { return with_regions_; }
  // The latest change epoch of canonical class `id` and of the classes its nodes point
  // at (see SearchMemory).
  uint32_t region_at(ClassId id) const { return region_at_[id.value]; }
  // The union of all class summaries: what any operand anywhere may hold.
  uint64_t held_anywhere() const { return held_anywhere_; }
  // Recorded by build(..., with_nodes = true) only, for a canonical class.
  const ClassFacts& facts(ClassId id) const { return facts_[id.value]; }
  std::span<const NodeShape> nodes(const ClassFacts& facts) const {
    return std::span<const NodeShape>(nodes_.data() + facts.first, facts.count);
  }

 private:
  std::array<std::vector<ClassId>, kNumOps> by_op_;
  std::array<std::vector<uint32_t>, kNumOps> counts_by_op_;
  std::array<uint32_t, kNumOps> dtypes_{};
  uint32_t present_ = 0;
  uint64_t held_anywhere_ = 0;
  std::vector<uint64_t> summaries_;  // by class id
  OpRuns runs_;
  bool with_runs_ = false;
  std::vector<uint32_t> region_at_;  // by class id
  bool with_regions_ = false;
  std::vector<ClassFacts> facts_;  // by class id
  std::vector<NodeShape> nodes_;   // by class, in id order
};

// Whether some node of `eclass` with the root operation of a rewrite (`op`, `dtype`)
// has operands whose classes hold what the rewrite's left side needs under its root
// (RootShape). False means the rewrite cannot match there: the search skips the class
// without running the matcher. True means only that it may.
bool may_match(const EGraph& egraph, const OpIndex& op_index, const RootShape& shape, Op op, DType dtype,
               const EClass& eclass) {
  for (const ENode& node : eclass.nodes) {
    if (node.op != op || node.dtype != dtype) continue;
    OpIndex::Held held{};
    for (std::size_t i = 0; i < node.children.size(); ++i) held[i] = op_index.summary(egraph.find(node.children[i]));
    if (operands_meet(shape, held)) return true;
  }
  return false;
}
static_assert(kNumDTypes <= 32, "OpIndex keeps the dtypes of an operation in 32 bits");

// Whether class `id` passes the checks made before running the matcher of a rewrite
// with root `root` and shape `shape` there: its dtype, no known value, may_match.
bool may_hold(const EGraph& egraph, const OpIndex& op_index, const RootShape& shape, const RuleRoot& root, ClassId id) {
  const EClass& eclass = egraph.eclass(id);
  if (eclass.dtype != root.dtype) return false;
  // A class whose value the analysis knows already holds its cheapest form, the
  // constant. Rewriting its other nodes (the folded `c1 + c2` of rules that compute
  // with constants) only decomposes that constant into ever new ones.
  if (eclass.known_constant) return false;
  // (A rewrite whose shape needs nothing of its operands may match in any class.)
  return !root.rooted || !root.constrained() || may_match(egraph, op_index, shape, root.op, root.dtype, eclass);
}

// may_hold from the records of an OpIndex built with its nodes, without reading the
// e-graph: the same answer.
bool may_hold(const OpIndex& op_index, const RootShape& shape, const RuleRoot& root, ClassId id) {
  const OpIndex::ClassFacts& facts = op_index.facts(id);
  if (facts.dtype != root.dtype || facts.constant) return false;
  if (!root.constrained()) return true;
  for (const OpIndex::NodeShape& node : op_index.nodes(facts)) {
    if (node.op == root.op && node.dtype == root.dtype && operands_meet(shape, node.held)) return true;
  }
  return false;
}

// Classes a search task covers: enough that a task outweighs its scheduling.
constexpr std::size_t kClassesPerTask = 256;
// Nodes of the root operation a search task covers, at most (but always one class):
// a saturation's oldest classes hold most of its nodes, and the task of the 256 with
// the lowest ids searched 40% of an iteration of `sum 11` while the other thread ran
// out of tasks (docs/performance.md, "Search tasks by weight").
constexpr std::size_t kRootNodesPerTask = 2048;

// The end of the slice of a search task that starts at `begin` of candidates that end
// at `end`: at most kClassesPerTask classes and, if their counts of root nodes are
// known (`counts`, parallel to the candidates), at most kRootNodesPerTask of those
// unless its first class alone holds more. The slices depend on the e-graph only, and
// the matches of all tasks are taken in order: the result does not depend on them.
std::size_t slice_end(std::size_t begin, std::size_t end, const std::vector<uint32_t>* counts) {
  end = std::min(end, begin + kClassesPerTask);
  if (!counts) return end;
  std::size_t weight = (*counts)[begin];
  std::size_t k = begin + 1;
  for (; k < end && weight + (*counts)[k] <= kRootNodesPerTask; ++k) weight += (*counts)[k];
  return k;
}
// Below this many candidate classes in all, and this many tasks, an iteration
// searches on the calling thread alone (starting threads would cost more than it
// saves). The tasks count too: a saturated e-graph has few classes of many nodes each,
// cut into tasks by weight (slice_end), and the last iteration of `sum 11` searched
// 182 tasks over 4,072 candidates, 27 ms, on one thread.
constexpr std::size_t kParallelSearchMinClasses = 4096;
constexpr std::size_t kParallelSearchMinTasks = 16;

// Class ids a task's match list keeps from one iteration to the next (4 KB): the lists
// of a large iteration are freed once applied, so that they do not add to the peak of
// the rebuild and of the next iteration.
constexpr std::size_t kKeptMatchIds = std::size_t{1} << 10;

void release_large_match_list(TaskMatches& task) {
  if (task.flat.capacity() > kKeptMatchIds) std::vector<ClassId>().swap(task.flat);
  if (task.runs.capacity() > kKeptMatchIds) std::vector<MatchRun>().swap(task.runs);
  if (task.found.capacity() > kKeptMatchIds) std::vector<InstanceFound::State>().swap(task.found);
  if (task.merges.capacity() > kKeptMatchIds) std::vector<std::pair<ClassId, ClassId>>().swap(task.merges);
}

// Searches rewrite `task.rewrite` over its slice of classes, appending its matches
// (by class, then substitution) to `task.flat`; stops early once `found` (shared by
// the tasks of one rewrite) exceeds `limit`, as the backoff scheduler then drops them
// all anyway; and after the class that brings the list to `enough` matches, with
// `task.end` set to the class after it (the slice covered).
// With `memory`, matches an earlier search found are counted in `task.repeated` and
// not listed.
void search_task(const EGraph& egraph, std::span<const Rewrite> rewrites, const RuleIndex& rule_index,
                 const OpIndex& op_index, TaskMatches& task, std::size_t limit, std::atomic<std::size_t>& found,
                 const SearchMemory* memory, std::size_t enough = SIZE_MAX) {
  // A guarded rewrite's matches, all of them, before its guard is asked.
  thread_local std::vector<ClassId> guarded;
  thread_local std::vector<uint32_t> newest;
  const Rewrite& rewrite = rewrites[task.rewrite];
  const MatchProgram& program = rule_index.program(task.rewrite);
  const RuleRoot& root = rule_index.root(task.rewrite);
  const RootShape& shape = rule_index.shape(task.rewrite);
  const uint32_t before = memory ? memory->searched_at[rule_index.bucket_of(task.rewrite)] : SearchMemory::kNever;
  const bool remembered = before != SearchMemory::kNever;
  const std::size_t width = task.width;
  const OpRuns* runs = op_index.runs();
  // Whole classes counted from the last search's counts (see SearchMemory), and this
  // search's counts recorded for the next.
  const bool record = memory && op_index.has_regions() && !rewrite.guard && program.two_levels();
  const bool by_region = record && remembered;
  const std::vector<ClassCount>* previous = by_region ? &memory->counts[task.rewrite] : nullptr;
  std::size_t cursor = 0;
  if (previous) {
    const ClassId first = (*task.classes)[task.begin];
    cursor = static_cast<std::size_t>(std::partition_point(previous->begin(), previous->end(),
                                                           [first](const ClassCount& c) { return c.eclass < first; }) -
                                      previous->begin());
  }
  task.flat.clear();
  task.runs.clear();
  task.found.clear();
  task.listed = 0;
  task.repeated = 0;
  task.class_counts.clear();
  for (std::size_t k = task.begin; k < task.end; ++k) {
    if (found.load(std::memory_order_relaxed) > limit) break;
    const ClassId id = (*task.classes)[k];
    if (!task.filtered && !may_hold(egraph, op_index, shape, root, id)) continue;
    const std::size_t listed_before = task.listed;
    std::size_t kept = 0;
    // The last search's count of this class, if its region has not changed since.
    const ClassCount* unchanged = nullptr;
    if (by_region) {
      while (cursor < previous->size() && (*previous)[cursor].eclass < id) ++cursor;
      const uint32_t region = op_index.region_at(id);
      if (cursor < previous->size() && (*previous)[cursor].eclass == id && region <= before &&
          region <= (*previous)[cursor].at)
        unchanged = &(*previous)[cursor];
    }
    if (unchanged) {
      // The same matches as that search's, all old: counted, and their count kept as it
      // was (with the epoch it was made at).
      kept = unchanged->count;
      task.repeated += kept;
      task.class_counts.push_back(*unchanged);
    } else if (!rewrite.guard) {
      // The program lists the new matches straight into the task's list and counts the
      // others.
      const MatchProgram::Found matches =
          program.run(egraph, id, remembered ? before : MatchProgram::kListAll, task.flat, nullptr, runs);
      task.listed += matches.listed;
      task.repeated += matches.counted;
      kept = matches.listed + matches.counted;
      if (record) task.class_counts.push_back(ClassCount{id, static_cast<uint32_t>(kept), egraph.change_epoch()});
    } else {
      guarded.clear();
      newest.clear();
      const std::size_t count =
          program.run(egraph, id, MatchProgram::kListAll, guarded, remembered ? &newest : nullptr, runs).listed;
      for (std::size_t m = 0; m < count; ++m) {
        const std::span<const ClassId> subst(guarded.data() + m * width, width);
        if (evaluate_guard(egraph, *rewrite.guard, subst) != Truth::True) continue;
        ++kept;
        if (remembered && newest[m] <= before) {
          // A guard reads the facts of every variable's class.
          bool seen = true;
          for (ClassId var : subst) seen = seen && egraph.eclass(var).changed_at <= before;
          if (seen) {
            ++task.repeated;
            continue;
          }
        }
        task.flat.insert(task.flat.end(), subst.begin(), subst.end());
        ++task.listed;
      }
    }
    if (task.listed != listed_before) task.runs.push_back({id, static_cast<uint32_t>(task.listed - listed_before)});
    if (kept) found.fetch_add(kept, std::memory_order_relaxed);
    if (task.listed >= enough) {
      task.end = k + 1;
      break;
    }
  }
  task.matched = task.listed;
  // This thread does not keep the buffer of a class with very many matches.
  if (guarded.capacity() > kKeptMatchIds) std::vector<ClassId>().swap(guarded);
  if (newest.capacity() > kKeptMatchIds) std::vector<uint32_t>().swap(newest);
}

// Growing by doubling leaves a list up to twice as large as its matches, and the match
// lists of an iteration are among the largest things a big run holds: trims them.
void trim_match_list(TaskMatches& task) {
  if (task.flat.capacity() - task.flat.size() > kKeptMatchIds) task.flat.shrink_to_fit();
  if (task.runs.capacity() - task.runs.size() > kKeptMatchIds) task.runs.shrink_to_fit();
}

// Drops from a task's list the matches whose right side's instance is in the e-graph
// already, in the class of the match (find_instances): applying one would change
// nothing. The e-graph is the one the search saw, rebuilt: its hash-cons holds every
// node in canonical form, so a lookup finds what is there. (Applying a dropped match
// after others could add a copy of a node under a form that the merges before it made
// stale, but the rebuild merges that copy back by congruence: the e-graph after the
// rebuild is the same.) What was found of the others is kept for the apply, which then
// need not look it up again: of a match whose right side's root node is in another
// class, that class; of one whose root node alone is missing, its operands (see
// apply_match). Reads the e-graph only, so tasks may run on several threads.
void drop_present(const EGraph& egraph, const Pattern& rhs, TaskMatches& task) {
  using State = InstanceFound::State;
  // Matches asked about at once (find_instances): runs of classes are taken together
  // until this many, so that a class with a match or two costs no call of its own.
  // `found` then holds at most 64 KB, kept from call to call: a block of 128 KB or more
  // is a mapping of its own (tools/main.cpp), and its pages, fresh at every call, cost
  // `pos 3` 70 page faults (2.5% of its time).
  constexpr std::size_t kChunk = std::size_t{1} << 12;
  static_assert(kChunk * sizeof(InstanceFound) <= (std::size_t{64} << 10));
  thread_local std::vector<ClassId> targets;
  thread_local std::vector<InstanceFound> found;
  const std::size_t width = task.width;
  const std::size_t root_arity =
      rhs.root_node().kind == PatternNode::Kind::Op ? rhs.root_node().children.size() : std::size_t{0};
  ClassId* const flat = task.flat.data();
  std::vector<MatchRun>& runs = task.runs;
  task.found.clear();
  task.merges.clear();
  // The matches before `asked` are asked about; those before `m` are kept (moved to
  // before `kept`) or dropped, and so are the runs before `r` (to before `kept_runs`).
  // A kept match or run never overwrites one not yet looked at (kept <= m, kept_runs <= r).
  std::size_t asked = 0, m = 0, kept = 0, r = 0, kept_runs = 0;
  uint32_t done_in_run = 0, kept_in_run = 0;  // of runs[r]
  std::size_t ask_run = 0;                    // the run the next match to ask about is in
  uint32_t asked_in_run = 0;
  while (ask_run < runs.size()) {
    targets.clear();
    while (ask_run < runs.size() && targets.size() < kChunk) {
      const std::size_t take = std::min<std::size_t>(runs[ask_run].count - asked_in_run, kChunk - targets.size());
      targets.insert(targets.end(), take, runs[ask_run].eclass);
      asked_in_run += static_cast<uint32_t>(take);
      if (asked_in_run == runs[ask_run].count) {
        ++ask_run;
        asked_in_run = 0;
      }
    }
    find_instances(egraph, rhs, std::span<const ClassId>(flat + asked * width, targets.size() * width), width, targets,
                   found);
    asked += targets.size();
    for (const InstanceFound& f : found) {
      if (f.state == State::Elsewhere && width > 0) {
        task.merges.emplace_back(runs[r].eclass, f.ids[0]);
      } else if (f.state != State::InClass) {
        ClassId* const slots = flat + kept * width;
        if (kept != m) copy_ids(flat + m * width, width, slots);
        State state = f.state;
        // The ids the apply needs replace the match's when they fit in its place.
        const std::size_t needed = state == State::Elsewhere ? 1 : state == State::RootMissing ? root_arity : width + 1;
        if (needed > width) state = State::Missing;
        if (state != State::Missing) copy_ids(f.ids, needed, slots);
        task.found.push_back(state);
        ++kept;
        ++kept_in_run;
      }
      ++m;
      if (++done_in_run == runs[r].count) {
        if (kept_in_run) runs[kept_runs++] = MatchRun{runs[r].eclass, kept_in_run};
        ++r;
        done_in_run = kept_in_run = 0;
      }
    }
  }
  runs.resize(kept_runs);
  task.flat.resize(kept * width);
  task.listed = kept;
}

// After the apply's merges (the merges first, see run_rewrites), drops from `task` (of
// a rewrite with right side `rhs`) the matches that the filter found RootMissing or
// Missing but that no longer need applying, and returns how many: applying one would
// change nothing that the rebuild does not undo. (The matches the merges applied,
// Elsewhere, go too: the list is left with what the apply's pass applies.) They are of
// two kinds:
//   - copies of an earlier match of the task: the same instance in the same class,
//     once their classes are canonical. The earlier one, applied first, puts the
//     instance in place. (Found by a table of the matches a part of the task at a
//     time, before any lookup.)
//   - right sides the merges put in place, in the match's class: looked up again
//     (find_instances_after_merges).
// The merges of `sum 11` make most matches so: in its eighth iteration, 494,000 of the
// 935,000 that the batch of new nodes would take are copies, and 174,000 more are in
// place. Dropped here, by tasks on the run's threads, they are not looked up one at a
// time in the serial batch (docs/performance.md, "Dropped after the merges"). What is
// dropped depends on the e-graph after the merges and on the task, so on no thread
// count; the rest go to the apply as before.
std::size_t drop_placed_by_merges(const EGraph& egraph, const Pattern& rhs, TaskMatches& task) {
  using State = InstanceFound::State;
  const PatternNode& root = rhs.root_node();
  if (task.found.empty() || root.kind != PatternNode::Kind::Op) return 0;
  std::size_t dropped = 0;
  // The matches of one state, canonical: row j of `substs` (`width` classes) and
  // targets[j], match which[j] of the task.
  struct Rows {
    std::size_t width = 0;
    std::vector<ClassId> substs, targets;
    std::vector<uint32_t> which;
    std::size_t count = 0;
    std::span<ClassId> row(std::size_t j) { return std::span<ClassId>(substs.data() + j * width, width); }
  };
  thread_local Rows root_rows, missing_rows;
  thread_local Pattern root_alone;  // the root over variables: a RootMissing match's ids are its operands
  thread_local std::vector<InstanceFound> found;
  thread_local InternIndex seen;  // the first row of each kind, by hash
  const std::size_t arity = root.children.size();
  root_alone.nodes.clear();
  for (std::size_t k = 0; k < arity; ++k) {
    PatternNode& var = root_alone.nodes.emplace_back();
    var.kind = PatternNode::Kind::Var;
    var.var = static_cast<uint32_t>(k);
    var.dtype = rhs.nodes[root.children[k]].dtype;
  }
  PatternNode& top = root_alone.nodes.emplace_back(root);
  top.children = {};
  for (std::size_t k = 0; k < arity; ++k) top.children.push_back(static_cast<uint32_t>(k));
  root_alone.root = static_cast<uint32_t>(arity);

  // Matches taken at once: the thread keeps the lists below, about 500 KB.
  constexpr std::size_t kChunk = std::size_t{1} << 13;
  root_rows.width = arity;
  missing_rows.width = task.width;
  // (Sized for the task, not more: a fresh page touched costs microseconds.)
  const std::size_t chunk = std::min(task.listed, kChunk);
  for (Rows* rows : {&root_rows, &missing_rows}) {
    if (rows->substs.size() < chunk * rows->width) rows->substs.resize(chunk * rows->width);
    if (rows->targets.size() < chunk) {
      rows->targets.resize(chunk);
      rows->which.resize(chunk);
    }
    rows->count = 0;
  }
  auto drop = [&](Rows& rows) {
    const std::size_t count = rows.count;
    rows.count = 0;
    if (count == 0) return;
    // Copies of an earlier match first (no lookup for them): the rows of the first of
    // each kind are moved up to the front, `unique` of them.
    auto hash_of = [&](std::size_t j) {  // (InternIndex takes its high bits)
      uint64_t h = rows.targets[j].value * 0x9e3779b97f4a7c15ull;
      for (const ClassId id : rows.row(j)) h = (h ^ id.value) * 0xff51afd7ed558ccdull;
      return h;
    };
    seen.reset_for(count);
    std::size_t unique = 0;
    for (std::size_t j = 0; j < count; ++j) {
      const uint64_t hash = hash_of(j);
      const uint32_t earlier = seen.find(hash, [&](uint32_t u) {
        return rows.targets[u] == rows.targets[j] && std::ranges::equal(rows.row(u), rows.row(j));
      });
      if (earlier != InternIndex::kAbsent) {
        task.found[rows.which[j]] = State::InClass;
        ++dropped;
        continue;
      }
      if (unique != j) {
        std::ranges::copy(rows.row(j), rows.row(unique).begin());
        rows.targets[unique] = rows.targets[j];
        rows.which[unique] = rows.which[j];
      }
      seen.insert(hash, static_cast<uint32_t>(unique++));
    }
    // Then what the merges put in place.
    find_instances_after_merges(egraph, &rows == &root_rows ? root_alone : rhs,
                                std::span<const ClassId>(rows.substs.data(), unique * rows.width), rows.width,
                                std::span<const ClassId>(rows.targets.data(), unique), found);
    for (std::size_t u = 0; u < unique; ++u) {
      if (found[u].state == State::InClass) {
        task.found[rows.which[u]] = State::InClass;
        ++dropped;
      }
    }
  };
  // The rows of both states in one pass, the classes canonical.
  std::size_t index = 0;
  for (const MatchRun& run : task.runs) {
    const ClassId target = egraph.find(run.eclass);
    for (uint32_t i = 0; i < run.count; ++i, ++index) {
      const State state = task.found[index];
      if (state != State::RootMissing && state != State::Missing) continue;
      Rows& rows = state == State::RootMissing ? root_rows : missing_rows;
      const ClassId* ids = task.flat.data() + index * task.width;
      ClassId* row = rows.substs.data() + rows.count * rows.width;
      for (std::size_t k = 0; k < rows.width; ++k) row[k] = egraph.find(ids[k]);
      rows.targets[rows.count] = target;
      rows.which[rows.count] = static_cast<uint32_t>(index);
      if (++rows.count == chunk) drop(rows);
    }
  }
  drop(root_rows);
  drop(missing_rows);
  // The list keeps only what the apply's pass will apply (RootMissing and Missing): it
  // walks the lists serially, and in `sum 11` the rest (dropped here, or merged
  // already) are more than half of them.
  std::size_t kept = 0, kept_runs = 0;
  index = 0;
  for (MatchRun& run : task.runs) {
    uint32_t kept_in_run = 0;
    for (uint32_t i = 0; i < run.count; ++i, ++index) {
      const State state = task.found[index];
      if (state != State::RootMissing && state != State::Missing) continue;
      if (kept != index) {
        copy_ids(task.flat.data() + index * task.width, task.width, task.flat.data() + kept * task.width);
        task.found[kept] = state;
      }
      ++kept;
      ++kept_in_run;
    }
    if (kept_in_run) task.runs[kept_runs++] = MatchRun{run.eclass, kept_in_run};
  }
  task.runs.resize(kept_runs);
  task.flat.resize(kept * task.width);
  task.found.resize(kept);
  task.listed = kept;
  return dropped;
}

// The time an iteration's tasks spent searching and filtering, summed over threads:
// the two are one pass when the matches are filtered (search_and_drop_present), and
// the report splits the pass's wall-clock time between them in this proportion.
struct PassTimes {
  std::atomic<int64_t> search_ns{0};
  std::atomic<int64_t> filter_ns{0};
};

// Searches the slice of `task` and drops the matches whose right side is in place
// (drop_present) in one pass, a part at a time: the search lists about kFilterPart
// matches in `buffer` (the thread's), the filter drops the present ones, and `task`
// takes those kept. The search's full lists, several times the kept ones late in a
// saturation, are then never held: one small buffer per thread takes them, reused,
// where a list per task was grown anew by doubling each iteration (its pages faulted
// in afresh each time: 43% of the page faults of `sum 10`, docs/performance.md), and
// the filter reads each match soon after the search wrote it.
void search_and_drop_present(const EGraph& egraph, std::span<const Rewrite> rewrites, const RuleIndex& rule_index,
                             const OpIndex& op_index, TaskMatches& task, TaskMatches& buffer, std::size_t limit,
                             std::atomic<std::size_t>& found, const SearchMemory* memory, PassTimes& times) {
  using Clock = std::chrono::steady_clock;
  // Matches a part lists before it is filtered: enough that the filter's lookups
  // overlap (find_instances takes them a block at a time).
  constexpr std::size_t kFilterPart = std::size_t{1} << 13;
  buffer.rewrite = task.rewrite;
  buffer.active = task.active;
  buffer.width = task.width;
  buffer.classes = task.classes;
  buffer.filtered = task.filtered;
  task.clear_lists();
  std::chrono::nanoseconds searching{0}, filtering{0};
  for (std::size_t next = task.begin; next < task.end && found.load(std::memory_order_relaxed) <= limit;) {
    buffer.begin = next;
    buffer.end = task.end;
    const Clock::time_point start = Clock::now();
    search_task(egraph, rewrites, rule_index, op_index, buffer, limit, found, memory, kFilterPart);
    const Clock::time_point searched = Clock::now();
    next = buffer.end;
    drop_present(egraph, rewrites[task.rewrite].rhs, buffer);
    task.append_lists_of(buffer);
    searching += searched - start;
    filtering += Clock::now() - searched;
  }
  times.search_ns.fetch_add(searching.count(), std::memory_order_relaxed);
  times.filter_ns.fetch_add(filtering.count(), std::memory_order_relaxed);
}

// Applies a match of `rewrite` in class `eclass`, for which the filter found `state`
// (drop_present; Missing if the matches were not filtered): returns whether that made
// a change. `ids` are the match's substitution, or what drop_present put in its place.
// (A match found Elsewhere is only a merge, made from TaskMatches::merges.)
bool apply_match(EGraph& egraph, const Rewrite& rewrite, ClassId eclass, std::span<const ClassId> ids,
                 InstanceFound::State state) {
  const Reason reason = Reason::rewrite(rewrite.name);
  switch (state) {
    case InstanceFound::State::RootMissing:
      return egraph.add_to(eclass, root_instance(rewrite.rhs, ids), reason);
    default:
      return instantiate_into(egraph, rewrite.rhs, ids, eclass, reason);
  }
}

// Matches the apply's batch of new root nodes takes (EGraph::add_all_to) before it is
// applied: the new nodes of a large iteration go in batches of this many.
constexpr std::size_t kApplyBatch = std::size_t{1} << 12;
// The apply takes new root nodes by the batch in an e-graph of kBatchMinNodes e-nodes
// or more (at least as many as the filter needs: the batch takes the filter's
// RootMissing matches), and in one of kBatchFloorNodes or more whose e-nodes and listed
// matches add up to kBatchMinGrowth: an apply that may grow the e-graph past what the
// caches hold. Below, matches applied one at a time find what they read in cache:
// `sum 9`'s applies of 54,628 matches at 12,757 e-nodes and of 43,288 at 19,053 took
// 1.12x the time by the batch (one thread). Above, the batch's phases run on two
// threads where they may: `sum 11`'s sixth apply, 80,048 matches at 9,803 e-nodes, was
// 16-18 ms on either thread count one at a time, and `sum 11` on two threads 0.985x by
// the batch (docs/performance.md, "The apply's batches from 8,192 e-nodes").
constexpr std::size_t kBatchMinNodes = 24576;
constexpr std::size_t kBatchMinGrowth = 81920;
constexpr std::size_t kBatchFloorNodes = 8192;

// Whether the apply's batch takes a match in `state` of a rewrite with right side
// `rhs`: one whose right side's root alone is missing, or (Missing) whose root is an
// operation over new inner nodes (the filter's Missing without a filter is every
// match: the batch is only used with the filter).
bool batched(const Pattern& rhs, InstanceFound::State state) {
  switch (state) {
    case InstanceFound::State::RootMissing:
      return true;
    case InstanceFound::State::Missing:
      return rhs.root_node().kind == PatternNode::Kind::Op;
    default:
      return false;
  }
}

// Where the apply's walk over the match lists stands: the next match is `in_run` of
// run `run` of task `task`, number `index` in its list.
struct MatchCursor {
  std::size_t task = 0;
  std::size_t run = 0;
  uint32_t in_run = 0;
  std::size_t index = 0;
  bool done = false;  // every list walked
};

// The apply's batch of new root nodes (EGraph::add_all_to), with what its matches'
// right sides need before their nodes go in, as far as it is known without the
// e-graph: fill_apply_batch makes it from the match lists alone, in one pass over its
// matches. (Until session 47 the walk over the lists made the entries, and a pass per
// level over the batch then made the right sides' variables and nodes: 13 ms of `sum
// 11`'s apply, on the calling thread. Filled in one pass, `sum 11` ran in 0.981x the
// time on one thread and 0.973x on two; docs/performance.md, "The apply's batch filled
// in one pass".)
struct ApplyBatch {
  static constexpr uint32_t kNoSubst = static_cast<uint32_t>(-1);
  // Each entry: its match's class, its right side's root node (a Missing match's once
  // its operands are made, build_inner_nodes), its rewrite (by position in `active`),
  // and where its substitution starts in `substs` (kNoSubst for RootMissing).
  std::vector<ClassId> targets;
  std::vector<ENode> nodes;
  std::vector<uint32_t> active;
  std::vector<uint32_t> subst_at;
  std::vector<ClassId> substs;
  std::size_t bound = 0;  // at most this many nodes the batch adds
  // The Missing entries (right sides with new inner nodes), in order, and where the
  // classes of each one's right side's nodes start in `built` (one per pattern node:
  // the variables' are filled in, the others once made).
  std::vector<uint32_t> missing;
  std::vector<uint32_t> built_at;  // parallel to `missing`
  std::vector<ClassId> built;
  std::size_t levels = 0;  // the greatest height of a Missing entry's root
  // The new nodes of height 1 (operations over variables) of the right sides without
  // constants, in the order of the entries, and where each one's class goes in `built`.
  std::vector<ENode> level_nodes;
  std::vector<uint32_t> level_slots;
  // Positions in `missing` of the right sides with constants: their constants' classes
  // and nodes of height 1 are made by the apply (a constant's class may be new).
  std::vector<uint32_t> with_constants;
  // The matches that are not batched, in order: applied one at a time before the batch
  // (as the walk met them before the batch was full).
  struct Single {
    uint32_t task;
    uint32_t index;  // in the task's list
    ClassId eclass;
  };
  std::vector<Single> singles;
  std::size_t visited = 0;       // matches the fill walked
  std::size_t tasks_passed = 0;  // tasks whose lists the fill walked to their end

  void clear() {
    targets.clear();
    nodes.clear();
    active.clear();
    subst_at.clear();
    substs.clear();
    bound = 0;
    missing.clear();
    built_at.clear();
    built.clear();
    levels = 0;
    level_nodes.clear();
    level_slots.clear();
    with_constants.clear();
    singles.clear();
    visited = 0;
  }
  // Appends the nodes of height `height` of right side `rhs` but its root (`heights`:
  // node_heights of it), whose classes start at built[at], to level_nodes, and where
  // each one's class goes to level_slots.
  void add_level_nodes(const Pattern& rhs, const std::vector<uint8_t>& heights, uint32_t at, std::size_t height) {
    for (std::size_t k = 0; k < rhs.nodes.size(); ++k) {
      if (k == rhs.root || heights[k] != height) continue;
      set_operation_node(level_nodes.emplace_back(), rhs.nodes[k], built.data() + at);
      level_slots.push_back(static_cast<uint32_t>(at + k));
    }
  }
  // Room for a full batch of the workloads' right sides, so that a fill seldom
  // allocates.
  void reserve() {
    targets.reserve(kApplyBatch);
    nodes.reserve(kApplyBatch);
    active.reserve(kApplyBatch);
    subst_at.reserve(kApplyBatch);
    substs.reserve(3 * kApplyBatch);
    missing.reserve(kApplyBatch);
    built_at.reserve(kApplyBatch);
    built.reserve(6 * kApplyBatch);
    level_nodes.reserve(2 * kApplyBatch);
    level_slots.reserve(2 * kApplyBatch);
  }
};

// The height of each node of pattern `rhs` (its longest path down to a variable or
// constant, 0 for those), in one pass: a pattern's nodes come after their children.
void node_heights(const Pattern& rhs, std::vector<uint8_t>& heights) {
  heights.assign(rhs.nodes.size(), 0);
  for (std::size_t k = 0; k < rhs.nodes.size(); ++k) {
    if (rhs.nodes[k].kind != PatternNode::Kind::Op) continue;
    uint8_t height = 1;
    for (uint32_t child : rhs.nodes[k].children) height = std::max<uint8_t>(height, heights[child] + 1);
    heights[k] = height;
  }
}

// Fills `batch` (cleared) with the matches of the lists `tasks` from `cursor` on, in
// their order, until it holds kApplyBatch entries or the lists end (then
// cursor.done): the matches of rewrites not `applied` are passed over, those batched
// become entries, the others singles. Reads no e-graph and writes nothing but `batch`
// and `cursor`. (Filled on the other thread while the batch before it was applied, the
// batches of `sum 11` on two threads took longer, 1.006-1.012x: the calling thread then
// reads what the other wrote.)
// `heights` are node_heights of the right side of each rewrite with listed matches,
// by position in `active`.
void fill_apply_batch(std::span<const TaskMatches> tasks, const std::vector<char>& applied,
                      std::span<const Rewrite> rewrites, const std::vector<std::vector<uint8_t>>& heights,
                      MatchCursor& cursor, ApplyBatch& batch) {
  batch.clear();
  for (; cursor.task < tasks.size(); ++cursor.task, cursor.run = 0, cursor.in_run = 0, cursor.index = 0) {
    batch.tasks_passed = cursor.task;
    const TaskMatches& task = tasks[cursor.task];
    if (!applied[task.active]) continue;
    const Pattern& rhs = rewrites[task.rewrite].rhs;
    const std::size_t vars = rewrites[task.rewrite].vars.size();
    const std::vector<uint8_t>& rhs_heights = heights[task.active];
    bool constants = false;
    for (const PatternNode& pnode : rhs.nodes) constants |= pnode.kind == PatternNode::Kind::Const;
    for (; cursor.run < task.runs.size(); ++cursor.run, cursor.in_run = 0) {
      const MatchRun& run = task.runs[cursor.run];
      for (; cursor.in_run < run.count; ++cursor.in_run, ++cursor.index) {
        if (batch.nodes.size() == kApplyBatch) return;
        ++batch.visited;
        const InstanceFound::State state =
            task.found.empty() ? InstanceFound::State::Missing : task.found[cursor.index];
        assert(state == InstanceFound::State::RootMissing || state == InstanceFound::State::Missing);
        if (!batched(rhs, state)) {
          batch.singles.push_back(
              {static_cast<uint32_t>(cursor.task), static_cast<uint32_t>(cursor.index), run.eclass});
          continue;
        }
        const std::span<const ClassId> ids(task.flat.data() + cursor.index * task.width, task.width);
        const auto entry = static_cast<uint32_t>(batch.nodes.size());
        batch.targets.push_back(run.eclass);
        batch.active.push_back(static_cast<uint32_t>(task.active));
        if (state == InstanceFound::State::RootMissing) {
          set_root_instance(batch.nodes.emplace_back(), rhs, ids);
          batch.subst_at.push_back(ApplyBatch::kNoSubst);
          batch.bound += 2;
          continue;
        }
        batch.nodes.emplace_back();  // made once its operands are (build_inner_nodes)
        batch.subst_at.push_back(static_cast<uint32_t>(batch.substs.size()));
        batch.substs.insert(batch.substs.end(), ids.begin(), ids.begin() + vars);
        batch.bound += 2 * rhs.nodes.size();
        const auto at = static_cast<uint32_t>(batch.built.size());
        if (constants) batch.with_constants.push_back(static_cast<uint32_t>(batch.missing.size()));
        batch.missing.push_back(entry);
        batch.built_at.push_back(at);
        batch.built.resize(at + rhs.nodes.size());
        for (std::size_t k = 0; k < rhs.nodes.size(); ++k) {
          if (rhs.nodes[k].kind == PatternNode::Kind::Var) batch.built[at + k] = ids[rhs.nodes[k].var];
        }
        batch.levels = std::max<std::size_t>(batch.levels, rhs_heights[rhs.root]);
        if (!constants) batch.add_level_nodes(rhs, rhs_heights, at, 1);
      }
    }
  }
  batch.tasks_passed = tasks.size();
  cursor.done = true;
}

// Below this many e-nodes, no filter: everything the apply reads is in cache, and a
// match applied for nothing costs about what looking it up would (the batch's small
// e-graphs were 5% slower per case with it). From here on the filter pays through the
// merges it lets the apply make first (fewer congruent copies for the rebuild):
// `pos 3`'s eighth iteration, 1,932 e-nodes, took 2.4 ms instead of 3.8 with the filter,
// the run 0.960x (docs/performance.md, "Filtered from 1,024 e-nodes"). At 4,096 until
// session 32; at 2,048 in session 25 it was slower, before the merges came first. No
// case of the external corpora reaches this size: their runs are the same instruction
// for instruction.
constexpr std::size_t kFilterMinNodes = 1024;

// A rewrite to search in an iteration: its candidate classes are (*classes)[begin, end).
struct Candidate {
  uint32_t rewrite = 0;  // position in the span of rewrites
  const std::vector<ClassId>* classes = nullptr;
  std::size_t begin = 0, end = 0;
  std::size_t limit = RunLimits::kNoLimit;  // the backoff scheduler's match limit
  // The count of root nodes of each candidate class, parallel to *classes (null if
  // not known: an unrooted rewrite, or candidates filtered in the set-up).
  const std::vector<uint32_t>* root_counts = nullptr;
};

// What a run's search works in; see run_rewrites. Everything is kept between runs and
// iterations: a batch makes a run or two per case, of an iteration or two, and
// allocating these lists anew was a good part of its time.
struct Scratch {
  OpIndex op_index;
  SearchMemory memory;
  // Buckets whose memory.searched_at is set (all others are kNever): a run resets these.
  std::vector<uint32_t> remembered;
  std::vector<TaskMatches> tasks;
  // The lists a filtered search makes before the filter, one per thread of the run's
  // arena, by its slot there (search_and_drop_present): a part's, kept for the whole
  // run (freed at its end if large). Freed after each iteration, a buffer was grown
  // anew in fresh pages by the next; and a tbb::enumerable_thread_specific took TBB's
  // own allocator, whose first use in a process touched about 40 pages. Both: `pos 3`
  // faulted 70 pages fewer and ran in 0.937x the time (docs/performance.md, "Fresh
  // pages").
  std::vector<TaskMatches> filter_buffers;
  std::size_t tasks_touched = 0;  // tasks the run's iterations used (the others are empty)
  std::vector<Candidate> to_search;
  std::vector<uint32_t> searched_buckets;  // the rule index buckets an iteration searched
  // The classes each rewrite's tasks cover, when filtered in the set-up (TaskMatches).
  std::vector<ClassId> filtered;
  // By position in `active` (the rewrites an iteration searches, each with tasks):
  std::vector<uint32_t> active;         // the rewrite's position
  std::vector<std::size_t> limits_of;   // backoff match limit
  std::vector<std::size_t> first_task;  // its first task (one more entry: the end)
  std::vector<char> applied;            // whether its matches are applied (not banned)
  std::vector<std::size_t> fires;       // applications that made two classes equal
  // The apply's batch of new root nodes (EGraph::add_all_to), what each of its entries
  // changed, the heights of the nodes of each right side (node_heights) by position in
  // `active`, and the classes of the new inner nodes of a level.
  ApplyBatch apply_batch;
  std::vector<uint8_t> batch_changed;
  std::vector<std::vector<uint8_t>> rhs_heights;
  std::vector<ClassId> level_classes;
  std::unique_ptr<std::atomic<std::size_t>[]> found;  // matches found (backoff limit)
  std::size_t found_capacity = 0;
  bool in_use = false;
};

// At most this many e-nodes: the set-up filters each rewrite's candidate classes
// (dtype, known constant, may_match) and makes tasks only over those that pass, so that
// a rewrite that cannot match anywhere costs no task. A small e-graph has a class or
// two per candidate rewrite and most fail. A large one is filtered by its tasks, in
// parallel when several threads search, and without the op index's node records (32
// bytes an e-node, 32 KB at this size).
constexpr std::size_t kFilterInSetUpNodes = 1024;

// The backoff scheduler's memory of one rewrite (egg's RuleStats).
struct RuleBan {
  std::size_t banned_until = 0;  // first iteration (0-based) it is searched again
  std::size_t times_banned = 0;
};

std::size_t shifted(std::size_t value, std::size_t times) {
  return times >= 63 || value > (RunLimits::kNoLimit >> times) ? RunLimits::kNoLimit : value << times;
}

}  // namespace

RunReport run_rewrites(EGraph& egraph, std::span<const Rewrite> rewrites, const RunLimits& limits,
                       const Scheduler& scheduler, FastMath fast_math, unsigned threads,
                       const std::function<bool(const EGraph&)>& reached, const RuleIndex* rule_index) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  auto seconds_since = [](Clock::time_point from) {
    return std::chrono::duration<double>(Clock::now() - from).count();
  };
  auto elapsed = [&] { return seconds_since(start); };
  // Rules proved under nnan or ninf may swap operands that the totality analysis
  // calls total: it must have known the flags when the nodes went in.
  if (fast_math.floats_may_be_poison() && !egraph.fast_math().floats_may_be_poison())
    throw std::logic_error("run_rewrites: nnan or ninf granted to an e-graph not told them (EGraph::set_fast_math)");
  const bool backoff = scheduler.kind == Scheduler::Kind::Backoff;
  std::vector<RuleBan> bans(backoff ? rewrites.size() : 0);
  std::optional<RuleIndex> own_index;
  if (!rule_index || !rule_index->indexes(rewrites)) rule_index = &own_index.emplace(rewrites);

  RunReport report;
  egraph.rebuild();
  // The search's lists keep their storage from one run to the next on this thread (a
  // batch makes a few runs per case). A run started while another is in progress on
  // the same thread (from a task it waits for) uses lists of its own.
  thread_local Scratch kept;
  std::optional<Scratch> own_scratch;
  Scratch& scratch = kept.in_use ? own_scratch.emplace() : kept;
  scratch.in_use = true;
  // (Match lists a large run grew, megabytes for the standard workloads, are freed
  // by each iteration once applied: none is kept for the small runs that follow.)
  struct Release {
    Scratch& scratch;
    ~Release() {
      for (std::size_t t = 0; t < scratch.tasks_touched; ++t) release_large_match_list(scratch.tasks[t]);
      for (TaskMatches& buffer : scratch.filter_buffers) release_large_match_list(buffer);
      scratch.tasks_touched = 0;
      scratch.in_use = false;
    }
  } release{scratch};
  OpIndex& op_index = scratch.op_index;
  const bool remember = !backoff && !egraph.explainer();
  SearchMemory* memory = remember ? &scratch.memory : nullptr;
  if (memory) {
    if (memory->searched_at.size() != rule_index->num_buckets()) {
      memory->searched_at.assign(rule_index->num_buckets(), SearchMemory::kNever);
    } else {
      for (uint32_t r : scratch.remembered) memory->searched_at[r] = SearchMemory::kNever;
    }
    scratch.remembered.clear();
    if (memory->counts.size() < rewrites.size()) memory->counts.resize(rewrites.size());
    for (uint32_t r : memory->counted) memory->counts[r].clear();
    memory->counted.clear();
  }
  std::vector<TaskMatches>& tasks = scratch.tasks;
  std::vector<uint32_t>& active = scratch.active;  // the rewrites an iteration searches, by position
  std::optional<tbb::task_arena> arena;            // made when work first goes parallel
  // Populates the heap's growth on another of the arena's threads while this one
  // applies (egraph/heap_growth_helper.h). After the arena: it ends first.
  GrowthHelper growth_helper;
  auto offer_growth = [&] {
    if (arena) growth_helper.offer(*arena, egraph.num_nodes());
  };
  // Runs `body` in the run's arena of `threads` threads (made on first use), or here
  // on one thread.
  auto run_on_threads = [&](auto&& body) {
    if (threads > 1) {
      if (!arena) arena.emplace(static_cast<int>(threads));
      arena->execute(body);
    } else {
      body();
    }
  };
  // The threads the apply's batches of new nodes run on: the run's, where a line one
  // of them writes is cheap for another to read (egraph/core_handoff.h, measured at
  // the first batch of the process), else this one. The batch's result is the same.
  auto batch_threads = [&] {
    if (report.apply_batch_threads == 0)
      report.apply_batch_threads = threads > 1 && threads_hand_off_cheaply() ? threads : 1;
    return report.apply_batch_threads;
  };
  // Calls `body(t)` for every task t below `count`: on the run's threads if `parallel`
  // (with more than one thread), else here, in order.
  auto for_each_task = [&](std::size_t count, bool parallel, auto&& body) {
    if (parallel && threads > 1) {
      run_on_threads([&] { tbb::parallel_for(std::size_t(0), count, body); });
    } else {
      for (std::size_t t = 0; t < count; ++t) body(t);
    }
  };
  for (;;) {
    if (reached && reached(egraph)) {
      report.stop_reason = StopReason::Minimal;
      break;
    }
    if (report.iterations >= limits.max_iterations) {
      report.stop_reason = StopReason::IterationLimit;
      break;
    }
    if (egraph.num_nodes() >= limits.max_nodes) {
      report.stop_reason = StopReason::NodeLimit;
      break;
    }
    if (elapsed() >= limits.max_seconds) {
      report.stop_reason = StopReason::TimeLimit;
      break;
    }
    const std::size_t iteration = report.iterations++;  // 0-based, as egg counts bans
    advise_heap_growth(egraph.num_nodes());             // a no-op unless use_huge_pages_for_heap turned the advice on
    IterationStats stats;
    stats.nodes = egraph.num_nodes();
    stats.classes = egraph.num_classes();

    // Search: all rewrites against the same e-graph. The work is cut into tasks (a
    // rewrite and a slice of its candidate classes) that may run on several threads;
    // their matches are then taken in a fixed order (by rewrite, then class id, then
    // substitution), so the order of application never depends on hashing, timing or
    // the number of threads.
    auto phase = Clock::now();
    const std::vector<ClassId> ids = egraph.class_ids();
    const bool filter_in_set_up = egraph.num_nodes() <= kFilterInSetUpNodes;
    op_index.build(egraph, ids, filter_in_set_up, memory != nullptr);
    // The dtypes some class has: a rule instance whose root has another matches
    // nothing, and most rules have an instance per integer dtype.
    const uint32_t dtypes_present = op_index.dtypes_present();
    // The rewrites to search and their candidate classes (filtered here for a small
    // e-graph), in increasing position.
    std::vector<Candidate>& to_search = scratch.to_search;
    to_search.clear();
    std::vector<ClassId>& filtered = scratch.filtered;
    filtered.clear();
    std::size_t candidates = 0;
    // A rewrite whose operands need what no class holds matches nowhere: most of the
    // rewrites of a small e-graph's buckets are dropped by this one test, before
    // `consider` (a mask per rewrite; see RuleRoot::needs).
    const uint64_t held_anywhere = op_index.held_anywhere();
    // Adds rewrite `r` to to_search unless no class is a candidate for it.
    auto consider = [&](uint32_t r, const RuleRoot& root, std::size_t limit) {
      const std::vector<ClassId>* classes = root.rooted ? &op_index.classes_with(root.op) : &ids;
      candidates += classes->size();
      std::size_t begin = 0, end = classes->size();
      if (filter_in_set_up) {
        begin = filtered.size();
        const RootShape& shape = rule_index->shape(r);
        for (ClassId id : *classes) {
          if (may_hold(op_index, shape, root, id)) filtered.push_back(id);
        }
        end = filtered.size();
        classes = &filtered;  // the vector, not its storage: it may still grow
      }
      const std::vector<uint32_t>* root_counts =
          root.rooted && !filter_in_set_up ? &op_index.node_counts_with(root.op) : nullptr;
      if (begin != end) to_search.push_back(Candidate{r, classes, begin, end, limit, root_counts});
    };
    std::vector<uint32_t>& searched_buckets = scratch.searched_buckets;
    searched_buckets.clear();
    if (backoff) {
      // The backoff scheduler looks at every rewrite of a dtype present, so that its
      // bans and their counts are those of a scan of all rewrites.
      for (std::size_t r = 0; r < rewrites.size(); ++r) {
        const RuleRoot& root = rule_index->root(r);
        if (!(dtypes_present >> static_cast<unsigned>(root.dtype) & 1)) continue;
        // A rule proved only under relaxed float semantics runs only where they are granted.
        if (!fast_math.includes(root.fast_math)) continue;
        RuleBan& ban = bans[r];
        if (iteration < ban.banned_until) {
          ++stats.banned;
          continue;
        }
        if (!may_match_somewhere(root, held_anywhere)) continue;
        consider(static_cast<uint32_t>(r), root, shifted(scheduler.match_limit, ban.times_banned));
      }
    } else {
      // The buckets of the index whose root (operation, dtype) some class has: all
      // their rewrites are searched (SearchMemory keeps one epoch per bucket).
      auto consider_bucket = [&](std::span<const uint32_t> bucket) {
        if (bucket.empty()) return;
        searched_buckets.push_back(rule_index->bucket_of(bucket.front()));
        for (uint32_t r : bucket) {
          const RuleRoot& root = rule_index->root(r);
          if (fast_math.includes(root.fast_math) && may_match_somewhere(root, held_anywhere))
            consider(r, root, RunLimits::kNoLimit);
        }
      };
      for (int op = 0; op < kNumOps; ++op) {
        for (uint32_t mask = op_index.dtypes_with(Op(op)); mask != 0; mask &= mask - 1)
          consider_bucket(rule_index->rooted_at(Op(op), DType(std::countr_zero(mask))));
      }
      for (uint32_t mask = dtypes_present; mask != 0; mask &= mask - 1)
        consider_bucket(rule_index->unrooted(DType(std::countr_zero(mask))));
      // Buckets hold increasing positions; the few rewrites left are put in order.
      std::sort(to_search.begin(), to_search.end(),
                [](const Candidate& x, const Candidate& y) { return x.rewrite < y.rewrite; });
    }
    // `active`: the rewrites searched, by increasing position; each has tasks.
    active.clear();
    const std::size_t num_active = to_search.size();
    std::vector<std::size_t>& limits_of = scratch.limits_of;
    std::vector<std::size_t>& first_task = scratch.first_task;
    limits_of.resize(num_active);
    first_task.resize(num_active + 1);
    if (scratch.found_capacity < num_active) {
      scratch.found = std::make_unique<std::atomic<std::size_t>[]>(num_active);
      scratch.found_capacity = num_active;
    }
    std::atomic<std::size_t>* found = scratch.found.get();
    std::size_t used = 0;  // tasks of this iteration (the vector keeps their buffers)
    for (std::size_t a = 0; a < num_active; ++a) {
      const Candidate& candidate = to_search[a];
      const uint32_t r = candidate.rewrite;
      active.push_back(r);
      limits_of[a] = candidate.limit;
      first_task[a] = used;
      found[a].store(0, std::memory_order_relaxed);
      const std::size_t width = rewrites[r].vars.size();
      for (std::size_t begin = candidate.begin; begin < candidate.end;) {
        if (used == tasks.size()) tasks.emplace_back();
        TaskMatches& task = tasks[used++];
        task.rewrite = r;
        task.active = a;
        task.width = width;
        task.classes = candidate.classes;
        task.begin = begin;
        task.end = slice_end(begin, candidate.end, candidate.root_counts);
        task.filtered = filter_in_set_up;
        begin = task.end;
      }
    }
    first_task[num_active] = used;
    scratch.tasks_touched = std::max(scratch.tasks_touched, used);
    // Once the e-graph is large, the matches whose right side is in place already are
    // dropped before the apply (drop_present), each task's right after its search,
    // against the same e-graph: the same way for any number of threads. With
    // explanations on, every match records its edge, so none is dropped.
    const bool filtering = !egraph.explainer() && egraph.num_nodes() >= kFilterMinNodes;
    PassTimes times;
    const bool parallel_search =
        threads > 1 && used > 1 && (candidates >= kParallelSearchMinClasses || used >= kParallelSearchMinTasks);
    if (const std::size_t slots = std::max(threads, 1u); filtering && scratch.filter_buffers.size() < slots)
      scratch.filter_buffers.resize(slots);
    // The thread's filter buffer: by its slot in the run's arena (0 to threads - 1),
    // the first one on one thread.
    auto filter_buffer = [&]() -> TaskMatches& {
      if (!parallel_search) return scratch.filter_buffers[0];
      const int slot = tbb::this_task_arena::current_thread_index();
      assert(slot >= 0 && static_cast<unsigned>(slot) < threads);
      return scratch.filter_buffers[static_cast<std::size_t>(slot)];
    };
    auto run_task = [&](std::size_t t) {
      TaskMatches& task = tasks[t];
      if (filtering) {
        search_and_drop_present(egraph, rewrites, *rule_index, op_index, task, filter_buffer(), limits_of[task.active],
                                found[task.active], memory, times);
      } else {
        search_task(egraph, rewrites, *rule_index, op_index, task, limits_of[task.active], found[task.active], memory);
        trim_match_list(task);
      }
    };
    for_each_task(used, parallel_search, run_task);
    if (memory && op_index.has_regions()) {
      // Each rewrite's counts by class, for its next search (SearchMemory::counts).
      for (std::size_t a = 0; a < num_active; ++a) {
        std::vector<ClassCount>& counts = memory->counts[active[a]];
        const bool was_empty = counts.empty();
        counts.clear();
        for (std::size_t t = first_task[a]; t < first_task[a + 1]; ++t)
          counts.insert(counts.end(), tasks[t].class_counts.begin(), tasks[t].class_counts.end());
        if (was_empty && !counts.empty()) memory->counted.push_back(active[a]);
      }
    }
    // The backoff scheduler bans a rule that found more than its limit: none of its
    // matches are applied.
    std::vector<char>& applied = scratch.applied;
    applied.assign(num_active, 1);
    for (std::size_t a = 0; backoff && a < num_active; ++a) {
      if (first_task[a] == first_task[a + 1]) continue;
      std::size_t count = 0;
      for (std::size_t t = first_task[a]; t < first_task[a + 1]; ++t) count += tasks[t].count();
      if (count > limits_of[a]) {
        applied[a] = 0;
        RuleBan& ban = bans[active[a]];
        const std::size_t length = shifted(scheduler.ban_length, ban.times_banned);
        ++ban.times_banned;
        ban.banned_until = length > RunLimits::kNoLimit - iteration ? RunLimits::kNoLimit : iteration + length;
        ++stats.banned;
      }
    }
    for (std::size_t t = 0; t < used; ++t) {
      if (applied[tasks[t].active]) stats.matches += tasks[t].count() + tasks[t].repeated;
    }
    if (memory && egraph.change_epoch() < kMaxNodeEpoch) {
      // Every match of the rewrites searched is applied below (the simple scheduler
      // bans nothing): the next search of each may skip what this one found.
      for (uint32_t bucket : searched_buckets) {
        uint32_t& at = memory->searched_at[bucket];
        if (at == SearchMemory::kNever) scratch.remembered.push_back(bucket);
        at = egraph.change_epoch();
      }
    }
    // Changes from here on are newer than this search.
    egraph.advance_change_epoch();
    {
      const double pass = seconds_since(phase);
      const auto search_ns = static_cast<double>(times.search_ns.load());
      const auto filter_ns = static_cast<double>(times.filter_ns.load());
      const double filter_share = filter_ns > 0 ? filter_ns / (search_ns + filter_ns) : 0.0;
      stats.search_seconds = pass * (1 - filter_share);
      stats.filter_seconds = pass * filter_share;
      report.search_seconds += stats.search_seconds;
      report.filter_seconds += stats.filter_seconds;
    }

    // The merges first. A filtered match whose right side is in the e-graph already, in
    // another class (Elsewhere), is only a merge, and all of them are made before any
    // node of the other matches: two matches that make the same new node then both ask
    // the hash-cons with the same canonical operands, and the second finds the first's
    // node. Made in match order, the merges in between changed the operands' canonical
    // ids, and the second made a congruent copy for the rebuild to find and merge back:
    // `pos 3`'s ninth apply left 12,590 e-nodes, of which the rebuild kept 6,350; merges
    // first, 8,402 (docs/performance.md, "The apply's merges first"). The e-graph after
    // the rebuild is the same either way: the congruence closure of the same terms and
    // equalities. Explanations (never filtered) apply every match in order.
    // (The filter sets those matches apart, TaskMatches::merges.)
    const bool merges_first = filtering;
    // Which matches a pass of for_each_match visits, and whether it applies them.
    enum class Pass : uint8_t {
      Read,   // every match; nothing is applied (the left terms of explanations)
      Apply,  // every match listed (the Elsewhere ones are not: see merges_first), applied
    };
    // Calls `visit(rewrite, its position in active, class, ids, state)` for every match
    // listed, in order: `ids` are its substitution, or what the filter put in its place
    // (`state`, Missing if none: apply_match). The filters leave only RootMissing and
    // Missing matches in the lists (drop_present takes out the InClass ones and sets the
    // Elsewhere ones apart, drop_placed_by_merges what the merges put in place). In a
    // pass that applies them, what the apply of the match kPrefetchAhead places on will
    // look up first is fetched meanwhile (most of the apply's time is otherwise spent
    // waiting for it), and after the last pass each task's large match list is freed
    // once applied, so that the lists do not add to the e-graph's growth at the end of
    // the apply, a run's peak of memory.
    constexpr std::size_t kPrefetchAhead = 4;
    // A large e-graph's filtered matches whose right side's root is an operation
    // (RootMissing, and Missing with new inner nodes: `batched`) are applied by the
    // batch (EGraph::add_all_to, which fetches what it needs itself), the others one at
    // a time, before the batch they came in.
    const bool batching = filtering && [&] {
      if (egraph.num_nodes() >= kBatchMinNodes) return true;
      if (egraph.num_nodes() < kBatchFloorNodes) return false;
      std::size_t listed = 0;
      for (std::size_t t = 0; t < used; ++t) listed += applied[tasks[t].active] ? tasks[t].listed : 0;
      return egraph.num_nodes() + listed >= kBatchMinGrowth;
    }();
    auto for_each_match = [&](Pass pass, auto&& visit) {
      const bool applying = pass != Pass::Read;
      for (std::size_t t = 0; t < used; ++t) {
        TaskMatches& task = tasks[t];
        if (!applied[task.active]) continue;
        const Pattern& rhs = rewrites[task.rewrite].rhs;
        const std::size_t width = task.width;
        auto state_of = [&](std::size_t index) {
          return task.found.empty() ? InstanceFound::State::Missing : task.found[index];
        };
        std::size_t index = 0;  // of the match in the task's list
        for (const MatchRun& run : task.runs) {
          for (uint32_t i = 0; i < run.count; ++i, ++index) {
            const std::size_t ahead = index + kPrefetchAhead;
            if (applying && ahead < task.listed) {
              const std::span<const ClassId> next(task.flat.data() + ahead * width, width);
              if (state_of(ahead) == InstanceFound::State::RootMissing) {
                egraph.prefetch_canonical(root_instance(rhs, next));
              } else {
                prefetch_instance(egraph, rhs, next);
              }
            }
            const InstanceFound::State state = state_of(index);
            assert(state == InstanceFound::State::RootMissing || state == InstanceFound::State::Missing);
            if (!visit(task.rewrite, task.active, run.eclass,
                       std::span<const ClassId>(task.flat.data() + index * width, width), state))
              return;
          }
        }
        if (pass == Pass::Apply) release_large_match_list(task);
      }
    };

    // With explanations on, each rule's edge joins the exact instance of its left side
    // (added now, while every match still stands in the rebuilt e-graph: only ids are
    // added, never classes) to its right side.
    std::vector<ClassId> left_terms;
    if (egraph.explainer()) {
      left_terms.reserve(stats.matches);
      for_each_match(Pass::Read, [&](std::size_t r, std::size_t, ClassId eclass, std::span<const ClassId> subst,
                                     InstanceFound::State) {
        left_terms.push_back(instantiate(egraph, rewrites[r].lhs, subst));
        assert(egraph.find(left_terms.back()) == egraph.find(eclass));
        (void)eclass;
        return true;
      });
    }

    phase = Clock::now();
    offer_growth();                 // what the search and the last rebuild grew the heap by
    std::optional<StopReason> cut;  // a limit reached in the middle of applying
    std::vector<std::size_t>& fires = scratch.fires;
    fires.assign(active.size(), 0);
    std::size_t m = 0;  // matches visited
    // Counts a match's application; false if it reached the node limit (applying nodes
    // can outgrow the budget within one iteration: the apply stops there).
    auto applied_one = [&](std::size_t a, bool changed) {
      ++stats.applied;
      if (changed) {
        ++fires[a];
        ++stats.merges;
      }
      if (egraph.num_nodes() < limits.max_nodes) return true;
      cut = StopReason::NodeLimit;
      return false;
    };
    std::vector<uint8_t>& batch_changed = scratch.batch_changed;
    std::vector<std::vector<uint8_t>>& rhs_heights = scratch.rhs_heights;
    // The new inner nodes of the batch's Missing matches, level by level of their right
    // sides (EGraph::add_all: ids in the order of the levels, then of the matches), and
    // then every Missing match's root node. What the fill made of them already: the
    // variables' classes and the nodes of height 1 of right sides without constants.
    auto build_inner_nodes = [&](ApplyBatch& batch) {
      // The right sides with constants: their constants' classes, then their nodes of
      // height 1, after the others'.
      for (uint32_t p : batch.with_constants) {
        const Pattern& rhs = rewrites[active[batch.active[batch.missing[p]]]].rhs;
        const std::vector<uint8_t>& heights = rhs_heights[batch.active[batch.missing[p]]];
        ClassId* built = batch.built.data() + batch.built_at[p];
        for (std::size_t k = 0; k < rhs.nodes.size(); ++k) {
          if (rhs.nodes[k].kind == PatternNode::Kind::Const) built[k] = egraph.add_constant(rhs.value_of(rhs.nodes[k]));
        }
        batch.add_level_nodes(rhs, heights, batch.built_at[p], 1);
      }
      // A node of height h has its operands' classes once the nodes of the heights
      // below it are made.
      for (std::size_t height = 1; height < batch.levels; ++height) {
        if (height > 1) {
          batch.level_nodes.clear();
          batch.level_slots.clear();
          for (std::size_t p = 0; p < batch.missing.size(); ++p) {
            const uint32_t a = batch.active[batch.missing[p]];
            batch.add_level_nodes(rewrites[active[a]].rhs, rhs_heights[a], batch.built_at[p], height);
          }
        }
        std::vector<ClassId>& classes = scratch.level_classes;
        run_on_threads([&] { egraph.add_all(batch.level_nodes, classes, batch_threads()); });
        for (std::size_t j = 0; j < batch.level_slots.size(); ++j) batch.built[batch.level_slots[j]] = classes[j];
      }
      for (std::size_t p = 0; p < batch.missing.size(); ++p) {
        const uint32_t e = batch.missing[p];
        set_operation_node(batch.nodes[e], rewrites[active[batch.active[e]]].rhs.root_node(),
                           batch.built.data() + batch.built_at[p]);
      }
    };
    // Applies the batch; false if a limit cut it short. Near the node limit its matches
    // are applied one at a time, so that the apply stops at the one that reaches it.
    auto apply_batch = [&](ApplyBatch& batch) {
      const std::size_t size = batch.nodes.size();
      if (size == 0) return true;
      bool whole = true;
      if (egraph.num_nodes() + batch.bound < limits.max_nodes) {
        const Clock::time_point inner = Clock::now();
        build_inner_nodes(batch);
        const Clock::time_point roots = Clock::now();
        stats.batch_inner_seconds += std::chrono::duration<double>(roots - inner).count();
        run_on_threads([&] { egraph.add_all_to(batch.targets, batch.nodes, batch_changed, batch_threads()); });
        stats.batch_root_seconds += seconds_since(roots);
        for (std::size_t i = 0; i < size; ++i) applied_one(batch.active[i], batch_changed[i]);
      } else {
        for (std::size_t i = 0; i < size && whole; ++i) {
          const Rewrite& rewrite = rewrites[active[batch.active[i]]];
          const Reason reason = Reason::rewrite(rewrite.name);
          whole = applied_one(batch.active[i],
                              batch.subst_at[i] == ApplyBatch::kNoSubst
                                  ? egraph.add_to(batch.targets[i], batch.nodes[i], reason)
                                  : instantiate_into(egraph, rewrite.rhs,
                                                     std::span<const ClassId>(batch.substs.data() + batch.subst_at[i],
                                                                              rewrite.vars.size()),
                                                     batch.targets[i], reason));
        }
      }
      return whole;
    };
    // After `count` more matches visited: false once the time is up (checked each time
    // the count of matches visited passes a multiple of 64).
    auto looked_at = [&](std::size_t count) {
      const bool look = (m >> 6) != ((m + count) >> 6);
      m += count;
      if (!look) return true;
      // The e-graph may pass the size from which the heap takes huge pages in the
      // middle of a large apply, before most of its growth.
      advise_heap_growth(egraph.num_nodes());
      offer_growth();
      if (elapsed() < limits.max_seconds) return true;
      cut = StopReason::TimeLimit;
      return false;
    };
    if (merges_first) {
      const Clock::time_point merges = Clock::now();
      for (std::size_t t = 0; t < used && !cut; ++t) {
        const TaskMatches& task = tasks[t];
        if (!applied[task.active]) continue;
        const Reason reason = Reason::rewrite(rewrites[task.rewrite].name);
        const std::size_t count = task.merges.size();
        for (std::size_t i = 0; i < count; ++i) {
          if (i + kPrefetchAhead < count) egraph.prefetch_find(task.merges[i + kPrefetchAhead].second);
          const auto [eclass, other] = task.merges[i];
          if (!applied_one(task.active, egraph.merge(eclass, other, reason)) || !looked_at(1)) break;
        }
      }
      stats.merges_first_seconds = seconds_since(merges);
    }
    if (batching && !cut) {
      const Clock::time_point drop = Clock::now();
      // What the merges put in place is dropped before the batch (drop_placed_by_merges).
      std::atomic<std::size_t> dropped{0};
      auto drop_task = [&](std::size_t t) {
        TaskMatches& task = tasks[t];
        if (applied[task.active]) {
          dropped.fetch_add(drop_placed_by_merges(egraph, rewrites[task.rewrite].rhs, task), std::memory_order_relaxed);
        }
      };
      for_each_task(used, used > 1, drop_task);
      stats.dropped_after_merges = dropped.load();
      stats.drop_after_merges_seconds = seconds_since(drop);
    }
    if (!cut && batching) {
      // The matches by the batch, a batch at a time, filled from the lists
      // (fill_apply_batch) and applied.
      if (rhs_heights.size() < num_active) rhs_heights.resize(num_active);
      for (std::size_t a = 0; a < num_active; ++a) rhs_heights[a].clear();
      for (std::size_t t = 0; t < used; ++t) {
        const TaskMatches& task = tasks[t];
        if (applied[task.active] && task.listed > 0 && rhs_heights[task.active].empty())
          node_heights(rewrites[task.rewrite].rhs, rhs_heights[task.active]);
      }
      const std::span<const TaskMatches> lists(tasks.data(), used);
      ApplyBatch& batch = scratch.apply_batch;
      batch.reserve();
      MatchCursor cursor;
      std::size_t released = 0;  // tasks whose large lists are freed
      while (!cursor.done) {
        fill_apply_batch(lists, applied, rewrites, rhs_heights, cursor, batch);
        // The matches not batched first, as the walk met them before the batch was full.
        bool whole = true;
        for (const ApplyBatch::Single& single : batch.singles) {
          const TaskMatches& task = tasks[single.task];
          const InstanceFound::State state =
              task.found.empty() ? InstanceFound::State::Missing : task.found[single.index];
          const std::span<const ClassId> match_ids(task.flat.data() + single.index * task.width, task.width);
          whole =
              applied_one(task.active, apply_match(egraph, rewrites[task.rewrite], single.eclass, match_ids, state));
          if (!whole) break;
        }
        whole = whole && looked_at(batch.visited) && apply_batch(batch);
        // The lists the batch walked to their end are no longer read.
        for (; released < batch.tasks_passed; ++released) release_large_match_list(tasks[released]);
        if (!whole) break;
      }
      batch.clear();
    } else if (!cut) {
      for_each_match(Pass::Apply, [&](std::size_t r, std::size_t a, ClassId eclass, std::span<const ClassId> match_ids,
                                      InstanceFound::State state) {
        // With explanations, the edge joins the left side's exact term to the right
        // side's (no match was filtered); without, the right side joins the class (a
        // new root node goes straight into it).
        const Rewrite& rewrite = rewrites[r];
        const bool changed = left_terms.empty()
                                 ? apply_match(egraph, rewrite, eclass, match_ids, state)
                                 : egraph.merge(left_terms[m], instantiate(egraph, rewrite.rhs, match_ids),
                                                Reason::rewrite(rewrite.name));
        return applied_one(a, changed) && looked_at(1);
      });
    }
    for (std::size_t a = 0; stats.merges > 0 && a < num_active; ++a) {
      if (fires[a]) report.rule_fires[rewrites[active[a]].name] += fires[a];
    }
    stats.apply_seconds = seconds_since(phase);
    report.apply_seconds += stats.apply_seconds;
    stats.nodes_after_apply = egraph.num_nodes();
    // (The lists the apply did not reach: those of a banned rule, or after a limit.)
    for (std::size_t t = 0; t < used; ++t) release_large_match_list(tasks[t]);

    phase = Clock::now();
    offer_growth();  // the apply's last matches
    if (threads > 1 && arena) {
      // The repair of the classes' lists runs on the arena's threads (EGraph::rebuild).
      arena->execute([&] { egraph.rebuild(threads); });
    } else {
      egraph.rebuild();
    }
    stats.rebuild_seconds = seconds_since(phase);
    report.rebuild_seconds += stats.rebuild_seconds;
    report.per_iteration.push_back(stats);
    if (cut) {
      report.stop_reason = *cut;
      break;
    }
    if (stats.merges == 0) {
      // No match made two classes equal (a new node always lands in a new class, which
      // the merge then joins, so no new node survived either): a fixpoint of the rules
      // searched. With rules banned, that is no fixpoint yet: end their bans now
      // (egg's fast-forward) so that the next iteration searches them.
      std::size_t next_unban = RunLimits::kNoLimit;
      for (const RuleBan& ban : bans) {
        if (ban.banned_until > iteration) next_unban = std::min(next_unban, ban.banned_until);
      }
      if (next_unban == RunLimits::kNoLimit) {
        report.stop_reason = StopReason::Saturated;
        break;
      }
      const std::size_t delta = next_unban - (iteration + 1);
      for (RuleBan& ban : bans) {
        if (ban.banned_until > iteration) ban.banned_until -= delta;
      }
    }
  }
  report.nodes = egraph.num_nodes();
  report.classes = egraph.num_classes();
  report.seconds = elapsed();
  return report;
}

}  // namespace eqsat
