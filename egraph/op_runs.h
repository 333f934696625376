// Where each operation's nodes stand in the classes of a rebuilt e-graph.
//
// A rebuilt class's node list is sorted by operation and dtype first, so the nodes of
// one (operation, dtype) are one run of it. A matching program (egraph/match_program.h)
// looks for such a run at every scan: of the class searched, and of the class under
// each node it chose, so a few times per node of the e-graph per rewrite. Found in the
// list itself, that is a walk or two binary searches over 24-byte nodes (6% of the
// instructions of the `pos 3` workload). This directory, made once per search from
// every class's list, answers with a look at a class's few runs (a class of the
// workloads holds nodes of two or three operations).
//
// Like the programs, it reads the e-graph only, and stays valid as long as the e-graph
// does not change: the runner makes it before each search (with its OpIndex) and the
// search's threads share it.
#pragma once

#include <cstdint>
#include <vector>

#include "egraph/class_id.h"
#include "egraph/enode.h"
#include "ir/dtype.h"
#include "ir/op.h"

namespace eqsat {

class OpRuns {
 public:
  // The key of an (operation, dtype) run: its place in a node list's order.
  static uint16_t key(Op op, DType dtype) {
    return static_cast<uint16_t>((unsigned{static_cast<uint8_t>(op)} << 8) | static_cast<uint8_t>(dtype));
  }

  // Forgets every class; `id_bound` is one more than the largest id to be recorded.
  void clear(std::size_t id_bound);
  // Records the runs of the canonical class `id`, whose node list (sorted, as after a
  // rebuild) is `nodes`, `count` of them.
  void record(ClassId id, const ENode* nodes, std::size_t count);
  bool recorded(ClassId id) const { return id.value < first_.size() && first_[id.value] != kNone; }

  // Sets [lo, hi) to the run of `key` in the list `nodes` of the recorded class `id`
  // (an empty range if it has none).
  void range(ClassId id, const ENode* nodes, uint16_t key, const ENode*& lo, const ENode*& hi) const {
    uint32_t begin = 0;
    for (const Run* run = runs_.data() + first_[id.value];; ++run) {
      // The last run of a class is followed by kEnd, which no key reaches.
      if (run->key >= key) {
        lo = nodes + begin;
        hi = run->key == key ? nodes + run->end : lo;
        return;
      }
      begin = run->end;
    }
  }

 private:
  static constexpr uint32_t kNone = static_cast<uint32_t>(-1);
  static constexpr uint16_t kEnd = 0xFFFF;  // above every key
  struct Run {
    uint16_t key;
    uint32_t end;  // one past its last node; its first is the previous run's end (0 for the first)
  };
  std::vector<uint32_t> first_;  // by class id: its first run, or kNone
  std::vector<Run> runs_;        // by class, each class's runs followed by a kEnd run
};

static_assert(kNumOps < 0xFF && kNumDTypes < 0xFF, "an OpRuns key below its end marker");

}  // namespace eqsat
