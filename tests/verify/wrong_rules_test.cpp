// The wrong-rules file: every instance must be refuted, with a counterexample that the
// constant folder reproduces.
#include <gtest/gtest.h>

#include "tests/verify/test_support.h"

namespace eqsat::verify {
namespace {

const RuleSet& wrong_rules() {
  static const RuleSet set = [] {
    Result<RuleSet> r = load_rule_files({EQSAT_SOURCE_DIR "/tests/verify/wrong.rules"});
    if (!r) {
      ADD_FAILURE() << r.error().describe();
      return RuleSet{};
    }
    return std::move(r).value();
  }();
  return set;
}

class WrongRule : public ::testing::TestWithParam<std::string> {};

TEST_P(WrongRule, IsRefutedWithARealCounterexample) {
  const Rule* rule = wrong_rules().find(GetParam());
  ASSERT_NE(rule, nullptr);
  for (std::size_t i = 0; i < rule->rewrites.size(); ++i) {
    SCOPED_TRACE(std::string(dtype_name(rule->dtypes[i])));
    const Outcome outcome = prove_rewrite(rule->rewrites[i]);
    ASSERT_EQ(outcome.verdict, Verdict::Counterexample) << outcome.unknown_reason;
    ASSERT_TRUE(outcome.counterexample);
    EXPECT_TRUE(testing::confirmed_by_folder(rule->rewrites[i], *outcome.counterexample));
  }
}

INSTANTIATE_TEST_SUITE_P(All, WrongRule,
                         ::testing::Values("wrap-gt", "float-add-zero", "float-mul-zero", "mul-div-no-guard",
                                           "trunc-as-floor", "max-zero", "narrow-round-trip"),
                         [](const ::testing::TestParamInfo<std::string>& param_info) {
                           std::string name = param_info.param;
                           for (char& c : name)
                             if (c == '-') c = '_';
                           return name;
                         });

TEST(WrongRules, EveryRuleInTheFileIsCovered) { EXPECT_EQ(wrong_rules().rules.size(), 7u); }

TEST(WrongRules, CounterexampleTextIsReadable) {
  const Rule* rule = wrong_rules().find("wrap-gt");
  ASSERT_NE(rule, nullptr);
  const Outcome outcome = prove_rewrite(rule->rewrites[0]);
  ASSERT_TRUE(outcome.counterexample);
  EXPECT_EQ(outcome.counterexample->text(), "x = 2147483647 (INT32): lhs = False, rhs = True");
}

}  // namespace
}  // namespace eqsat::verify
