// `eqsat dot`'s writer: a structurally valid Graphviz graph, one cluster per e-class,
// every edge between nodes that exist, the extracted nodes marked.
#include "extract/dot.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "extract/extractor.h"

namespace eqsat {
namespace {

Expr var(const char* name) { return Expr::var(name, DType::Index); }
Expr lit(Int v) { return Expr::constant(Value::integer(DType::Index, v)); }
Expr bin(Op op, Expr a, Expr b) { return Expr::make(op, DType::Index, {std::move(a), std::move(b)}); }

struct Parsed {
  std::set<std::string> declared;  // node ids with attributes
  std::vector<std::pair<std::string, std::string>> edges;
  std::set<std::string> clusters;
  int marked = 0;
};

Parsed parse_dot(const std::string& dot) {
  Parsed parsed;
  const std::regex node(R"(^\s*(n\d+_\d+) \[label=)");
  const std::regex edge(R"(^\s*(n\d+_\d+) -> (n\d+_\d+) \[lhead=(cluster_\d+))");
  const std::regex cluster(R"(^\s*subgraph (cluster_\d+) \{)");
  std::istringstream in(dot);
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_search(line, m, edge)) {
      parsed.edges.emplace_back(m[1], m[2]);
      EXPECT_EQ(m[2].str().substr(1, m[2].str().find('_') - 1), m[3].str().substr(8)) << line;
    } else if (std::regex_search(line, m, node)) {
      parsed.declared.insert(m[1]);
      if (line.find("filled") != std::string::npos) ++parsed.marked;
    } else if (std::regex_search(line, m, cluster)) {
      parsed.clusters.insert(m[1]);
    }
  }
  return parsed;
}

TEST(Dot, IsAWellFormedGraphOfTheEGraph) {
  EGraph egraph;
  const ClassId sum = egraph.add_expr(bin(Op::Add, var("x"), var("x")));
  const ClassId product = egraph.add_expr(bin(Op::Mul, var("x"), lit(2)));
  egraph.merge(sum, product);
  egraph.rebuild();
  TreeExtractor tree(egraph, CostProfile::unit());
  const std::string dot = egraph_to_dot(egraph, tree.selection(), sum);

  // Balanced braces, one graph.
  int depth = 0;
  for (char ch : dot) {
    depth += ch == '{' ? 1 : ch == '}' ? -1 : 0;
    ASSERT_GE(depth, 0);
  }
  EXPECT_EQ(depth, 0);
  EXPECT_EQ(dot.rfind("digraph egraph {", 0), 0u);

  const Parsed parsed = parse_dot(dot);
  EXPECT_EQ(parsed.clusters.size(), egraph.num_classes());
  EXPECT_EQ(parsed.declared.size(), egraph.num_nodes());
  for (const auto& [from, to] : parsed.edges) {
    EXPECT_TRUE(parsed.declared.count(from)) << from;
    EXPECT_TRUE(parsed.declared.count(to)) << to;
  }
  // x + x (3 edges from the two nodes of the root: x, x, then x and 2) and the chosen
  // term marked: the root's `+` and `x`.
  EXPECT_EQ(parsed.edges.size(), 4u);
  EXPECT_EQ(parsed.marked, 2);
  EXPECT_NE(dot.find("peripheries=2"), std::string::npos);  // the root class
}

TEST(Dot, QuotesLabels) {
  EGraph egraph;
  const ClassId root = egraph.add_expr(Expr::make(Op::Cast, DType::Int32, {var("i")}));
  egraph.rebuild();
  TreeExtractor tree(egraph, CostProfile::unit());
  const std::string dot = egraph_to_dot(egraph, tree.selection(), root);
  EXPECT_NE(dot.find("[label=\"cast INT32\""), std::string::npos) << dot;
  EXPECT_NE(dot.find("label=\"c0 INDEX\""), std::string::npos) << dot;
}

}  // namespace
}  // namespace eqsat
