#include "egraph/rewrite_applies.h"

#include <array>
#include <vector>

#include "egraph/guard.h"
#include "egraph/match_program.h"

namespace eqsat {

bool some_rewrite_applies(const EGraph& egraph, std::span<const Rewrite> rewrites, const RuleIndex& index,
                          FastMath fast_math) {
  const std::vector<ClassId> classes = egraph.class_ids();
  // What each class holds (egraph/rule_index.h), for the runner's check before matching:
  // a rewrite whose left side needs an operation under its root that no operand holds
  // is not run (most of a small e-graph's candidates).
  std::vector<uint64_t> summaries(classes.empty() ? 0 : classes.back().value + 1, 0);
  for (const ClassId id : classes) {
    const EClass& eclass = egraph.eclass(id);
    uint64_t& summary = summaries[id.value];
    if (eclass.known_constant) summary |= kKnownConstantBit;
    for (const ENode& node : eclass.nodes) summary |= class_summary_bit(node.op);
  }
  std::vector<ClassId> ids;
  // The rewrite at `position`, matched in class `id` as the runner's search matches it
  // (every match listed): whether a match's guard holds.
  auto applies_in = [&](ClassId id, uint32_t position) {
    const MatchProgram& program = index.program(position);
    ids.clear();
    const std::size_t listed = program.run(egraph, id, MatchProgram::kListAll, ids).listed;
    const Rewrite& rewrite = rewrites[position];
    if (listed > 0 && !rewrite.guard) return true;
    const std::size_t width = program.width();
    for (std::size_t match = 0; match < listed; ++match) {
      const std::span<const ClassId> subst(ids.data() + match * width, width);
      if (evaluate_guard(egraph, *rewrite.guard, subst) == Truth::True) return true;
    }
    return false;
  };
  for (const ClassId id : classes) {
    const EClass& eclass = egraph.eclass(id);
    for (const ENode& node : eclass.nodes) {
      std::array<uint64_t, 3> held{};
      for (std::size_t i = 0; i < node.children.size(); ++i) held[i] = summaries[egraph.find(node.children[i]).value];
      for (const uint32_t position : index.rooted_at(node.op, node.dtype)) {
        if (fast_math.includes(index.root(position).fast_math) && operands_meet(index.shape(position), held) &&
            applies_in(id, position))
          return true;
      }
    }
    for (const uint32_t position : index.unrooted(eclass.dtype)) {
      if (fast_math.includes(index.root(position).fast_math) && applies_in(id, position)) return true;
    }
  }
  return false;
}

}  // namespace eqsat
