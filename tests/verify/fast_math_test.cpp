// Proofs under fast-math flags (ir/fast_math.h): each flag relaxes exactly what it
// names, a rule is proved under its own flags only, and reassoc is accepted for pure
// reassociations alone (verify/reassociation.h).
#include <gtest/gtest.h>

#include "ir/parse.h"
#include "tests/verify/test_support.h"
#include "verify/equivalence.h"

namespace eqsat::verify {
namespace {

using testing::parse_one_rule;

Outcome prove_text(const std::string& text, std::size_t instance = 0) {
  const Rule rule = parse_one_rule(text);
  ProverOptions options;
  options.timeout_ms = 120000;  // sanitizer builds on a loaded machine
  return rule.rewrites.size() > instance ? prove_rewrite(rule.rewrites[instance], options) : Outcome{};
}

void expect_proved(const std::string& text, ProofKind kind = ProofKind::Exact) {
  SCOPED_TRACE(text);
  const Rule rule = parse_one_rule(text);
  for (std::size_t i = 0; i < rule.rewrites.size(); ++i) {
    const Outcome outcome = prove_text(text, i);
    EXPECT_EQ(outcome.verdict, Verdict::Proved)
        << dtype_name(rule.dtypes[i]) << ": "
        << (outcome.counterexample ? outcome.counterexample->text() : outcome.unknown_reason);
    EXPECT_EQ(outcome.kind, kind);
  }
}

// Refuted with a counterexample the constant folder reproduces; returns its text.
std::string refuted(const std::string& text) {
  SCOPED_TRACE(text);
  const Rule rule = parse_one_rule(text);
  const Outcome outcome = prove_text(text);
  EXPECT_EQ(outcome.verdict, Verdict::Counterexample) << outcome.unknown_reason;
  if (!outcome.counterexample) return "";
  EXPECT_TRUE(testing::confirmed_by_folder(rule.rewrites[0], *outcome.counterexample));
  return outcome.counterexample->text();
}

TEST(FastMathProofs, NszComparesUpToTheSignOfZero) {
  expect_proved("r [float] {nsz}: x + 0.0 => x");
  expect_proved("r [float] {nsz}: 0.0 - x => -x");
  // Strict IEEE refutes it at the one input nsz forgives.
  EXPECT_EQ(refuted("r [FP32]: x + 0.0 => x"), "x = -0.0 (FP32): lhs = 0.0, rhs = -0.0");
  // nsz forgives only zeros: NaN * 0.0 is NaN, not a zero.
  EXPECT_NE(refuted("r [FP32] {nsz}: x * 0.0 => 0.0"), "");
}

TEST(FastMathProofs, NnanMakesNaNInputsAndResultsPoison) {
  expect_proved("r [float] {nnan}: x - x => 0.0");  // inf - inf is NaN: poison too
  expect_proved("r [float] {nnan}: x == x => True");
  expect_proved("r [float] {nnan}: x / x => 1.0");
  expect_proved("r [float] {nnan nsz}: x * 0.0 => 0.0");
  // Without nsz, -1.0 * 0.0 is -0.0.
  EXPECT_NE(refuted("r [FP32] {nnan}: x * 0.0 => 0.0"), "");
  // nnan does not exclude infinities that stay infinities: MAX + MAX overflows.
  EXPECT_NE(refuted("r [FP32] {nnan}: (x * 2.0) * 0.5 => x"), "");
}

TEST(FastMathProofs, NinfMakesInfiniteInputsAndResultsPoison) {
  expect_proved("r [float] {ninf}: (x * 2.0) * 0.5 => x");
  // ninf does not exclude NaN: NaN - NaN is NaN.
  EXPECT_EQ(refuted("r [FP32] {ninf}: x - x => 0.0"), "x = nan (FP32): lhs = nan, rhs = 0.0");
}

TEST(FastMathProofs, ARuleIsProvedUnderItsOwnFlagsOnly) {
  // The caller's flags do not leak into a rule's proof: a strict rule is proved strictly.
  const Rule rule = parse_one_rule("r [FP32]: x + 0.0 => x");
  ProverOptions options;
  options.fast_math = FastMath::all();
  EXPECT_EQ(prove_rewrite(rule.rewrites[0], options).verdict, Verdict::Counterexample);
}

TEST(FastMathProofs, ReassocAcceptsPureReassociationsOnly) {
  expect_proved("r [float] {reassoc}: (x + c1) + c2 => x + (c1 + c2)", ProofKind::AssumedReassoc);
  expect_proved("r [float] {reassoc}: (x * y) * z => x * (z * y)", ProofKind::AssumedReassoc);
  // Not reassociation: cancelling and distributing are refused, with the reason.
  for (const char* text : {"r [FP32] {reassoc}: (x + y) - y => x", "r [FP32] {reassoc}: (x + y) * z => x * z + y * z",
                           "r [FP32] {reassoc}: (x + y) + z => x + (y + y)"}) {
    SCOPED_TRACE(text);
    const Outcome outcome = prove_text(text);
    EXPECT_EQ(outcome.verdict, Verdict::Unknown);
    EXPECT_NE(outcome.unknown_reason.find("not a pure reassociation"), std::string::npos) << outcome.unknown_reason;
  }
  // A rule that Z3 proves under its other flags needs no assumption.
  expect_proved("r [float] {reassoc nsz}: x + 0.0 => x");
}

Expr parse_fp32(const std::string& text) {
  Result<Expr> e = parse_expr(text, [](std::string_view, bool) -> std::optional<DType> { return DType::FP32; });
  EXPECT_TRUE(e) << text;
  return e ? *e : Expr();
}

TEST(FastMathEquivalence, TranslationValidationUsesTheRunsFlags) {
  const Expr input = parse_fp32("x * 0.0 + y");
  const Expr output = parse_fp32("y");
  EXPECT_EQ(verify_equivalent(input, output, Facts{}).status, EquivalenceResult::Status::Counterexample);
  ProverOptions relaxed;
  relaxed.fast_math = FastMath{FastMathFlag::Nsz} | FastMathFlag::Nnan;
  EXPECT_EQ(verify_equivalent(input, output, Facts{}, relaxed).status, EquivalenceResult::Status::Equal);
}

}  // namespace
}  // namespace eqsat::verify
