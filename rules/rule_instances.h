// The dtype instances of one rule: a stretch of an array of rewrites shared by the
// rules loaded together.
//
// The engine runs a contiguous array of rewrites (egraph/runner.h, RuleIndex indexes it
// by position). The catalogue's ~1,900 instances are parsed into one such array, each
// rule viewing its own stretch, so that RuleSet::shared_rewrites hands the whole array
// to the engine as it is. Copying them rule by rule into an array of the engine's own
// was a sixth of the program's start-up and a third of its memory then: some 1.5 MB
// touched for the first time, page by page (docs/performance.md, session 18).
//
// A copy of a rule shares the array (it is immutable); the last view of it frees it.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include "egraph/rewrite.h"

namespace eqsat {

class RuleInstances {
 public:
  RuleInstances() = default;
  // Instances in an array of their own.
  explicit RuleInstances(std::vector<Rewrite> rewrites)
      : RuleInstances(std::make_shared<const std::vector<Rewrite>>(std::move(rewrites))) {}
  // `count` instances from position `first` of `storage`.
  RuleInstances(std::shared_ptr<const std::vector<Rewrite>> storage, std::size_t first, std::size_t count)
      : storage_(std::move(storage)), first_(first), view_(storage_->data() + first, count) {}

  std::size_t size() const { return view_.size(); }
  bool empty() const { return view_.empty(); }
  const Rewrite& operator[](std::size_t i) const { return view_[i]; }
  const Rewrite& at(std::size_t i) const {
    if (i >= view_.size()) throw std::out_of_range("RuleInstances::at");
    return view_[i];
  }
  const Rewrite* begin() const { return view_.data(); }
  const Rewrite* end() const { return view_.data() + view_.size(); }

  // The array the instances are part of (null for none), and where in it they start.
  const std::shared_ptr<const std::vector<Rewrite>>& storage() const { return storage_; }
  std::size_t first() const { return first_; }

 private:
  explicit RuleInstances(std::shared_ptr<const std::vector<Rewrite>> storage)
      : RuleInstances(storage, 0, storage->size()) {}

  std::shared_ptr<const std::vector<Rewrite>> storage_;
  std::size_t first_ = 0;
  std::span<const Rewrite> view_;
};

}  // namespace eqsat
