// The lock file: which rule instances are proved sound, checked in as rules/rules.lock.
//
//   # comment lines and blank lines are ignored
//   NAME DTYPE PROOF DIGEST [FLAGS]
//   add-zero INDEX exact 3f0c2a9b1d4e5f60
//   add-zero-nsz FP32 exact 8a1e02c4b7d95f13 nsz
//
// One line per proved dtype instance, written by `eqsat verify-rules --write-lock` only
// when every instance is proved. PROOF says which proof it got ("exact", or
// "bv-fallback": INDEX as wide bit-vectors whose intermediates all fit, see
// verify/refinement.h, or "assumed-reassoc": a pure reassociation that the reassoc
// flag permits, which no IEEE proof can give, see docs/verification.md). DIGEST is
// rules/rule_digest.h's digest of the instance's text, flags included, so an edited
// rule is no longer proved until it is verified again. FLAGS, present only for a rule
// with fast-math flags, names the flags it was proved under ("nsz,nnan"); an instance is
// proved only when they are the rule's flags. The engine loads
// only rules the lock proves (unproved_error), which keeps Z3 out of the engine while
// no unverified rule runs.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ir/error.h"
#include "rules/rule.h"

namespace eqsat {

struct LockEntry {
  std::string name;
  DType dtype = DType::Index;
  std::string proof;        // "exact", "bv-fallback" or "assumed-reassoc"
  std::string digest;       // 16 hex digits
  FastMath fast_math = {};  // the flags it was proved under (none: strict IEEE)
};

struct RuleLock {
  std::vector<LockEntry> entries;  // in the file's order

  const LockEntry* find(std::string_view name, DType dtype) const;
  // Whether the lock holds this instance with its current digest.
  bool proves(const Rule& rule, DType dtype) const;
};

// Errors name "file:line: reason".
Result<RuleLock> parse_rule_lock(std::string_view text, std::string_view file_name);
Result<RuleLock> load_rule_lock(const std::string& path);

// The file text: a header comment, then one line per entry in the given order.
std::string format_rule_lock(const RuleLock& lock);

// Why `lock` is not exactly the lock of `rules`, one line per difference ("rule
// 'add-zero' (INDEX) at rules/arith.rules:8: not in the lock", "... digest differs",
// "lock entry 'old-rule' (INT32): no such rule instance"); empty when it is current.
std::vector<std::string> lock_differences(const RuleSet& rules, const RuleLock& lock);

// The rule instances the lock does not prove: "name (DTYPE) at file:line".
std::vector<std::string> unproved_instances(const RuleSet& rules, const RuleLock& lock);

// The lock embedded with the built-in catalogue (rules/rules.lock at build time).
const RuleLock& builtin_rule_lock();

// An error naming each instance of `rules` the lock does not prove; none when it
// proves them all. The engine's gate (a development flag may skip it).
std::optional<Error> unproved_error(const RuleSet& rules, const RuleLock& lock);

// The same for several locks: an instance is proved when one of them proves it (each
// lock is looked up by itself, so a lock that holds another rule of the same name
// hides nothing). `then`, if given, gives one more lock, asked for only when the
// others leave an instance unproved: the engine passes builtin_rule_lock there, since
// parsing it was most of the start-up of a run with its own rules and their lock.
std::vector<std::string> unproved_instances(const RuleSet& rules, std::span<const RuleLock> locks,
                                            const RuleLock& (*then)() = nullptr);
std::optional<Error> unproved_error(const RuleSet& rules, std::span<const RuleLock> locks,
                                    const RuleLock& (*then)() = nullptr);

}  // namespace eqsat
