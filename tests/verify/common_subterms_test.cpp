// Shared subterms abstracted before translation validation (verify/common_subterms.h):
// what is abstracted, what is not, and that the check stays exact when abstracting
// loses the information a proof needs.
#include "verify/common_subterms.h"

#include <gtest/gtest.h>

#include "ir/parse.h"
#include "ir/print.h"
#include "verify/equivalence.h"

namespace eqsat::verify {
namespace {

Facts floats() {
  Facts facts;
  for (const char* name : {"f", "g", "h"}) facts.var_dtypes[name] = DType::FP32;
  return facts;
}

Expr parse(const std::string& text, const Facts& facts = {}) { return *parse_expr(text, facts.var_typer()); }

TEST(CommonSubterms, CommutedOperandsAreTheSameTerm) {
  const Facts facts = floats();
  AbstractedPair pair = abstract_common_subterms(parse("h / f * (f * h)", facts), parse("h / f * (h * f)", facts));
  EXPECT_TRUE(pair.identical);
}

TEST(CommonSubterms, ShortCircuitOperandsAreSortedOnlyWhenAlwaysDefined) {
  EXPECT_FALSE(abstract_common_subterms(parse("x == 0 or y // x > 1"), parse("y // x > 1 or x == 0")).identical);
  EXPECT_TRUE(abstract_common_subterms(parse("x == 0 or y > 1"), parse("y > 1 or x == 0")).identical);
}

TEST(CommonSubterms, SharedSubtermsBecomeOneFreshVariableEach) {
  const Facts facts = floats();
  AbstractedPair pair = abstract_common_subterms(parse("f + h + 1.0 + (f / h - -2.5 * g) + -(f / g)", facts),
                                                 parse("f + h + 1.0 + (f / h - g * -2.5) - f / g", facts));
  EXPECT_FALSE(pair.identical);
  // The largest shared subterms: everything but the last negation.
  EXPECT_EQ(print(pair.input), "_t0 + -_t1");
  EXPECT_EQ(print(pair.output), "_t0 - _t1");
  ASSERT_EQ(pair.abstracted.size(), 2u);
  EXPECT_EQ(print(pair.abstracted[0].second), "1.0 + (f + h) + (f / h - -2.5 * g)");  // normal form
  EXPECT_EQ(print(pair.abstracted[1].second), "f / g");
}

TEST(CommonSubterms, FreshNamesAvoidTheVariables) {
  Facts facts;
  AbstractedPair pair = abstract_common_subterms(parse("(_t0 + 1) * 2 + 0"), parse("(_t0 + 1) * 2"));
  EXPECT_EQ(print(pair.output), "_t1");
}

TEST(CommonSubterms, PartialOperationsAreNotAbstracted) {
  // x // y may be undefined; a fresh variable would not be.
  AbstractedPair pair = abstract_common_subterms(parse("x // y + 0"), parse("x // y"));
  EXPECT_TRUE(pair.abstracted.empty());
  Facts facts;
  facts.var_dtypes["f"] = DType::FP32;
  pair = abstract_common_subterms(parse("cast(f, INT32) + 0", facts), parse("cast(f, INT32)", facts));
  EXPECT_TRUE(pair.abstracted.empty());
}

TEST(CommonSubterms, ALostRelationFallsBackToTheFullProof) {
  // Abstracting x * x loses x * x >= 0: the abstracted claim has a counterexample, and
  // the check must then prove the original one.
  EquivalenceResult result = verify_equivalent(parse("select(x * x >= 0, x * x, 0)"), parse("x * x"), {});
  EXPECT_EQ(result.status, EquivalenceResult::Status::Equal) << result.detail;
  // A wrong output is still refuted.
  result = verify_equivalent(parse("select(x * x > 0, x * x, 1)"), parse("x * x"), {});
  EXPECT_EQ(result.status, EquivalenceResult::Status::Counterexample);
}

}  // namespace
}  // namespace eqsat::verify
