// The Simplify pass, example by example: each test is an input function and the exact
// text the pass prints for it. The seed's examples (000 and 003) come first, then one
// test per behaviour, then the traps.
#include "passes/simplify_pass.h"

#include <gtest/gtest.h>

#include "ir/stmt_parse.h"
#include "ir/stmt_print.h"
#include "passes/pass_manager.h"
#include "rules/rule.h"

namespace eqsat {
namespace {

const std::vector<Rewrite>& rules() {
  static const std::vector<Rewrite> rewrites = builtin_rules().rewrites();
  return rewrites;
}

Program parse_ok(const std::string& text) {
  Result<Program> program = parse_program(text);
  EXPECT_TRUE(program.ok()) << (program.ok() ? "" : program.error().describe());
  return program.ok() ? *program : Program{};
}

std::string run(const std::string& pipeline, const std::string& text) {
  Result<std::vector<const PassInfo*>> passes = parse_pipeline(pipeline);
  EXPECT_TRUE(passes.ok());
  PassContext context{rules(), {}, {}};
  std::vector<PassReport> reports;
  return print_program(run_pipeline(parse_ok(text), *passes, context, reports));
}

std::string simplify(const std::string& text) { return run("simplify", text); }

// The pass's output, checked to be a fixed point (idempotence) and to parse.
void expect_simplifies(const std::string& input, const std::string& expected) {
  const std::string once = simplify(input);
  EXPECT_EQ(once, expected) << "input:\n" << input;
  EXPECT_EQ(simplify(once), once) << "not idempotent on:\n" << input;
}

// ---- Seed 000's examples ----

// The seed folds `x + 0` too, which strict IEEE forbids for FP32 (-0.0 + 0 is +0.0):
// the default keeps it; `a * 1` is exact and folds, and the alias chain collapses.
TEST(SimplifySeed, AlgebraicIdentityKeepsXPlusZeroOnFloats) {
  expect_simplifies(R"(def main(x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
    a = x + 0
    b = a * 1
    return b
)",
                    "def main(x: Tensor[[64], FP32]) -> Tensor[[64], FP32]:\n"
                    "    a = x + 0.0\n"
                    "    return a\n");
}

// ... and folds it as the seed shows when the function allows no signed zeros
// (rules/fastmath.rules: add-zero-nsz), by its own attribute or by the run's flags.
TEST(SimplifySeed, AlgebraicIdentityFoldsXPlusZeroUnderNsz) {
  expect_simplifies(R"(@pl.fast_math(nsz)
def main(x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
    a = x + 0
    b = a * 1
    return b
)",
                    "@fast_math(nsz)\n"
                    "def main(x: Tensor[[64], FP32]) -> Tensor[[64], FP32]:\n"
                    "    return x\n");

  PassContext context{rules(), {}, {}};
  context.expr.fast_math = FastMathFlag::Nsz;  // `eqsat simplify --fast-math nsz`
  std::vector<PassReport> reports;
  const Program out = run_pipeline(parse_ok(R"(def main(x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
    a = x + 0
    b = a * 1
    return b
)"),
                                   *parse_pipeline("simplify"), context, reports);
  EXPECT_EQ(print_program(out), "def main(x: Tensor[[64], FP32]) -> Tensor[[64], FP32]:\n    return x\n");
}

// Flags are per function: in one file the relaxed function folds and the strict one
// keeps its IEEE semantics; nnan alone does not fold `x + 0` (it needs nsz).
TEST(SimplifyFastMath, FlagsArePerFunction) {
  expect_simplifies(
      "@fast_math(nnan, nsz)\n"
      "def relaxed(x: Tensor[[64], FP32], y: Tensor[[64], FP32]) -> Tensor[[64], FP32]:\n"
      "    return (y - y) + x * 0.0\n"
      "def strict(x: Tensor[[64], FP32], y: Tensor[[64], FP32]) -> Tensor[[64], FP32]:\n"
      "    return (y - y) + x * 0.0\n"
      "@fast_math(nnan)\n"
      "def no_nsz(x: Tensor[[64], FP32]) -> Tensor[[64], FP32]:\n"
      "    return x + 0.0\n",
      "@fast_math(nsz, nnan)\n"
      "def relaxed(x: Tensor[[64], FP32], y: Tensor[[64], FP32]) -> Tensor[[64], FP32]:\n"
      "    return 0.0\n"
      "\n\n"
      "def strict(x: Tensor[[64], FP32], y: Tensor[[64], FP32]) -> Tensor[[64], FP32]:\n"
      "    return y - y + x * 0.0\n"
      "\n\n"
      "@fast_math(nnan)\n"
      "def no_nsz(x: Tensor[[64], FP32]) -> Tensor[[64], FP32]:\n"
      "    return x + 0.0\n");
}

TEST(SimplifySeed, AlgebraicIdentityOnIntegersFoldsCompletely) {
  expect_simplifies(
      "def main(x: Tensor[[64], INT32]) -> Tensor[[64], INT32]:\n    a = x + 0\n    b = a * 1\n    return b\n",
      "def main(x: Tensor[[64], INT32]) -> Tensor[[64], INT32]:\n    return x\n");
}

TEST(SimplifySeed, LoopBoundAwareFolding) {
  expect_simplifies("for i in pl.range(0, 8):\n    if i < 16:\n        body(i)\n",
                    "for i in range(0, 8):\n    body(i)\n");
}

TEST(SimplifySeed, ScalarConstantPropagationAndDce) {
  expect_simplifies(R"(CHUNK_K__ssa_v0: pl.Scalar[pl.INDEX] = 512
acc: pl.Tile[[CHUNK_K__ssa_v0, 64], pl.FP32] = tile.zeros(...)
for k in pl.range(0, K, CHUNK_K__ssa_v0):
    body(k)
return acc
)",
                    "acc: Tile[[512, 64], FP32] = tile.zeros(...)\n"
                    "for k in range(0, K, 512):\n"
                    "    body(k)\n"
                    "return acc\n");
}

