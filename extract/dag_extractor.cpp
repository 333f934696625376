#include "extract/dag_extractor.h"

#include <algorithm>
#include <set>
#include <utility>

#include "extract/extractor.h"

namespace eqsat {

namespace {

// The classes a term uses, each with the price of its chosen node, sorted by class id.
using Uses = std::vector<std::pair<uint32_t, Cost>>;

// Greedy DAG selection (as extraction-gym's greedy-dag): a node's price is the sum over
// the union of its children's `Uses` plus its own, so a class two children both use is
// paid once. Iterated to a fixpoint like the tree extractor, with a cap on the work.
Selection greedy_selection(const EGraph& egraph, const CostProfile& profile, std::size_t size) {
  struct Entry {
    Uses uses;
    Cost tree = Cost::infinite();
    Cost score = Cost::infinite();
  };
  std::vector<Entry> best(size);
  Selection selection(size, nullptr);
  const std::vector<ClassId> ids = egraph.class_ids();
  std::size_t work = 0;
  constexpr std::size_t kMaxWork = 20'000'000;
  constexpr int kMaxPasses = 64;
  Uses merged, scratch;
  for (int pass = 0; pass < kMaxPasses && work < kMaxWork; ++pass) {
    bool changed = false;
    for (ClassId id : ids) {
      Entry& entry = best[id.value];
      for (const ENode& node : egraph.eclass(id).nodes) {
        const Cost own = profile.op_cost(node.op, node.dtype);
        if (own.is_infinite()) continue;
        Cost tree = own;
        merged.clear();
        bool feasible = true;
        for (ClassId child : node.children) {
          const Entry& c = best[egraph.find(child).value];
          if (c.score.is_infinite()) {
            feasible = false;
            break;
          }
          tree = tree + c.tree;
          scratch.clear();
          std::set_union(merged.begin(), merged.end(), c.uses.begin(), c.uses.end(), std::back_inserter(scratch),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
          merged.swap(scratch);
          work += merged.size();
        }
        if (!feasible) continue;
        auto at = std::lower_bound(merged.begin(), merged.end(), std::make_pair(id.value, Cost(0)),
                                   [](const auto& a, const auto& b) { return a.first < b.first; });
        if (at != merged.end() && at->first == id.value) continue;  // uses itself: a cycle
        merged.insert(at, {id.value, own});
        Cost dag(0);
        for (const auto& [cls, price] : merged) dag = dag + price;
        const Cost score = profile.weigh(tree, dag);
        if (score < entry.score) {
          entry = Entry{merged, tree, score};
          selection[id.value] = &node;
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
  return selection;
}

// Branch and bound over the selections of the classes reachable from the root.
class Search {
 public:
  Search(const EGraph& egraph, const CostProfile& profile, const TreeExtractor& tree, ClassId root, std::size_t size,
         std::size_t budget)
      : egraph_(egraph), profile_(profile), root_(egraph.find(root)), budget_(budget) {
    choice_.assign(size, nullptr);
    candidates_.resize(size);
    min_price_.assign(size, Cost::infinite());
    stamp_.assign(size, 0);
    pending_flag_.assign(size, false);
    for (ClassId id : egraph.class_ids()) {
      std::vector<const ENode*>& nodes = candidates_[id.value];
      for (const ENode& node : egraph.eclass(id).nodes) {
        if (!tree.node_cost(node).is_infinite()) nodes.push_back(&node);
      }
      // The tree extractor's order: cheapest term first, then smaller, then node order
      // (the class's nodes are sorted by node order already, and the sort is stable).
      auto key = [&](const ENode* n) {
        uint64_t size_of = 1;
        for (ClassId child : n->children) size_of += tree.size(child);
        return std::make_pair(tree.node_cost(*n), size_of);
      };
      std::stable_sort(nodes.begin(), nodes.end(), [&](const ENode* a, const ENode* b) { return key(a) < key(b); });
      for (const ENode* n : nodes) min_price_[id.value] = std::min(min_price_[id.value], price(*n));
    }
  }

  // Number of classes reachable from the root through any candidate node.
  std::size_t reachable() const {
    std::vector<bool> seen(choice_.size(), false);
    std::vector<uint32_t> stack = {root_.value};
    seen[root_.value] = true;
    std::size_t count = 0;
    while (!stack.empty()) {
      uint32_t c = stack.back();
      stack.pop_back();
      ++count;
      for (const ENode* n : candidates_[c]) {
        for (ClassId child : n->children) {
          uint32_t v = egraph_.find(child).value;
          if (!seen[v]) {
            seen[v] = true;
            stack.push_back(v);
          }
        }
      }
    }
    return count;
  }

  // Improves on `best` (weighted cost `best_cost`); returns whether the whole space was
  // searched.
  bool run(Selection& best, SelectionCost& best_cost, bool& improved) {
    best_ = &best;
    best_cost_ = &best_cost;
    improved_ = &improved;
    add_pending(root_.value);
    descend();
    return !exhausted_;
  }

  std::size_t steps() const { return steps_; }

 private:
  Cost price(const ENode& node) const { return profile_.op_cost(node.op, node.dtype); }

  void add_pending(uint32_t c) {
    pending_.insert(c);
    pending_flag_[c] = true;
    pending_price_ = pending_price_ + min_price_[c];
  }
  void remove_pending(uint32_t c) {
    pending_.erase(c);
    pending_flag_[c] = false;
    pending_price_ = Cost(pending_price_.value() - min_price_[c].value());
  }

  // Whether choosing `node` for class `c` closes a cycle through the decided classes.
  bool closes_cycle(uint32_t c, const ENode& node) {
    ++current_stamp_;
    std::vector<uint32_t> stack;
    for (ClassId child : node.children) stack.push_back(egraph_.find(child).value);
    while (!stack.empty()) {
      uint32_t x = stack.back();
      stack.pop_back();
      if (x == c) return true;
      if (stamp_[x] == current_stamp_) continue;
      stamp_[x] = current_stamp_;
      if (const ENode* chosen = choice_[x]) {
        for (ClassId child : chosen->children) stack.push_back(egraph_.find(child).value);
      }
    }
    return false;
  }

  void descend() {
    if (exhausted_) return;
    if (++steps_ > budget_) {
      exhausted_ = true;
      return;
    }
    if (pending_.empty()) {
      SelectionCost cost = selection_cost(egraph_, profile_, choice_, root_);
      if (cost.usable && cost.weighted < best_cost_->weighted) {
        *best_ = choice_;
        *best_cost_ = cost;
        *improved_ = true;
      }
      return;
    }
    const uint32_t c = *pending_.begin();
    remove_pending(c);
    std::vector<uint32_t> added;
    for (const ENode* node : candidates_[c]) {
      if (closes_cycle(c, *node)) continue;
      // Every pending class still needs a node of at least its cheapest price, and the
      // tree cost is at least the DAG cost: a lower bound on any completion.
      added.clear();
      Cost bound = decided_price_ + price(*node) + pending_price_;
      for (ClassId child : node->children) {
        const uint32_t v = egraph_.find(child).value;
        if (choice_[v] || pending_flag_[v] || std::find(added.begin(), added.end(), v) != added.end()) continue;
        added.push_back(v);
        bound = bound + min_price_[v];
      }
      if (profile_.weigh(bound, bound) >= best_cost_->weighted) continue;
      choice_[c] = node;
      decided_price_ = decided_price_ + price(*node);
      for (uint32_t v : added) add_pending(v);
      descend();
      for (uint32_t v : added) remove_pending(v);
      decided_price_ = Cost(decided_price_.value() - price(*node).value());
      choice_[c] = nullptr;
      if (exhausted_) break;
    }
    add_pending(c);
  }

  const EGraph& egraph_;
  const CostProfile& profile_;
  const ClassId root_;
  const std::size_t budget_;
  Selection choice_;
  std::vector<std::vector<const ENode*>> candidates_;
  std::vector<Cost> min_price_;
  std::set<uint32_t> pending_;
  std::vector<bool> pending_flag_;
  Cost pending_price_{0};
  Cost decided_price_{0};
  std::vector<uint32_t> stamp_;
  uint32_t current_stamp_ = 0;
  std::size_t steps_ = 0;
  bool exhausted_ = false;
  Selection* best_ = nullptr;
  SelectionCost* best_cost_ = nullptr;
  bool* improved_ = nullptr;
};

}  // namespace

DagExtracted extract_dag(const EGraph& egraph, const CostProfile& profile, ClassId root, const DagOptions& options) {
  TreeExtractor tree(egraph, profile);
  DagExtracted result;
  const std::size_t size = tree.selection().size();
  result.selection = tree.selection();
  result.cost = selection_cost(egraph, profile, result.selection, root);
  if (!result.cost.usable) {
    result.optimal = true;  // nothing finite to choose from
    return result;
  }
  if (profile.weights().dag == 0) {
    result.optimal = true;  // the tree extractor minimizes the tree cost exactly
  } else {
    Selection greedy = greedy_selection(egraph, profile, size);
    SelectionCost greedy_cost = selection_cost(egraph, profile, greedy, root);
    if (greedy_cost.usable && greedy_cost.weighted < result.cost.weighted) {
      result.selection = std::move(greedy);
      result.cost = greedy_cost;
      result.method = "greedy";
    }
    // Every finite cost is at least 0: a zero-cost answer needs no search.
    if (result.cost.weighted == Cost(0)) {
      result.optimal = true;
    } else {
      Search search(egraph, profile, tree, root, size, options.search_budget);
      if (search.reachable() <= options.exact_class_limit) {
        bool improved = false;
        result.optimal = search.run(result.selection, result.cost, improved);
        if (improved) result.method = "search";
        result.search_steps = search.steps();
      }
    }
  }
  result.expr = selection_expr(egraph, result.selection, root);
  return result;
}

}  // namespace eqsat
