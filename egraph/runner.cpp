#include "egraph/runner.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <optional>
#include <sstream>
#include <vector>

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
  out << "}, \"search_seconds\": " << search_seconds << ", \"apply_seconds\": " << apply_seconds
      << ", \"rebuild_seconds\": " << rebuild_seconds << ", \"per_iteration\": [";
  for (std::size_t i = 0; i < per_iteration.size(); ++i) {
    const IterationStats& it = per_iteration[i];
    out << (i ? ", " : "") << "{\"nodes\": " << it.nodes << ", \"classes\": " << it.classes
        << ", \"matches\": " << it.matches << ", \"merges\": " << it.merges << ", \"banned\": " << it.banned << '}';
  }
  out << "]}";
  return out.str();
}

namespace {

struct Match {
  std::size_t rewrite;
  ClassId eclass;
  Subst subst;
};

bool class_has_op(const EClass& eclass, Op op, DType dtype) {
  for (const ENode& node : eclass.nodes) {
    if (node.op == op && node.dtype == dtype) return true;
  }
  return false;
}

// Appends the matches of rewrite `r` over the classes `ids` (in that order, then by
// substitution) to `matches`; stops early once more than `limit` were found.
// Returns how many were found (at most limit + 1).
std::size_t search_rewrite(const EGraph& egraph, std::span<const Rewrite> rewrites, std::size_t r,
                           const std::vector<ClassId>& ids, std::size_t limit, std::vector<Match>& matches) {
  const Rewrite& rewrite = rewrites[r];
  const PatternNode& root = rewrite.lhs.root_node();
  std::size_t found = 0;
  for (ClassId id : ids) {
    if (found > limit) break;
    const EClass& eclass = egraph.eclass(id);
    if (eclass.data.dtype != root.dtype) continue;
    // A class whose value the analysis knows already holds its cheapest form, the
    // constant. Rewriting its other nodes (the folded `c1 + c2` of rules that compute
    // with constants) only decomposes that constant into ever new ones.
    if (eclass.data.constant) continue;
    if (root.kind == PatternNode::Kind::Op && !class_has_op(eclass, root.op, root.dtype)) continue;
    match_pattern(egraph, rewrite.lhs, rewrite.vars, id, [&](const Subst& subst) {
      if (rewrite.guard && evaluate_guard(egraph, *rewrite.guard, subst) != Truth::True) return;
      matches.push_back({r, id, subst});
      ++found;
    });
  }
  return found;
}

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
                       const Scheduler& scheduler, FastMath fast_math) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  auto seconds_since = [](Clock::time_point from) {
    return std::chrono::duration<double>(Clock::now() - from).count();
  };
  auto elapsed = [&] { return seconds_since(start); };
  const bool backoff = scheduler.kind == Scheduler::Kind::Backoff;
  std::vector<RuleBan> bans(rewrites.size());

  RunReport report;
  egraph.rebuild();
  std::vector<Match> matches;
  for (;;) {
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
    IterationStats stats;
    stats.nodes = egraph.num_nodes();
    stats.classes = egraph.num_classes();

    // Search: all rewrites against the same e-graph, in a fixed order (by rewrite, then
    // class id, then substitution), so the order of application never depends on
    // hashing or timing.
    auto phase = Clock::now();
    matches.clear();
    const std::vector<ClassId> ids = egraph.class_ids();
    // The dtypes some class has: a rule instance whose root has another matches
    // nothing, and most rules have an instance per integer dtype.
    std::array<bool, kNumDTypes> dtype_present{};
    for (ClassId id : ids) dtype_present[static_cast<std::size_t>(egraph.eclass(id).data.dtype)] = true;
    for (std::size_t r = 0; r < rewrites.size(); ++r) {
      // A rule proved only under relaxed float semantics runs only where they are granted.
      if (!fast_math.includes(rewrites[r].fast_math)) continue;
      if (!dtype_present[static_cast<std::size_t>(rewrites[r].lhs.root_node().dtype)]) continue;
      if (!backoff) {
        search_rewrite(egraph, rewrites, r, ids, RunLimits::kNoLimit, matches);
        continue;
      }
      RuleBan& ban = bans[r];
      if (iteration < ban.banned_until) {
        ++stats.banned;
        continue;
      }
      const std::size_t threshold = shifted(scheduler.match_limit, ban.times_banned);
      const std::size_t before = matches.size();
      if (search_rewrite(egraph, rewrites, r, ids, threshold, matches) > threshold) {
        matches.resize(before);
        const std::size_t length = shifted(scheduler.ban_length, ban.times_banned);
        ++ban.times_banned;
        ban.banned_until = length > RunLimits::kNoLimit - iteration ? RunLimits::kNoLimit : iteration + length;
        ++stats.banned;
      }
    }
    stats.matches = matches.size();
    report.search_seconds += seconds_since(phase);

    // With explanations on, each rule's edge joins the exact instance of its left side
    // (added now, while every match still stands in the rebuilt e-graph: only ids are
    // added, never classes) to its right side.
    std::vector<ClassId> left_terms;
    if (egraph.explainer()) {
      left_terms.reserve(matches.size());
      for (const Match& match : matches) {
        left_terms.push_back(instantiate(egraph, rewrites[match.rewrite].lhs, match.subst));
        assert(egraph.find(left_terms.back()) == egraph.find(match.eclass));
      }
    }

    phase = Clock::now();
    std::optional<StopReason> cut;  // a limit reached in the middle of applying
    for (std::size_t m = 0; m < matches.size(); ++m) {
      const Match& match = matches[m];
      const Rewrite& rewrite = rewrites[match.rewrite];
      ClassId result = instantiate(egraph, rewrite.rhs, match.subst);
      const ClassId left = left_terms.empty() ? match.eclass : left_terms[m];
      if (egraph.merge(left, result, Reason::rewrite(rewrite.name))) {
        ++report.rule_fires[rewrite.name];
        ++stats.merges;
      }
      // Adding nodes can outgrow the budget within one iteration; stop applying then.
      if (egraph.num_nodes() >= limits.max_nodes) {
        cut = StopReason::NodeLimit;
        break;
      }
      if ((m & 63) == 63 && elapsed() >= limits.max_seconds) {
        cut = StopReason::TimeLimit;
        break;
      }
    }
    report.apply_seconds += seconds_since(phase);

    phase = Clock::now();
    egraph.rebuild();
    report.rebuild_seconds += seconds_since(phase);
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
