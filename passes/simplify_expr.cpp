#include "passes/simplify_expr.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <utility>
#include <vector>

#include "egraph/added_terms.h"
#include "egraph/rewrite_applies.h"
#include "extract/extract.h"
#include "extract/extractor.h"
#include "passes/condition_context.h"
#include "passes/divmod_conjunction.h"
#include "passes/linear_form.h"
#include "passes/minmax_form.h"
#include "passes/stall_watch.h"

namespace eqsat {

namespace {

// Rounds of saturation between which the linear normal forms of the best
// expression so far are added. A round that adds nothing new ends the loop.
constexpr int kLinearRounds = 3;

// The largest e-graph (in e-nodes) whose storage the next case reuses.
constexpr std::size_t kKeptNodes = 1024;

bool is_normalizable(const Expr &expr) {
  switch (expr.op()) {
    case Op::Add:
    case Op::Sub:
    case Op::Mul:
    case Op::Neg:
      return is_integer(expr.dtype());
    case Op::FloorDiv:
    case Op::FloorMod:
    case Op::TruncDiv:
    case Op::TruncMod:
      return expr.dtype() == DType::Index;
    case Op::Eq:
    case Op::Ne:
    case Op::Lt:
    case Op::Le:
    case Op::Gt:
    case Op::Ge:
      return is_integer(expr.arg(0).dtype());
    case Op::And:
    case Op::Or:
      return true;
    default:
      return false;
  }
}

// The questions a pass of the linear forms asked the e-graph about intervals, in
// order, with the answers it got.
using IntervalAnswers = std::vector<std::pair<Expr, Interval>>;

// The normal forms fold by bounds too (BoundsOracle): a subterm's interval is
// its class's, under the facts asserted into the e-graph. A subterm the e-graph
// does not hold yet is added (its interval computed from its children's); the
// normal forms add it anyway. With `answers`, each question and its answer is
// recorded there. The quotient and remainder modes are made when first needed:
// most expressions have no quotient, and a normalizer is not free to make.
class LinearForms {
  // Made before the oracles that refer to it (members are made in declaration order).
  AddedTerms terms_;

 public:
  explicit LinearForms(EGraph &egraph, IntervalAnswers *answers = nullptr)
      : plain(LinearMode::Plain, bounds_in(egraph, terms_, answers)), egraph_(egraph), answers_(answers) {}
  LinearForms(const LinearForms &) = delete;  // the oracles refer to terms_
  LinearForms &operator=(const LinearForms &) = delete;
  // `terms`: the terms asked about are added through it (egraph/added_terms.h), so
  // that the atoms of a chain, each holding the ones below it, cost their new nodes
  // only. It must outlive the oracle.
  static BoundsOracle bounds_in(EGraph &egraph, AddedTerms &terms, IntervalAnswers *answers = nullptr) {
    if (!answers) return [&egraph, &terms](const Expr &expr) { return egraph.data(terms.add(egraph, expr)).interval; };
    return [&egraph, &terms, answers](const Expr &expr) {
      const Interval interval = egraph.data(terms.add(egraph, expr)).interval;
      answers->emplace_back(expr, interval);
      return interval;
    };
  }
  LinearNormalizer &div_form() {
    if (!div_form_) div_form_.emplace(LinearMode::DivForm, bounds_in(egraph_, terms_, answers_));
    return *div_form_;
  }
  LinearNormalizer &mod_form() {
    if (!mod_form_) mod_form_.emplace(LinearMode::ModForm, bounds_in(egraph_, terms_, answers_));
    return *mod_form_;
  }

  LinearNormalizer plain;

