// The lock file: which rule instances are proved sound, checked in as rules/rules.lock.
//
//   # comment lines and blank lines are ignored
//   NAME DTYPE PROOF DIGEST
//   add-zero INDEX exact 3f0c2a9b1d4e5f60
//
// One line per proved dtype instance, written by `eqsat verify-rules --write-lock` only
// when every instance is proved. PROOF says which proof it got ("exact", or
// "bv-fallback": INDEX as wide bit-vectors whose intermediates all fit, see
// verify/refinement.h). DIGEST is rules/rule_digest.h's digest of the instance's text,
// so an edited rule is no longer proved until it is verified again. The engine loads
// only rules the lock proves (require_proved), which keeps Z3 out of the engine while
// no unverified rule runs.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ir/error.h"
#include "rules/rule.h"

namespace eqsat {

struct LockEntry {
  std::string name;
  DType dtype = DType::Index;
  std::string proof;   // "exact" or "bv-fallback"
  std::string digest;  // 16 hex digits
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

// `rules` when the lock proves every instance; otherwise an error naming each unproved
// one. The engine's gate; a development flag may skip it.
Result<RuleSet> require_proved(const RuleSet& rules, const RuleLock& lock);

}  // namespace eqsat