TEST(SimplifySeed, ConstantsInsideNestedRegions) {
  expect_simplifies(R"(for i in pl.range(0, 8):
    base: pl.Scalar[pl.INDEX] = 32
    fixed_row: pl.Scalar[pl.INDEX] = base * 2
    view = pl.tile.slice(pool, [16, 16], [fixed_row, 0])
    consume(view, i)
)",
                    "for i in range(0, 8):\n"
                    "    view = tile.slice(pool, [16, 16], [64, 0])\n"
                    "    consume(view, i)\n");
}

TEST(SimplifySeed, ConstantConditionBranch) {
  expect_simplifies(R"(for i in pl.range(0, 8, 2):
    if i == -1:
        body_dead(i)
    else:
        body_live(i)
)",
                    "for i in range(0, 8, 2):\n    body_live(i)\n");
}

TEST(SimplifySeed, DeadBranchGuardThroughAScalarBound) {
  expect_simplifies(R"(for ob in pl.range(0, 68, 2):
    off: pl.Scalar[pl.INDEX] = ob * 256 + 256
    if off == 0:
        first_chunk(off)
    else:
        later_chunk(off)
)",
                    "for ob in range(0, 68, 2):\n"
                    "    off: Scalar[INDEX] = ob * 256 + 256\n"
                    "    later_chunk(off)\n");
}

TEST(SimplifySeed, SingleTripLoopCollapse) {
  expect_simplifies(R"(for ko in pl.range(0, 128, 128):
    if ko == 0:
        first_iter(ko)
    else:
        later_iter(ko)
)",
                    "first_iter(0)\n");
}

// The seed's fragment reads ko in [0, 512) from its loop, written here.
TEST(SimplifySeed, ProvableComparisonInAnOperand) {
  expect_simplifies(R"(for ko in pl.range(0, 512, 256):
    acc = pl.tile.matmul_acc(acc, a, b, init_cond=ko == -128)
)",
                    "for ko in range(0, 512, 256):\n"
                    "    acc = tile.matmul_acc(acc, a, b, init_cond=False)\n");
}

// ---- Where an index bound comes from: the traps ----

TEST(SimplifyTrap, ThePosGuardIsKept) {
  const char* input = R"(pos: pl.Scalar[pl.INDEX] = base - 1   # [-1, +inf)
if pos >= 0:                          # live guard, kept
    if pos < 8:
        read_row(pos)
)";
  expect_simplifies(input, "pos: Scalar[INDEX] = base - 1\nif pos >= 0:\n    if pos < 8:\n        read_row(pos)\n");
}

TEST(SimplifyTrap, ABareIndexParameterIsNeverAssumedNonNegative) {
  const char* input =
      "def f(x: Scalar[INDEX]) -> Scalar[INDEX]:\n"
      "    valid = max(-x, 0)\n"
      "    if x >= 0:\n"
      "        g(x)\n"
      "    return valid\n";
  expect_simplifies(input, input);
}

