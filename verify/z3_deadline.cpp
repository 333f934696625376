#include "verify/z3_deadline.h"

#include <chrono>

namespace eqsat::verify {

Z3Deadline::Z3Deadline(z3::context& ctx, unsigned timeout_ms) : ctx_(ctx) {
  watchdog_ = std::thread([this, timeout_ms] {
    std::unique_lock lock(mutex_);
    if (wake_.wait_for(lock, std::chrono::milliseconds(timeout_ms), [this] { return stopping_; })) return;
    expired_ = true;
    // Under the lock, so that the destructor (and the context's) cannot run meanwhile.
    ctx_.interrupt();
  });
}

Z3Deadline::~Z3Deadline() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  watchdog_.join();
}

}  // namespace eqsat::verify
