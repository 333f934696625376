// simplify_expr's fast path for an expression in its simplest form
// (SimplifyOptions::canonical_fast_path) against the full path, over the shared
// corpora: every case, and every case's answer simplified again (an answer is its own
// simplest form, so most of those take the fast path), gives the same output and cost
// either way. The corpora are read where they are, never copied; the project's traps
// (tests/corpus/traps.jsonl) are compared too.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "ir/print.h"
#include "passes/simplify_expr.h"
#include "rules/rule.h"
#include "tests/support/sweep.h"
#include "tests/tools/run_eqsat.h"
#include "tools/facts_input.h"

namespace eqsat::testing {
namespace {

struct Compared {
  std::size_t cases = 0;
  std::size_t fast = 0;  // answered by the fast path
};

// Simplifies `text` under the case's facts both ways and expects the same answer;
// returns the answer.
Expr expect_same_answer(const Json& line, const std::string& text, Compared& compared) {
  static const std::vector<Rewrite> rules = builtin_rules().rewrites();
  SCOPED_TRACE(line.dump() + " with input " + text);
  Result<Facts> facts = cli::facts_from_json(line);
  EXPECT_TRUE(facts.ok());
  if (!facts) return Expr();
  Result<Expr> input = cli::parse_under(*facts, text, "input");
  EXPECT_TRUE(input.ok());
  if (!input) return Expr();
  Result<FastMath> fast_math = cli::fast_math_from_json(line);
  SimplifyOptions options;
  options.fast_math = fast_math ? *fast_math : FastMath();
  const SimplifyResult fast = simplify_expr(*input, *facts, rules, options);
  options.canonical_fast_path = false;
  const SimplifyResult full = simplify_expr(*input, *facts, rules, options);
  ++compared.cases;
  compared.fast += fast.report.iterations == 0 && fast.report.stop_reason == StopReason::Saturated;
  EXPECT_EQ(fast.output.valid(), full.output.valid());
  if (fast.output.valid() && full.output.valid()) {
    EXPECT_EQ(print(fast.output), print(full.output));
  }
  EXPECT_EQ(fast.cost, full.cost);
  return full.output;
}

Compared compare_corpus(const std::string& path) {
  std::ifstream file(path);
  EXPECT_TRUE(file) << path;
  std::stringstream text;
  text << file.rdbuf();
  Compared compared;
  for (const Json& line : json_lines(sampled_lines(text.str()))) {
    const Expr answer = expect_same_answer(line, line["input"].get<std::string>(), compared);
    if (answer.valid()) expect_same_answer(line, print(answer), compared);
  }
  return compared;
}

TEST(FastPathCorpus, TheFastPathAnswersAsTheFullPathOnEveryCorpusCase) {
  std::size_t fast = 0, cases = 0;
  for (const char* corpus : {"halide", "tvm", "tinygrad"}) {
    const Compared compared = compare_corpus(std::string(EQSAT_SHARED_DIR "/corpus/external/") + corpus + ".jsonl");
    fast += compared.fast;
    cases += compared.cases;
  }
  for (const std::string& path : {std::string(EQSAT_SHARED_DIR "/corpus/sample.jsonl"),
                                  std::string(EQSAT_SOURCE_DIR "/tests/corpus/traps.jsonl")}) {
    const Compared compared = compare_corpus(path);
    fast += compared.fast;
    cases += compared.cases;
  }
  // The answers simplified again are half the cases, most of them in their simplest
  // form: the fast path must have answered a good share (about a quarter of all).
  EXPECT_GT(fast, cases / 8) << fast << " of " << cases;
}

}  // namespace
}  // namespace eqsat::testing