TEST(SimplifyTrap, AVariableReusedAcrossTwoLoopsIsNotBound) {
  // t is assigned in both loops: neither value may reach the other loop's uses.
  const char* input =
      "for i in range(0, 4):\n"
      "    t = 3\n"
      "    use(t)\n"
      "for j in range(0, 4):\n"
      "    t = j + 1\n"
      "    use(t)\n";
  expect_simplifies(input, input);
}

TEST(SimplifyTrap, ACallInAYieldedValueKeepsTheControlFlow) {
  const char* input =
      "def f(x: Scalar[INDEX]) -> Scalar[INDEX]:\n"
      "    if 1 < 2:\n"
      "        r = yield_(g(x))\n"
      "    else:\n"
      "        r = yield_(x // 0)\n"
      "    for i, (acc,) in range(0, 1, init_values=(x,)):\n"
      "        acc_out = yield_(h(acc))\n"
      "    return r, acc_out\n";
  // The condition folds to True and the if stays (its unreachable arm is not evaluated);
  // the one-trip loop stays too.
  expect_simplifies(input,
                    "def f(x: Scalar[INDEX]) -> Scalar[INDEX]:\n"
                    "    if True:\n"
                    "        r = yield_(g(x))\n"
                    "    else:\n"
                    "        r = yield_(x // 0)\n"
                    "    for i, (acc,) in range(0, 1, init_values=(x,)):\n"
                    "        acc_out = yield_(h(acc))\n"
                    "    return r, acc_out\n");
}

// ---- Bindings ----

TEST(SimplifyBinding, BindingsAreScopedToTheirRegion) {
  // n is bound to 4 inside the loop body only; after the loop it is read as written.
  expect_simplifies("for i in range(0, 8):\n    n = 4\n    use(n + i)\nafter(n)\n",
                    "for i in range(0, 8):\n    n = 4\n    use(4 + i)\nafter(n)\n");
}

TEST(SimplifyBinding, ConstantsReachBranchesScopesAndTypes) {
  expect_simplifies(
      "def f(c: Scalar[BOOL]) -> Scalar[INDEX]:\n"
      "    n: Scalar[INDEX] = 16\n"
      "    t: Tile[[n, n * 2], FP16, valid_shape=[n - 1, n], offset=n * 4] = tile.zeros(...)\n"
      "    if c:\n"
      "        store(t, n)\n"
      "    with spmd(core_num=n // 4):\n"
      "        work(t)\n"
      "    return n\n",
      "def f(c: Scalar[BOOL]) -> Scalar[INDEX]:\n"
      "    t: Tile[[16, 32], FP16, valid_shape=[15, 16], offset=64] = tile.zeros(...)\n"
      "    if c:\n"
      "        store(t, 16)\n"
      "    with spmd(core_num=4):\n"
      "        work(t)\n"
      "    return 16\n");
}

TEST(SimplifyBinding, DeclaredDtypesAreKept) {
  expect_simplifies(
      "def f(x: Scalar[INT32]) -> Scalar[INT32]:\n    k: Scalar[INT32] = 3\n    y = x + k - 3\n    return y * 1\n",
      "def f(x: Scalar[INT32]) -> Scalar[INT32]:\n    return x\n");
}

TEST(SimplifyBinding, BranchConditionsAreFactsInEachArm) {
  expect_simplifies(
      "def f(n: Scalar[INDEX]) -> Scalar[INDEX]:\n"
      "    if n < 4:\n"
      "        a(n < 10)\n"
      "    else:\n"
      "        b(n >= 4, n > 100)\n"
      "    return n\n",
      "def f(n: Scalar[INDEX]) -> Scalar[INDEX]:\n"
      "    if n < 4:\n"
      "        a(True)\n"
      "    else:\n"
      "        b(True, n > 100)\n"
      "    return n\n");
}

// ---- Fold A and Fold B ----

TEST(SimplifyFoldA, BothPolaritiesWithResults) {
  expect_simplifies(
      "def f(x: Scalar[INDEX]) -> Scalar[INDEX]:\n"
      "    if 3 > 2:\n"
      "        r = yield_(x + 1)\n"
      "    else:\n"
      "        r = yield_(x // 0)\n"
      "    if 3 < 2:\n"
      "        s = yield_(x // 0)\n"
      "    else:\n"
      "        s = yield_(r * 2)\n"
      "    return s\n",
      "def f(x: Scalar[INDEX]) -> Scalar[INDEX]:\n    return (x + 1) * 2\n");
}

