// Rules that hold must be proved: plain, guarded, with constant-only variables, over
// floats. And an INT8 sanity check of the whole translation: for small rules the
// verdict must match exhaustive evaluation with the constant folder.
#include <gtest/gtest.h>

#include "tests/verify/test_support.h"

namespace eqsat::verify {
namespace {

using testing::parse_one_rule;

void expect_proved(const std::string& text) {
  SCOPED_TRACE(text);
  const Rule rule = parse_one_rule(text);
  for (std::size_t i = 0; i < rule.rewrites.size(); ++i) {
    // A generous timeout: these proofs take a second or two, but a sanitizer build on a
    // loaded machine can be ten times slower, and "unknown" would fail the test.
    ProverOptions options;
    options.timeout_ms = 120000;
    const Outcome outcome = prove_rewrite(rule.rewrites[i], options);
    EXPECT_EQ(outcome.verdict, Verdict::Proved)
        << dtype_name(rule.dtypes[i]) << ": "
        << (outcome.counterexample ? outcome.counterexample->text() : outcome.unknown_reason);
  }
}

void expect_refuted(const std::string& text) {
  SCOPED_TRACE(text);
  const Rule rule = parse_one_rule(text);
  for (std::size_t i = 0; i < rule.rewrites.size(); ++i) {
    const Outcome outcome = prove_rewrite(rule.rewrites[i]);
    ASSERT_EQ(outcome.verdict, Verdict::Counterexample) << dtype_name(rule.dtypes[i]);
    EXPECT_TRUE(testing::confirmed_by_folder(rule.rewrites[i], *outcome.counterexample));
  }
}

TEST(CorrectRules, Plain) {
  expect_proved("r [index int uint]: (x + y) - y => x");
  expect_proved("r [index int uint]: x * y + x * z => x * (y + z)");
  expect_proved("r [bool]: not (p and q) => not p or not q");
  expect_proved("r [index int uint float bool]: select(not p, x, y) => select(p, y, x)");
}

TEST(CorrectRules, Floats) {
  expect_proved("r [float]: x * 1.0 => x");
  expect_proved("r [float]: x + -0.0 => x");
  expect_proved("r [float]: -(-x) => x");
  expect_proved("r [float]: x / 1.0 => x");
  expect_refuted("r [float]: x - x => 0.0");  // inf - inf is NaN
}

TEST(CorrectRules, ConstOnlyVariables) {
  expect_proved("r [index int uint]: (x + c1) + c2 => x + (c1 + c2)");
  expect_proved("r [index]: x + c1 < c2 => x < c2 - c1");
  expect_refuted("r [int]: x + c1 < c2 => x < c2 - c1");  // wraps
}

TEST(CorrectRules, Guarded) {
  expect_proved("r [index int uint]: x % c => x  if c > 0 and lower(x) >= 0 and upper(x) < c");
  expect_proved("r [index]: (x * c1) // c2 => x // (c2 // c1)  if c1 > 0 and c2 % c1 == 0");
  expect_proved("r [index int uint]: min(x, y) => x  if upper(x) <= lower(y)");
  expect_proved("r [index]: truncdiv(x, y) => x // y  if lower(x) >= 0 and lower(y) > 0");
  expect_refuted("r [index]: truncdiv(x, y) => x // y  if lower(y) > 0");
  expect_proved("r [index]: max(x, 0) => x  if lower(x) >= 0");
  // is_const says nothing about values: the rule must hold without it.
  expect_refuted("r [index]: x + y => x  if not is_const(y)");
}

TEST(CorrectRules, UndefinedRightSideIsRefuted) {
  expect_refuted("r [index]: x - x => (x - x) // (x - x)");
  expect_proved("r [index]: (x // y) * 0 => 0 * (x // y)");
}

// `and`, `or` and `select` read an operand only when they need it, so a pattern
// variable under them may stand for a term undefined where it is not read
// (`x == 0 or y // x > 1` at x = 0). A rule that moves such a variable to where it is
// always read is wrong; the guard total(v) makes it right.
Counterexample expect_refuted_with_undefined(const std::string& text, const std::string& undefined_var) {
  SCOPED_TRACE(text);
  const Rule rule = parse_one_rule(text);
  const Outcome outcome = prove_rewrite(rule.rewrites.at(0));
  EXPECT_EQ(outcome.verdict, Verdict::Counterexample) << outcome.unknown_reason;
  if (!outcome.counterexample) return {};
  const Counterexample& cex = *outcome.counterexample;
  EXPECT_EQ(cex.undefined, std::vector<std::string>{undefined_var}) << cex.text();
  EXPECT_TRUE(cex.lhs.has_value()) << cex.text();  // the left side is defined without it
  EXPECT_FALSE(cex.rhs.has_value()) << cex.text();
  return cex;
}

TEST(CorrectRules, LazilyReadOperandsMayBeUndefined) {
  const Counterexample swapped = expect_refuted_with_undefined("r [bool]: p and q => q and p", "q");
  EXPECT_EQ(swapped.text(), "p = False (BOOL), q undefined: lhs = False, rhs = undefined");
  expect_proved("r [bool]: p and q => q and p  if total(q)");
  expect_refuted_with_undefined("r [bool]: p or q => q or p", "q");
  expect_proved("r [bool]: p or q => q or p  if total(q)");
  expect_refuted_with_undefined("r [index]: x < y and x < z => x < min(y, z)", "z");
  expect_proved("r [index]: x < y and x < z => x < min(y, z)  if total(z)");
  expect_proved("r [index]: select(p, x, y) => select(not p, y, x)");
  // What a lazy operation reads anyway needs no guard.
  expect_proved("r [bool]: not p and not q => not (p or q)");
  expect_proved("r [index]: select(p, x, x) => x");
  expect_proved("r [bool]: True and p => p");
  // total(p) only says p is defined, nothing about its value.
  const Rule wrong = parse_one_rule("r [bool]: p and q => q  if total(p)");
  EXPECT_EQ(prove_rewrite(wrong.rewrites.at(0)).verdict, Verdict::Counterexample);
}

TEST(CorrectRules, ShiftsAndBits) {
  expect_proved("r [int uint]: x << 1 => x * 2");
  expect_proved("r [index]: x << 3 => x * 8");
  expect_proved("r [index int]: x >> 1 => x // 2");
  expect_proved("r [index int uint]: x ^ x => 0");
  expect_refuted("r [uint]: x >> 1 => x // -1");
}

// Divisions of 32- and 64-bit values by a variable: bit-blasted, they time out; read
// as integers wrapped into range (the prover's fallback for them), Z3 proves these at
// once and refutes the wrong one with a counterexample the folder confirms.
void expect_wrapped_integers_decide(const std::string& text, Verdict verdict) {
  SCOPED_TRACE(text);
  const Rule rule = parse_one_rule(text);
  for (std::size_t i = 0; i < rule.rewrites.size(); ++i) {
    ProverOptions options;
    options.fixed_width_model = FixedWidthModel::WrappedInteger;
    options.timeout_ms = 60000;  // a second or two; generous for a loaded sanitizer run
    const Outcome outcome = prove_rewrite(rule.rewrites[i], options);
    EXPECT_EQ(outcome.verdict, verdict) << dtype_name(rule.dtypes[i]) << ": " << outcome.unknown_reason;
    if (outcome.counterexample) {
      EXPECT_TRUE(testing::confirmed_by_folder(rule.rewrites[i], *outcome.counterexample));
    }
  }
}

TEST(CorrectRules, WideDivisionsByAVariable) {
  expect_wrapped_integers_decide("r [INT32]: truncmod(truncmod(x, y), y) => truncmod(x, y)", Verdict::Proved);
  expect_wrapped_integers_decide("r [UINT64]: (x % y) % y => x % y", Verdict::Proved);
  expect_wrapped_integers_decide("r [INT16 UINT16]: (x + y) % y => x % y", Verdict::Counterexample);  // x + y wraps
  // Where the translation has no word for an operation, the model says so.
  ProverOptions options;
  options.fixed_width_model = FixedWidthModel::WrappedInteger;
  const Rule bits = parse_one_rule("r [INT32]: (x & y) % y => x % y");
  EXPECT_EQ(prove_rewrite(bits.rewrites[0], options).verdict, Verdict::Unknown);
}

TEST(CorrectRules, Casts) {
  expect_proved("r [INT8 INT16 UINT8 UINT16]: cast(cast(x, INT32), INT64) => cast(x, INT64)");
  expect_proved("r [INT32]: cast(cast(x, INDEX), INT32) => x");
  expect_proved("r [INT8]: cast(cast(x, FP32), INT8) => x");
  expect_refuted("r [INT32]: cast(cast(x, FP32), INT32) => x");  // 2^24 + 1 rounds
  expect_refuted("r [FP32]: cast(cast(x, INT32), FP32) => x");
  expect_refuted("r [INDEX]: cast(x, INT32) < cast(y, INT32) => x < y");  // the casts wrap
}

// Casts between INDEX and a fixed width: with INDEX as Int, Z3 bridges the two with
// int2bv and ran to its timeout on this one, so only the bit-vector fallback proved it.
// Wrapped integers prove it exactly, for every INDEX value.
TEST(CorrectRules, IndexCastsAreProvedExactly) {
  for (const char* text : {"r [INDEX]: cast(x + c, INT32) => cast(x, INT32) + cast(c, INT32)",
                           "r [INDEX]: cast(x - c, INT64) => cast(x, INT64) - cast(c, INT64)"}) {
    SCOPED_TRACE(text);
    const Rule rule = parse_one_rule(text);
    ProverOptions options;
    options.timeout_ms = 120000;  // as expect_proved
    const Outcome outcome = prove_rewrite(rule.rewrites[0], options);
    EXPECT_EQ(outcome.verdict, Verdict::Proved) << outcome.unknown_reason;
    EXPECT_EQ(outcome.kind, ProofKind::Exact);
  }
}

// For rules over INT8 with at most two variables, every assignment can be tried: the
// folder finds a failing one exactly when Z3 finds a counterexample.
void expect_exhaustive_agreement(const std::string& text, int& decided_by_wrapped_integers) {
  SCOPED_TRACE(text);
  const Rule rule = parse_one_rule(text);
  ASSERT_EQ(rule.dtypes, std::vector<DType>{DType::Int8});
  const Rewrite& rw = rule.rewrites[0];
  ASSERT_LE(rw.vars.size(), 2u);
  bool failing = false;
  std::vector<Value> values(rw.vars.size(), Value::integer(DType::Int8, 0));
  const int count = rw.vars.size() == 2 ? 256 * 256 : 256;
  for (int k = 0; k < count && !failing; ++k) {
    values[0] = Value::integer(DType::Int8, k % 256);
    if (values.size() == 2) values[1] = Value::integer(DType::Int8, k / 256);
    const std::optional<Value> lhs = fold_pattern(rw.lhs, values);
    if (!lhs) continue;
    failing = fold_pattern(rw.rhs, values) != lhs;
  }
  // Both readings of fixed-width values must agree with the folder: bit-vectors, and
  // integers wrapped into range (the fallback for wide divisions, which has no shifts
  // or bitwise operations, and may be unknown where the bit-vectors decide at once).
  for (FixedWidthModel model : {FixedWidthModel::BitVector, FixedWidthModel::WrappedInteger}) {
    ProverOptions options;
    options.fixed_width_model = model;
    if (model == FixedWidthModel::WrappedInteger) options.timeout_ms = 3000;
    const Outcome outcome = prove_rewrite(rw, options);
    if (model == FixedWidthModel::WrappedInteger && outcome.verdict == Verdict::Unknown) continue;
    EXPECT_EQ(outcome.verdict, failing ? Verdict::Counterexample : Verdict::Proved)
        << (model == FixedWidthModel::BitVector ? "bit-vectors" : "wrapped integers");
    if (outcome.counterexample) {
      EXPECT_TRUE(testing::confirmed_by_folder(rw, *outcome.counterexample));
    }
    if (model == FixedWidthModel::WrappedInteger) ++decided_by_wrapped_integers;
  }
}

TEST(CorrectRules, Int8ExhaustiveAgreement) {
  int decided_by_wrapped_integers = 0;
  for (const char* text : {
           "r [INT8]: -(x - y) => y - x",
           "r [INT8]: x * 2 => x << 1",
           "r [INT8]: (x >> 1) << 1 => x & -2",
           "r [INT8]: abs(x) >= 0 => True",
           "r [INT8]: x // -1 => -x",
           "r [INT8]: cast(cast(x, INT16), INT8) => x",
           "r [INT8]: truncdiv(x, y) => x // y",
           "r [INT8]: min(x, y) + max(x, y) => x + y",
           "r [INT8]: (x + y) // 2 => x // 2 + y // 2",
           "r [INT8]: x % y => x - (x // y) * y",
           "r [INT8]: truncmod(x, y) => x - truncdiv(x, y) * y",
           "r [INT8]: x < y => x - y < 0",
           "r [INT8]: cast(x, UINT8) < cast(y, UINT8) => x < y",
           "r [INT8]: cast(cast(x, UINT8), INT8) => x",
           "r [INT8]: x >> y => x // (1 << y)",
           "r [INT8]: x + 1 > x => True",
           "r [INT8]: abs(x) => max(x, -x)",
           "r [INT8]: x * y // y => x",
           "r [INT8]: (x + y) % y => x % y",
           "r [INT8]: truncdiv(x, y) * y + truncmod(x, y) => x",
           "r [INT8]: cast(cast(x, INT16) * 2, INT8) => x * 2",
           "r [INT8]: cast(cast(x, UINT8) + 1, INT8) => x + 1",
       }) {
    expect_exhaustive_agreement(text, decided_by_wrapped_integers);
  }
  // Most have a translation there and are decided quickly: the comparison is real.
  EXPECT_GE(decided_by_wrapped_integers, 12);
}

}  // namespace
}  // namespace eqsat::verify
