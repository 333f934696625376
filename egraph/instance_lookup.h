// Whether the instances of a pattern are in the e-graph, for many matches at once.
//
// Before the apply, the runner drops every match whose right side's instance is in the
// e-graph already, in the class of the match: applying it would change nothing
// (instance_in_class, egraph/pattern.h). A large saturation asks that of millions of
// matches, and its lookups go to the hash-cons and the union-find, tables many times
// the size of the caches, at slots that have nothing to do with each other. Asked one
// match at a time, each lookup waits for the one before it: the instance's inner node
// is probed, then its class found, then the root searched for, with a mispredicted
// branch at each step that also drops the lookups the processor had started ahead.
//
// Here the matches are taken a block at a time and the pattern one node at a time:
// every match of the block probes its instance's node of the pattern before any goes on
// to the next node, with the slots of the probes a few places on fetched meanwhile.
// (The probes are made in match order, not sorted by slot.)
// The lookups of a block do not depend on each other, so their waits for memory
// overlap instead of adding up.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "egraph/egraph.h"
#include "egraph/pattern.h"

namespace eqsat {

// What the e-graph holds of the instance of a pattern whose root is an operation,
// under one match, and so what applying the match would do.
struct InstanceFound {
  enum class State : uint8_t {
    InClass,      // all of it, its root in the match's class: applying changes nothing
    Elsewhere,    // all of it, its root node in class ids[0]: applying merges that class
    RootMissing,  // all of it but the root node, whose operands are ids[0, arity): applying adds it
    Missing,      // not every node below the root
  };
  State state = State::Missing;
  ClassId ids[NodeChildren::kCapacity];
};

// Sets `found` to one entry per target: what the e-graph holds of the instance of
// `pattern` under substitution m, substs[m * width, (m + 1) * width) (canonical
// classes, as a search gives them), for the match in class targets[m]. InClass is
// exactly instance_in_class (egraph/pattern.h); the classes given are canonical. A
// pattern whose root is not an operation, or one of more than 16 nodes, is looked up
// a match at a time and found InClass or Missing. The e-graph must be rebuilt. Reads
// only, so several threads may call it at once while the e-graph is not being changed.
void find_instances(const EGraph& egraph, const Pattern& pattern, std::span<const ClassId> substs, std::size_t width,
                    std::span<const ClassId> targets, std::vector<InstanceFound>& found);

// The same in the middle of an apply, after merges and before the rebuild, for classes
// (substitutions and targets) canonical after the merges. The hash-cons then still
// files some nodes under operands that are no longer canonical: a lookup misses what
// such a node would give, and never finds what is not there (a node filed under the
// canonical operands looked up is in the e-graph with exactly those). So InClass and
// Elsewhere still say what applying would do, and anything missed is Missing or
// RootMissing. A pattern that find_instances looks up a match at a time is found
// Missing.
void find_instances_after_merges(const EGraph& egraph, const Pattern& pattern, std::span<const ClassId> substs,
                                 std::size_t width, std::span<const ClassId> targets,
                                 std::vector<InstanceFound>& found);

}  // namespace eqsat
