// Per-kernel costs: `@costs` on a function picks its profile, and one file holds
// kernels for different targets.
#include "passes/function_costs.h"

#include <gtest/gtest.h>

#include "ir/stmt_parse.h"
#include "ir/stmt_print.h"
#include "passes/pass_manager.h"
#include "rules/rule.h"

namespace eqsat {
namespace {

Program parse_ok(const std::string& text) {
  Result<Program> program = parse_program(text);
  EXPECT_TRUE(program.ok()) << (program.ok() ? "" : program.error().describe());
  return program.ok() ? *program : Program{};
}

// Two kernels with the same body, for two targets: one where an addition is
// forbidden (x + x becomes x * 2), one where a multiplication is.
const char* kTwoKernels =
    "@costs(add=inf)\n"
    "def no_adder(x: Scalar[INDEX]) -> Scalar[INDEX]:\n"
    "    y = x + x\n"
    "    return y\n"
    "@costs(\"op-count\", mul=inf)\n"
    "def no_multiplier(x: Scalar[INDEX]) -> Scalar[INDEX]:\n"
    "    y = x * 2\n"
    "    return y + 0\n"
    "def plain(x: Scalar[INDEX]) -> Scalar[INDEX]:\n"
    "    return x + x\n";

TEST(FunctionCosts, EachDecoratedFunctionGetsItsProfile) {
  Result<FunctionCosts> costs = resolve_function_costs(parse_ok(kTwoKernels), CostProfile::unit(), "");
  ASSERT_TRUE(costs.ok()) << costs.error().describe();
  ASSERT_EQ(costs->size(), 2u);
  const CostProfile& a = costs->at("no_adder");
  EXPECT_TRUE(a.op_cost(Op::Add, DType::Index).is_infinite());
  EXPECT_EQ(a.op_cost(Op::Mul, DType::Index), Cost(1));
  EXPECT_EQ(a.name(), "default with add=inf");
  const CostProfile& b = costs->at("no_multiplier");
  EXPECT_TRUE(b.op_cost(Op::Mul, DType::Index).is_infinite());
  EXPECT_EQ(b.weights(), (CostWeights{0, 1}));  // from op-count
  EXPECT_EQ(b.name(), "op-count with mul=inf");
  EXPECT_FALSE(costs->count("plain"));
}

TEST(FunctionCosts, OneFileTwoTargets) {
  const Program program = parse_ok(kTwoKernels);
  static const std::vector<Rewrite> rewrites = builtin_rules().rewrites();
  PassContext context{rewrites, {}, {}};
  Result<FunctionCosts> costs = resolve_function_costs(program, CostProfile::unit(), "");
  ASSERT_TRUE(costs.ok());
  context.function_costs = *costs;
  Result<std::vector<const PassInfo*>> pipeline = parse_pipeline("simplify");
  ASSERT_TRUE(pipeline.ok());
  std::vector<PassReport> reports;
  const std::string out = print_program(run_pipeline(program, *pipeline, context, reports));
  // no_adder: x + x is rewritten to x * 2 (the addition is forbidden);
  // no_multiplier: x * 2 has no other form, so it stays; only `+ 0` goes;
  // plain (the run's default profile): x + x stays (a tie that the node order keeps).
  EXPECT_EQ(out,
            "@costs(add=inf)\n"
            "def no_adder(x: Scalar[INDEX]) -> Scalar[INDEX]:\n"
            "    y = x * 2\n"
            "    return y\n"
            "\n\n"
            "@costs(\"op-count\", mul=inf)\n"
            "def no_multiplier(x: Scalar[INDEX]) -> Scalar[INDEX]:\n"
            "    y = x * 2\n"
            "    return y\n"
            "\n\n"
            "def plain(x: Scalar[INDEX]) -> Scalar[INDEX]:\n"
            "    return x + x\n");
}

TEST(FunctionCosts, ProfileFilesAreFoundNextToTheIRFile) {
  const Program program = parse_ok(
      "@costs(\"profiles/div-expensive.json\")\n"
      "def k(i: Scalar[INDEX]) -> Scalar[INDEX]:\n"
      "    return i\n");
  Result<FunctionCosts> costs = resolve_function_costs(program, CostProfile::unit(), EQSAT_SOURCE_DIR);
  ASSERT_TRUE(costs.ok()) << costs.error().describe();
  EXPECT_EQ(costs->at("k").name(), "div-expensive");
}

TEST(FunctionCosts, MistakesNameTheArgument) {
  struct Case {
    const char* decorator;
    const char* error;
  };
  for (Case c :
       {Case{"@costs(flordiv=40)", "line 1, column 8: @costs: ops: unknown operation 'flordiv'"},
        Case{"@costs(add=1.5)", "line 1, column 8: @costs: add=1.5: expected a non-negative integer or inf"},
        Case{"@costs(add=\"3\")", "line 1, column 8: @costs: add=3: expected a non-negative integer or inf"},
        Case{"@costs(\"fast\")",
             "line 1, column 8: @costs: unknown cost profile 'fast' (shipped profiles: default, "
             "div-expensive, op-count; a file path contains '/' or ends in .json)"},
        Case{"@costs(\"nowhere/p.json\")", "line 1, column 8: @costs: nowhere/p.json: cannot open the cost profile"},
        Case{"@costs(add=2, \"op-count\")", "line 1, column 15: @costs: name the profile before the entries"},
        Case{"@costs",
             "line 1, column 1: @costs needs a profile or entries: @costs(\"div-expensive\") or "
             "@costs(floordiv=40)"},
        Case{"@cost(add=2)", "line 1, column 1: unknown decorator '@cost' (known: @costs, @fast_math)"},
        Case{"@costs(tree=0)",
             "line 1, column 8: @costs: weights: the tree and dag weights are both 0 (every form would cost 0)"}}) {
    const Program program =
        parse_ok(std::string(c.decorator) + "\ndef k(i: Scalar[INDEX]) -> Scalar[INDEX]:\n    return i\n");
    Result<FunctionCosts> costs = resolve_function_costs(program, CostProfile::unit(), "");
    ASSERT_FALSE(costs.ok()) << c.decorator;
    EXPECT_EQ(costs.error().describe(), c.error) << c.decorator;
  }
}

}  // namespace
}  // namespace eqsat
