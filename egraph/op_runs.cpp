#include "egraph/op_runs.h"

namespace eqsat {

void OpRuns::clear(std::size_t id_bound) {
  first_.assign(id_bound, kNone);
  runs_.clear();
}

void OpRuns::record(ClassId id, const ENode* nodes, std::size_t count) {
  first_[id.value] = static_cast<uint32_t>(runs_.size());
  for (std::size_t i = 0; i < count;) {
    const uint16_t run_key = key(nodes[i].op, nodes[i].dtype);
    std::size_t end = i + 1;
    while (end < count && key(nodes[end].op, nodes[end].dtype) == run_key) ++end;
    runs_.push_back(Run{run_key, static_cast<uint32_t>(end)});
    i = end;
  }
  runs_.push_back(Run{kEnd, static_cast<uint32_t>(count)});
}

}  // namespace eqsat
