// The saturation runner: search every rewrite, apply the matches, rebuild, repeat,
// until nothing changes or a limit is reached. Like egg's Runner, it always stops
// with a usable e-graph and a report of what happened.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "egraph/egraph.h"
#include "egraph/rewrite.h"
#include "egraph/rule_index.h"

namespace eqsat {

struct RunLimits {
  static constexpr std::size_t kNoLimit = static_cast<std::size_t>(-1);
  std::size_t max_iterations = 30;
  std::size_t max_nodes = 10000;
  double max_seconds = 5.0;
};

// Which rules are searched in an iteration.
//   Simple:  every rule, every iteration (the semantics of the standard workloads).
//   Backoff: egg's BackoffScheduler. A rule whose search finds more than its match
//            limit (match_limit << times banned) matches is not applied but banned for
//            ban_length << times banned iterations (so each ban doubles the next limit
//            and length). The run is saturated only when nothing changed and no rule is
//            banned; when nothing changed while rules are banned, their bans are cut
//            short (egg's fast-forward) so that the next iteration searches them.
struct Scheduler {
  enum class Kind { Simple, Backoff };
  Kind kind = Kind::Simple;
  std::size_t match_limit = 1000;  // egg's defaults
  std::size_t ban_length = 5;
};

// Minimal: the caller's goal is reached (run_rewrites' `reached`): more rewriting cannot
// find a better form. Stalled: the caller stopped a run that grew without making its
// result better (run_rewrites never gives it; simplify_expr does, passes/stall_watch.h).
enum class StopReason { Saturated, IterationLimit, NodeLimit, TimeLimit, Minimal, Stalled };
std::string_view stop_reason_name(StopReason reason);  // "saturated", "iteration-limit", ...

// One iteration: the e-graph at its start and what its search found.
struct IterationStats {
  std::size_t nodes = 0;    // canonical e-nodes at the start of the iteration
  std::size_t classes = 0;  // e-classes at the start of the iteration
  std::size_t matches = 0;  // matches the search found and kept (backoff: of unbanned rules)
  // Of those, the matches applied: not found by an earlier search already (the simple
  // scheduler's semi-naive apply) and with a right side not yet in place.
  std::size_t applied = 0;
  // Matches the filter kept but the apply dropped after its merges, before its batch of
  // new nodes: their right side was in place by then, or they were copies of an earlier
  // match of the same rewrite (egraph/runner.cpp, drop_placed_by_merges). Not in
  // `applied`.
  std::size_t dropped_after_merges = 0;
  // Applications that changed the e-graph: added a node or made two classes equal.
  // Matches whose right side was in place already are not applied (egraph/runner.cpp,
  // drop_present) and count for nothing; an iteration with no merge changed nothing.
  std::size_t merges = 0;
  std::size_t banned = 0;  // rules not applied this iteration (backoff)
  // E-nodes once the matches were applied, before the rebuild merged the congruent
  // copies among them: what the apply made (the next iteration's `nodes` is what was
  // left of it).
  std::size_t nodes_after_apply = 0;
  // Where this iteration's time went, as the run's totals (RunReport) split it: they
  // are these summed.
  double search_seconds = 0.0;
  double filter_seconds = 0.0;
  double apply_seconds = 0.0;
  double rebuild_seconds = 0.0;
  // Parts of apply_seconds, so that a measurement says which part of the apply moved
  // (docs/performance.md). The merges made first, of the matches whose right side is
  // in another class; the drop of the matches those merges put in place (on the run's
  // threads); the batches' new inner nodes (EGraph::add_all, a level at a time) and new
  // root nodes (EGraph::add_all_to). The last three are 0 in an e-graph too small for
  // batches; what the parts leave of apply_seconds is the loop over the matches and
  // the matches applied one at a time.
  double merges_first_seconds = 0.0;
  double drop_after_merges_seconds = 0.0;
  double batch_inner_seconds = 0.0;
  double batch_root_seconds = 0.0;
};

struct RunReport {
  StopReason stop_reason = StopReason::Saturated;
  std::size_t iterations = 0;
  std::size_t nodes = 0;
  std::size_t classes = 0;
  double seconds = 0.0;
  // Times each rule's application made two different classes equal, by rule name.
  std::map<std::string, std::size_t> rule_fires;
  // Where the time went (seconds also counts the initial rebuild and the checks).
  // The search and the filter (dropping matches whose right side is in place already)
  // are one pass once the e-graph is large: its time is split between them in the
  // proportion of the time its tasks spent in each.
  double search_seconds = 0.0;
  double filter_seconds = 0.0;
  double apply_seconds = 0.0;
  double rebuild_seconds = 0.0;
  std::vector<IterationStats> per_iteration;
  // The threads the apply's batches of new nodes ran on, 0 if it made none (small
  // e-graphs): the run's threads where a cache line one of them writes is cheap for
  // another to read (egraph/core_handoff.h, measured once per process), else 1. It
  // changes the time only, never a result.
  unsigned apply_batch_threads = 0;

  std::string to_json() const;  // one JSON object, for --report
};

// `fast_math`: the flags granted to this expression (ir/fast_math.h); a rewrite that
// needs a flag not granted is skipped. The default grants none: strict IEEE. An
// e-graph granted nnan or ninf must have been told them (EGraph::set_fast_math) before
// its first node, or std::logic_error is thrown.
// `threads`: how many threads may search (TBB); the e-graph, the report's counts and
// so every result are the same for any number, because matches are applied in a
// fixed order whoever found them. Small e-graphs are searched on one thread anyway.
// `reached`: when given, asked after each rebuild (and before the first iteration);
// true stops the run with StopReason::Minimal. simplify_expr stops once the class it
// simplifies holds a cheapest possible form (passes/simplify_expr.cpp), where the rules
// could otherwise go on growing the e-graph up to a limit for nothing.
// `rule_index`: an index of `rewrites` (egraph/rule_index.h) kept by a caller that runs
// the same rewrites many times; without one (or with one of other rewrites) the run
// builds its own. Only the time differs.
RunReport run_rewrites(EGraph& egraph, std::span<const Rewrite> rewrites, const RunLimits& limits = {},
                       const Scheduler& scheduler = {}, FastMath fast_math = {}, unsigned threads = 1,
                       const std::function<bool(const EGraph&)>& reached = {}, const RuleIndex* rule_index = nullptr);

}  // namespace eqsat
