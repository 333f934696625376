// RuleSet, and the built-in catalogue parsed from its embedded text (builtin_rules_unverified;
// builtin_rules, which runs, reads the compiled catalogue: rules/builtin_rules.cpp).
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "rules/embedded_files.h"
#include "rules/rule.h"

namespace eqsat {

std::vector<Rewrite> RuleSet::rewrites() const {
  std::size_t total = 0;
  for (const Rule& rule : rules) total += rule.rewrites.size();
  std::vector<Rewrite> all;
  all.reserve(total);
  for (const Rule& rule : rules) all.insert(all.end(), rule.rewrites.begin(), rule.rewrites.end());
  return all;
}

std::shared_ptr<const std::vector<Rewrite>> RuleSet::shared_rewrites() const {
  // The rules' own array if they view all of it, one after the other from its start.
  if (!rules.empty() && rules.front().rewrites.storage()) {
    const std::shared_ptr<const std::vector<Rewrite>>& storage = rules.front().rewrites.storage();
    std::size_t next = 0;
    bool whole = true;
    for (const Rule& rule : rules) {
      whole = rule.rewrites.storage() == storage && rule.rewrites.first() == next;
      if (!whole) break;
      next += rule.rewrites.size();
    }
    if (whole && next == storage->size()) return storage;
  }
  return std::make_shared<const std::vector<Rewrite>>(rewrites());
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
  std::vector<std::string> names;
  for (const EmbeddedRuleFile& file : embedded_rule_files()) names.push_back("rules/" + std::string(file.name));
  std::vector<RuleText> files;
  for (std::size_t i = 0; i < names.size(); ++i) files.push_back({embedded_rule_files()[i].text, names[i]});
  Result<RuleSet> set = parse_rule_set(files);
  if (!set) {
    // The catalogue is part of the program: an error in it is a bug, not bad input.
    std::fprintf(stderr, "eqsat: the built-in rule catalogue does not load: %s\n", set.error().message.c_str());
    std::abort();
  }
  return std::move(set).value();
}

}  // namespace

const RuleSet& builtin_rules_unverified() {
  static const RuleSet set = load_builtin_rules();
  return set;
}

}  // namespace eqsat
