// The case handling behind `eqsat batch` and `eqsat simplify-expr`, called directly:
// JSON case in, JSON case out; the facts from either text form; the output layout.
#include <gtest/gtest.h>

#include "tests/tools/run_eqsat.h"
#include "tools/batch.h"
#include "tools/facts_input.h"

namespace eqsat::cli {
namespace {

using testing::Json;

const Simplifier& default_simplifier() {
  static const Simplifier simplifier = *Simplifier::from_flags({});
  return simplifier;
}

Json run(const std::string& line) { return run_case(Json::parse(line), default_simplifier()); }

TEST(RunCase, AddsOutputAndCost) {
  Json out = run(R"~({"id": "a1", "bounds": {"i": [0, 7]}, "input": "select(i < 16, i + 0, 3)"})~");
  EXPECT_EQ(out, Json::parse(R"~({"id": "a1", "bounds": {"i": [0, 7]}, "input": "select(i < 16, i + 0, 3)",
                                 "output": "i", "cost": 1})~"));
}

TEST(RunCase, DtypeTrapsAreKept) {
  // INT32 wraps, so x + 1 > x is not always true: the comparison stays (in some order).
  Json wrapping = run(R"~({"vars": {"x": "INT32"}, "input": "x + 1 > x"})~");
  EXPECT_NE(wrapping["output"], "True");
  EXPECT_EQ(wrapping["cost"], 5);
  EXPECT_EQ(run(R"~({"vars": {"x": "FP32"}, "input": "x + 0.0"})~")["output"], "x + 0.0");
  EXPECT_EQ(run(R"~({"input": "x // 0"})~")["output"], "x // 0");
}

TEST(RunCase, NullMembersCountAsAbsent) {
  Json out = run(R"~({"vars": null, "bounds": null, "assume": null, "input": "x * 1"})~");
  EXPECT_EQ(out["output"], "x") << out;
}

TEST(RunCase, ErrorsNameTheMember) {
  EXPECT_EQ(run(R"~({"input": "x +"})~")["error"].get<std::string>().rfind("input: column 4: ", 0), 0u);
  EXPECT_EQ(run(R"~({"vars": {"x": "INT7"}, "input": "x"})~")["error"], "vars: unknown dtype 'INT7' for 'x'");
  EXPECT_EQ(run(R"~({"bounds": {"x": [0, "7"]}, "input": "x"})~")["error"],
            "bounds: 'x' must be [lo, hi] with integers or null");
  EXPECT_EQ(run(R"~({"assume": ["x"], "input": "x"})~")["error"], "assume[0]: expected a BOOL condition, got INDEX");
  // The assumption is typed under the declarations.
  EXPECT_FALSE(run(R"~({"vars": {"p": "BOOL"}, "assume": ["p"], "input": "p"})~").contains("error"));
}

TEST(RunBatchLine, LinesThatAreNotCases) {
  const Simplifier& s = default_simplifier();
  EXPECT_EQ(run_batch_line("", 4, s), R"~({"error": "line 4: blank line (expected a JSON object)"})~");
  EXPECT_EQ(run_batch_line("42", 5, s), R"~({"error": "line 5: expected a JSON object, got a number"})~");
  EXPECT_EQ(run_batch_line("null", 6, s), R"~({"error": "line 6: expected a JSON object, got null"})~");
  const std::string invalid = run_batch_line("{\"input\": \"x\"", 7, s);
  EXPECT_EQ(invalid.rfind(R"~({"error": "line 7: invalid JSON: column )~", 0), 0u) << invalid;
  const std::string deep =
      run_batch_line(R"~({"input": "x", "deep": )~" + std::string(5000, '[') + std::string(5000, ']') + "}", 8, s);
  EXPECT_EQ(deep, R"~({"error": "line 8: JSON nested more than 100 levels deep"})~");
}

TEST(RunBatchLine, InvalidUtf8NeverBreaksTheOutput) {
  // nlohmann rejects the line; the message quotes the bytes, which must still be written.
  const std::string out = run_batch_line("{\"input\": \"\xff\"}", 1, default_simplifier());
  Json parsed = Json::parse(out);
  EXPECT_TRUE(parsed.contains("error")) << out;
}

TEST(FormatJson, SpecLayout) {
  Json value =
      Json::parse(R"~({"id": "a1", "bounds": {"i": [0, null], "j": []}, "empty": {}, "s": "q\"\u00e9", "n": -1.5})~");
  EXPECT_EQ(format_json(value),
            R"~({"id": "a1", "bounds": {"i": [0, null], "j": []}, "empty": {}, "s": "q\"é", "n": -1.5})~");
}

TEST(FactsFromFlags, ParsesEveryForm) {
  FactFlags flags;
  flags.vars = {"x:INT32", "p:pl.BOOL"};
  flags.bounds = {"i=0:7", "n=1:", "m=:-1", "k=:", "big=-170141183460469231731687303715884105728:0"};
  flags.assumptions = {"p", "i < n"};
  Result<Facts> facts = facts_from_flags(flags);
  ASSERT_TRUE(facts.ok()) << facts.error().describe();
  EXPECT_EQ(facts->var_dtypes.at("x"), DType::Int32);
  EXPECT_EQ(facts->var_dtypes.at("p"), DType::Bool);
  EXPECT_EQ(facts->bounds.at("i"), Interval::range(0, 7));
  EXPECT_EQ(facts->bounds.at("n"), Interval::range(1, std::nullopt));
  EXPECT_EQ(facts->bounds.at("m"), Interval::range(std::nullopt, -1));
  EXPECT_EQ(facts->bounds.at("k"), Interval::all());
  EXPECT_EQ(facts->assumptions.size(), 2u);
}

TEST(FactsFromJson, MatchesTheFlags) {
  Result<Facts> from_json = facts_from_json(
      Json::parse(R"~({"vars": {"x": "INT32"}, "bounds": {"i": [0, 7], "n": [1, null]}, "assume": ["i < n"]})~"));
  FactFlags flags;
  flags.vars = {"x:INT32"};
  flags.bounds = {"i=0:7", "n=1:"};
  flags.assumptions = {"i < n"};
  Result<Facts> from_flags = facts_from_flags(flags);
  ASSERT_TRUE(from_json.ok() && from_flags.ok());
  EXPECT_EQ(from_json->var_dtypes, from_flags->var_dtypes);
  EXPECT_EQ(from_json->bounds, from_flags->bounds);
  ASSERT_EQ(from_json->assumptions.size(), 1u);
  EXPECT_EQ(from_json->assumptions[0], from_flags->assumptions[0]);
}

}  // namespace
}  // namespace eqsat::cli
