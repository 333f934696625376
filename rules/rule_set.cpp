// RuleSet and the built-in catalogue.
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "rules/embedded_files.h"
#include "rules/rule.h"
#include "rules/rule_lock.h"

namespace eqsat {

std::vector<Rewrite> RuleSet::rewrites() const {
  std::vector<Rewrite> all;
  for (const Rule& rule : rules) all.insert(all.end(), rule.rewrites.begin(), rule.rewrites.end());
  return all;
}

const Rule* RuleSet::find(std::string_view name) const {
  for (const Rule& rule : rules) {
    if (rule.name == name) return &rule;
  }
  return nullptr;
}

RuleSet RuleSet::without(std::string_view name) const {
  RuleSet rest;
  for (const Rule& rule : rules) {
    if (rule.name != name) rest.rules.push_back(rule);
  }
  return rest;
}

namespace {

RuleSet load_builtin_rules() {
  RuleSet set;
  for (const EmbeddedRuleFile& file : embedded_rule_files()) {
    Result<std::vector<Rule>> rules = parse_rules(file.text, "rules/" + std::string(file.name));
    std::optional<Error> error = rules ? set.add(std::move(rules).value()) : rules.error();
    if (error) {
      // The catalogue is part of the program: an error in it is a bug, not bad input.
      std::fprintf(stderr, "eqsat: the built-in rule catalogue does not load: %s\n", error->message.c_str());
      std::abort();
    }
  }
  return set;
}

}  // namespace

const RuleSet& builtin_rules_unverified() {
  static const RuleSet set = load_builtin_rules();
  return set;
}

const RuleSet& builtin_rules() {
  // The catalogue itself, once the lock is found to prove all of it (no copy: it is
  // about two thousand rewrites, and copying them was a tenth of the start-up).
  static const RuleSet& proved = []() -> const RuleSet& {
    const RuleSet& catalogue = builtin_rules_unverified();
    if (std::optional<Error> unproved = unproved_error(catalogue, builtin_rule_lock())) {
      std::fprintf(stderr,
                   "eqsat: the built-in rule catalogue has rules that rules/rules.lock does not "
                   "prove (run `eqsat verify-rules --write-lock` after changing a rule):\n%s\n",
                   unproved->message.c_str());
      std::abort();
    }
    return catalogue;
  }();
  return proved;
}

}  // namespace eqsat
