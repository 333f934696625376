// Cost profiles: the weights for tree and DAG cost, the shipped profiles, and how a
// profile is named on the command line.
#include <gtest/gtest.h>

#include <algorithm>

#include "extract/cost.h"

namespace eqsat {
namespace {

TEST(CostWeights, DefaultCountsEveryOccurrence) {
  CostProfile profile = CostProfile::unit();
  EXPECT_EQ(profile.weights(), (CostWeights{1, 0}));
  EXPECT_EQ(profile.weigh(Cost(7), Cost(5)), Cost(7));
}

TEST(CostWeights, ReadFromTheProfile) {
  auto profile = CostProfile::from_json_text(R"({"weights": {"tree": 2, "dag": 3}})", "w.json");
  ASSERT_TRUE(profile.ok()) << profile.error().describe();
  EXPECT_EQ(profile->weights(), (CostWeights{2, 3}));
  EXPECT_EQ(profile->weigh(Cost(7), Cost(5)), Cost(2 * 7 + 3 * 5));
  // A weight left out keeps the default.
  auto dag_only = CostProfile::from_json_text(R"({"weights": {"dag": 1}})", "w.json");
  ASSERT_TRUE(dag_only.ok());
  EXPECT_EQ(dag_only->weights(), (CostWeights{1, 1}));
}

TEST(CostWeights, SaturateAndKeepInfinity) {
  EXPECT_TRUE(Cost::infinite().scaled(0).is_infinite());  // a forbidden operation is never free
  EXPECT_EQ(Cost(5).scaled(0), Cost(0));
  EXPECT_TRUE(Cost(Cost::kInfinite / 2).scaled(3).is_infinite());
  EXPECT_EQ(Cost(4).scaled(3), Cost(12));
}

TEST(CostWeights, BadWeightsNameTheFileAndKey) {
  struct Case {
    const char* text;
    const char* message;
  };
  for (Case c : {Case{R"({"weights": 1})", "p.json: key 'weights': expected an object"},
                 Case{R"({"weights": {"shared": 1}})", "p.json: weights: unknown key 'shared' (known: tree, dag)"},
                 Case{R"({"weights": {"tree": -1}})", "p.json: weights.tree: expected a non-negative integer"},
                 Case{R"({"weights": {"dag": "inf"}})", "p.json: weights.dag: expected a non-negative integer"},
                 Case{R"({"weights": {"tree": 0}})",
                      "p.json: weights: the tree and dag weights are both 0 (every form would cost 0)"},
                 Case{R"({"comment": 3})", "p.json: key 'comment': expected a string"}}) {
    auto profile = CostProfile::from_json_text(c.text, "p.json");
    ASSERT_FALSE(profile.ok()) << c.text;
    EXPECT_EQ(profile.error().message, c.message);
  }
}

TEST(ShippedProfiles, EachLoadsAndSaysWhenToUseIt) {
  const std::vector<std::string> names = CostProfile::builtin_names();
  for (const char* expected : {"default", "div-expensive", "op-count"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected;
  }
  for (const std::string& name : names) {
    Result<CostProfile> profile = CostProfile::builtin(name);
    ASSERT_TRUE(profile.ok()) << profile.error().describe();
    EXPECT_EQ(profile->name(), name);
    EXPECT_GT(profile->comment().size(), 40u) << name << ": a shipped profile says when to use it";
  }
}

TEST(ShippedProfiles, DefaultIsTheBuiltInUnitProfile) {
  Result<CostProfile> shipped = CostProfile::builtin("default");
  ASSERT_TRUE(shipped.ok());
  const CostProfile unit = CostProfile::unit();
  for (int op = 0; op < kNumOps; ++op) {
    for (int t = 0; t < kNumDTypes; ++t) {
      EXPECT_EQ(shipped->op_cost(Op(op), DType(t)), unit.op_cost(Op(op), DType(t)));
    }
  }
  EXPECT_EQ(shipped->weights(), unit.weights());
}

TEST(ShippedProfiles, DivExpensivePricesDivisionAboveShiftsAndMasks) {
  Result<CostProfile> p = CostProfile::builtin("div-expensive");
  ASSERT_TRUE(p.ok());
  EXPECT_GT(p->op_cost(Op::FloorDiv, DType::Index), p->op_cost(Op::TruncDiv, DType::Index));
  EXPECT_GT(p->op_cost(Op::TruncMod, DType::Int32), p->op_cost(Op::Mul, DType::Int32));
  EXPECT_EQ(p->op_cost(Op::Shr, DType::Index), Cost(1));
  EXPECT_EQ(p->op_cost(Op::BitAnd, DType::Index), Cost(1));
}

TEST(ShippedProfiles, OpCountCountsSharedOperationsOnce) {
  Result<CostProfile> p = CostProfile::builtin("op-count");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->weights(), (CostWeights{0, 1}));
  EXPECT_EQ(p->op_cost(Op::Var, DType::Index), Cost(0));
  EXPECT_EQ(p->op_cost(Op::Add, DType::Index), Cost(1));
}

TEST(ResolveProfile, NameOrPath) {
  Result<CostProfile> by_name = CostProfile::resolve("op-count");
  ASSERT_TRUE(by_name.ok());
  EXPECT_EQ(by_name->name(), "op-count");

  Result<CostProfile> file = CostProfile::resolve("profiles/div-expensive.json", EQSAT_SOURCE_DIR);
  ASSERT_TRUE(file.ok()) << file.error().describe();
  EXPECT_EQ(file->name(), "div-expensive");

  Result<CostProfile> missing = CostProfile::resolve("nowhere/p.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message, "nowhere/p.json: cannot open the cost profile");

  Result<CostProfile> unknown = CostProfile::resolve("fast");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().message,
            "unknown cost profile 'fast' (shipped profiles: default, div-expensive, op-count; a file path "
            "contains '/' or ends in .json)");
}

TEST(ResolveProfile, ReadsOverABase) {
  Result<CostProfile> base = CostProfile::builtin("div-expensive");
  ASSERT_TRUE(base.ok());
  Result<CostProfile> more = CostProfile::from_json_text(R"({"ops": {"select": "inf"}})", "more", *base);
  ASSERT_TRUE(more.ok());
  EXPECT_TRUE(more->op_cost(Op::Select, DType::Index).is_infinite());
  EXPECT_EQ(more->op_cost(Op::FloorDiv, DType::Index), Cost(44));  // kept from the base
}

}  // namespace
}  // namespace eqsat
