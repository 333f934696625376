#include "rules/rule_lock.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "rules/embedded_files.h"
#include "rules/rule_digest.h"

namespace eqsat {

const LockEntry* RuleLock::find(std::string_view name, DType dtype) const {
  for (const LockEntry& e : entries) {
    if (e.name == name && e.dtype == dtype) return &e;
  }
  return nullptr;
}

namespace {

bool proves_entry(const LockEntry* e, const Rule& rule, DType dtype) {
  return e && e->fast_math == rule.fast_math && e->digest == rule_digest(rule, dtype);
}

// The lock's entries by rule name and dtype, the first of equal ones as RuleLock::find
// gives it: checking a catalogue of ~1,900 instances against the lock entry by entry,
// each a scan of the lock, was a good part of the program's start-up.
class LockIndex {
 public:
  explicit LockIndex(const RuleLock& lock) {
    for (const LockEntry& e : lock.entries) by_instance_.try_emplace({e.name, e.dtype}, &e);
  }
  const LockEntry* find(std::string_view name, DType dtype) const {
    auto it = by_instance_.find({name, dtype});
    return it == by_instance_.end() ? nullptr : it->second;
  }

 private:
  std::map<std::pair<std::string_view, DType>, const LockEntry*> by_instance_;
};

bool is_hex_digest(std::string_view s) {
  if (s.size() != 16) return false;
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

std::string instance_name(std::string_view name, DType dtype) {
  return "'" + std::string(name) + "' (" + std::string(dtype_name(dtype)) + ")";
}

std::string where(const Rule& rule) { return rule.file + ":" + std::to_string(rule.line); }

}  // namespace

Result<RuleLock> parse_rule_lock(std::string_view text, std::string_view file_name) {
  // By views into `text`, without streams: the built-in lock (some 1,900 lines) is
  // parsed by every run of the program, and a string stream per line was most of it.
  RuleLock lock;
  lock.entries.reserve(static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1);
  std::set<std::pair<std::string_view, DType>> seen;  // views into `text`
  int number = 0;
  while (!text.empty()) {
    ++number;
    const std::size_t newline = text.find('\n');
    std::string_view line = text.substr(0, newline);
    text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
    line = line.substr(0, line.find('#'));
    auto fail = [&](const std::string& reason) {
      return Error{std::string(file_name) + ":" + std::to_string(number) + ": " + reason};
    };
    // The whitespace-separated words; a sixth one is kept only to be reported.
    std::array<std::string_view, 6> words;
    std::size_t count = 0;
    std::size_t at = 0;
    auto is_space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
    while (count < words.size()) {
      while (at < line.size() && is_space(line[at])) ++at;
      if (at == line.size()) break;
      const std::size_t begin = at;
      while (at < line.size() && !is_space(line[at])) ++at;
      words[count++] = line.substr(begin, at - begin);
    }
    if (count == 0) continue;
    if (count != 4 && count != 5) return fail("expected 'NAME DTYPE PROOF DIGEST [FLAGS]'");
    std::optional<DType> dtype = parse_dtype(words[1]);
    if (!dtype) return fail("unknown dtype '" + std::string(words[1]) + "'");
    if (words[2] != "exact" && words[2] != "bv-fallback" && words[2] != "assumed-reassoc") {
      return fail("unknown proof '" + std::string(words[2]) +
                  "' (expected exact, bv-fallback or assumed-reassoc)");
    }
    if (!is_hex_digest(words[3])) return fail("the digest must be 16 lower-case hex digits");
    FastMath flags;
    if (count == 5) {
      Result<FastMath> parsed = parse_fast_math(words[4]);
      if (!parsed || parsed->none() || words[4] != fast_math_text(*parsed)) {
        return fail("bad fast-math flags '" + std::string(words[4]) +
                    "' (expected e.g. nsz,nnan in the order nsz,nnan,ninf,reassoc)");
      }
      flags = *parsed;
    }
    if (words[2] == "assumed-reassoc" && !flags.has(FastMathFlag::Reassoc)) {
      return fail("proof assumed-reassoc for an instance not proved under reassoc");
    }
    if (!seen.emplace(words[0], *dtype).second) return fail("duplicate entry " + instance_name(words[0], *dtype));
    lock.entries.push_back({std::string(words[0]), *dtype, std::string(words[2]), std::string(words[3]), flags});
  }
  return lock;
}

Result<RuleLock> load_rule_lock(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path + ": cannot open the lock file"};
  std::ostringstream text;
  text << in.rdbuf();
  return parse_rule_lock(text.str(), path);
}

std::string format_rule_lock(const RuleLock& lock) {
  std::string out =
      "# The rule instances proved sound by `eqsat verify-rules` (Z3). Generated by\n"
      "# `eqsat verify-rules --write-lock`; do not edit. One line per instance:\n"
      "# NAME DTYPE PROOF DIGEST [FLAGS] (PROOF: exact, or bv-fallback = INDEX as 64-bit\n"
      "# bit-vectors whose every intermediate fits, or assumed-reassoc = a pure\n"
      "# reassociation the reassoc flag permits; DIGEST: rules/rule_digest.h; FLAGS: the\n"
      "# fast-math flags it is proved under, for float rules that need some).\n";
  for (const LockEntry& e : lock.entries) {
    out += e.name + " " + std::string(dtype_name(e.dtype)) + " " + e.proof + " " + e.digest;
    if (!e.fast_math.none()) out += " " + fast_math_text(e.fast_math);
    out += "\n";
  }
  return out;
}

bool RuleLock::proves(const Rule& rule, DType dtype) const { return proves_entry(find(rule.name, dtype), rule, dtype); }

std::vector<std::string> lock_differences(const RuleSet& rules, const RuleLock& lock) {
  const LockIndex index(lock);
  std::vector<std::string> out;
  std::set<std::pair<std::string, DType>> instances;
  for (const Rule& rule : rules.rules) {
    for (DType dtype : rule.dtypes) {
      instances.emplace(rule.name, dtype);
      const LockEntry* e = index.find(rule.name, dtype);
      if (!e) {
        out.push_back("rule " + instance_name(rule.name, dtype) + " at " + where(rule) + ": not in the lock");
      } else if (e->fast_math != rule.fast_math) {
        out.push_back("rule " + instance_name(rule.name, dtype) + " at " + where(rule) + ": proved under fast-math {" +
                      fast_math_text(e->fast_math) + "} but the rule needs {" + fast_math_text(rule.fast_math) + "}");
      } else if (e->digest != rule_digest(rule, dtype)) {
        out.push_back("rule " + instance_name(rule.name, dtype) + " at " + where(rule) +
                      ": changed since it was proved (digest differs)");
      }
    }
  }
  for (const LockEntry& e : lock.entries) {
    if (!instances.count({e.name, e.dtype})) {
      out.push_back("lock entry " + instance_name(e.name, e.dtype) + ": no such rule instance");
    }
  }
  return out;
}

std::vector<std::string> unproved_instances(const RuleSet& rules, const RuleLock& lock) {
  const LockIndex index(lock);
  std::vector<std::string> out;
  for (const Rule& rule : rules.rules) {
    for (DType dtype : rule.dtypes) {
      if (!proves_entry(index.find(rule.name, dtype), rule, dtype))
        out.push_back(instance_name(rule.name, dtype) + " at " + where(rule));
    }
  }
  return out;
}

std::optional<Error> unproved_error(const RuleSet& rules, const RuleLock& lock) {
  const std::vector<std::string> missing = unproved_instances(rules, lock);
  if (missing.empty()) return std::nullopt;
  std::string message = "rules not proved sound (run `eqsat verify-rules --write-lock`):";
  for (const std::string& m : missing) message += "\n  " + m;
  return Error{message};
}

const RuleLock& builtin_rule_lock() {
  static const RuleLock lock = [] {
    Result<RuleLock> parsed = parse_rule_lock(embedded_rule_lock(), "rules/rules.lock");
    if (!parsed) {
      std::fprintf(stderr, "eqsat: the built-in rule lock does not parse: %s\n", parsed.error().message.c_str());
      std::abort();
    }
    return std::move(parsed).value();
  }();
  return lock;
}

}  // namespace eqsat
