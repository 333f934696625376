// Translation validation: an output equal to its input under the facts is accepted; a
// wrong one is refuted with the values that show it.
#include "verify/equivalence.h"

#include <gtest/gtest.h>

#include "ir/parse.h"

namespace eqsat::verify {
namespace {

using Status = EquivalenceResult::Status;

Expr parse(const std::string& text, const Facts& facts) {
  Result<Expr> e = parse_expr(text, facts.var_typer());
  if (!e) ADD_FAILURE() << text << ": " << e.error().describe();
  return e ? *e : Expr::constant(Value::integer(DType::Index, 0));
}

EquivalenceResult check(const std::string& in, const std::string& out, Facts facts = {},
                        const std::vector<std::string>& assume = {}) {
  for (const std::string& a : assume) facts.assumptions.push_back(parse(a, facts));
  return verify_equivalent(parse(in, facts), parse(out, facts), facts);
}

TEST(Equivalence, EqualWithoutFacts) {
  EXPECT_EQ(check("(x + 1) - 1", "x").status, Status::Equal);
  EXPECT_EQ(check("x * 2 + x", "x * 3").status, Status::Equal);
}

TEST(Equivalence, BoundsAndAssumptionsAreUsed) {
  Facts facts;
  facts.bounds["i"] = Interval::range(0, 7);
  EXPECT_EQ(check("select(i < 16, i + 0, 3)", "i", facts).status, Status::Equal);
  EXPECT_EQ(check("i % 8", "i", facts).status, Status::Equal);
  EXPECT_EQ(check("i % 8", "i").status, Status::Counterexample);
  EXPECT_EQ(check("max(j, 0)", "j", {}, {"j >= 0"}).status, Status::Equal);
}

TEST(Equivalence, FixedWidthAndFloats) {
  Facts facts;
  facts.var_dtypes["x"] = DType::Int32;
  facts.var_dtypes["f"] = DType::FP32;
  EXPECT_EQ(check("(x + 1) - 1", "x", facts).status, Status::Equal);
  const EquivalenceResult r = check("x + 1 > x", "True", facts);
  ASSERT_EQ(r.status, Status::Counterexample);
  EXPECT_EQ(r.detail, "x = 2147483647 (INT32): input = False, output = True");
  EXPECT_EQ(check("f * 1.0", "f", facts).status, Status::Equal);
  EXPECT_EQ(check("f + 0.0", "f", facts).status, Status::Counterexample);
}

TEST(Equivalence, OutputMayNotIntroduceUndefinedBehaviour) {
  EXPECT_EQ(check("select(y != 0, x // y, 0)", "select(y != 0, x // y, 0)").status, Status::Equal);
  // Under the strict reading the input is undefined at y == 0, under the lazy one it is
  // not, and there the output divides by zero.
  EXPECT_EQ(check("select(y != 0, x // y, 0)", "x // y").status, Status::Counterexample);
}

TEST(Equivalence, ShortCircuitOrderMatters) {
  // At x = 0 the input is True without dividing; the output divides by zero first.
  const EquivalenceResult swapped = check("x == 0 or y // x > 1", "y // x > 1 or x == 0");
  EXPECT_EQ(swapped.status, Status::Counterexample) << swapped.detail;
  // Both operands always defined: the order does not matter.
  EXPECT_EQ(check("x == 0 or y > 1", "y > 1 or x == 0").status, Status::Equal);
  // The variables of an expression are inputs, always defined: only the operations
  // inside can be undefined.
  Facts bools;
  bools.var_dtypes["p"] = DType::Bool;
  bools.var_dtypes["q"] = DType::Bool;
  EXPECT_EQ(check("p and q", "q and p", bools).status, Status::Equal);
}

TEST(Equivalence, NonlinearIndexFallsBackToBitVectors) {
  const EquivalenceResult r = check("x * y & 1", "(x & 1) * (y & 1)");
  EXPECT_EQ(r.status, Status::Equal) << r.detail;
  EXPECT_EQ(r.kind, ProofKind::BvFallback);
}

}  // namespace
}  // namespace eqsat::verify
