// The lock file and the rule digest (rules/rule_lock.h, rules/rule_digest.h).
#include <gtest/gtest.h>

#include "rules/rule_digest.h"
#include "rules/rule_lock.h"
#include "verify/verify_rules.h"

namespace eqsat {
namespace {

RuleSet rules_of(const std::string& text) {
  Result<std::vector<Rule>> rules = parse_rules(text, "inline.rules");
  EXPECT_TRUE(rules) << (rules ? "" : rules.error().describe());
  RuleSet set;
  if (rules) set.add(std::move(rules).value());
  return set;
}

// A lock that records every instance of `set` as proved (exact), digest and flags current.
RuleLock lock_of(const RuleSet& set) {
  RuleLock lock;
  for (const Rule& rule : set.rules)
    for (DType d : rule.dtypes) lock.entries.push_back({rule.name, d, "exact", rule_digest(rule, d), rule.fast_math});
  return lock;
}

TEST(RuleDigest, IsStableAndCoversTheText) {
  const RuleSet a = rules_of("add-zero [index int]: x + 0 => x\n");
  const RuleSet b = rules_of("\n\nadd-zero [index int]: x + 0 => x  # moved\n");
  const RuleSet c = rules_of("add-zero [index int]: x + 0 => x  if lower(x) >= 0\n");
  const Rule& r = a.rules[0];
  EXPECT_EQ(rule_digest(r, DType::Index).size(), 16u);
  EXPECT_EQ(rule_digest(r, DType::Index), rule_digest(b.rules[0], DType::Index));
  EXPECT_NE(rule_digest(r, DType::Index), rule_digest(r, DType::Int8));
  EXPECT_NE(rule_digest(r, DType::Index), rule_digest(c.rules[0], DType::Index));
  // FNV-1a is fixed: the digest must not change between builds or platforms.
  EXPECT_EQ(rule_digest(r, DType::Index), rule_digest(r, DType::Index));
}

TEST(RuleLock, RoundTripsAndGatesLoading) {
  const RuleSet set = rules_of("add-zero [index INT8]: x + 0 => x\nsub-zero [index]: x - 0 => x\n");
  Result<RuleLock> parsed = parse_rule_lock(format_rule_lock(lock_of(set)), "rules.lock");
  ASSERT_TRUE(parsed) << parsed.error().describe();
  EXPECT_EQ(parsed->entries.size(), 3u);
  EXPECT_TRUE(lock_differences(set, *parsed).empty());
  EXPECT_FALSE(unproved_error(set, *parsed));

  RuleLock partial = *parsed;
  partial.entries.pop_back();
  partial.entries.push_back({"gone", DType::Int32, "bv-fallback", "0123456789abcdef"});
  const std::vector<std::string> diffs = lock_differences(set, partial);
  ASSERT_EQ(diffs.size(), 2u);
  EXPECT_NE(diffs[0].find("'sub-zero' (INDEX)"), std::string::npos);
  EXPECT_NE(diffs[1].find("'gone' (INT32): no such rule instance"), std::string::npos);
  std::optional<Error> refused = unproved_error(set, partial);
  ASSERT_TRUE(refused);
  EXPECT_NE(refused->message.find("'sub-zero' (INDEX) at inline.rules:2"), std::string::npos);
}

// A rule proved under nsz is never loaded without it: the flags are part of the
// digest, and the lock line names them.
TEST(RuleLock, RecordsTheFastMathFlags) {
  const RuleSet relaxed = rules_of("a [FP32] {nsz}: x + 0.0 => x\n");
  const RuleSet strict = rules_of("a [FP32]: x + 0.0 => x\n");
  const Rule& r = relaxed.rules[0];
  EXPECT_NE(rule_digest(r, DType::FP32), rule_digest(strict.rules[0], DType::FP32));

  RuleLock lock;
  lock.entries.push_back({r.name, DType::FP32, "exact", rule_digest(r, DType::FP32), r.fast_math});
  const std::string text = format_rule_lock(lock);
  EXPECT_NE(text.find("a FP32 exact " + rule_digest(r, DType::FP32) + " nsz\n"), std::string::npos) << text;
  Result<RuleLock> parsed = parse_rule_lock(text, "rules.lock");
  ASSERT_TRUE(parsed) << parsed.error().describe();
  EXPECT_EQ(parsed->entries[0].fast_math, FastMath{FastMathFlag::Nsz});
  EXPECT_FALSE(unproved_error(relaxed, *parsed));
  // The same rule with its flags dropped is not what was proved.
  EXPECT_TRUE(unproved_error(strict, *parsed));

  // An entry whose flags were edited by hand proves nothing, and says why.
  RuleLock edited = *parsed;
  edited.entries[0].fast_math = FastMath{};
  EXPECT_FALSE(edited.proves(r, DType::FP32));
  const std::vector<std::string> diffs = lock_differences(relaxed, edited);
  ASSERT_EQ(diffs.size(), 1u);
  EXPECT_NE(diffs[0].find("proved under fast-math {} but the rule needs {nsz}"), std::string::npos) << diffs[0];
}

// A user's rule may share a name with a catalogue rule: the lock given for it proves
// it, though the catalogue's lock holds another 'add-zero' (before, the first entry of a
// name in all the locks put together was the only one looked at, and the rule was
// refused).
TEST(RuleLock, EachLockProvesItsOwnRulesWhateverTheOthersHoldOfTheirName) {
  const RuleSet mine = rules_of("add-zero [index]: 0 + x => x\n");
  const RuleLock& catalogue = builtin_rule_lock();
  ASSERT_TRUE(catalogue.find("add-zero", DType::Index));
  EXPECT_TRUE(unproved_error(mine, catalogue));
  const std::vector<RuleLock> both{catalogue, lock_of(mine)};
  EXPECT_FALSE(unproved_error(mine, both));
  EXPECT_FALSE(unproved_error(mine, std::span(both).subspan(1), builtin_rule_lock));
}

int lock_calls = 0;
const RuleLock& counted_catalogue_lock() {
  ++lock_calls;
  return builtin_rule_lock();
}

// The last lock (the catalogue's, in the engine) is asked for only when the others leave
// an instance unproved, and then proves what it holds; what none proves is named.
TEST(RuleLock, TheLastLockIsReadOnlyForWhatTheOthersLeave) {
  const RuleSet mine = rules_of("mine [index]: x - x => 0\n");
  const std::vector<RuleLock> given{lock_of(mine)};
  lock_calls = 0;
  EXPECT_FALSE(unproved_error(mine, given, counted_catalogue_lock));
  EXPECT_EQ(lock_calls, 0);

  // A catalogue rule, word for word, with a rule of the user's own.
  const RuleSet reused = rules_of("mine [index]: x - x => 0\nadd-zero [index int uint]: x + 0 => x\n");
  EXPECT_FALSE(unproved_error(reused, given, counted_catalogue_lock));
  EXPECT_EQ(lock_calls, 1);
  EXPECT_TRUE(unproved_error(reused, given));

  const RuleSet unproved = rules_of("mine [index]: x - x => 0\nnew-one [index INT32]: x * 1 => x\n");
  const std::vector<std::string> missing = unproved_instances(unproved, given, counted_catalogue_lock);
  ASSERT_EQ(missing.size(), 2u);
  EXPECT_EQ(missing[0], "'new-one' (INDEX) at inline.rules:2");
  EXPECT_EQ(missing[1], "'new-one' (INT32) at inline.rules:2");
}

TEST(RuleLock, FastMathFieldErrors) {
  EXPECT_FALSE(parse_rule_lock("a FP32 exact 0123456789abcdef nzs\n", "l"));
  EXPECT_FALSE(parse_rule_lock("a FP32 exact 0123456789abcdef nnan,nsz\n", "l"));  // not canonical
  EXPECT_TRUE(parse_rule_lock("a FP32 assumed-reassoc 0123456789abcdef reassoc\n", "l"));
  Result<RuleLock> bad = parse_rule_lock("a FP32 assumed-reassoc 0123456789abcdef nsz\n", "l");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "l:1: proof assumed-reassoc for an instance not proved under reassoc");
}

TEST(RuleLock, ParseErrorsNameTheLine) {
  Result<RuleLock> bad = parse_rule_lock("# header\nadd-zero INDEX exact 123\n", "rules.lock");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "rules.lock:2: the digest must be 16 lower-case hex digits");
  EXPECT_FALSE(parse_rule_lock("a INDEX magic 0123456789abcdef\n", "l"));
  EXPECT_FALSE(parse_rule_lock("a INT33 exact 0123456789abcdef\n", "l"));
}

TEST(VerifyRules, ResultsComeInFileOrderWhateverTheThreadCount) {
  const RuleSet set = rules_of("a [index int]: x + 0 => x\nb [INT32]: x + 1 > x => True\nc [float]: x * 1.0 => x\n");
  const auto one = verify::verify_rule_set(set, {}, 1);
  const auto four = verify::verify_rule_set(set, {}, 4);
  ASSERT_EQ(one.size(), 10u);
  ASSERT_EQ(four.size(), one.size());
  for (std::size_t i = 0; i < one.size(); ++i) EXPECT_EQ(verify::result_line(one[i]), verify::result_line(four[i]));
  EXPECT_EQ(verify::result_line(one[5]),
            "inline.rules:2: b INT32: counterexample: x = 2147483647 (INT32): lhs = False, rhs = True");
  EXPECT_EQ(verify::result_line(one[0]), "inline.rules:1: a INDEX: proved (exact)");
}

}  // namespace
}  // namespace eqsat
