// A stable digest of one dtype instance of a rule: what the lock file (rules/rule_lock.h)
// records for each proved instance, so that any edit to a rule invalidates its proof.
#pragma once

#include <string>

#include "rules/rule.h"

namespace eqsat {

// 16 lower-case hex digits: 64-bit FNV-1a over the rule's name, left side, right side
// and guard texts (as written, each followed by a NUL), the dtype's name and, for a rule
// with fast-math flags, "{nsz,nnan}" (canonical order): a rule proved under nsz is no
// longer proved once its flags change, so it never runs without nsz. The same on
// every platform and build; the file and line are not part of it (moving a rule keeps
// its proof).
std::string rule_digest(const Rule& rule, DType dtype);

}  // namespace eqsat
