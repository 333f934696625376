// Union-find over class ids: a vector of parent ids with path halving.
#pragma once

#include <vector>

#include "egraph/class_id.h"

namespace eqsat {

class UnionFind {
 public:
  ClassId make_set() {
    ClassId id(static_cast<uint32_t>(parents_.size()));
    parents_.push_back(id);
    return id;
  }
  std::size_t size() const { return parents_.size(); }

  // The canonical id of `id`'s set. Const version does not compress paths.
  ClassId find(ClassId id) const {
    while (parents_[id.value] != id) id = parents_[id.value];
    return id;
  }
  // Starts fetching the entry a find of `id` reads first.
  void prefetch(ClassId id) const { __builtin_prefetch(&parents_[id.value]); }
  ClassId find_mut(ClassId id) {
    while (parents_[id.value] != id) {
      parents_[id.value] = parents_[parents_[id.value].value];  // path halving
      id = parents_[id.value];
    }
    return id;
  }
  // Makes `root` the representative of `child`'s set; both must be canonical.
  void link(ClassId root, ClassId child) { parents_[child.value] = root; }

  // Points every id straight at its root, so that the const `find`s of a search
  // (which may run on several threads and so cannot compress) take one step.
  void compress_all() {
    for (std::size_t i = 0; i < parents_.size(); ++i) parents_[i] = find(ClassId(static_cast<uint32_t>(i)));
  }

  void clear() { parents_.clear(); }

 private:
  std::vector<ClassId> parents_;
};

}  // namespace eqsat