TEST(SimplifyFoldA, AlwaysFalseWithoutElseIsEmpty) {
  expect_simplifies("for i in range(0, 4):\n    if i > 10:\n        f(i)\n", "for i in range(0, 4):\n    pass\n");
}

TEST(SimplifyFoldB, ZeroTripLoopGivesItsInitialValues) {
  expect_simplifies(
      "def f(x: Scalar[INDEX]) -> Scalar[INDEX]:\n"
      "    for i, (acc,) in range(5, 5, init_values=(x,)):\n"
      "        acc_out = yield_(acc + i)\n"
      "    return acc_out\n",
      "def f(x: Scalar[INDEX]) -> Scalar[INDEX]:\n    return x\n");
}

TEST(SimplifyFoldB, SingleTripLoopWithCarriedValues) {
  expect_simplifies(
      "def f(x: Scalar[INDEX]) -> Scalar[INDEX]:\n"
      "    for i, (acc,) in range(3, 4, init_values=(x,)):\n"
      "        acc_out = yield_(acc + i)\n"
      "    return acc_out\n",
      "def f(x: Scalar[INDEX]) -> Scalar[INDEX]:\n    return x + 3\n");
}

TEST(SimplifyFoldB, LoopsWithAttributesOrOtherKindsAreKept) {
  const char* input =
      "for i in range(0, 1, tag=1):\n    f(i)\n"
      "for j in parallel(0, 1):\n    f(j)\n"
      "for k in unroll(0, 1):\n    f(k)\n";
  expect_simplifies(input, input);
}

TEST(SimplifyFoldB, NestedSingleTripLoopsAreCappedAtSixteenPerRun) {
  std::string input;
  for (int d = 0; d < 19; ++d)
    input += std::string(std::size_t(d) * 4, ' ') + "for i" + std::to_string(d) + " in range(0, 1):\n";
  input += std::string(19 * 4, ' ') + "f(i18)\n";
  const std::string once = simplify(input);
  std::string expected;
  for (int d = 16; d < 19; ++d) {
    expected += std::string(std::size_t(d - 16) * 4, ' ') + "for i" + std::to_string(d) + " in range(0, 1):\n";
  }
  expected += std::string(3 * 4, ' ') + "f(i18)\n";
  EXPECT_EQ(once, expected);
  EXPECT_EQ(simplify(once), "f(0)\n");  // the next run takes the rest
}

// ---- Dead code ----

TEST(SimplifyDeadCode, NeverRemovesAnAssignmentFromACall) { expect_simplifies("a = f(1)\nb = 2 + 3\n", "a = f(1)\n"); }

TEST(SimplifyDeadCode, DeadCarriedAndResultSlotsArePruned) {
  expect_simplifies(
      "def f(x: Scalar[INDEX], c: Scalar[BOOL]) -> Scalar[INDEX]:\n"
      "    for i, (dead, live) in range(0, 8, init_values=(x, x)):\n"
      "        dead_out, live_out = yield_(i, live + i)\n"
      "    if c:\n"
      "        p, q = yield_(1, live_out)\n"
      "    else:\n"
      "        p, q = yield_(2, x)\n"
      "    return q\n",
      "def f(x: Scalar[INDEX], c: Scalar[BOOL]) -> Scalar[INDEX]:\n"
      "    for i, (live,) in range(0, 8, init_values=(x,)):\n"
      "        live_out = yield_(live + i)\n"
      "    if c:\n"
      "        q = yield_(live_out)\n"
      "    else:\n"
      "        q = yield_(x)\n"
      "    return q\n");
}

// ---- Constants-only mode ----

TEST(SimplifyConstantsOnly, PropagatesConstantsAndKeepsControlFlow) {
  const char* input =
      "def f(x: Scalar[INDEX]) -> Scalar[INDEX]:\n"
      "    n: Scalar[INDEX] = 4\n"
      "    for i in range(0, 1):\n"
      "        if n > 2:\n"
      "            g(x + 0, n * 2)\n"
      "    return x\n";
  EXPECT_EQ(run("simplify-constants", input),
            "def f(x: Scalar[INDEX]) -> Scalar[INDEX]:\n"
            "    for i in range(0, 1):\n"
            "        if True:\n"
            "            g(x + 0, 8)\n"
            "    return x\n");
}

// ---- Seed 003: pipeline loops ----

