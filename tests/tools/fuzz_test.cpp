// The differential fuzzer (tools/fuzz.h): the cases it generates, how it shrinks a
// failure, that it finds the bugs of deliberately wrong rules, and that the built-in
// catalogue passes a fixed-seed run. (CI runs the long fixed-seed run through
// `eqsat fuzz`, scripts/test.sh; this is the short one.)
#include "tools/fuzz.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "ir/print.h"
#include "tests/tools/run_eqsat.h"
#include "tools/facts_input.h"
#include "verify/minimize.h"
#include "verify/random_case.h"

namespace eqsat::testing {
namespace {

using cli::FuzzOptions;
using cli::FuzzReport;
using cli::Simplifier;
using verify::random_case;
using verify::RandomCase;

const Simplifier& catalogue() {
  static const Simplifier simplifier = *Simplifier::from_flags({});
  return simplifier;
}

const Simplifier& wrong_rules() {
  static const Simplifier simplifier = [] {
    cli::EngineFlags flags;
    flags.rule_files = {EQSAT_SOURCE_DIR "/tests/verify/wrong.rules"};
    flags.allow_unproved_rules = true;
    return *Simplifier::from_flags(flags);
  }();
  return simplifier;
}

std::string text_of(const RandomCase& c) { return cli::case_line(c, "c"); }

void collect_ops(const Expr& expr, std::set<Op>& ops) {
  ops.insert(expr.op());
  for (const Expr& arg : expr.args()) collect_ops(arg, ops);
}

TEST(RandomCase, SameSeedAndNumberSameCase) {
  EXPECT_EQ(text_of(random_case(7, 123)), text_of(random_case(7, 123)));
  EXPECT_NE(text_of(random_case(7, 123)), text_of(random_case(7, 124)));
  EXPECT_NE(text_of(random_case(7, 123)), text_of(random_case(8, 123)));
}

TEST(RandomCase, CasesAreWellTypedAndReadBack) {
  // Every case is a valid batch line: it parses under its own declarations to the
  // same tree, and its assumptions are BOOL.
  for (uint64_t i = 0; i < 300; ++i) {
    const RandomCase c = random_case(1, i);
    SCOPED_TRACE(text_of(c));
    Result<Expr> reread = cli::parse_under(c.facts, print(c.input), "input");
    ASSERT_TRUE(reread.ok()) << reread.error().describe();
    EXPECT_EQ(*reread, c.input);
    for (const Expr& assumption : c.facts.assumptions) EXPECT_EQ(assumption.dtype(), DType::Bool);
  }
}

TEST(RandomCase, CoversEveryDtypeFamilyAndOperation) {
  std::set<DType> roots;
  std::set<Op> ops;
  bool bounded = false, assumed = false;
  for (uint64_t i = 0; i < 1000; ++i) {
    const RandomCase c = random_case(1, i);
    roots.insert(c.input.dtype());
    collect_ops(c.input, ops);
    bounded |= !c.facts.bounds.empty();
    assumed |= !c.facts.assumptions.empty();
  }
  EXPECT_TRUE(bounded);
  EXPECT_TRUE(assumed);
  for (DType dtype : {DType::Index, DType::Bool, DType::Int8, DType::Int32, DType::Int64, DType::UInt8, DType::UInt64,
                      DType::FP16, DType::BF16, DType::FP32, DType::FP64}) {
    EXPECT_TRUE(roots.count(dtype)) << dtype_name(dtype);
  }
  for (int op = 0; op < kNumOps; ++op) EXPECT_TRUE(ops.count(static_cast<Op>(op))) << op_info(static_cast<Op>(op)).name;
}

TEST(Minimize, ShrinksToASmallestCaseThatStillFails) {
  // "Fails" here: the input still holds a floor modulo by a variable divisor.
  auto has_symbolic_mod = [](const RandomCase& c) {
    std::function<bool(const Expr&)> search = [&](const Expr& e) {
      if (e.op() == Op::FloorMod && !e.arg(1).is_const()) return true;
      for (const Expr& arg : e.args()) {
        if (search(arg)) return true;
      }
      return false;
    };
    return search(c.input);
  };
  RandomCase big;
  big.input = *cli::parse_under(big.facts, "select(x < y, (x + 3) % (y * 2), min(x, 4) // 2) + z", "t");
  big.facts.bounds["x"] = Interval::range(0, 9);
  ASSERT_TRUE(has_symbolic_mod(big));
  RandomCase small = verify::minimize_case(big, has_symbolic_mod);
  EXPECT_EQ(print(small.input), "0 % y");  // every other node replaced or dropped
  EXPECT_TRUE(small.facts.bounds.empty());
}

TEST(Fuzz, CatalogueSurvivesAFixedSeedRun) {
  FuzzOptions options;
  options.seed = 1;
  options.cases = 200;
  options.timeout_seconds = 10;
  options.keep_going = true;
  FuzzReport report = cli::run_fuzz(options, catalogue());
  for (const cli::FuzzFailure& failure : report.failures) {
    ADD_FAILURE() << "case " << failure.case_number << ": " << failure.reason << "\n" << failure.reproducer;
  }
  EXPECT_EQ(report.cases, 200u);
  EXPECT_EQ(report.unchanged + report.proved + report.unknown, 200u);
  EXPECT_GT(report.proved, 50u);  // the run does simplify: it is not 200 unchanged inputs
}

TEST(Fuzz, FindsAWrongRuleAndPrintsAMinimalReproducer) {
  FuzzOptions options;
  options.seed = 1;
  options.cases = 400;
  FuzzReport report = cli::run_fuzz(options, wrong_rules());
  ASSERT_EQ(report.failures.size(), 1u);  // stops at the first
  const cli::FuzzFailure& failure = report.failures[0];
  EXPECT_EQ(report.cases, failure.case_number + 1);
  EXPECT_TRUE(failure.reason.starts_with("verify: the output ")) << failure.reason;

  // The reproducer is a batch line that the tool reproduces the failure from.
  const Json line = Json::parse(failure.reproducer);
  EXPECT_EQ(line["id"], "fuzz-seed1-case" + std::to_string(failure.case_number));
  Result<Facts> facts = cli::facts_from_json(line);
  ASSERT_TRUE(facts.ok());
  Result<Expr> input = cli::parse_under(*facts, line["input"].get<std::string>(), "input");
  ASSERT_TRUE(input.ok());
  EXPECT_LE(input->tree_size(), 5u) << failure.reproducer << "\nfrom " << failure.original;
  ToolRun rerun = run_eqsat(
      {"batch", "-", "--verify", "--rules", EQSAT_SOURCE_DIR "/tests/verify/wrong.rules", "--allow-unproved-rules"},
      failure.reproducer + "\n");
  EXPECT_EQ(rerun.status, 1) << rerun.out;
  EXPECT_TRUE(Contains(rerun.out, "\"error\": \"verify: the output "));
}

TEST(Fuzz, SameReportForOneAndTwoThreads) {
  FuzzOptions options;
  options.seed = 2;  // fails at case 4: a short run, but threads overlap it
  options.cases = 300;
  options.threads = 1;
  FuzzReport one = cli::run_fuzz(options, wrong_rules());
  options.threads = 2;
  FuzzReport two = cli::run_fuzz(options, wrong_rules());
  EXPECT_EQ(one.cases, two.cases);
  ASSERT_EQ(one.failures.size(), two.failures.size());
  for (std::size_t i = 0; i < one.failures.size(); ++i) {
    EXPECT_EQ(one.failures[i].reproducer, two.failures[i].reproducer);
  }
}

TEST(FuzzCommand, ExitsOneAndWritesTheReproducerOnStdout) {
  ToolRun run = run_eqsat({"fuzz", "--cases", "400", "--no-progress", "--rules",
                           EQSAT_SOURCE_DIR "/tests/verify/wrong.rules", "--allow-unproved-rules"});
  EXPECT_EQ(run.status, 1);
  ASSERT_EQ(json_lines(run.out).size(), 1u) << run.out;
  EXPECT_TRUE(Contains(run.err, "eqsat: error: case "));
  EXPECT_TRUE(Contains(run.err, "1 failed"));
}

TEST(FuzzCommand, SummaryOfAPassingRun) {
  ToolRun run = run_eqsat({"fuzz", "--cases", "20", "--seed", "5", "--no-progress"});
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out, "");
  EXPECT_TRUE(Contains(run.err, "eqsat fuzz: seed 5, cases 0..19: ")) << run.err;
  EXPECT_TRUE(Contains(run.err, " 0 failed, in ")) << run.err;
}

}  // namespace
}  // namespace eqsat::testing
