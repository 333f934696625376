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

// Translation validation's verdict on `in` => `out` under `flags`: the variable `p` is
// BOOL, the others of dtype `floats`.
EquivalenceResult verdict(const std::string& in, const std::string& out, FastMath flags, DType floats = DType::FP32) {
  const auto typer = [floats](std::string_view name, bool) -> std::optional<DType> {
    return name == "p" ? DType::Bool : floats;
  };
  Result<Expr> input = parse_expr(in, typer);
  Result<Expr> output = parse_expr(out, typer);
  EXPECT_TRUE(input && output) << in << " / " << out;
  ProverOptions options;
  options.fast_math = flags;
  options.timeout_ms = 120000;  // sanitizer builds on a loaded machine
  return input && output ? verify_equivalent(*input, *output, Facts{}, options) : EquivalenceResult{};
}

TEST(FastMathEquivalence, TranslationValidationUsesTheRunsFlags) {
  const Expr input = parse_fp32("x * 0.0 + y");
  const Expr output = parse_fp32("y");
  EXPECT_EQ(verify_equivalent(input, output, Facts{}).status, EquivalenceResult::Status::Counterexample);
  ProverOptions relaxed;
  relaxed.fast_math = FastMath{FastMathFlag::Nsz} | FastMathFlag::Nnan;
  EXPECT_EQ(verify_equivalent(input, output, Facts{}, relaxed).status, EquivalenceResult::Status::Equal);
}

// Under reassoc a result may differ from its input by rounding: `(f + 3.0) + 1.0`
// reassociated and folded is `f + 4.0`. Translation validation then accepts what
// differs only by rounding (equal in exact arithmetic, defined wherever the input is)
// as assumed-reassoc; anything else is still refuted. (`eqsat fuzz --seed 35003
// --fast-math all` reported eight such results as failures.)
TEST(FastMathEquivalence, UnderReassocAResultThatDiffersOnlyByRoundingIsAssumed) {
  const FastMath reassoc = FastMathFlag::Reassoc;
  const FastMath all = FastMath::all();
  using Status = EquivalenceResult::Status;
  // Rounds differently at f = 4.7326146e-05 (FP32): 4.0000477 against 4.000047.
  EXPECT_EQ(verdict("1.0 + (3.0 + f)", "f + 4.0", {}).status, Status::Counterexample);
  for (FastMath flags : {reassoc, all}) {
    const EquivalenceResult r = verdict("1.0 + (3.0 + f)", "f + 4.0", flags);
    EXPECT_EQ(r.status, Status::Equal) << r.detail;
    EXPECT_EQ(r.kind, ProofKind::AssumedReassoc);
    // Not equal in exact arithmetic: wrong whatever the flags.
    EXPECT_EQ(verdict("1.0 + (3.0 + f)", "f + 5.0", flags).status, Status::Counterexample);
  }
  // Equal in exact arithmetic, but undefined where the input is not: at f = NaN,
  // p = False the input is False and the output reads f first (poison under nnan).
  EXPECT_EQ(verdict("p and f + -0.0 > 0.0", "f > 0.0 and p", all).status, Status::Counterexample);
  // And so is a division made infinite where the input's was not (at p = True, a strict
  // select computes its else branch).
  EXPECT_EQ(verdict("select(p, 0.0, 1.0 / select(p, 1.0, -0.0))", "select(p, 0.0, 1.0 / -0.0)", all).status,
            Status::Counterexample);
  // An infinite literal is an unknown real, the same on both sides.
  const EquivalenceResult literal =
      verdict("select(p, f, const(inf, FP32)) + -2.5 + 1.0", "select(p, f, const(inf, FP32)) + -1.5", all);
  EXPECT_EQ(literal.status, Status::Equal) << literal.detail;
  // Reassociating may overflow where the input did not, or the other way round: that
  // is the flag's to permit, under ninf too (`eqsat fuzz --seed 35003 --fast-math all`
  // found `f + (g + 2.0)` => `f + g + 2.0` on FP16, overflowing at f = -65184, g = -336).
  for (const auto& [in, out] :
       {std::pair{"f + 3e+38 + -3e+38", "f"}, std::pair{"f", "f + 3e+38 + -3e+38"},
        std::pair{"f + (g + 2.0)", "f + g + 2.0"}, std::pair{"min(f + (g + 2.0), 0.0)", "min(f + g + 2.0, 0.0)"}}) {
    const EquivalenceResult r = verdict(in, out, all);
    EXPECT_EQ(r.status, Status::Equal) << in << " => " << out << ": " << r.detail;
  }
}

// What is computed from a reassociated sum carries its rounding: a quotient by it may
// overflow where the input's did not, as the input associated the same way would, and
// that is the flag's to permit too (`eqsat fuzz --seed 39002 --first-case 1389 --cases 1
// --max-depth 6 --fast-math all`: on FP16 at g = 33760, h = 0.985, the input's quotient
// is -65470 and the output's overflows). A quotient made infinite by anything else is
// still refuted (the test above).
TEST(FastMathEquivalence, UnderReassocWhatIsComputedFromASumCarriesItsRounding) {
  using Status = EquivalenceResult::Status;
  const FastMath all = FastMath::all();
  const EquivalenceResult quotient = verdict("g / (1.0 + (h + -2.5))", "g / (h + -1.5)", all, DType::FP16);
  EXPECT_EQ(quotient.status, Status::Equal) << quotient.detail;
  EXPECT_EQ(quotient.kind, ProofKind::AssumedReassoc);
  // Without reassoc it is wrong (it rounds differently), and with reassoc a quotient by
  // another sum is wrong in exact arithmetic too.
  const FastMath all_but_reassoc = FastMath{FastMathFlag::Nsz} | FastMathFlag::Nnan | FastMathFlag::Ninf;
  EXPECT_EQ(verdict("g / (1.0 + (h + -2.5))", "g / (h + -1.5)", all_but_reassoc, DType::FP16).status,
            Status::Counterexample);
  EXPECT_EQ(verdict("g / (1.0 + (h + -2.5))", "g / (h + -2.5)", all, DType::FP16).status, Status::Counterexample);
}

// The other way round, a sum folded away: `1.0 / (1.0 + (h + -1.0))` is `1.0 / h` by
// reassociation (BF16 rounds them apart at h = -256). At h = 0 both divide by zero:
// the output's infinity is poison under ninf, and so is the input's, its quotient's
// rounding carried or not: the input is read as in any proof, only the output as
// carrying its sums' rounding (`eqsat fuzz --seed 43002 --max-depth 6 --fast-math all`
// reported it as a failure when the input was read so too).
TEST(FastMathEquivalence, UnderReassocASumFoldedAwayMayLeaveAQuotientInfiniteWhereTheInputsIs) {
  using Status = EquivalenceResult::Status;
  const EquivalenceResult folded = verdict("1.0 / (1.0 + (h + -1.0))", "1.0 / h", FastMath::all(), DType::BF16);
  EXPECT_EQ(folded.status, Status::Equal) << folded.detail;
  EXPECT_EQ(folded.kind, ProofKind::AssumedReassoc);
  // Wrong in exact arithmetic, whatever the flags.
  EXPECT_EQ(verdict("1.0 / (1.0 + (h + -1.0))", "1.0 / (h + 1.0)", FastMath::all(), DType::BF16).status,
            Status::Counterexample);
}

}  // namespace
}  // namespace eqsat::verify
