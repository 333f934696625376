// Building expressions and functions from C++ (ir/build.h, ir/stmt_build.h): the result
// is what the parser makes of the same text, and type mistakes are caught with the
// parser's reasons.
#include "ir/build.h"

#include <gtest/gtest.h>

#include "ir/parse.h"
#include "ir/print.h"
#include "ir/stmt_build.h"
#include "ir/stmt_parse.h"
#include "ir/stmt_print.h"

namespace eqsat {
namespace {

Expr parsed(std::string_view text, DType x_dtype = DType::Index) {
  Result<Expr> e = parse_expr(text, index_by_default([&](std::string_view name) -> std::optional<DType> {
                                if (name == "x") return x_dtype;
                                return std::nullopt;
                              }));
  EXPECT_TRUE(e.ok()) << e.error().describe();
  return e.ok() ? *e : Expr();
}

TEST(Build, OperatorsMakeWhatTheParserMakes) {
  using namespace build;
  const Expr ko = var("ko"), ki = var("ki"), n = var("n");
  EXPECT_EQ(floormod(ko * 8 + ki, 8), parsed("(ko * 8 + ki) % 8"));
  EXPECT_EQ(select(ki < n && !(eq(ko, 0)), min(ki, n - 1), max(-ko, truncdiv(n, 4))),
            parsed("select(ki < n and not (ko == 0), min(ki, n - 1), max(-ko, truncdiv(n, 4)))"));
  EXPECT_EQ(2 * ko - 1 >= n, parsed("2 * ko - 1 >= n"));
  // An integer beside an expression takes its dtype: this 1 is an INT8.
  const Expr x = var("x", DType::Int8);
  EXPECT_EQ(x + 1, parsed("x + 1", DType::Int8));
  EXPECT_EQ((x + 1).arg(1).dtype(), DType::Int8);
  EXPECT_EQ(cast(x, DType::Index) + 1, parsed("cast(x, INDEX) + 1", DType::Int8));
}

TEST(Build, MistakesThrowWithTheReason) {
  using namespace build;
  const Expr i = var("i"), f = var("f", DType::FP32);
  auto reason = [](auto&& make) -> std::string {
    try {
      make();
    } catch (const build::TypeError& e) {
      return e.what();
    }
    return "built";
  };
  EXPECT_EQ(reason([&] { return i + f; }), "operands of '+' have different dtypes INDEX and FP32");
  EXPECT_EQ(reason([&] { return select(i, i, i); }), "the condition of 'select' must be BOOL, got INDEX");
  EXPECT_EQ(reason([&] { return select(i < 1, i, f); }), "branches of 'select' have different dtypes INDEX and FP32");
  EXPECT_EQ(reason([&] { return i && i; }), "operand of 'and' must be BOOL, got INDEX");
  EXPECT_EQ(reason([&] { return floormod(f, f); }), "'%' needs integer operands, got FP32");
  EXPECT_EQ(reason([&] { return lit(1, DType::Bool); }), "lit: an integer is not BOOL (use lit_bool)");
  EXPECT_EQ(reason([&] { return i < 1 && lit_bool(true); }), "built");
}

TEST(Build, MakeTypedReturnsTheErrorInsteadOfThrowing) {
  Result<Expr> bad = make_typed(Op::Add, {build::var("i")});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "'+' takes 2 operands, got 1");
  Result<Expr> good = make_typed(Op::Lt, {build::var("i"), build::lit(3)});
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(good->dtype(), DType::Bool);
}

TEST(StmtBuild, AFunctionBuiltInCppPrintsLikeItsText) {
  using namespace build;
  const Expr i = var("i"), n = var("n");
  Function kernel = function(
      "kernel", {param("n", Type::scalar(DType::Index))},
      {for_range("i", lit(0), n, lit(1),
                 {assign("j", floordiv(i, 8)), if_then(i < n, {eval(call("store", {arith(var("j") * 4 + 0)}))})}),
       return_values({arith(n)})},
      Type::scalar(DType::Index));
  const std::string text =
      "def kernel(n: Scalar[INDEX]) -> Scalar[INDEX]:\n"
      "    for i in range(0, n):\n"
      "        j = i // 8\n"
      "        if i < n:\n"
      "            store(j * 4 + 0)\n"
      "    return n\n";
  EXPECT_EQ(print_program(Program{{kernel}}), text);
  Result<Program> from_text = parse_program(text);
  ASSERT_TRUE(from_text.ok()) << from_text.error().describe();
  EXPECT_TRUE(*from_text == Program{{kernel}});
}

}  // namespace
}  // namespace eqsat
