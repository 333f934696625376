// Decorators before a `def` (`@costs("div-expensive")`, `@costs(floordiv=40)`): read
// with their arguments, printed back, and rejected with a position when malformed.
#include <gtest/gtest.h>

#include "ir/stmt_parse.h"
#include "ir/stmt_print.h"

namespace eqsat {
namespace {

TEST(Decorators, ReadStringsAndKeywords) {
  Result<Program> program = parse_program(
      "@costs(\"div-expensive\", select=inf, floordiv=40)\n"
      "def k(i: Scalar[INDEX]) -> Scalar[INDEX]:\n"
      "    return i // 8\n");
  ASSERT_TRUE(program.ok()) << program.error().describe();
  const Function& f = program->functions.at(0);
  ASSERT_EQ(f.decorators.size(), 1u);
  const Decorator& d = f.decorators[0];
  EXPECT_EQ(d.name, "costs");
  EXPECT_EQ(d.line, 1);
  ASSERT_EQ(d.args.size(), 3u);
  EXPECT_TRUE(d.args[0].is_string);
  EXPECT_EQ(d.args[0].key, "");
  EXPECT_EQ(d.args[0].value, "div-expensive");
  EXPECT_EQ(d.args[1].key, "select");
  EXPECT_EQ(d.args[1].value, "inf");
  EXPECT_EQ(d.args[2].key, "floordiv");
  EXPECT_EQ(d.args[2].value, "40");
  EXPECT_EQ(d.args[2].column, 37);
}

TEST(Decorators, FastMathAndCostsTogether) {
  // @fast_math is the IR's own (Function::fast_math); @costs stays a decorator.
  Result<Program> program = parse_program(
      "@costs(\"op-count\")\n"
      "@fast_math(nsz)\n"
      "def k(x: Scalar[FP32]) -> Scalar[FP32]:\n"
      "    return x * 1.0\n");
  ASSERT_TRUE(program.ok()) << program.error().describe();
  const Function& f = program->functions.at(0);
  ASSERT_EQ(f.decorators.size(), 1u);
  EXPECT_EQ(f.decorators[0].name, "costs");
  EXPECT_EQ(f.fast_math, FastMath{FastMathFlag::Nsz});
  const std::string printed = print_program(*program);
  EXPECT_NE(printed.find("@costs(\"op-count\")\n@fast_math(nsz)\ndef k("), std::string::npos) << printed;
  Result<Program> again = parse_program(printed);
  ASSERT_TRUE(again.ok()) << again.error().describe();
  EXPECT_TRUE(*again == *program);
}

TEST(Decorators, PrintBackAndRoundTrip) {
  const std::string text =
      "@costs('a\"b.json')\n"
      "def first(i: Scalar[INDEX]) -> Scalar[INDEX]:\n"
      "    return i\n"
      "@costs(add=2, dag=1)\n"
      "@costs\n"
      "def second(i: Scalar[INDEX]) -> Scalar[INDEX]:\n"
      "    return i\n";
  Result<Program> program = parse_program(text);
  ASSERT_TRUE(program.ok()) << program.error().describe();
  EXPECT_EQ(program->functions[1].decorators.size(), 2u);
  const std::string printed = print_program(*program);
  EXPECT_NE(printed.find("@costs('a\"b.json')\ndef first("), std::string::npos) << printed;
  EXPECT_NE(printed.find("@costs(add=2, dag=1)\n@costs\ndef second("), std::string::npos) << printed;
  Result<Program> again = parse_program(printed);
  ASSERT_TRUE(again.ok()) << again.error().describe();
  EXPECT_TRUE(*again == *program);
}

TEST(Decorators, MistakesHaveAPosition) {
  struct Case {
    const char* text;
    const char* error;
  };
  for (Case c :
       {Case{"@costs(\"x\")\nx = 1\n", "line 2, column 1: expected 'def' after a decorator but found 'x'"},
        Case{"@costs(select)\ndef f():\n    pass\n",
             "line 1, column 8: expected a string or key=value in the decorator's arguments but found "
             "'select'"},
        Case{"@costs(\"open)\ndef f():\n    pass\n", "line 1, column 8: this string is not closed on its line"},
        Case{"def f():\n    x = \"text\"\n",
             "line 2, column 9: a string stands only in a decorator's arguments (@costs(\"div-expensive\"))"}}) {
    Result<Program> program = parse_program(c.text);
    ASSERT_FALSE(program.ok()) << c.text;
    EXPECT_EQ(program.error().describe(), c.error) << c.text;
  }
}

}  // namespace
}  // namespace eqsat
