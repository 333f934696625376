#include "extract/expr_cost.h"

#include <map>
#include <tuple>

#include "ir/value.h"

namespace eqsat {

namespace {

// Numbers each structurally distinct subterm; the DAG cost sums the price of each
// number once. Keys hold the children's numbers, so equal subterms get equal numbers.
struct Numbering {
  using Key = std::tuple<Op, DType, std::string, std::string, std::vector<std::size_t>>;
  std::map<Key, std::size_t> numbers;
  Cost dag{0};
  const CostProfile& profile;

  explicit Numbering(const CostProfile& p) : profile(p) {}

  // Returns the subterm's number and its tree cost.
  std::pair<std::size_t, Cost> visit(const Expr& e) {
    std::vector<std::size_t> children;
    Cost tree = profile.op_cost(e.op(), e.dtype());
    for (const Expr& arg : e.args()) {
      auto [number, cost] = visit(arg);
      children.push_back(number);
      tree = tree + cost;
    }
    std::string constant = e.op() == Op::Const ? value_text(e.value()) : "";
    auto [it, inserted] = numbers.emplace(
        Key{e.op(), e.dtype(), e.op() == Op::Var ? e.name() : "", constant, std::move(children)}, numbers.size());
    if (inserted) dag = dag + profile.op_cost(e.op(), e.dtype());
    return {it->second, tree};
  }
};

}  // namespace

SelectionCost expr_cost(const Expr& expr, const CostProfile& profile) {
  Numbering numbering(profile);
  SelectionCost cost;
  cost.tree = numbering.visit(expr).second;
  cost.dag = numbering.dag;
  cost.weighted = profile.weigh(cost.tree, cost.dag);
  cost.usable = !cost.tree.is_infinite();
  return cost;
}

}  // namespace eqsat
