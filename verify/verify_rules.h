// `eqsat verify-rules`: proves every dtype instance of every rule, in parallel, and
// keeps the lock file (rules/rule_lock.h) that lets the engine load them.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "rules/rule.h"
#include "verify/refinement.h"

namespace eqsat::verify {

struct InstanceResult {
  const Rule* rule = nullptr;
  DType dtype = DType::Index;
  Outcome outcome;
};

// Called after each instance, from the worker that finished it (serialised by a lock):
// how many are done, and the one just done with its index in the returned results.
using ProgressFn = std::function<void(std::size_t done, std::size_t total, std::size_t index, const InstanceResult&)>;

// Proves every instance of `rules` with `threads` workers (0: one per hardware thread).
// The results are in file order (rules, then dtypes) whatever the thread count.
std::vector<InstanceResult> verify_rule_set(const RuleSet& rules, const ProverOptions& options, unsigned threads,
                                            const ProgressFn& progress = {});

// One report line: "FILE:LINE: NAME DTYPE: proved (exact)", "...: counterexample: x =
// 2147483647 (INT32): lhs = False, rhs = True", "...: unknown (timeout 10 s)". A
// counterexample that the constant folder does not reproduce says so.
std::string result_line(const InstanceResult& result);

struct VerifyOptions {
  std::vector<std::string> files;  // empty: the built-in catalogue (rules/*.rules)
  std::vector<std::string> only;   // if not empty, just these rule names
  ProverOptions prover;
  unsigned threads = 0;
  std::string lock_path;    // empty: rules/rules.lock of the source tree
  bool write_lock = false;  // rewrite the lock file when every instance is proved
  bool check_lock = false;  // only compare the lock file with the rules (no Z3)
  // Prove only the instances the lock does not prove (new, or edited since their proof);
  // with write_lock, the others keep their entries.
  bool changed = false;
  bool progress = true;  // a progress line on stderr when it is a terminal
};

// The whole command. Exit status: 0 when every instance is proved (or, with
// check_lock, the lock is current); 1 on any counterexample, unknown, stale lock or
// unreadable file.
int run_verify_rules(const VerifyOptions& options, std::ostream& out, std::ostream& err);

// rules/rules.lock of the source tree this program was built from.
std::string default_lock_path();

}  // namespace eqsat::verify
