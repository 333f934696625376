// A stable digest of one dtype instance of a rule: what the lock file (rules/rule_lock.h)
// records for each proved instance, so that any edit to a rule invalidates its proof.
#pragma once

#include <string>

#include "rules/rule.h"

namespace eqsat {

// 16 lower-case hex digits: 64-bit FNV-1a over the rule's name, left side, right side
// and guard texts (as written, each followed by a NUL) and the dtype's name. The same on
// every platform and build; the file and line are not part of it (moving a rule keeps
// its proof).
std::string rule_digest(const Rule& rule, DType dtype);

}  // namespace eqsat
