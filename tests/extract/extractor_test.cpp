// Cost profiles and the tree extractor.
#include "extract/extractor.h"

#include <gtest/gtest.h>

#include "ir/print.h"

namespace eqsat {
namespace {

Expr var(const char* name) { return Expr::var(name, DType::Index); }
Expr lit(Int v) { return Expr::constant(Value::integer(DType::Index, v)); }
Expr bin(Op op, Expr a, Expr b) {
  DType dtype = is_comparison(op) ? DType::Bool : a.dtype();
  return Expr::make(op, dtype, {std::move(a), std::move(b)});
}

TEST(CostProfile, UnitCostsEveryNodeOne) {
  CostProfile unit = CostProfile::unit();
  EXPECT_EQ(unit.op_cost(Op::Add, DType::Index), Cost(1));
  EXPECT_EQ(unit.op_cost(Op::Var, DType::FP32), Cost(1));
}

TEST(CostProfile, ReadsDefaultsOpsAndPerDtypeOverrides) {
  auto profile = CostProfile::from_json_text(
      R"({"name": "div-heavy", "default": 2, "ops": {"floordiv": 40, "shr": 1},
          "dtypes": {"INT32": {"floordiv": 20}}})",
      "test.json");
  ASSERT_TRUE(profile.ok()) << profile.error().describe();
  EXPECT_EQ(profile->name(), "div-heavy");
  EXPECT_EQ(profile->op_cost(Op::Add, DType::Index), Cost(2));
  EXPECT_EQ(profile->op_cost(Op::FloorDiv, DType::Index), Cost(40));
  EXPECT_EQ(profile->op_cost(Op::FloorDiv, DType::Int32), Cost(20));  // the override wins
  EXPECT_EQ(profile->op_cost(Op::Shr, DType::Int32), Cost(1));
}

TEST(CostProfile, InfForbidsAnOperation) {
  auto profile = CostProfile::from_json_text(R"({"ops": {"select": "inf"}})", "p.json");
  ASSERT_TRUE(profile.ok());
  EXPECT_TRUE(profile->op_cost(Op::Select, DType::Index).is_infinite());
}

TEST(CostProfile, BadProfilesNameTheFileAndKey) {
  struct Case {
    const char* text;
    const char* message;
  };
  for (Case c :
       {Case{"[1]", "p.json: a cost profile is a JSON object"}, Case{"{", "p.json: not valid JSON"},
        Case{R"({"colour": 1})", "p.json: unknown key 'colour' (known: name, comment, default, ops, dtypes, weights)"},
        Case{R"({"ops": {"plus": 1}})", "p.json: ops: unknown operation 'plus'"},
        Case{R"({"ops": {"add": -1}})", "p.json: ops.add: expected a non-negative integer or \"inf\""},
        Case{R"({"default": "cheap"})", "p.json: key 'default': expected a non-negative integer or \"inf\""},
        Case{R"({"dtypes": {"INT7": {}}})", "p.json: dtypes: unknown dtype 'INT7'"}}) {
    auto profile = CostProfile::from_json_text(c.text, "p.json");
    ASSERT_FALSE(profile.ok()) << c.text;
    EXPECT_EQ(profile.error().message, c.message);
  }
}

TEST(CostProfile, MissingFileIsAnError) {
  auto profile = CostProfile::from_file("/nonexistent/profile.json");
  ASSERT_FALSE(profile.ok());
  EXPECT_NE(profile.error().message.find("cannot open"), std::string::npos);
}

TEST(Cost, SaturatesAtInfinity) {
  EXPECT_TRUE((Cost::infinite() + Cost(1)).is_infinite());
  EXPECT_TRUE((Cost(Cost::kInfinite - 1) + Cost(5)).is_infinite());
  EXPECT_EQ(Cost(2) + Cost(3), Cost(5));
}

// x * 2 and x + x in one class: which one wins depends on the profile.
struct TwoForms {
  EGraph graph;
  ClassId root;
  TwoForms() {
    root = graph.add_expr(bin(Op::Mul, var("x"), lit(2)));
    graph.merge(root, graph.add_expr(bin(Op::Add, var("x"), var("x"))));
    graph.rebuild();
  }
};

