// Every case of the shared corpora goes through `eqsat batch` without an error: what
// cannot be simplified comes back unchanged, never as an error; and every output,
// simplified again, is unchanged (idempotence). (The project's
// definition of done; the corpora are read where they are, never copied.)
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "passes/facts.h"
#include "tests/support/sweep.h"
#include "tests/tools/run_eqsat.h"
#include "tools/facts_input.h"

namespace eqsat::testing {
namespace {

void expect_batch_without_errors(const std::string& corpus) {
  SCOPED_TRACE(corpus);
  ASSERT_TRUE(std::filesystem::exists(corpus));
  std::ifstream file(corpus);
  std::stringstream text;
  text << file.rdbuf();
  // The sanitizer build runs a sample of the lines (tests/support/sweep.h).
  const std::string sample = sampled_lines(text.str());
  const std::vector<Json> inputs = json_lines(sample);
  TempDir dir;
  ToolRun run = run_eqsat({"batch", dir.write("sample.jsonl", sample)});
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.err, "");
  const std::vector<Json> outputs = json_lines(run.out);
  ASSERT_EQ(outputs.size(), inputs.size());
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const Json& in = inputs[i];
    const Json& out = outputs[i];
    SCOPED_TRACE("line " + std::to_string(i + 1) + ": " + in.dump());
    ASSERT_TRUE(out.is_object()) << out;
    if (out.contains("error")) {
      ADD_FAILURE() << out["error"];
      continue;  // to list every failing case, not just the first
    }
    ASSERT_TRUE(out.contains("output") && out["output"].is_string()) << out;
    EXPECT_TRUE(out["cost"].is_number_unsigned()) << out;
    // The input members come back unchanged and first, in their order.
    Json echoed = out;
    echoed.erase("output");
    echoed.erase("cost");
    EXPECT_EQ(echoed, in);
    EXPECT_EQ(keys_of(echoed), keys_of(in));
    // The output parses again, under the same declarations, to the input's dtype.
    Result<Facts> facts = cli::facts_from_json(in);
    ASSERT_TRUE(facts.ok());
    Result<Expr> reread = cli::parse_under(*facts, out["output"].get<std::string>(), "output");
    ASSERT_TRUE(reread.ok()) << reread.error().describe();
    Result<Expr> input = cli::parse_under(*facts, in["input"].get<std::string>(), "input");
    ASSERT_TRUE(input.ok());
    EXPECT_EQ(reread->dtype(), input->dtype());
  }
  // Idempotence: each output, simplified again, comes back unchanged.
  std::string again;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    Json in = inputs[i];
    if (outputs[i].contains("output")) in["input"] = outputs[i]["output"];
    again += in.dump() + "\n";
  }
  ToolRun rerun = run_eqsat({"batch", dir.write("again.jsonl", again)});
  ASSERT_EQ(rerun.status, 0) << rerun.err;
  const std::vector<Json> twice = json_lines(rerun.out);
  ASSERT_EQ(twice.size(), outputs.size());
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    if (!outputs[i].contains("output")) continue;
    EXPECT_EQ(twice[i].value("output", ""), outputs[i]["output"].get<std::string>())
        << "line " << i + 1 << ": simplifying " << outputs[i]["output"] << " again changes it";
  }
}

TEST(Corpus, SampleHasNoErrors) { expect_batch_without_errors(EQSAT_SHARED_DIR "/corpus/sample.jsonl"); }

TEST(Corpus, ExternalCorporaHaveNoErrors) {
  const std::filesystem::path dir = EQSAT_SHARED_DIR "/corpus/external";
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".jsonl") continue;
    expect_batch_without_errors(entry.path().string());
    ++files;
  }
  EXPECT_GT(files, 0);
}

TEST(Corpus, BundledExampleHasNoErrors) { expect_batch_without_errors(EQSAT_SOURCE_DIR "/examples/index_arith.jsonl"); }

}  // namespace
}  // namespace eqsat::testing
