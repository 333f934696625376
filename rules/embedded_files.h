// The rule files embedded into the library (private to rules/).
//
// The definition is generated at build time by rules/embed_rules.cmake from
// rules/*.rules (see the top-level CMakeLists.txt), so editing a rule file rebuilds it.
#pragma once

#include <span>
#include <string_view>

namespace eqsat {

struct EmbeddedRuleFile {
  std::string_view name;  // the file name, e.g. "arith.rules"
  std::string_view text;
};

// In file-name order.
std::span<const EmbeddedRuleFile> embedded_rule_files();

// The text of rules/rules.lock (empty if the source tree has none).
std::string_view embedded_rule_lock();

}  // namespace eqsat
