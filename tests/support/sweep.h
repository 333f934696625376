// How much of a sweeping test to run: the tests that go over whole corpora or thousands
// of random cases.
//
// A release build runs every sweep in full. The sanitizer build (EQSAT_SANITIZE=ON, a
// Debug build 10-30x slower under AddressSanitizer) runs every test too, but each sweep
// on a fixed, deterministic sample of 1 in EQSAT_TEST_SWEEP_STRIDE: a memory error or
// undefined behaviour shows on a sample as it does on the whole, and CI, which runs both
// builds, stays within its time budget. Set by tests/CMakeLists.txt.
#pragma once

#include <algorithm>
#include <cstddef>
#include <sstream>
#include <string>

namespace eqsat::testing {

inline constexpr std::size_t kSweepStride = EQSAT_TEST_SWEEP_STRIDE;
inline constexpr bool kFullSweeps = kSweepStride == 1;

// Whether the i-th item (0-based) of a sweep over a list is in this build's sample.
constexpr bool in_sweep(std::size_t i) { return i % kSweepStride == 0; }

// The lines of `text` (each ending in '\n') that are in this build's sample: all of
// them in a full sweep.
inline std::string sampled_lines(const std::string &text) {
  std::istringstream in(text);
  std::string sample;
  std::size_t i = 0;
  for (std::string line; std::getline(in, line); ++i) {
    if (in_sweep(i)) sample += line + "\n";
  }
  return sample;
}

// How many of `n` random cases this build runs (at least one).
constexpr int sweep_count(int n) { return std::max(1, n / static_cast<int>(kSweepStride)); }

}  // namespace eqsat::testing