 private:
  EGraph &egraph_;
  IntervalAnswers *answers_;
  std::optional<LinearNormalizer> div_form_;
  std::optional<LinearNormalizer> mod_form_;
};

// A quotient or remainder, floor or truncating: the modes of the linear form write
// these differently, and only these.
// Merges the class of every arithmetic subterm and comparison of `expr` (a term
// of the e-graph) with the classes of its linear normal forms. Sets `changed`
// when a class changed; returns whether `expr` holds a quotient or remainder.
// A sum or difference that is an operand of one (`in_sum`: the `a + b` of
// `(a + b) + c`) gets no forms of its own: the outermost one's form covers its
// terms. Forming every prefix of a chain of n terms made n forms of up to n terms
// each, with their e-nodes: a sum of 200 variables took 23 ms and reached the
// 10,000 e-node limit before its first iteration (docs/performance.md, "Nested
// atoms and long sums"). Skipping a form only leaves an equality out, and the
// outputs over every corpus were the same.
bool add_linear_forms(EGraph &egraph, LinearForms &forms, const Expr &expr, bool &changed, bool in_sum = false) {
  bool divmod = is_integer_division(expr.op());
  const bool sum = expr.op() == Op::Add || expr.op() == Op::Sub;
  for (const Expr &arg : expr.args()) {
    divmod = add_linear_forms(egraph, forms, arg, changed, sum && arg.dtype() == expr.dtype()) || divmod;
  }
  if (!is_normalizable(expr)) return divmod;
  if (in_sum && sum) return divmod;
  // The modes differ only in how they write quotients and remainders: a term
  // without one has the same form in each (the same atoms are asked about too),
  // so the plain one is enough. So it is for an and/or chain, combined the same
  // way in every mode.
  const bool plain_only = !divmod || expr.op() == Op::And || expr.op() == Op::Or;
  Expr plain_form = expr;
  for (LinearMode mode : {LinearMode::Plain, LinearMode::DivForm, LinearMode::ModForm}) {
    if (plain_only && mode != LinearMode::Plain) break;
    LinearNormalizer &normalizer = mode == LinearMode::Plain     ? forms.plain
                                   : mode == LinearMode::DivForm ? forms.div_form()
                                                                 : forms.mod_form();
    Expr normal = normalizer.normalize(expr);
    if (mode == LinearMode::Plain) plain_form = normal;
    if (normal == expr) continue;
    ClassId original = egraph.add_expr(expr);
    ClassId normalized = egraph.add_expr(normal);
    changed = egraph.merge(original, normalized) || changed;
  }
  // A sum with one quotient also as that quotient, the other terms moved into its
  // numerator (LinearNormalizer::as_one_quotient), where they may cancel: only when it
  // is no larger than the plain form. A larger one would only give the rules more to
  // rewrite (`x // 3 + y` as `(y * 3 + x) // 3` took halide-0176 from 118 to 188 us).
  if (divmod && sum) {
    Expr pulled = forms.plain.as_one_quotient(expr);
    if (pulled != expr && pulled.tree_size() <= plain_form.tree_size()) {
      changed = egraph.merge(egraph.add_expr(expr), egraph.add_expr(pulled)) || changed;
    }
  }
  return divmod;
}

// An expression whose linear forms are in the e-graph, with the interval
// questions their pass asked.
struct LinearFormed {
  Expr expr;
  IntervalAnswers answers;
};

// Returns whether any class changed. `formed` lists the expressions given their
// linear forms before, in this e-graph.
//
// A pass over an expression already given its forms is a function of the
// expression and of the answers to its interval questions. When the e-graph
// still gives every answer that pass got (the same questions are asked, in the
// same order, the same forms come out), it would add only terms the e-graph
// holds and merge only classes already merged: it is skipped. Asking again adds
// nothing (each question's term is in the e-graph since it was asked). Between
// rounds the best expression is often one already formed (the input itself),
// with intervals the saturation did not narrow.
bool add_linear_forms(EGraph &egraph, const Expr &expr, std::vector<LinearFormed> &formed) {
  auto same = [&](const LinearFormed &f) { return f.expr == expr; };
  auto before = std::find_if(formed.begin(), formed.end(), same);
  if (before != formed.end()) {
    bool unchanged = true;
    AddedTerms terms;
    for (const auto &[question, answer] : before->answers) {
      if (!(egraph.data(terms.add(egraph, question)).interval == answer)) {
        unchanged = false;
        break;
      }
    }
    if (unchanged) return false;
  }
  IntervalAnswers answers;
  bool changed = false;
  {
    LinearForms forms(egraph, &answers);
    add_linear_forms(egraph, forms, expr, changed);
  }
  if (before != formed.end()) {
    before->answers = std::move(answers);
  } else {
    formed.push_back(LinearFormed{expr, std::move(answers)});
  }
  return changed;
}

// Merges the class of `expr` with its form whose subterms decided by their
// conditions are constants (passes/condition_context.h). Returns whether a class
// changed.
bool add_condition_forms(EGraph &egraph, const Facts &facts, const Expr &expr) {
  AddedTerms terms;
  Expr substituted =
      substitute_conditions(expr, facts.assumptions, LinearForms::bounds_in(egraph, terms), egraph.fast_math());
  if (substituted == expr) return false;
  ClassId original = egraph.add_expr(expr);
  ClassId decided = egraph.add_expr(substituted);
  return egraph.merge(original, decided);
}

// Merges the class of `expr` with its form whose conjunctions of quotient and
// remainder comparisons are combined (passes/divmod_conjunction.h). Returns
// whether a class changed.
bool add_divmod_conjunction_forms(EGraph &egraph, const Expr &expr) {
  Expr combined = combine_divmod_conjunctions(expr);
  if (combined == expr) return false;
  return egraph.merge(egraph.add_expr(expr), egraph.add_expr(combined));
}

// Merges the class of `expr` with its form whose INDEX min/max offsets are in
// normal form (passes/minmax_form.h). Returns whether a class changed.
bool add_minmax_forms(EGraph &egraph, const Expr &expr) {
  bool changed = false;
  // Where no constant left a min or max, the Keep form is the MoveOut form.
  bool moved_constant = false;
  for (MinMaxConstants constants : {MinMaxConstants::MoveOut, MinMaxConstants::Keep}) {
    if (constants == MinMaxConstants::Keep && !moved_constant) break;
    Expr normal = normalize_minmax_offsets(expr, constants, &moved_constant);
    if (normal == expr) continue;
    ClassId original = egraph.add_expr(expr);
    ClassId normalized = egraph.add_expr(normal);
    changed = egraph.merge(original, normalized) || changed;
  }
  return changed;
}

void accumulate(RunReport &total, const RunReport &round) {
  total.stop_reason = round.stop_reason;
  total.iterations += round.iterations;
  total.nodes = round.nodes;
  total.classes = round.classes;
  total.seconds += round.seconds;
  for (const auto &[name, count] : round.rule_fires) total.rule_fires[name] += count;
  total.search_seconds += round.search_seconds;
  total.filter_seconds += round.filter_seconds;
  total.apply_seconds += round.apply_seconds;
  total.rebuild_seconds += round.rebuild_seconds;
  total.apply_batch_threads = std::max(total.apply_batch_threads, round.apply_batch_threads);
  total.per_iteration.insert(total.per_iteration.end(), round.per_iteration.begin(), round.per_iteration.end());
}

}  // namespace

SimplifyResult simplify_expr(const Expr &input, const Facts &facts, std::span<const Rewrite> rules,
                             const SimplifyOptions &options) {
  static const CostProfile kUnit = CostProfile::unit();
  const CostProfile &costs = options.costs ? *options.costs : kUnit;

  // One e-graph per thread, cleared between expressions: its tables, union-find and
  // work lists keep their storage, so a batch of small cases does not allocate them
  // anew for each (the e-graph's state is all cleared: results are the same as with a
  // fresh one).
  thread_local EGraph egraph;
  // Clearing costs as much as the storage kept is big (the node table is swept
  // slot by slot): after a case that grew the e-graph past kKeptNodes, every small
  // case that follows would pay for it. A fresh e-graph replaces such a one.
  if (egraph.num_nodes() > kKeptNodes) egraph = EGraph();
  egraph.clear();
  egraph.set_fast_math(options.fast_math);  // before the first node: the totality analysis reads them
  assert_facts(egraph, facts);
  ClassId root = egraph.add_expr(input);
  // Once the root holds a leaf as cheap as any leaf can be, no form is cheaper: every
  // form has a leaf, and no cost is negative. Stopping there matters: a sum of
  // quotients and remainders that folds to `x` in a few iterations lets the rules go
  // on rewriting its pieces up to the time limit.
  Cost cheapest_leaf = Cost::infinite();
  for (int d = 0; d < kNumDTypes; ++d) {
    for (Op leaf : {Op::Var, Op::Const}) cheapest_leaf = std::min(cheapest_leaf, costs.op_cost(leaf, DType(d)));
  }
  // The fast path: a variable or a constant as cheap as any leaf, with nothing known
  // that could make a variable a constant, is its own best form. No normal form and
  // no saturation (the run would stop before its first iteration): extracted from
  // the e-graph built so far, so the output, cost and report are those of the full
  // path.
  if ((input.op() == Op::Var || input.op() == Op::Const) && facts.bounds.empty() && facts.assumptions.empty() &&
      costs.op_cost(input.op(), input.dtype()) == cheapest_leaf) {
    SimplifyResult result;
    result.report.stop_reason = StopReason::Minimal;
    result.report.nodes = egraph.num_nodes();
    result.report.classes = egraph.num_classes();
    Extraction best = extract_best(egraph, costs, root, options.extract);
    result.output = best.expr;
    result.cost = best.cost.weighted;
    result.optimal = best.optimal;
    return result;
  }
  // Normal forms are rewriting too: a run allowed no iteration gets none.
  const bool linear_forms = options.linear_forms && options.limits.max_iterations > 0;
  // The expressions whose linear forms are in the e-graph.
  std::vector<LinearFormed> linear_formed;
  const std::size_t input_nodes = egraph.num_nodes(), input_classes = egraph.num_classes();
  if (linear_forms) {
    add_linear_forms(egraph, input, linear_formed);
    add_condition_forms(egraph, facts, input);
    add_divmod_conjunction_forms(egraph, input);
    add_minmax_forms(egraph, input);
  }
  auto root_is_cheapest = [&](const EGraph &g) {
    for (const ENode &node : g.eclass(g.find(root)).nodes) {
      if ((node.op == Op::Var || node.op == Op::Const) && costs.op_cost(node.op, node.dtype) == cheapest_leaf) {
        return true;
      }
    }
    return false;
  };
  // The rounds share one index of the rules (the caller's, if it has one).
  std::optional<RuleIndex> own_index;
  const RuleIndex *rule_index = options.rule_index;
  if (!rule_index || !rule_index->indexes(rules)) rule_index = &own_index.emplace(rules);
  // The fast path for an expression in its simplest form already: its normal forms
  // added nothing (the e-graph is the input's) and no rule applies anywhere in it, so
  // a run would stop saturated after one iteration that found nothing to apply. When
  // the best term of the root is then the input itself (not, say, the input with the
  // operands of a commutative operation in the extractor's order, whose forms the next
  // round would add), that round adds nothing either: the full path's answer is this
  // extraction. The report says so: saturated, no iteration run.
  if (options.canonical_fast_path && linear_forms && egraph.num_nodes() == input_nodes &&
      egraph.num_classes() == input_classes && egraph.num_nodes() < options.limits.max_nodes &&
      options.limits.max_seconds > 0 && !root_is_cheapest(egraph) &&
      !some_rewrite_applies(egraph, rules, *rule_index, options.fast_math)) {
    const TreeExtractor tree(egraph, costs);
    const Extracted extracted = tree.extract(root);
    if (extracted.expr.valid() && extracted.expr == input) {
      SimplifyResult result;
      result.report.stop_reason = StopReason::Saturated;
      result.report.nodes = egraph.num_nodes();
      result.report.classes = egraph.num_classes();
      const Extraction best = options.extract.kind == ExtractorKind::Tree
                                  ? extract_tree(egraph, costs, tree, root, extracted)
                                  : extract_best(egraph, costs, root, options.extract);
      result.output = best.expr;
      result.cost = best.cost.weighted;
      result.optimal = best.optimal;
      return result;
    }
  }
  // A run also stops once its last iterations did not improve the root
  // (passes/stall_watch.h), reported as stalled.
  StallWatch watch(costs, root, options.limits.max_nodes);
  auto stop = [&](const EGraph &g) { return root_is_cheapest(g) || (options.stop_when_stalled && watch.stalled(g)); };
  // The expressions whose condition and min/max forms are in the e-graph.
  std::vector<Expr> formed = {input};
  // The limits hold for the whole simplification, over all its rounds.
  const auto start = std::chrono::steady_clock::now();
  RunReport report;
  // The tree extractor of the last round, while the e-graph is as it was when it
  // was made (no node added since, no class merged): the final extraction is then
  // read from it rather than computed again.
  std::optional<TreeExtractor> unchanged_since;
  // The root's term read from unchanged_since, when it was (then not built again).
  std::optional<Extracted> extracted_since;
  for (int round = 0;; ++round) {
    RunLimits limits = options.limits;
    limits.max_seconds -= std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    RunReport run = run_rewrites(egraph, rules, limits, {}, options.fast_math, 1, stop, rule_index);
    if (run.stop_reason == StopReason::Minimal && watch.fired()) run.stop_reason = StopReason::Stalled;
    accumulate(report, run);
    if (!linear_forms || round == kLinearRounds || report.stop_reason == StopReason::NodeLimit ||
        report.stop_reason == StopReason::TimeLimit || report.stop_reason == StopReason::Minimal ||
        report.stop_reason == StopReason::Stalled)
      break;
    // The stall watch extracted from this e-graph at the start of a saturated run's
    // last iteration, which changed nothing.
    if (std::optional<TreeExtractor> taken = watch.take_extractor(egraph, run.stop_reason == StopReason::Saturated)) {
      unchanged_since.emplace(std::move(*taken));
    } else {
      unchanged_since.emplace(egraph, costs);
    }
    const std::size_t nodes = egraph.num_nodes();
    Extracted best = unchanged_since->extract(root);
    // Invalid when the profile forbids every form of the root: nothing to normalize.
    if (!best.expr.valid()) break;
    const bool linear_changed = add_linear_forms(egraph, best.expr, linear_formed);
    // The condition, conjunction and min/max forms are functions of the expression
    // (and the facts) alone: for one already given them (often the input itself is
    // still the best), they would add and merge only what is there.
    bool conditions_changed = false;
    bool conjunctions_changed = false;
    bool minmax_changed = false;
    if (std::find(formed.begin(), formed.end(), best.expr) == formed.end()) {
      conditions_changed = add_condition_forms(egraph, facts, best.expr);
      conjunctions_changed = add_divmod_conjunction_forms(egraph, best.expr);
      minmax_changed = add_minmax_forms(egraph, best.expr);
      formed.push_back(best.expr);
    }
    // Nothing merged and, when no node was added either, the e-graph is the one
    // extracted from.
    if (!linear_changed && !conditions_changed && !conjunctions_changed && !minmax_changed) {
      if (egraph.num_nodes() != nodes) {
        unchanged_since.reset();
      } else {
        extracted_since.emplace(std::move(best));
      }
      break;
    }
    unchanged_since.reset();
    egraph.rebuild();
  }

  Extraction best = !unchanged_since || options.extract.kind != ExtractorKind::Tree
                        ? extract_best(egraph, costs, root, options.extract)
                    : extracted_since ? extract_tree(egraph, costs, *unchanged_since, root, *extracted_since)
                                      : extract_tree(egraph, costs, *unchanged_since, root);
  return SimplifyResult{best.expr, best.cost.weighted, best.optimal, std::move(report)};
}

}  // namespace eqsat
