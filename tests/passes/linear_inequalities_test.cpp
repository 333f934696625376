// The linear forms of the condition context: atoms interned by their printed text
// (one text, one atom), forms walked in the order of that text, and bounds found
// by chaining the inequalities recorded.
#include "passes/linear_inequalities.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ir/print.h"
#include "tests/passes/parse_for_test.h"

namespace eqsat {
namespace {

Expr parsed(const std::string &text) {
  const std::optional<Expr> e = testing::parse_for_test(text);
  return e ? *e : Expr::constant(Value::integer(DType::Index, 0));
}

// The texts of a form's atoms, in the order the form walks them.
std::vector<std::string> texts(const LinearTerms &terms) {
  std::vector<std::string> out;
  for (const auto &[atom, coefficient] : terms.coefficients) out.push_back(atom.text());
  return out;
}

LinearTerms read(const std::string &text, AtomTable &table) {
  LinearTerms terms;
  Int constant = 0;
  EXPECT_TRUE(read_linear_terms(parsed(text), 1, table, terms, constant));
  return terms;
}

TEST(LinearInequalities, OneTextIsOneAtom) {
  AtomTable table;
  // Two nodes of the same term, parsed apart: one key, holding the first node.
  const Expr first = parsed("max(x, 1)");
  const Expr second = parsed("max(x, 1)");
  ASSERT_NE(first.identity(), second.identity());
  const AtomKey a = table.intern(first);
  const AtomKey b = table.intern(second);
  EXPECT_TRUE(a == b);
  EXPECT_EQ(a.text(), "max(x, 1)");
  EXPECT_EQ(b.expr().identity(), first.identity());
  // A variable is found by its name.
  EXPECT_TRUE(table.intern(parsed("x")) == table.intern(parsed("x")));
  EXPECT_FALSE(table.intern(parsed("x")) == table.intern(parsed("y")));
}

TEST(LinearInequalities, FormsWalkTheirAtomsInTextOrder) {
  AtomTable table;
  // Interned in another order than the text's: the form's order is the text's.
  table.intern(parsed("y"));
  table.intern(parsed("x * y"));
  const LinearTerms terms = read("y + x * y * 2 + max(x, 1) - z", table);
  EXPECT_EQ(texts(terms), (std::vector<std::string>{"max(x, 1)", "x * y", "y", "z"}));
  EXPECT_TRUE(terms.coefficients.at(table.intern(parsed("x * y"))) == 2);
  EXPECT_TRUE(terms.coefficients.at(table.intern(parsed("z"))) == -1);
}

TEST(LinearInequalities, CancelledTermsKeepTheirAtom) {
  AtomTable table;
  const LinearTerms terms = read("x + y - x", table);
  EXPECT_EQ(texts(terms), (std::vector<std::string>{"y"}));
  // The atoms read hold x too: its facts and interval are still asked for.
  EXPECT_EQ(terms.atoms.size(), 2u);
  EXPECT_TRUE(terms.atoms.contains(table.intern(parsed("x"))));
}

TEST(LinearInequalities, BoundsChainTheRecordedInequalities) {
  AtomTable table;
  LinearInequalities known(table);
  known.add(read("a - b", table), -1);  // a - b <= -1
  known.add(read("b - c", table), -1);  // b - c <= -1
  const LinearInequalities::Bounds bounds = known.bounds(read("a - c", table));
  EXPECT_TRUE(bounds.upper == std::optional<Int>(-2));
  EXPECT_FALSE(bounds.lower.has_value());
  // max(a, c) >= a is a fact of the atom itself, known with nothing recorded.
  const LinearInequalities none(table);
  EXPECT_TRUE(none.upper_bound(read("a - max(a, c)", table)) == std::optional<Int>(0));
  EXPECT_FALSE(none.upper_bound(read("a - c", table)).has_value());
}

TEST(LinearInequalities, BoundsByIntervalsAloneAgreeWithTheSearch) {
  // With nothing recorded and atoms without facts of their own, bounds() sums the
  // atoms' interval bounds, for the form and its negation, without the search: the
  // same bounds as upper_bound and lower_bound find by it.
  AtomTable table;
  const BoundsOracle intervals = [](const Expr &atom) {
    if (atom.op() != Op::Var) return Interval::all();
    if (atom.name() == "a") return Interval::range(0, 3);
    if (atom.name() == "b") return Interval::range(1, 5);
    return Interval::range(-2, std::nullopt);  // c: bounded below only
  };
  const LinearInequalities none(table, intervals);
  const LinearTerms both = read("a * 2 - b", table);
  const LinearInequalities::Bounds bounds = none.bounds(both);
  EXPECT_TRUE(bounds.upper == std::optional<Int>(5));   // 2 * 3 - 1
  EXPECT_TRUE(bounds.lower == std::optional<Int>(-5));  // 2 * 0 - 5
  EXPECT_TRUE(bounds.upper == none.upper_bound(both));
  EXPECT_TRUE(bounds.lower == none.lower_bound(both));
  // One side unbounded: c has no upper bound, so a + c * 2 has none; -4 below.
  const LinearTerms one_side = read("a + c * 2", table);
  const LinearInequalities::Bounds half = none.bounds(one_side);
  EXPECT_FALSE(half.upper.has_value());
  EXPECT_TRUE(half.lower == std::optional<Int>(-4));
  EXPECT_TRUE(half.upper == none.upper_bound(one_side));
  EXPECT_TRUE(half.lower == none.lower_bound(one_side));
}

}  // namespace
}  // namespace eqsat
