// The built-in catalogue as a whole: it is embedded completely, loads, and follows the
// conventions of rules/*.rules. And what it must leave alone: the scope boundaries
// where a rewrite would be wrong.
#include <algorithm>
#include <filesystem>
#include <set>

#include "rules/embedded_files.h"
#include "tests/rules/test_support.h"

namespace eqsat::testing {
namespace {

std::vector<std::string> source_rule_files() {
  std::vector<std::string> paths;
  for (const auto& entry : std::filesystem::directory_iterator(EQSAT_SOURCE_DIR "/rules")) {
    if (entry.path().extension() == ".rules") paths.push_back(entry.path().string());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

TEST(BuiltinRules, EmbedsEveryRuleFileOfTheSourceTree) {
  std::vector<std::string> embedded;
  for (const EmbeddedRuleFile& file : embedded_rule_files()) embedded.emplace_back(file.name);
  std::vector<std::string> sources;
  for (const std::string& path : source_rule_files())
    sources.push_back(std::filesystem::path(path).filename().string());
  EXPECT_EQ(embedded, sources);
}

TEST(BuiltinRules, AreTheRulesOfTheSourceFiles) {
  Result<RuleSet> loaded = load_rule_files(source_rule_files());
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  const RuleSet& builtin = builtin_rules();
  ASSERT_EQ(loaded->rules.size(), builtin.rules.size());
  for (std::size_t i = 0; i < builtin.rules.size(); ++i) {
    EXPECT_EQ(loaded->rules[i].name, builtin.rules[i].name);
    EXPECT_EQ(loaded->rules[i].rewrites.size(), builtin.rules[i].rewrites.size());
  }
}

TEST(BuiltinRules, Conventions) {
  const RuleSet& rules = builtin_rules();
  EXPECT_GE(rules.rules.size(), 60u);
  std::set<std::string> names;
  for (const Rule& rule : rules.rules) {
    const std::string where = rule.file + ":" + std::to_string(rule.line) + ": " + rule.name;
    EXPECT_TRUE(names.insert(rule.name).second) << where;
    EXPECT_FALSE(rule.comment.empty()) << where << ": every rule carries its math as a comment";
    EXPECT_EQ(rule.rewrites.size(), rule.dtypes.size()) << where;
    EXPECT_EQ(rule.file.rfind("rules/", 0), 0u) << where;
  }
  // Each file opens with a comment block that says what it covers.
  for (const EmbeddedRuleFile& file : embedded_rule_files()) {
    EXPECT_EQ(file.text.substr(0, 2), "# ") << file.name;
  }
}

TEST(BuiltinRules, IsLoadedOnce) { EXPECT_EQ(&builtin_rules(), &builtin_rules()); }

// Inputs the catalogue must not shrink: each is where a rule's scope ends.
struct Kept {
  const char* input;
  const char* vars;
  const char* why;
};

const Kept kKept[] = {
    {"x + 1 > x", "x:INT32", "wraps at INT32_MAX"},
    {"x + 3 < 10", "x:INT32", "offsets move across < only without wrapping"},
    {"x - y < 0", "x:INT64 y:INT64", "x - y wraps"},
    {"x // 4 < 3", "x:UINT32", "the product 3 * 4 could wrap in general"},
    {"(x * 4) // 4", "x:INT32", "x * 4 wraps"},
    {"(x * 8) % 8", "x:INT16", "x * 8 wraps (harmless for powers of two, but not claimed)"},
    {"(x + 8) % 3", "", "8 is no multiple of 3"},
    {"(x // 4) // -2", "", "nested floor division needs positive divisors"},
    {"min(x + 1, x + 2)", "x:INT8", "x + 2 may wrap below x + 1"},
    {"x + 0.0", "x:FP32", "-0.0 + 0.0 is +0.0"},
    {"x * 0.0", "x:FP32", "NaN, infinities and -0.0"},
    {"x - x", "x:FP64", "inf - inf is NaN"},
    {"x == x", "x:FP32", "NaN == NaN is False"},
    {"0.0 - x", "x:FP32", "0.0 - 0.0 is +0.0, -(0.0) is -0.0"},
    {"not (x < y)", "x:FP32 y:FP32", "NaN: both x < y and y <= x are False"},
    {"select(x < y, x, y)", "x:FP32 y:FP32", "float min differs on NaN and signed zeros"},
    {"cast(cast(x, INT8), INT64)", "x:INT64", "INT8 truncates"},
    {"cast(cast(x, INT32), INT64)", "x:UINT32", "INT32 does not hold every UINT32"},
    {"cast(x + 1, INT32)", "x:INT16", "a widening cast does not commute with wrapping"},
    {"x // 0", "", "division by zero stays visible"},
    // (x // x is 1: at x = 0 the input is undefined, and the contract asks nothing there.)
    {"x // y * y", "", "it is x only where y divides x"},
    {"select(y != 0, x // y, 0)", "", "the select keeps the division from y = 0"},
    {"truncdiv(x, 4)", "", "x may be negative"},
    {"x % 10", "", "x is not known to lie in [0, 10)"},
    {"max(x, 0)", "", "nothing is known about x"},
    {"max(-x, 0)", "", "nothing is known about x"},
    {"x >= 0", "", "an INDEX variable may be negative"},
};

TEST(BuiltinRules, KeepsWhatWouldBeWrongToChange) {
  for (const Kept& kept : kKept) {
    const Case c = make_case(kept.input, kept.vars);
    const Expr input = parse_in(c, kept.input);
    const Expr output = simplify_with(c, builtin_rules());
    ASSERT_TRUE(output.valid()) << kept.input;
    EXPECT_GE(output.tree_size(), input.tree_size())
        << kept.input << " [" << kept.vars << "] became " << print(output) << ", but " << kept.why;
  }
}

}  // namespace
}  // namespace eqsat::testing
