// The command line of issue 6: profiles by name or file, the extractor flag, per-kernel
// `@costs` in `eqsat simplify`, `eqsat explain` and `eqsat dot`.
#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "tests/tools/run_eqsat.h"

namespace eqsat::testing {
namespace {

TEST(CostsFlag, TheSameInputSimplifiesDifferentlyUnderDifferentProfiles) {
  // Default: truncdiv of a non-negative x becomes floor division (a tie the node order
  // breaks); div-expensive prices floor division above truncating division.
  ToolRun by_default = run_eqsat({"simplify-expr", "--bound", "x=0:", "truncdiv(x, 8)"});
  ASSERT_EQ(by_default.status, 0) << by_default.err;
  EXPECT_EQ(by_default.out, "x // 8\n");
  ToolRun div_expensive = run_eqsat({"simplify-expr", "--costs", "div-expensive", "--bound", "x=0:", "truncdiv(x, 8)"});
  ASSERT_EQ(div_expensive.status, 0) << div_expensive.err;
  EXPECT_EQ(div_expensive.out, "truncdiv(x, 8)\n");
}

TEST(CostsFlag, AForbiddenOperationIsAvoided) {
  TempDir dir;
  const std::string no_add = dir.write("no-add.json", R"({"name": "no-add", "ops": {"add": "inf"}})");
  ToolRun plain = run_eqsat({"simplify-expr", "x + x"});
  EXPECT_EQ(plain.out, "x + x\n");
  ToolRun avoided = run_eqsat({"simplify-expr", "--costs", no_add, "x + x"});
  ASSERT_EQ(avoided.status, 0) << avoided.err;
  EXPECT_EQ(avoided.out, "x * 2\n");
  // No form without an addition: an error, not a forbidden result.
  ToolRun impossible = run_eqsat({"simplify-expr", "--costs", no_add, "x + y"});
  EXPECT_EQ(impossible.status, 1);
  EXPECT_EQ(impossible.err,
            "eqsat: error: every form of EXPR uses an operation that the cost profile 'no-add' forbids\n");
}

TEST(CostsFlag, BadProfilesAreErrorsNamingFileAndKey) {
  TempDir dir;
  const std::string bad = dir.write("bad.json", R"({"weights": {"shared": 1}})");
  ToolRun run = run_eqsat({"simplify-expr", "--costs", bad, "x"});
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err, "eqsat: error: " + bad + ": weights: unknown key 'shared' (known: tree, dag)\n");
  ToolRun unknown = run_eqsat({"simplify-expr", "--costs", "fast", "x"});
  EXPECT_EQ(unknown.status, 1);
  EXPECT_TRUE(Contains(unknown.err, "unknown cost profile 'fast' (shipped profiles: default, div-expensive, op-count"));
}

TEST(ExtractorFlag, TreeOrDag) {
  ToolRun dag = run_eqsat({"simplify-expr", "--extractor", "dag", "--costs", "op-count", "(x + 0) * 1 + (3 + 4)"});
  ASSERT_EQ(dag.status, 0) << dag.err;
  EXPECT_EQ(dag.out, "x + 7\n");
  ToolRun bad = run_eqsat({"simplify-expr", "--extractor", "greedy", "x"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_TRUE(Contains(bad.err, "--extractor"));
}

TEST(SimplifyFile, EachKernelUnderItsOwnProfile) {
  TempDir dir;
  dir.write("no-mul.json", R"({"name": "no-mul", "ops": {"mul": "inf"}})");
  const std::string file = dir.write("kernels.py",
                                     "@costs(add=inf)\n"
                                     "def for_npu(x: Scalar[INDEX]) -> Scalar[INDEX]:\n"
                                     "    return x + x\n"
                                     "@costs(\"no-mul.json\")\n"
                                     "def for_cpu(x: Scalar[INDEX]) -> Scalar[INDEX]:\n"
                                     "    return x + x\n");
  ToolRun run = run_eqsat({"simplify", file});
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out,
            "@costs(add=inf)\n"
            "def for_npu(x: Scalar[INDEX]) -> Scalar[INDEX]:\n"
            "    return x * 2\n"
            "\n\n"
            "@costs(\"no-mul.json\")\n"
            "def for_cpu(x: Scalar[INDEX]) -> Scalar[INDEX]:\n"
            "    return x + x\n");
  const std::string bad =
      dir.write("bad.py", "@costs(flordiv=2)\ndef k(x: Scalar[INDEX]) -> Scalar[INDEX]:\n    return x\n");
  ToolRun error = run_eqsat({"simplify", bad});
  EXPECT_EQ(error.status, 1);
  EXPECT_EQ(error.err, "eqsat: error: " + bad + ": line 1, column 8: @costs: ops: unknown operation 'flordiv'\n");
}

TEST(Explain, TextShowsResultCostRunnerUpsAndProof) {
  ToolRun run = run_eqsat({"explain", "(x + 3) * 4"});
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_TRUE(Contains(run.out, "input:   (x + 3) * 4\n"));
  EXPECT_TRUE(Contains(run.out, "result:  x * 4 + 12\n"));
  EXPECT_TRUE(Contains(
      run.out, "cost:    5 under profile 'default' (tree cost 5, DAG cost 5; extractor tree, proved optimal)\n"));
  EXPECT_TRUE(Contains(run.out, "runner-ups (other nodes of the root e-class, cheapest first):\n"));
  EXPECT_TRUE(Contains(run.out, "  5  (x + 3) * 4\n"));
  EXPECT_TRUE(Contains(run.out, "by mul-add-const at root: (x + 3) * 4  ->  x * 4 + 3 * 4\n"));
}

TEST(Explain, JsonChainRunsFromInputToOutput) {
  for (const char* input : {"(x + 0) * 1 + (3 + 4)", "x * y + x * z", "(x * 8 + y) // 8"}) {
    SCOPED_TRACE(input);
    ToolRun run = run_eqsat({"explain", "--json", input});
    ASSERT_EQ(run.status, 0) << run.err;
    const Json e = Json::parse(run.out);
    EXPECT_EQ(e["input"], input);
    ToolRun simplified = run_eqsat({"simplify-expr", input});
    EXPECT_EQ(e["output"].get<std::string>() + "\n", simplified.out);
    EXPECT_EQ(e["proof"]["start"], input);
    std::string current = e["proof"]["start"];
    for (const Json& step : e["proof"]["steps"]) {
      EXPECT_FALSE(step["reason"].get<std::string>().empty());
      EXPECT_NE(step["before"], step["after"]);
      current = step["term"];
    }
    EXPECT_EQ(current, e["output"]);
    EXPECT_FALSE(e["proof"]["truncated"].get<bool>());
  }
}

TEST(Dot, WritesAWellFormedGraph) {
  TempDir dir;
  ToolRun run = run_eqsat({"dot", "--bound", "i=0:7", "i % 8 + i * 2", "-o", dir.path("g.dot")});
  ASSERT_EQ(run.status, 0) << run.err;
  const std::string dot = dir.read("g.dot");
  int depth = 0;
  for (char c : dot) {
    depth += c == '{' ? 1 : c == '}' ? -1 : 0;
    ASSERT_GE(depth, 0);
  }
  EXPECT_EQ(depth, 0);
  std::set<std::string> declared;
  std::vector<std::string> referenced;
  const std::regex node(R"(^\s*(n\d+_\d+) \[label=)");
  const std::regex edge(R"(^\s*(n\d+_\d+) -> (n\d+_\d+))");
  for (const std::string& line : lines_of(dot)) {
    std::smatch m;
    if (std::regex_search(line, m, edge)) {
      referenced.push_back(m[1]);
      referenced.push_back(m[2]);
    } else if (std::regex_search(line, m, node)) {
      declared.insert(m[1]);
    }
  }
  EXPECT_FALSE(declared.empty());
  EXPECT_FALSE(referenced.empty());
  for (const std::string& id : referenced) EXPECT_TRUE(declared.count(id)) << id;
  EXPECT_TRUE(Contains(dot, "fillcolor=\"lightblue\""));
}

}  // namespace
}  // namespace eqsat::testing