TEST(SimplifyPipeline, AReplicaPredicateFoldsWhenZeroIsUnreachable) {
  EXPECT_EQ(run("lower-pipeline,simplify",
                "for ko in pipeline(0, 512, 128, stage=2):\n"
                "    acc = tile.matmul_acc(acc, a, b, init_cond=ko == 0)\n"),
            "for ko in range(0, 512, 256):\n"
            "    acc = tile.matmul_acc(acc, a, b, init_cond=ko == 0)\n"
            "    acc = tile.matmul_acc(acc, a, b, init_cond=False)\n");
}

TEST(SimplifyPipeline, TheSeedsCounterexampleKeepsThePredicate) {
  // pipeline(-2, 6, 2, stage=2): replica 1 runs at ko + 2 in {0, 4}, so it may be zero.
  const std::string out = run("lower-pipeline,simplify",
                              "for ko in pipeline(-2, 6, 2, stage=2):\n"
                              "    acc = tile.matmul_acc(acc, a, b, init_cond=ko == 0)\n");
  EXPECT_EQ(out,
            "for ko in range(-2, 6, 4):\n"
            "    acc = tile.matmul_acc(acc, a, b, init_cond=ko == 0)\n"
            "    acc = tile.matmul_acc(acc, a, b, init_cond=ko == -2)\n");
}

TEST(SimplifyPipeline, ATailRunsTheRemainingIterations) {
  EXPECT_EQ(run("lower-pipeline",
                "for k in pipeline(0, 7, 1, stage=3):\n"
                "    t = k * 2\n"
                "    f(t)\n"),
            "for k in range(0, 6, 3):\n"
            "    t_0 = k * 2\n"
            "    f(t_0)\n"
            "    t_1 = (k + 1) * 2\n"
            "    f(t_1)\n"
            "    t = (k + 2) * 2\n"
            "    f(t)\n"
            "for k in range(6, 7):\n"
            "    t = k * 2\n"
            "    f(t)\n");
}

TEST(SimplifyPipeline, Int64EdgesDoNotOverflow) {
  // The last replica index is 2^63 - 1 + 1: computed wide, the replica is never zero.
  EXPECT_EQ(run("lower-pipeline,simplify",
                "for ko in pipeline(9223372036854775804, 9223372036854775808, 1, stage=2):\n"
                "    f(ko == 0)\n"),
            "for ko in range(9223372036854775804, 9223372036854775808, 2):\n"
            "    f(False)\n"
            "    f(False)\n");
}

TEST(SimplifyPipeline, UnknownPassesAreNamed) {
  EXPECT_FALSE(parse_pipeline("simplify,fold-everything").ok());
  EXPECT_EQ(parse_pipeline("simplify,fold-everything").error().message,
            "unknown pass 'fold-everything' (known passes: simplify, simplify-constants, lower-pipeline)");
}

}  // namespace
}  // namespace eqsat

namespace eqsat {
namespace {

// `eqsat simplify --threads N`: functions are simplified at the same time; the program
// and the counters are those of a one-thread run, for any N.
TEST(SimplifyPassThreads, FunctionsInParallelGiveTheSameProgramAndReports) {
  std::string text;
  for (int k = 0; k < 12; ++k) {
    text += "def f" + std::to_string(k) + "(n: Scalar[INDEX], x: Tensor[[64], INT32]):\n" +
            "    c = " + std::to_string(k) + "\n" + "    for i in range(0, 8):\n" + "        if c < 6:\n" +
            "            store(x, (i * 8 + c) // 8 + min(i, 7))\n" + "        else:\n" +
            "            store(x, (i * 8 + c) % 8)\n" + "    for j in range(0, 1):\n" + "        store(x, j + n - n)\n";
  }
  const Program program = parse_ok(text);
  Result<std::vector<const PassInfo*>> passes = parse_pipeline("simplify");
  ASSERT_TRUE(passes.ok());
  auto run_with = [&](unsigned threads, std::vector<PassReport>& reports) {
    PassContext context{rules(), {}, {}};
    context.threads = threads;
    return print_program(run_pipeline(program, *passes, context, reports));
  };
  std::vector<PassReport> one_reports;
  const std::string one = run_with(1, one_reports);
  EXPECT_NE(one, print_program(program));  // the functions do fold
  for (unsigned threads : {2u, 0u}) {
    std::vector<PassReport> reports;
    EXPECT_EQ(run_with(threads, reports), one) << threads << " threads";
    ASSERT_EQ(reports.size(), one_reports.size());
    EXPECT_EQ(reports[0].counters, one_reports[0].counters) << threads << " threads";
  }
}

}  // namespace
}  // namespace eqsat
