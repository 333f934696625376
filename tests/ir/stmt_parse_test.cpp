// The statement language: every example of the Simplify pass's specification (seeds 000
// and 003, `pl.` prefixes kept as written) parses, and printing reads back to the same
// program.
#include "ir/stmt_parse.h"

#include <gtest/gtest.h>

#include "ir/stmt_print.h"

namespace eqsat {
namespace {

Program parse_ok(const std::string& text) {
  Result<Program> program = parse_program(text);
  EXPECT_TRUE(program.ok()) << (program.ok() ? "" : program.error().describe()) << "\n" << text;
  return program.ok() ? *program : Program{};
}

// print(parse(text)) parses back to the same program, and printing that prints the same.
void expect_round_trip(const std::string& text) {
  const Program program = parse_ok(text);
  const std::string printed = print_program(program);
  const Program again = parse_ok(printed);
  EXPECT_EQ(program, again) << "printed as:\n" << printed;
  EXPECT_EQ(print_program(again), printed);
}

std::string error_of(const std::string& text) {
  Result<Program> program = parse_program(text);
  return program.ok() ? "parsed" : program.error().describe();
}

// The examples of seed 000, before and after, as written there.
const char* const kSeedExamples[] = {
    R"(def main(x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
    a = x + 0
    b = a * 1
    return b
)",
    R"(def main(x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
    return x
)",
    R"(for i in pl.range(0, 8):
    if i < 16:
        body(i)
)",
    R"(for i in pl.range(0, 8):
    body(i)
)",
    R"(CHUNK_K__ssa_v0: pl.Scalar[pl.INDEX] = 512
acc: pl.Tile[[CHUNK_K__ssa_v0, 64], pl.FP32] = tile.zeros(...)
for k in pl.range(0, K, CHUNK_K__ssa_v0):
    body(k)
return acc
)",
    R"(acc: pl.Tile[[512, 64], pl.FP32] = tile.zeros(...)
for k in pl.range(0, K, 512):
    body(k)
return acc
)",
    R"(for i in pl.range(0, 8):
    base: pl.Scalar[pl.INDEX] = 32
    fixed_row: pl.Scalar[pl.INDEX] = base * 2
    view = pl.tile.slice(pool, [16, 16], [fixed_row, 0])
    consume(view, i)
)",
    R"(for i in pl.range(0, 8):
    view = pl.tile.slice(pool, [16, 16], [64, 0])
    consume(view, i)
)",
    R"(for i in pl.range(0, 8, 2):
    if i == -1:
        body_dead(i)
    else:
        body_live(i)
)",
    R"(for i in pl.range(0, 8, 2):
    body_live(i)
)",
    R"(for ob in pl.range(0, 68, 2):
    off: pl.Scalar[pl.INDEX] = ob * 256 + 256
    if off == 0:
        first_chunk(off)
    else:
        later_chunk(off)
)",
    R"(for ob in pl.range(0, 68, 2):
    off: pl.Scalar[pl.INDEX] = ob * 256 + 256
    later_chunk(off)
)",
    R"(valid = pl.max(-x, 0)    # a legal dynamic extent over a signed runtime scalar
)",
    R"(pos: pl.Scalar[pl.INDEX] = base - 1   # [-1, +inf)
if pos >= 0:                          # live guard, kept
    if pos < 8:
        read_row(pos)
)",
    R"(for ko in pl.range(0, 128, 128):
    if ko == 0:
        first_iter(ko)
    else:
        later_iter(ko)
)",
    R"(first_iter(0)
)",
    R"(acc = pl.tile.matmul_acc(acc, a, b, init_cond=ko == -128)
)",
    R"(acc = pl.tile.matmul_acc(acc, a, b, init_cond=False)
)",
    // Seed 003's loop.
    R"(for ko in pl.pipeline(-2, 6, 2, stage=2):
    acc = pl.tile.matmul_acc(acc, a, b, init_cond=ko == 0)
)",
};

TEST(StmtParse, EverySeedExampleParsesAndRoundTrips) {
  for (const char* example : kSeedExamples) expect_round_trip(example);
}

TEST(StmtParse, PrefixesAreOptional) {
  EXPECT_EQ(parse_ok("for i in pl.range(0, 8):\n    pl.body(i)\n"), parse_ok("for i in range(0, 8):\n    body(i)\n"));
  EXPECT_EQ(parse_ok("x: pl.Scalar[pl.INDEX] = pl.min(y, 3)\n"), parse_ok("x: Scalar[INDEX] = min(y, 3)\n"));
}

