// Facts (bounds and assumptions) seed the analyses; with no rules at all, the interval
// analysis alone decides these.
#include "passes/facts.h"

#include <gtest/gtest.h>

#include "egraph/egraph.h"
#include "ir/print.h"
#include "passes/simplify_expr.h"
#include "rules/rule.h"

namespace eqsat {
namespace {

Expr parse(const std::string& text, const Facts& facts) {
  auto e = parse_expr(text, facts.var_typer());
  EXPECT_TRUE(e.ok()) << text << ": " << e.error().describe();
  return *e;
}

std::string simplify_without_rules(const std::string& text, const Facts& facts) {
  return print(simplify_expr(parse(text, facts), facts, {}).output);
}

std::string simplify_with_rules(const std::string& text, const Facts& facts) {
  static const std::vector<Rewrite> rewrites = builtin_rules().rewrites();
  return print(simplify_expr(parse(text, facts), facts, rewrites).output);
}

Facts assuming(std::initializer_list<const char*> assumptions, std::map<std::string, DType> vars = {}) {
  Facts facts;
  facts.var_dtypes = std::move(vars);
  for (const char* text : assumptions) facts.assumptions.push_back(parse(text, facts));
  return facts;
}

TEST(Facts, BoundsDecideComparisons) {
  Facts facts;
  facts.bounds["i"] = Interval::range(0, 7);
  EXPECT_EQ(simplify_without_rules("i < 16", facts), "True");
  EXPECT_EQ(simplify_without_rules("i == -1", facts), "False");
  EXPECT_EQ(simplify_without_rules("i < 5", facts), "i < 5");
}

TEST(Facts, BoundsAloneMakeNoClassYetBoundTheVariableAddedAfter) {
  // Without assumptions nothing is collected: asserting bounds adds no class (not even
  // those of true and false), and the variable's class, added next, has its interval.
  Facts facts;
  facts.bounds["i"] = Interval::range(0, 7);
  EGraph egraph;
  assert_facts(egraph, facts);
  EXPECT_EQ(egraph.num_classes(), 0u);
  const ClassId i = egraph.add_expr(parse("i", facts));
  EXPECT_EQ(egraph.data(i).interval, Interval::range(0, 7));
  EXPECT_EQ(egraph.num_classes(), 1u);
}

TEST(Facts, AnAssumedComparisonWithAConstantNarrowsTheInterval) {
  Facts facts;
  facts.assumptions.push_back(parse("n > 8", facts));
  EXPECT_EQ(simplify_without_rules("n > 4", facts), "True");
  EXPECT_EQ(simplify_without_rules("select(n > 4, 1, 0)", facts), "1");
}

TEST(Facts, ConstantOnTheLeftAndConjunctionsToo) {
  Facts facts;
  facts.assumptions.push_back(parse("0 <= k and k < 4", facts));
  EXPECT_EQ(simplify_without_rules("k < 10", facts), "True");
  EXPECT_EQ(simplify_without_rules("k >= 0", facts), "True");
}

TEST(Facts, EqualityMakesTheVariableAConstant) {
  Facts facts;
  facts.assumptions.push_back(parse("x == 3", facts));
  EXPECT_EQ(simplify_without_rules("x * 4", facts), "12");
}

TEST(Facts, NotEqualAtTheEdgeOfTheIntervalNarrowsIt) {
  Facts facts;
  facts.bounds["x"] = Interval::range(0, 10);
  facts.assumptions.push_back(parse("x != 0", facts));
  EXPECT_EQ(simplify_without_rules("x >= 1", facts), "True");
}

TEST(Facts, AnAssumptionItselfIsTrue) {
  Facts facts;
  facts.assumptions.push_back(parse("x < y", facts));
  EXPECT_EQ(simplify_without_rules("x < y", facts), "True");
  EXPECT_EQ(simplify_without_rules("y > x", facts), "True");  // the mirrored form is asserted too
}

TEST(Facts, FixedWidthBoundsAreIntersectedWithTheDtype) {
  Facts facts;
  facts.var_dtypes["u"] = DType::UInt8;
  EXPECT_EQ(simplify_without_rules("u >= 0", facts), "True");  // unsigned: by its dtype
  EXPECT_EQ(simplify_without_rules("u <= 255", facts), "True");
}

// --- Orders between expressions, used transitively. ---

TEST(Facts, AStrictChainDecidesEveryComparisonOfItsEnds) {
  Facts facts = assuming({"x < y", "y < z"});
  EXPECT_EQ(simplify_without_rules("x < z", facts), "True");
  EXPECT_EQ(simplify_without_rules("z > x", facts), "True");
  EXPECT_EQ(simplify_without_rules("x <= z", facts), "True");
  EXPECT_EQ(simplify_without_rules("z >= x", facts), "True");
  EXPECT_EQ(simplify_without_rules("x != z", facts), "True");
  EXPECT_EQ(simplify_without_rules("x >= z", facts), "False");
  EXPECT_EQ(simplify_without_rules("z < x", facts), "False");
  EXPECT_EQ(simplify_without_rules("x == z", facts), "False");
  EXPECT_EQ(simplify_without_rules("select(z <= x, 1, 2)", facts), "2");
}

TEST(Facts, MixedStrictAndNonStrictChains) {
  Facts facts = assuming({"a <= b", "b < c", "c <= d", "e >= d"});
  EXPECT_EQ(simplify_without_rules("a < d", facts), "True");  // one strict step suffices
  EXPECT_EQ(simplify_without_rules("a < e", facts), "True");
  EXPECT_EQ(simplify_without_rules("b < e", facts), "True");
  EXPECT_EQ(simplify_without_rules("a <= c", facts), "True");
  EXPECT_EQ(simplify_without_rules("c <= e", facts), "True");
  EXPECT_EQ(simplify_without_rules("c < e", facts), "c < e");  // only c <= e is known
  EXPECT_EQ(simplify_without_rules("d < a", facts), "False");
  EXPECT_EQ(simplify_without_rules("a < b", facts), "a < b");  // only a <= b
  EXPECT_EQ(simplify_without_rules("a == b", facts), "a == b");
}

TEST(Facts, NonStrictAndUnequalIsStrict) {
  Facts facts = assuming({"a <= b", "a != b", "b <= c"});
  EXPECT_EQ(simplify_without_rules("a < c", facts), "True");
}

TEST(Facts, ChainsOverCompoundExpressions) {
  Facts facts = assuming({"i + 1 < n", "n <= m * 2"});
  EXPECT_EQ(simplify_without_rules("i + 1 < m * 2", facts), "True");
  EXPECT_EQ(simplify_without_rules("m * 2 > i + 1", facts), "True");
}

TEST(Facts, EqualityChainsMergeTheirClasses) {
  Facts facts = assuming({"a == b", "b == c", "c <= 5"});
  EXPECT_EQ(simplify_without_rules("a <= 5", facts), "True");  // c's bound is a's
  EXPECT_EQ(simplify_with_rules("a == c", facts), "True");
  EXPECT_EQ(simplify_with_rules("a - c", facts), "0");
  Facts antisymmetric = assuming({"x <= y", "y <= x", "y < 3"});
  EXPECT_EQ(simplify_with_rules("x == y", antisymmetric), "True");
  EXPECT_EQ(simplify_without_rules("x < 3", antisymmetric), "True");
}

TEST(Facts, AChainCarriesIntervalBounds) {
  Facts facts = assuming({"x < y", "y < z", "z <= 10", "0 <= x"});
  EXPECT_EQ(simplify_without_rules("x <= 8", facts), "True");  // x < y < z <= 10
  EXPECT_EQ(simplify_without_rules("x < 8", facts), "x < 8");
  EXPECT_EQ(simplify_without_rules("y <= 9", facts), "True");
  EXPECT_EQ(simplify_without_rules("y >= 1", facts), "True");  // 0 <= x < y
  EXPECT_EQ(simplify_without_rules("z >= 2", facts), "True");
  EXPECT_EQ(simplify_without_rules("z > 2", facts), "z > 2");
  EXPECT_EQ(simplify_without_rules("select(y < 10, 1, 0)", facts), "1");
}

TEST(Facts, ChainBoundsFromDeclaredBounds) {
  Facts facts = assuming({"i < n"});
  facts.bounds["n"] = Interval::range(0, 16);
  facts.bounds["i"] = Interval::range(0, std::nullopt);
  EXPECT_EQ(simplify_without_rules("i < 16", facts), "True");
  EXPECT_EQ(simplify_without_rules("n >= 1", facts), "True");
}

TEST(Facts, FixedWidthChainsHoldForTheWrappedValues) {
  std::map<std::string, DType> vars{{"x", DType::Int32}, {"y", DType::Int32}, {"z", DType::Int32}};
  Facts facts = assuming({"x < y", "y <= z"}, vars);
  EXPECT_EQ(simplify_without_rules("x < z", facts), "True");
  // z is at most INT32_MAX, so x is at most INT32_MAX - 1.
  EXPECT_EQ(simplify_without_rules("x != 2147483647", facts), "True");
  Facts unsigned_facts = assuming({"a < b"}, {{"a", DType::UInt8}, {"b", DType::UInt8}});
  EXPECT_EQ(simplify_without_rules("b >= 1", unsigned_facts), "True");  // 0 <= a < b
  EXPECT_EQ(simplify_without_rules("a <= 254", unsigned_facts), "True");
}

// --- Negations and disjunctions. ---

TEST(Facts, ANegatedComparisonIsTheOppositeComparison) {
  Facts facts = assuming({"not (x < 5)", "not (y >= z)"});
  EXPECT_EQ(simplify_without_rules("x >= 5", facts), "True");
  EXPECT_EQ(simplify_without_rules("x > 4", facts), "True");
  EXPECT_EQ(simplify_without_rules("x < 5", facts), "False");
  EXPECT_EQ(simplify_without_rules("y < z", facts), "True");
  EXPECT_EQ(simplify_without_rules("z > y", facts), "True");
  Facts equal = assuming({"not (n != 4)"});
  EXPECT_EQ(simplify_without_rules("n * 2", equal), "8");
}

TEST(Facts, NotOfADisjunctionIsBothNegations) {
  Facts facts = assuming({"not (x == 3 or y > 7)", "not (not (z < 0))"});
  EXPECT_EQ(simplify_without_rules("x == 3", facts), "False");
  EXPECT_EQ(simplify_without_rules("x != 3", facts), "True");
  EXPECT_EQ(simplify_without_rules("y <= 7", facts), "True");
  EXPECT_EQ(simplify_without_rules("y < 100", facts), "True");
  EXPECT_EQ(simplify_without_rules("z < 5", facts), "True");
}

TEST(Facts, ConjunctsAndNegatedBooleansAreKnown) {
  Facts facts = assuming({"p and not q", "not (r or s)"},
                         {{"p", DType::Bool}, {"q", DType::Bool}, {"r", DType::Bool}, {"s", DType::Bool}});
  // (A variable alone ties in cost with its constant and is kept; its users fold.)
  EXPECT_EQ(simplify_without_rules("select(p, 1, 2)", facts), "1");
  EXPECT_EQ(simplify_without_rules("select(q, 1, 2)", facts), "2");
  EXPECT_EQ(simplify_without_rules("select(r, 1, 2)", facts), "2");
  EXPECT_EQ(simplify_without_rules("select(s, 1, 2)", facts), "2");
  EXPECT_EQ(simplify_without_rules("select(p and not q, 1, 2)", facts), "1");
}

TEST(Facts, ADisjunctionOrANegatedConjunctionDecidesNothing) {
  Facts facts = assuming({"x < 0 or x > 10", "not (y < 0 and y > 10)"});
  EXPECT_EQ(simplify_without_rules("x < 0", facts), "x < 0");
  EXPECT_EQ(simplify_without_rules("y < 0", facts), "y < 0");
}

// --- Floats: NaN makes every comparison false, so nothing is flipped or chained. ---

TEST(Facts, FloatComparisonsAreNotNegatedNorChained) {
  std::map<std::string, DType> vars{{"a", DType::FP32}, {"b", DType::FP32}, {"c", DType::FP32}};
  Facts negated = assuming({"not (a < b)"}, vars);
  EXPECT_EQ(simplify_without_rules("a >= b", negated), "a >= b");  // a or b may be NaN
  EXPECT_EQ(simplify_without_rules("a < b", negated), "False");    // the fact itself
  EXPECT_NE(simplify_with_rules("a >= b", negated), "True");
  Facts chain = assuming({"a < b", "b < c"}, vars);
  EXPECT_EQ(simplify_without_rules("a < c", chain), "a < c");
  EXPECT_EQ(simplify_without_rules("c > a", chain), "c > a");
  Facts equal = assuming({"a == b"}, vars);  // -0.0 == 0.0: not the same value
  EXPECT_EQ(simplify_with_rules("a - b", equal), "a - b");
}

// --- Congruences: `e % c == r` says e is k*c + r. ---

TEST(Facts, AnAssumedRemainderGivesACongruence) {
  Facts facts = assuming({"x % 2 == 0"});
  EGraph egraph;
  assert_facts(egraph, facts);
  ClassId x = egraph.add_var("x", DType::Index);
  EXPECT_EQ(egraph.data(x).congruence, Congruence::of(2, 0));
  EXPECT_EQ(simplify_without_rules("(x + 1) % 2", facts), "1");
  EXPECT_EQ(simplify_without_rules("(x * 3 + 5) % 2", facts), "1");

  Facts on_the_right = assuming({"3 == (y - 1) % 8", "4 <= y", "y <= 12"});
  EGraph g2;
  assert_facts(g2, on_the_right);
  ClassId y_minus_1 = g2.add_expr(parse("y - 1", on_the_right));
  EXPECT_EQ(g2.data(y_minus_1).congruence, Congruence::of(8, 3));
  // y - 1 in [3, 11] and 8k + 3: 3 or 11; it is not narrowed further (y itself is not).
  EXPECT_EQ(g2.data(y_minus_1).interval, Interval::range(3, 11));

  Facts narrowed = assuming({"z % 4 == 1", "2 <= z", "z <= 8"});
  EXPECT_EQ(simplify_without_rules("z * 3", narrowed), "15");  // z is 5, the only 4k + 1 in [2, 8]
  EXPECT_EQ(simplify_without_rules("z // 2", narrowed), "2");

  Facts negative = assuming({"w % -3 == -1"});  // Python: w = 3k + 2
  EGraph g3;
  assert_facts(g3, negative);
  EXPECT_EQ(g3.data(g3.add_var("w", DType::Index)).congruence, Congruence::of(3, 2));
}

TEST(Facts, ImpossibleOrFixedWidthRemaindersGiveNoCongruence) {
  Facts impossible = assuming({"x % 4 == 5"});  // no model: nothing is derived from it
  EGraph g;
  assert_facts(g, impossible);
  EXPECT_TRUE(g.data(g.add_var("x", DType::Index)).congruence.is_unknown());
  Facts wrapped = assuming({"u % 4 == 1"}, {{"u", DType::Int32}});
  EGraph g2;
  assert_facts(g2, wrapped);
  EXPECT_TRUE(g2.data(g2.add_var("u", DType::Int32)).congruence.is_unknown());
}

// --- Contradictions: anything is sound, nothing may crash. ---

TEST(Facts, ContradictoryFactsDoNotCrash) {
  for (auto list : std::vector<std::vector<const char*>>{
           {"x < y", "y < x"},
           {"x < y", "y <= x"},
           {"x < y", "y < z", "z < x"},
           {"x == 1", "x == 2"},
           {"x < 0", "x > 0"},
           {"x == y", "x < y"},
           {"x < y", "not (x < y)"},
           {"a <= b", "b <= a", "a != b"},
           {"0 <= x", "x < y", "y < 1"},
       }) {
    Facts facts;
    for (const char* text : list) facts.assumptions.push_back(parse(text, facts));
    facts.bounds["x"] = Interval::range(0, 10);
    EGraph egraph;
    assert_facts(egraph, facts);
    egraph.add_expr(parse("x < z", facts));
    egraph.rebuild();
    EXPECT_EQ(egraph.check_invariants(), "");
    simplify_with_rules("x + y < z", facts);  // finishes
  }
}

TEST(Facts, ManyFactsStayWithinTheClosureLimit) {
  Facts facts;
  for (int i = 0; i < 80; ++i) {
    facts.assumptions.push_back(parse("v" + std::to_string(i) + " < v" + std::to_string(i + 1), facts));
  }
  EGraph egraph;
  assert_facts(egraph, facts);  // too many classes for the closure: no crash, no blow-up
  EXPECT_EQ(egraph.check_invariants(), "");
  EXPECT_EQ(simplify_without_rules("v0 < v1", facts), "True");
}

}  // namespace
}  // namespace eqsat
