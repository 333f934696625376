#include "egraph/instance_lookup.h"

#include <algorithm>
#include <array>

namespace eqsat {

namespace {

// Matches taken together: the lookups of a block overlap, and what is kept of them (a
// class per match and pattern node) stays in the fastest caches.
constexpr std::size_t kBlock = 1024;
// Patterns with more nodes are looked up a match at a time (instance_in_class).
constexpr std::size_t kMaxNodes = 16;
// How many lookups ahead the slot of a probe, or the entry of a find, is fetched.
constexpr std::size_t kFetchAhead = 16;

// Probes of a block: the match, the node, the slot its probe starts at. The lists
// hold kBlock entries from the first block on, of which the first `count` are the
// block's: entries are written in place, never constructed or appended one by one.
struct Probes {
  std::vector<uint32_t> match;
  std::vector<ENode> key;  // payload 0 throughout: only operations are probed
  std::vector<std::size_t> home;
  std::vector<ClassId> recorded;  // what the hash-cons records: invalid if absent
  std::size_t count = 0;

  void clear() {
    count = 0;
    if (key.size() == kBlock) return;
    match.resize(kBlock);
    key.resize(kBlock);
    home.resize(kBlock);
    recorded.resize(kBlock);
  }
  // The probes of the block's matches (`block` of them, match m's row of classes at
  // classes[m * n]) for their instances of operation `pnode`: none for a match with an
  // operand's class unknown (its instance is not in the e-graph). The operands are
  // gathered and ordered aside, the home hashed from them there, and the key written
  // once, field by field where it is kept (a key built aside and copied whole waited
  // for its stores to drain, a tenth of the lookups' time). What depends on the pattern
  // node alone (its arity, whether its operands are ordered) is read once per block.
  void add_block(const EGraph& egraph, std::size_t block, const PatternNode& pnode, const ClassId* classes,
                 std::size_t n) {
    // (The operand loop unrolled for each arity: a tenth of the lookups' instructions.)
    switch (pnode.children.size()) {
      case 1:
        return add_block_of_arity<1>(egraph, block, pnode, classes, n);
      case 2:
        return add_block_of_arity<2>(egraph, block, pnode, classes, n);
      case 3:
        return add_block_of_arity<3>(egraph, block, pnode, classes, n);
      default:
        return add_block_of_arity<0>(egraph, block, pnode, classes, n);
    }
  }
  template <std::size_t kArity>
  void add_block_of_arity(const EGraph& egraph, std::size_t block, const PatternNode& pnode, const ClassId* classes,
                          std::size_t n) {
    // EGraph::order_operands, its test made once for the block.
    const bool ordered = kArity == 2 && egraph.sorts_operands(pnode.op, pnode.dtype);
    uint32_t places[NodeChildren::kCapacity] = {};
    std::copy(pnode.children.begin(), pnode.children.end(), places);
    for (std::size_t m = 0; m < block; ++m) {
      const ClassId* row = classes + m * n;
      ClassId operands[NodeChildren::kCapacity] = {};
      bool known = true;
      for (std::size_t k = 0; k < kArity; ++k) {
        operands[k] = row[places[k]];
        known = known && operands[k].valid();
      }
      if (!known) continue;
      if (ordered && operands[1] < operands[0]) std::swap(operands[0], operands[1]);
      ENode& node = key[count];
      node.op = pnode.op;
      node.dtype = pnode.dtype;
      node.children.assign_places(operands, kArity);
      match[count] = static_cast<uint32_t>(m);
      home[count] = egraph.probe_home_of_operation(pnode.op, pnode.dtype, operands, kArity);
      ++count;
    }
  }
  // Every probe is made before any class is found, so that their waits overlap.
  void run(const EGraph& egraph) {
    for (std::size_t p = 0; p < count; ++p) {
      if (p + kFetchAhead < count) egraph.prefetch_probe(home[p + kFetchAhead]);
      recorded[p] = egraph.probe_from(home[p], key[p]);
    }
  }
  // The class of probe p's node (invalid if absent). The hash-cons records the class a
  // node was added to, which a merge may have made non-canonical since.
  template <class Visit>
  void for_each_class(const EGraph& egraph, Visit visit) const {
    for (std::size_t p = 0; p < count; ++p) {
      if (p + kFetchAhead < count && recorded[p + kFetchAhead].valid()) egraph.prefetch_find(recorded[p + kFetchAhead]);
      visit(match[p], recorded[p].valid() ? egraph.find(recorded[p]) : ClassId());
    }
  }
};

// find_instances, and with kAfterMerges find_instances_after_merges.
template <bool kAfterMerges>
void find_instances_of(const EGraph& egraph, const Pattern& pattern, std::span<const ClassId> substs, std::size_t width,
                       std::span<const ClassId> targets, std::vector<InstanceFound>& found) {
  using State = InstanceFound::State;
  const std::size_t count = targets.size();
  found.assign(count, InstanceFound{});
  const std::size_t n = pattern.nodes.size();
  if (n > kMaxNodes || pattern.root_node().kind != PatternNode::Kind::Op || egraph.probe_slots() == 0) {
    // (instance_in_class reads the target's sorted node list, which merges unsort.)
    if (kAfterMerges) return;
    for (std::size_t m = 0; m < count; ++m) {
      if (instance_in_class(egraph, pattern, substs.subspan(m * width, width), targets[m])) {
        found[m].state = State::InClass;
      }
    }
    return;
  }
  // A constant's class is the same for every match (invalid if it is not in the e-graph).
  std::array<ClassId, kMaxNodes> constant{};
  for (std::size_t i = 0; i < n; ++i) {
    if (pattern.nodes[i].kind != PatternNode::Kind::Const) continue;
    if (const std::optional<ClassId> id = egraph.lookup_constant(pattern.value_of(pattern.nodes[i])))
      constant[i] = egraph.find(*id);
  }
  // By match of the block, then pattern node: the class of the node's instance.
  thread_local std::vector<ClassId> classes;
  thread_local Probes probes;
  const PatternNode& root = pattern.root_node();
  for (std::size_t first = 0; first < count; first += kBlock) {
    const std::size_t block = std::min(kBlock, count - first);
    // Each column written below (the root's is never read): filling the whole block
    // first was 1% of `pos 3`'s instructions.
    classes.resize(block * n);
    for (std::size_t i = 0; i < n; ++i) {
      const PatternNode& pnode = pattern.nodes[i];
      switch (pnode.kind) {
        case PatternNode::Kind::Var:
          for (std::size_t m = 0; m < block; ++m) classes[m * n + i] = substs[(first + m) * width + pnode.var];
          continue;
        case PatternNode::Kind::Const:
          for (std::size_t m = 0; m < block; ++m) classes[m * n + i] = constant[i];
          continue;
        case PatternNode::Kind::Op:
          break;
      }
      if (i == pattern.root) continue;  // below
      // (An instance with an operand missing is missing too: no probe, no class.)
      for (std::size_t m = 0; m < block; ++m) classes[m * n + i] = ClassId();
      probes.clear();
      probes.add_block(egraph, block, pnode, classes.data(), n);
      probes.run(egraph);
      probes.for_each_class(egraph, [&](std::size_t m, ClassId id) { classes[m * n + i] = id; });
    }
    // The root the same way: its class is the target's (the right side is in place),
    // another (Elsewhere), or none.
    probes.clear();
    probes.add_block(egraph, block, root, classes.data(), n);
    probes.run(egraph);
    probes.for_each_class(egraph, [&](std::size_t m, ClassId id) {
      InstanceFound& f = found[first + m];
      if (id == (kAfterMerges ? targets[first + m] : egraph.find(targets[first + m]))) {
        f.state = State::InClass;
      } else if (id.valid()) {
        f.state = State::Elsewhere;
        f.ids[0] = id;
      } else {
        f.state = State::RootMissing;
        for (std::size_t k = 0; k < root.children.size(); ++k) f.ids[k] = classes[m * n + root.children[k]];
      }
    });
  }
}

}  // namespace

void find_instances(const EGraph& egraph, const Pattern& pattern, std::span<const ClassId> substs, std::size_t width,
                    std::span<const ClassId> targets, std::vector<InstanceFound>& found) {
  find_instances_of<false>(egraph, pattern, substs, width, targets, found);
}

void find_instances_after_merges(const EGraph& egraph, const Pattern& pattern, std::span<const ClassId> substs,
                                 std::size_t width, std::span<const ClassId> targets,
                                 std::vector<InstanceFound>& found) {
  find_instances_of<true>(egraph, pattern, substs, width, targets, found);
}

}  // namespace eqsat