TEST(StmtParse, PrintsWithoutPrefixesAndWithFourSpaces) {
  EXPECT_EQ(print_program(parse_ok(kSeedExamples[4])),
            "CHUNK_K__ssa_v0: Scalar[INDEX] = 512\n"
            "acc: Tile[[CHUNK_K__ssa_v0, 64], FP32] = tile.zeros(...)\n"
            "for k in range(0, K, CHUNK_K__ssa_v0):\n"
            "    body(k)\n"
            "return acc\n");
}

TEST(StmtParse, AnAnnotationTypesTheLiteralsOfItsValue) {
  const Program p = parse_ok("n: Scalar[INT32] = 5\nm = n + 1\n");
  const Stmt& n = p.functions[0].body[0];
  EXPECT_EQ(n.value.expr.dtype(), DType::Int32);
  EXPECT_EQ(p.functions[0].body[1].value.expr.dtype(), DType::Int32);
  EXPECT_EQ(print_program(p), "n: Scalar[INT32] = 5\nm = n + 1\n");
  EXPECT_EQ(error_of("n: Scalar[INT32] = 1.5\n"), "line 1, column 20: float literal 1.5 where INT32 is expected");
}

TEST(StmtParse, TensorArithmeticIsElementwiseInTheElementDtype) {
  const Program p = parse_ok("def f(x: Tensor[[64], FP32]) -> Tensor[[64], FP32]:\n    a = x + 0\n    return a\n");
  const Stmt& a = p.functions[0].body[0];
  EXPECT_EQ(a.value.expr.dtype(), DType::FP32);
  EXPECT_EQ(print_program(p), "def f(x: Tensor[[64], FP32]) -> Tensor[[64], FP32]:\n    a = x + 0.0\n    return a\n");
}

TEST(StmtParse, ShapedTypesCarryLayoutExpressions) {
  expect_round_trip(
      "def f(n: Scalar[INDEX], t: Tile[[16, n], FP16, stride=[n, 1], valid_shape=[16, n - 1], offset=n * 16]) -> "
      "Tuple[Scalar[INDEX], Tile[[16, n], FP16]]:\n    return n, t\n");
}

TEST(StmtParse, LoopsWithKindsAttributesAndCarriedValues) {
  const char* text =
      "def f(x: Scalar[INT32]) -> Scalar[INT32]:\n"
      "    for i, (acc, n) in range(0, 16, 2, init_values=(x, 0)):\n"
      "        acc2 = acc + cast(i, INT32)\n"
      "        acc_out, n_out = yield_(acc2, n + 1)\n"
      "    for j in parallel(0, 4, core_group=2):\n"
      "        work(j)\n"
      "    for k in unroll(4):\n"
      "        work(k)\n"
      "    for (m,) in while_(m < 100, init_values=(acc_out,)):\n"
      "        m_out = yield_(m * 2)\n"
      "    return m_out\n";
  expect_round_trip(text);
  const Program p = parse_ok(text);
  const Stmt& loop = p.functions[0].body[0];
  EXPECT_EQ(loop.kind, StmtKind::For);
  EXPECT_EQ(loop.carried.size(), 2u);
  EXPECT_EQ(loop.results, (std::vector<std::string>{"acc_out", "n_out"}));
  EXPECT_EQ(loop.body.back().kind, StmtKind::Yield);
  EXPECT_EQ(p.functions[0].body[1].attrs[0].name, "core_group");
  EXPECT_EQ(p.functions[0].body[2].loop_kind, LoopKind::Unroll);
  EXPECT_EQ(p.functions[0].body[3].kind, StmtKind::While);
  // m is carried with acc_out's type, INT32, so 100 and 2 are INT32.
  EXPECT_EQ(p.functions[0].body[3].value.expr.arg(1).dtype(), DType::Int32);
}

TEST(StmtParse, IfWithResultsElifScopesAndCalls) {
  expect_round_trip(
      "def f(c: Scalar[BOOL], x: Scalar[INDEX]) -> Scalar[INDEX]:\n"
      "    if c:\n"
      "        r = yield_(x + 1)\n"
      "    else:\n"
      "        r = yield_(f(x) + 1)\n"
      "    if x < 0:\n"
      "        neg(x)\n"
      "    elif x == 0:\n"
      "        zero()\n"
      "    else:\n"
      "        pass\n"
      "    with spmd(core_num=x // 2, deps=[a, b]):\n"
      "        t, u = split(x, axis=-1)\n"
      "        store(t, -f(u), not g(u), f(x) == 0)\n"
      "    return r\n");
}