TEST(TreeExtractor, PicksTheCheapestFormUnderTheProfile) {
  TwoForms forms;
  auto mul_expensive = CostProfile::from_json_text(R"({"ops": {"mul": 5}})", "p");
  auto add_expensive = CostProfile::from_json_text(R"({"ops": {"add": 5}})", "p");
  EXPECT_EQ(print(TreeExtractor(forms.graph, *mul_expensive).extract(forms.root).expr), "x + x");
  EXPECT_EQ(print(TreeExtractor(forms.graph, *add_expensive).extract(forms.root).expr), "x * 2");
  EXPECT_EQ(TreeExtractor(forms.graph, *add_expensive).extract(forms.root).cost, Cost(3));
}

TEST(TreeExtractor, NeverPicksAForbiddenOperation) {
  TwoForms forms;
  auto no_mul = CostProfile::from_json_text(R"({"ops": {"mul": "inf", "add": 100}})", "p");
  EXPECT_EQ(print(TreeExtractor(forms.graph, *no_mul).extract(forms.root).expr), "x + x");
}

TEST(TreeExtractor, TiesBreakTheSameWayEveryTime) {
  // x * 2 and x + x cost 3 each under unit costs; the order of egraph/enode.h decides
  // (Add comes before Mul), whichever was added first.
  for (int order = 0; order < 2; ++order) {
    EGraph g;
    Expr mul = bin(Op::Mul, var("x"), lit(2));
    Expr add = bin(Op::Add, var("x"), var("x"));
    ClassId a = g.add_expr(order ? mul : add);
    ClassId b = g.add_expr(order ? add : mul);
    g.merge(a, b);
    g.rebuild();
    CostProfile unit = CostProfile::unit();
    EXPECT_EQ(print(TreeExtractor(g, unit).extract(a).expr), "x + x") << "order " << order;
  }
}

TEST(TreeExtractor, CyclesInTheGraphAreHarmless) {
  // x == x * 1: the class contains a node whose child is the class itself.
  EGraph g;
  ClassId x = g.add_var("x", DType::Index);
  ClassId times_one = g.add_expr(bin(Op::Mul, var("x"), lit(1)));
  g.merge(x, times_one);
  g.rebuild();
  CostProfile unit = CostProfile::unit();
  Extracted best = TreeExtractor(g, unit).extract(times_one);
  EXPECT_EQ(print(best.expr), "x");
  EXPECT_EQ(best.cost, Cost(1));
}

TEST(TreeExtractor, WeighsAgainAClassThatGotCheaperAfterItsParentReadIt) {
  // The class of y * 2 is merged into that of y + y, a later class with more parents,
  // which stays the root: the sum over it then comes before its operand in id order.
  // The first pass weighs the sum before its operand has a cost, so it must pass again.
  EGraph g;
  ClassId twice = g.add_expr(bin(Op::Mul, var("y"), lit(2)));
  ClassId sum = g.add_expr(bin(Op::Add, bin(Op::Mul, var("y"), lit(2)), lit(1)));
  ClassId doubled = g.add_expr(bin(Op::Add, var("y"), var("y")));
  g.add_expr(bin(Op::Sub, bin(Op::Add, var("y"), var("y")), lit(3)));
  g.add_expr(bin(Op::Mul, bin(Op::Add, var("y"), var("y")), lit(4)));
  g.merge(twice, doubled);
  g.rebuild();
  ASSERT_EQ(g.find(twice), g.find(doubled));
  ASSERT_GT(g.find(twice).value, g.find(sum).value) << "the operand must come after the sum";
  auto mul_expensive = CostProfile::from_json_text(R"({"ops": {"mul": 5}})", "p");
  Extracted best = TreeExtractor(g, *mul_expensive).extract(sum);
  ASSERT_EQ(best.cost, Cost(5)) << "y + y + 1, at one per addition and leaf";
  EXPECT_EQ(print(best.expr), "y + y + 1");
}

TEST(TreeExtractor, WritesConstantsOnTheRight) {
  EGraph g;
  ClassId sum = g.add_expr(bin(Op::Add, lit(7), var("x")));
  ClassId less = g.add_expr(bin(Op::Lt, lit(3), var("x")));
  g.rebuild();
  CostProfile unit = CostProfile::unit();
  TreeExtractor extractor(g, unit);
  EXPECT_EQ(print(extractor.extract(sum).expr), "x + 7");
  EXPECT_EQ(print(extractor.extract(less).expr), "x > 3");
}

}  // namespace
}  // namespace eqsat
