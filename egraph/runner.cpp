#include "egraph/runner.h"

#include <cassert>
#include <optional>
#include <sstream>
#include <vector>

namespace eqsat {

std::string_view stop_reason_name(StopReason reason) {
  switch (reason) {
    case StopReason::Saturated: return "saturated";
    case StopReason::IterationLimit: return "iteration-limit";
    case StopReason::NodeLimit: return "node-limit";
    case StopReason::TimeLimit: return "time-limit";
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
  out << "}}";
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

// All matches of all rewrites, in a fixed order: by rewrite, then class id, then
// substitution. The order of application then never depends on hashing or timing.
std::vector<Match> search(const EGraph& egraph, std::span<const Rewrite> rewrites) {
  std::vector<Match> matches;
  const std::vector<ClassId> ids = egraph.class_ids();
  for (std::size_t r = 0; r < rewrites.size(); ++r) {
    const Rewrite& rewrite = rewrites[r];
    const PatternNode& root = rewrite.lhs.root_node();
    for (ClassId id : ids) {
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
      });
    }
  }
  return matches;
}

}  // namespace

RunReport run_rewrites(EGraph& egraph, std::span<const Rewrite> rewrites, const RunLimits& limits) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };

  RunReport report;
  egraph.rebuild();
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
    ++report.iterations;
    std::vector<Match> matches = search(egraph, rewrites);
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
    bool changed = false;
    std::optional<StopReason> cut;  // a limit reached in the middle of applying
    for (std::size_t m = 0; m < matches.size(); ++m) {
      const Match& match = matches[m];
      const Rewrite& rewrite = rewrites[match.rewrite];
      ClassId result = instantiate(egraph, rewrite.rhs, match.subst);
      const ClassId left = left_terms.empty() ? match.eclass : left_terms[m];
      if (egraph.merge(left, result, Reason::rewrite(rewrite.name))) {
        ++report.rule_fires[rewrite.name];
        changed = true;
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
    egraph.rebuild();
    if (cut) {
      report.stop_reason = *cut;
      break;
    }
    if (!changed) {
      // No match made two classes equal (a new node always lands in a new class, which
      // the merge then joins, so no new node survived either): a fixpoint.
      report.stop_reason = StopReason::Saturated;
      break;
    }
  }
  report.nodes = egraph.num_nodes();
  report.classes = egraph.num_classes();
  report.seconds = elapsed();
  return report;
}

}  // namespace eqsat