// A function's fast-math flags are a decorator; one file holds strict and relaxed
// functions side by side.
TEST(StmtParse, FastMathDecorator) {
  const Program program = parse_ok(
      "@pl.fast_math(nnan, nsz)\n"
      "def relaxed(x: Tensor[[64], FP32]) -> Tensor[[64], FP32]:\n"
      "    return x + 0\n"
      "\n"
      "def strict(x: Tensor[[64], FP32]) -> Tensor[[64], FP32]:\n"
      "    return x + 0\n"
      "@fast_math(all)\n"
      "def everything(x: Scalar[FP64]) -> Scalar[FP64]:\n"
      "    return x\n");
  ASSERT_EQ(program.functions.size(), 3u);
  EXPECT_EQ(program.functions[0].fast_math, FastMath{FastMathFlag::Nsz} | FastMathFlag::Nnan);
  EXPECT_TRUE(program.functions[1].fast_math.none());
  EXPECT_EQ(program.functions[2].fast_math, FastMath::all());
  // Printed in the canonical order, without the prefix.
  EXPECT_EQ(print_program(Program{{program.functions[0]}}),
            "@fast_math(nsz, nnan)\ndef relaxed(x: Tensor[[64], FP32]) -> Tensor[[64], FP32]:\n    return x + 0.0\n");
  expect_round_trip(print_program(program));
}

TEST(StmtParse, FastMathDecoratorErrors) {
  // Other decorators parse (the passes that read them judge them: an unknown one is an
  // error when the file is simplified, tests/passes/function_costs_test.cpp).
  EXPECT_EQ(error_of("@inline\ndef f(x: Scalar[FP32]):\n    return x\n"), "parsed");
  EXPECT_EQ(error_of("@fast_math(nsz, nzs)\ndef f(x: Scalar[FP32]):\n    return x\n"),
            "line 1, column 17: expected a fast-math flag (nsz, nnan, ninf, reassoc or all) but found 'nzs'");
  EXPECT_EQ(error_of("@fast_math(nsz)\nx = 1\n"), "line 2, column 1: expected 'def' after a decorator but found 'x'");
  EXPECT_EQ(error_of("x = 1\n@fast_math(nsz)\ndef f(x: Scalar[FP32]):\n    return x\n"),
            "line 2, column 1: a 'def' after top-level statements: write either functions or one fragment");
}

TEST(StmtParse, ErrorsGiveLineColumnAndReason) {
  EXPECT_EQ(error_of("x: Scalar[INT32] = min(y, 3)\n"),
            "line 1, column 20: the value has dtype INDEX but 'x' is declared INT32");
  EXPECT_EQ(error_of("for i in range(0, 8):\nbody(i)\n"), "line 2, column 1: expected an indented block");
  EXPECT_EQ(error_of("x = y +\n"), "line 1, column 8: expected a value but found end of line");
  EXPECT_EQ(error_of("a = 1\n  b = 2\n"), "line 2, column 3: unexpected indentation");
  EXPECT_EQ(error_of("for i in range(0, 8):\n    x = 1\n  y = 2\n"),
            "line 3, column 3: unindent does not match any outer indentation level");
  EXPECT_EQ(error_of("for i in span(0, 8):\n    x = 1\n"),
            "line 1, column 10: unknown loop 'span': expected range, parallel, unroll, pipeline or while_");
  EXPECT_EQ(error_of("x: Tensor[[4], FP33] = y\n"),
            "line 1, column 16: expected a dtype (INDEX, INT32, FP32, ...) but found 'FP33'");
  EXPECT_EQ(error_of("x = 1\nyield_(x)\n"),
            "line 2, column 1: a yield must be the last statement of a loop body or an if arm");
  EXPECT_EQ(error_of("x + 1\n"),
            "line 1, column 1: a statement must be an assignment, a call or a control-flow statement");
  EXPECT_EQ(error_of("x = 'a'\n"),
            "line 1, column 5: a string stands only in a decorator's arguments (@costs(\"div-expensive\"))");
  EXPECT_EQ(error_of("for i in range(0, 8):\n    x = i < 3 < f(i)\n"),
            "line 2, column 15: a comparison chain over calls is not supported; write the comparisons with 'and'");
}

}  // namespace
}  // namespace eqsat
