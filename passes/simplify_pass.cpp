#include "passes/simplify_pass.h"

#include <climits>
#include <unordered_map>
#include <unordered_set>

#include "extract/expr_cost.h"
#include "ir/fold.h"
#include "ir/print.h"
#include "passes/dead_code.h"
#include "passes/function_index.h"
#include "passes/scoped_facts.h"

namespace eqsat {

SimplifyPassStats& SimplifyPassStats::operator+=(const SimplifyPassStats& o) {
  expressions_changed += o.expressions_changed;
  branches_folded += o.branches_folded;
  loops_folded += o.loops_folded;
  statements_removed += o.statements_removed;
  slots_pruned += o.slots_pruned;
  return *this;
}

namespace {

Expr index_const(Int v) { return Expr::constant(Value::integer(DType::Index, v)); }
Expr boolean(Op op, Expr a, Expr b) { return Expr::make(op, DType::Bool, {std::move(a), std::move(b)}); }

bool mentions_any(const Term& t, const std::function<bool(const std::string&)>& pred) {
  bool any = false;
  for_each_name(t, [&](const std::string& n) { any = any || pred(n); });
  return any;
}

class SimplifyVisitor {
 public:
  SimplifyVisitor(const Function& f, std::span<const Rewrite> rules, const SimplifyPassOptions& options,
                  SimplifyPassStats& stats)
      : f_(f), index_(f), rules_(rules), options_(options), stats_(stats) {
    static const CostProfile kUnit = CostProfile::unit();
    costs_ = options.expr.costs ? options.expr.costs : &kUnit;
  }

  Function run() {
    Function out = f_;
    for (Param& p : out.params) {
      if (p.type.is_shaped()) shaped_.insert(p.name);
      p.type = fold_type(p.type);
    }
    if (out.result) out.result = fold_type(*out.result);
    region_end_ = INT_MAX;
    out.body.clear();
    visit_block(f_.body, out.body);
    return out;
  }

 private:
  bool folds_control() const { return !options_.constants_only; }

  // ---- expressions ----
  Expr substitute(const Expr& e) {
    if (e.op() == Op::Var) {
      if (const Expr* c = facts_.constant(e.name()); c && c->dtype() == e.dtype()) return *c;
      if (const Term* a = facts_.alias(e.name())) {
        if (a->kind == TermKind::Arith && a->expr.dtype() == e.dtype()) return a->expr;
        if (a->kind == TermKind::Name) return Expr::var(a->name, e.dtype());
      }
      return e;
    }
    if (e.args().empty()) return e;
    std::vector<Expr> args;
    bool changed = false;
    for (const Expr& a : e.args()) {
      args.push_back(substitute(a));
      changed = changed || args.back() != a;
    }
    return changed ? Expr::make(e.op(), e.dtype(), std::move(args)) : e;
  }

  static Expr fold_constants(const Expr& e) {
    if (e.args().empty()) return e;
    std::vector<Expr> args;
    std::vector<Value> values;
    bool changed = false;
    for (const Expr& a : e.args()) {
      args.push_back(fold_constants(a));
      changed = changed || args.back() != a;
      if (args.back().is_const()) values.push_back(args.back().value());
    }
    if (values.size() == args.size()) {
      if (std::optional<Value> v = fold(e.op(), e.dtype(), values)) return Expr::constant(*v);
    }
    return changed ? Expr::make(e.op(), e.dtype(), std::move(args)) : e;
  }

  Interval interval_of_expr(const Expr& e) const {
    if (is_float(e.dtype())) return Interval::all();
    switch (e.op()) {
      case Op::Const:
        return Interval::point(e.value().i);
      case Op::Var: {
        if (const Interval* i = facts_.interval(e.name())) return i->intersect(Interval::of_dtype(e.dtype()));
        return Interval::of_dtype(e.dtype());
      }
      default:
        break;
    }
    std::vector<Interval> args;
    for (const Expr& a : e.args()) args.push_back(interval_of_expr(a));
    const DType operand = e.op() == Op::Select ? e.arg(1).dtype() : e.arg(0).dtype();
    return interval_of(e.op(), e.dtype(), operand, args);
  }

  // The facts about the names of `e`: their intervals and the assumptions that mention them.
  Facts facts_for(const Expr& e, std::string& key) {
    Facts facts;
    std::unordered_set<std::string> names;
    for_each_name(e, [&](const std::string& n) {
      if (!names.insert(n).second) return;
      if (const Interval* i = facts_.interval(n)) {
        facts.bounds[n] = *i;
        key += "|" + n + "=" + i->to_string();
      }
    });
    for (const Expr& a : facts_.assumptions()) {
      bool relevant = false;
      for_each_name(a, [&](const std::string& n) { relevant = relevant || names.count(n) > 0; });
      if (relevant) {
        facts.assumptions.push_back(a);
        key += "|" + print(a);
      }
    }
    return facts;
  }

  Expr fold_expr(const Expr& e, bool evaluate = true) {
    Expr s = substitute(e);
    if (evaluate) s = fold_constants(s);
    if (evaluate && !options_.constants_only && !s.args().empty()) s = rewrite(s);
    if (s != e && counting_) ++stats_.expressions_changed;
    return s;
  }

  // The cheapest equal form under the facts, when strictly cheaper than `e` (so that a
  // second run keeps what the first chose).
  Expr rewrite(const Expr& e) {
    std::string key = print(e);
    for_each_name(e, [&](const std::string& n) {
      if (n.size() < 64) key += "," + n;
    });
    Facts facts = facts_for(e, key);
    key += "#" + std::string(dtype_name(e.dtype()));
    // The printed text does not show variable dtypes: add them.
    for_each_name(e, [&](const std::string& n) { key += ";" + n; });
    std::string typed_key = key;
    collect_var_dtypes(e, typed_key);
    if (auto it = cache_.find(typed_key); it != cache_.end()) return it->second;
    SimplifyResult r = simplify_expr(e, facts, rules_, options_.expr);
    Expr best = e;
    if (r.output.valid() && r.output.dtype() == e.dtype() && !r.cost.is_infinite() &&
        r.cost < expr_cost(e, *costs_).weighted) {
      best = r.output;
    }
    cache_.emplace(std::move(typed_key), best);
    return best;
  }

  static void collect_var_dtypes(const Expr& e, std::string& key) {
    if (e.op() == Op::Var) {
      key += ":" + std::string(dtype_name(e.dtype()));
      return;
    }
    for (const Expr& a : e.args()) collect_var_dtypes(a, key);
  }

  // Whether the facts decide `condition` true (a question the pass asks, not an
  // expression of the function: not counted as a change).
  bool proves(const Expr& condition) {
    counting_ = false;
    Expr r = fold_expr(condition);
    counting_ = true;
    return r.is_const() && r.dtype() == DType::Bool && r.value().i == 1;
  }

  Term fold_term(const Term& t, bool evaluate = true) {
    if (t.kind == TermKind::Arith && !t.expr.valid()) return t;  // a statement without a value
    return map_term(
        t, [&](const Expr& e) { return Term::arith(fold_expr(e, evaluate)); },
        [&](const std::string& n) {
          if (const Term* a = facts_.alias(n)) return *a;
          return Term::opaque_name(n);
        });
  }

  std::vector<Keyword> fold_keywords(const std::vector<Keyword>& kws, bool evaluate = true) {
    std::vector<Keyword> out = kws;
    for (Keyword& kw : out) kw.value = fold_term(kw.value, evaluate);
    return out;
  }

  Type fold_type(const Type& type, bool evaluate = true) {
    return map_type_exprs(type, [&](const Expr& e) { return fold_expr(e, evaluate); });
  }

  // ---- bindings ----
  bool stable(const std::string& name) const { return !index_.multi_assigned(name); }

  bool is_scalar_value(const Term& v) const {
    if (v.kind != TermKind::Arith) return false;
    bool shaped = false;
    for_each_name(v.expr, [&](const std::string& n) { shaped = shaped || shaped_.count(n) > 0; });
    return !shaped;
  }

  // What an assignment `name = value` (value already folded) tells the later uses.
  void bind_assignment(const std::string& name, const std::optional<Type>& annotation, const Term& value) {
    const bool scalar = annotation ? annotation->is_scalar() : is_scalar_value(value);
    if (annotation ? annotation->is_shaped() : (value.kind == TermKind::Arith && !scalar)) shaped_.insert(name);
    if (!stable(name)) {
      facts_.forget(name);
      return;
    }
    const bool plain_var =
        (value.kind == TermKind::Arith && value.expr.op() == Op::Var) || value.kind == TermKind::Name;
    if (value.kind == TermKind::Arith && scalar && value.expr.is_const()) {
      facts_.bind_constant(name, value.expr);
    } else if (plain_var && !options_.constants_only && !annotation &&
               !mentions_any(value, [&](const std::string& n) { return !stable(n); })) {
      facts_.bind_alias(name, value);  // copy propagation
    } else if (value.kind == TermKind::Arith && scalar && !options_.constants_only && is_integer(value.expr.dtype())) {
      const Interval range = interval_of_expr(value.expr);
      if (range.is_all() || range == Interval::of_dtype(value.expr.dtype())) {
        facts_.forget(name);
      } else {
        facts_.bind_interval(name, range);
      }
    } else {
      facts_.forget(name);
    }
  }

  void emit_assign(const std::string& name, const Term& value, Block& out) {
    Stmt a;
    a.kind = StmtKind::Assign;
    a.targets = {name};
    a.value = value;
    bind_assignment(name, std::nullopt, value);
    out.push_back(std::move(a));
  }

  // A folded `if` or loop gives `result` the value `value`: uses read the value when
  // they all lie after the statement in the current region (so the substitution reaches
  // them all); otherwise the value is assigned where the statement was.
  void give_result(const std::string& result, const Term& value, const Stmt& at, Block& out) {
    const std::optional<StmtSpan> span = index_.span(at);
    const bool substitutable = span && stable(result) && index_.used_only_within(result, span->end, region_end_) &&
                               !mentions_any(value, [&](const std::string& n) { return !stable(n); });
    if (substitutable) {
      facts_.bind_alias(result, value);
    } else {
      emit_assign(result, value, out);
    }
  }

  // Branch conditions as facts: the condition itself, and intervals of the names it
  // compares with constants. Only about names the statement does not redefine.
  void assume(const Expr& condition, bool holds, const Stmt& at) {
    if (options_.constants_only) return;
    const std::optional<StmtSpan> span = index_.span(at);
    if (!span) return;
    bool usable = true;
    for_each_name(condition, [&](const std::string& n) {
      usable = usable && stable(n) && shaped_.count(n) == 0 && !index_.defined_within(n, *span);
    });
    if (!usable) return;
    facts_.assume(holds ? condition : Expr::make(Op::Not, DType::Bool, {condition}));
    narrow(condition, holds);
  }

  void narrow(const Expr& c, bool holds) {
    if (c.op() == Op::Not) return narrow(c.arg(0), !holds);
    if ((c.op() == Op::And && holds) || (c.op() == Op::Or && !holds)) {
      narrow(c.arg(0), holds);
      narrow(c.arg(1), holds);
      return;
    }
    if (!is_comparison(c.op()) || !is_integer(c.arg(0).dtype())) return;
    Op op = holds ? c.op() : negated_comparison(c.op());
    Expr var = c.arg(0), k = c.arg(1);
    if (var.is_const()) {
      std::swap(var, k);
      op = mirrored_comparison(op);
    }
    if (var.op() != Op::Var || !k.is_const()) return;
    const Int v = k.value().i;
    // v - 1 and v + 1 are checked: a literal may sit at the edge of the 128-bit range.
    const std::optional<Int> below = checked_sub(v, 1), above = checked_add(v, 1);
    Interval range;
    switch (op) {
      case Op::Lt:
        if (!below) return;
        range = Interval::range(std::nullopt, *below);
        break;
      case Op::Le:
        range = Interval::range(std::nullopt, v);
        break;
      case Op::Gt:
        if (!above) return;
        range = Interval::range(*above, std::nullopt);
        break;
      case Op::Ge:
        range = Interval::range(v, std::nullopt);
        break;
      case Op::Eq:
        range = Interval::point(v);
        break;
      default:
        return;
    }
    facts_.narrow(var.name(), range);
  }

  // ---- statements ----
  void visit_block(const Block& in, Block& out) {
    for (const Stmt& s : in) visit(s, out);
  }

  // A nested region: its bindings are undone on exit.
  Block visit_region(const Block& in, const Stmt& owner, bool evaluate = true) {
    const std::size_t mark = facts_.mark();
    const int saved_end = region_end_;
    const std::optional<StmtSpan> span = index_.span(owner);
    region_end_ = span ? span->end : -1;
    Block out;
    if (evaluate) {
      visit_block(in, out);
    } else {
      for (const Stmt& s : in) out.push_back(rename_only(s));
    }
    region_end_ = saved_end;
    facts_.restore(mark);
    return out;
  }

  // An unreachable arm that has to stay: references are substituted, nothing evaluated.
  Stmt rename_only(const Stmt& s) {
    Stmt r = s;
    r.value = fold_term(s.value, false);
    if (s.annotation) r.annotation = fold_type(*s.annotation, false);
    if (s.kind == StmtKind::For) {
      r.start = fold_expr(s.start, false);
      r.stop = fold_expr(s.stop, false);
      r.step = fold_expr(s.step, false);
    }
    r.attrs = fold_keywords(s.attrs, false);
    for (Carried& c : r.carried) c.init = fold_term(c.init, false);
    for (Term& v : r.values) v = fold_term(v, false);
    r.body.clear();
    r.orelse.clear();
    for (const Stmt& b : s.body) r.body.push_back(rename_only(b));
    for (const Stmt& b : s.orelse) r.orelse.push_back(rename_only(b));
    return r;
  }

  void visit(const Stmt& s, Block& out) {
    switch (s.kind) {
      case StmtKind::Assign:
        return visit_assign(s, out);
      case StmtKind::If:
        return visit_if(s, out);
      case StmtKind::For:
        return visit_for(s, out);
      case StmtKind::While:
        return visit_while(s, out);
      case StmtKind::Scope: {
        Stmt r = s;
        r.attrs = fold_keywords(s.attrs);
        r.body = visit_region(s.body, s);
        out.push_back(std::move(r));
        return;
      }
      case StmtKind::Eval:
      case StmtKind::Yield:
      case StmtKind::Return:
      case StmtKind::Pass: {
        Stmt r = s;
        r.value = fold_term(s.value);
        for (Term& v : r.values) v = fold_term(v);
        out.push_back(std::move(r));
        return;
      }
    }
  }

  void visit_assign(const Stmt& s, Block& out) {
    Stmt r = s;
    if (s.annotation) r.annotation = fold_type(*s.annotation);
    r.value = fold_term(s.value);
    if (r.targets.size() == 1) {
      bind_assignment(r.targets[0], r.annotation, r.value);
    } else {
      for (const std::string& t : r.targets) facts_.forget(t);
    }
    out.push_back(std::move(r));
  }

  static bool yields(const Block& b) { return !b.empty() && b.back().kind == StmtKind::Yield; }

  static bool yield_calls(const Block& b) {
    if (!yields(b)) return false;
    for (const Term& v : b.back().values) {
      if (contains_call(v)) return true;
    }
    return false;
  }

  // The statements of an arm or a one-trip body, lifted into the current region; its
  // trailing yield gives the results of `owner`.
  void lift(const Block& body, const Stmt& owner, Block& out) {
    const std::size_t n = yields(body) ? body.size() - 1 : body.size();
    for (std::size_t i = 0; i < n; ++i) visit(body[i], out);
    if (!yields(body)) return;
    const Stmt& y = body.back();
    for (std::size_t k = 0; k < owner.results.size() && k < y.values.size(); ++k) {
      give_result(owner.results[k], fold_term(y.values[k]), owner, out);
    }
  }

  void visit_if(const Stmt& s, Block& out) {
    Stmt r = s;
    r.value = fold_term(s.value);
    const bool decided =
        folds_control() && r.value.is_arith() && r.value.expr.is_const() && r.value.expr.dtype() == DType::Bool;
    if (decided) {
      const bool taken = r.value.expr.value().i == 1;
      const Block& kept = taken ? s.body : s.orelse;
      if (!s.results.empty() && yield_calls(kept)) {
        // A call in the yielded value: lifting it would move it; keep the `if`, and leave
        // the dead arm unevaluated (a division by zero there is no error).
        (taken ? r.body : r.orelse) = visit_region(kept, s);
        (taken ? r.orelse : r.body) = visit_region(taken ? s.orelse : s.body, s, false);
        for (const std::string& res : s.results) facts_.forget(res);
        out.push_back(std::move(r));
        return;
      }
      ++stats_.branches_folded;
      lift(kept, s, out);
      return;
    }
    const bool condition = r.value.is_arith() && r.value.expr.dtype() == DType::Bool;
    {
      const std::size_t mark = facts_.mark();
      if (condition) assume(r.value.expr, true, s);
      r.body = visit_region(s.body, s);
      facts_.restore(mark);
    }
    {
      const std::size_t mark = facts_.mark();
      if (condition) assume(r.value.expr, false, s);
      r.orelse = visit_region(s.orelse, s);
      facts_.restore(mark);
    }
    for (const std::string& res : s.results) facts_.forget(res);
    out.push_back(std::move(r));
  }

  void visit_while(const Stmt& s, Block& out) {
    Stmt r = s;
    for (Carried& c : r.carried) c.init = fold_term(c.init);
    const std::size_t mark = facts_.mark();
    for (const Carried& c : s.carried) facts_.forget(c.name);
    r.value = fold_term(s.value);
    r.body = visit_region(s.body, s);
    facts_.restore(mark);
    for (const std::string& res : s.results) facts_.forget(res);
    out.push_back(std::move(r));
  }

  // The loop variable's range while visiting the body: [lower(start), upper(stop) - 1],
  // or exactly up to the last value when all three bounds are constants; only for a
  // step proven positive and a variable the body does not assign.
  void bind_loop_range(const Stmt& r, const Stmt& s) {
    const std::optional<StmtSpan> span = index_.span(s);
    if (options_.constants_only || !span || index_.defined_within(s.loop_var, {span->begin + 1, span->end})) {
      facts_.forget(r.loop_var);
      return;
    }
    const Interval step = interval_of_expr(r.step);
    if (!step.lo || *step.lo < 1) {
      facts_.forget(r.loop_var);
      return;
    }
    const Interval start = interval_of_expr(r.start);
    const Interval stop = interval_of_expr(r.stop);
    std::optional<Int> hi;
    if (stop.hi) hi = checked_sub(*stop.hi, 1);
    if (r.start.is_const() && r.stop.is_const() && r.step.is_const() && r.stop.value().i > r.start.value().i) {
      // The last value, start + ((stop - start - 1) // step) * step, in checked arithmetic.
      const Int first = r.start.value().i, by = r.step.value().i;
      std::optional<Int> distance = checked_sub(r.stop.value().i, first);
      if (distance) distance = checked_sub(*distance, 1);
      std::optional<Int> last;
      if (distance) last = checked_mul(*distance / by, by);
      if (last) last = checked_add(first, *last);
      if (last) hi = last;
    }
    facts_.bind_interval(r.loop_var, Interval::range(start.lo, hi));
  }

  void visit_for(const Stmt& s, Block& out) {
    Stmt r = s;
    r.start = fold_expr(s.start);
    r.stop = fold_expr(s.stop);
    r.step = fold_expr(s.step);
    r.attrs = fold_keywords(s.attrs);
    for (Carried& c : r.carried) c.init = fold_term(c.init);
    if (try_fold_loop(s, r, out)) return;
    const std::size_t mark = facts_.mark();
    bind_loop_range(r, s);
    for (const Carried& c : s.carried) facts_.forget(c.name);
    r.body = visit_region(s.body, s);
    facts_.restore(mark);
    for (const std::string& res : s.results) facts_.forget(res);
    facts_.forget(s.loop_var);
    out.push_back(std::move(r));
  }

  // Fold B: a pure sequential loop that runs zero or one times.
  bool try_fold_loop(const Stmt& s, const Stmt& r, Block& out) {
    if (!folds_control() || s.loop_kind != LoopKind::Sequential || !s.attrs.empty()) return false;
    for (const Carried& c : r.carried) {
      if (contains_call(c.init)) return false;
    }
    const std::optional<StmtSpan> span = index_.span(s);
    if (!span) return false;
    if (!proves(boolean(Op::Ge, r.step, index_const(1)))) return false;
    if (proves(boolean(Op::Le, r.stop, r.start))) {
      ++stats_.loops_folded;
      for (std::size_t k = 0; k < s.results.size(); ++k) emit_assign(s.results[k], r.carried[k].init, out);
      return true;
    }
    if (nested_single_trip_ >= options_.max_nested_single_trip) return false;
    const Expr start_plus_step = Expr::make(Op::Add, DType::Index, {r.start, r.step});
    if (!proves(boolean(Op::Lt, r.start, r.stop)) || !proves(boolean(Op::Le, r.stop, start_plus_step))) return false;
    if (yield_calls(s.body)) return false;
    // The body is visited with the loop variable as `start` and each carried variable
    // as its initial value: none of them, nor what those values read, may be assigned
    // in the body.
    const StmtSpan body{span->begin + 1, span->end};
    auto assigned_in_body = [&](const std::string& n) { return index_.defined_within(n, body) || !stable(n); };
    if (index_.defined_within(s.loop_var, body)) return false;
    if (mentions_any(Term::arith(r.start), assigned_in_body)) return false;
    for (const Carried& c : r.carried) {
      if (index_.defined_within(c.name, body) || mentions_any(c.init, assigned_in_body)) return false;
    }
    ++stats_.loops_folded;
    // In Python the loop variable keeps its value after the loop: if it is read there,
    // it is assigned.
    if (!index_.used_only_within(s.loop_var, body.begin, body.end)) emit_assign(s.loop_var, Term::arith(r.start), out);
    const std::size_t before = facts_.mark();
    (void)before;
    if (r.start.is_const()) {
      facts_.bind_constant(s.loop_var, r.start);
    } else {
      facts_.bind_alias(s.loop_var, Term::arith(r.start));
    }
    for (const Carried& c : r.carried) {
      if (c.init.is_arith() && c.init.expr.is_const()) {
        facts_.bind_constant(c.name, c.init.expr);
      } else {
        facts_.bind_alias(c.name, c.init);
      }
    }
    ++nested_single_trip_;
    lift(s.body, s, out);
    --nested_single_trip_;
    facts_.forget(s.loop_var);
    for (const Carried& c : r.carried) facts_.forget(c.name);
    return true;
  }

  const Function& f_;
  FunctionIndex index_;
  std::span<const Rewrite> rules_;
  const SimplifyPassOptions& options_;
  SimplifyPassStats& stats_;
  const CostProfile* costs_ = nullptr;
  ScopedFacts facts_;
  std::unordered_set<std::string> shaped_;
  std::unordered_map<std::string, Expr> cache_;
  int region_end_ = INT_MAX;
  int nested_single_trip_ = 0;
  bool counting_ = true;
};

}  // namespace

Function simplify_function(const Function& function, std::span<const Rewrite> rules, const SimplifyPassOptions& options,
                           SimplifyPassStats* stats) {
  SimplifyPassStats local;
  SimplifyPassStats& s = stats ? *stats : local;
  // The function's own fast-math attribute adds to what the run grants.
  SimplifyPassOptions in_function = options;
  in_function.expr.fast_math |= function.fast_math;
  Function out = SimplifyVisitor(function, rules, in_function, s).run();
  DeadCodeStats dead;
  eliminate_dead_code(out, !options.constants_only, dead);
  s.statements_removed += dead.statements_removed;
  s.slots_pruned += dead.slots_pruned;
  return out;
}

Program simplify_program(const Program& program, std::span<const Rewrite> rules, const SimplifyPassOptions& options,
                         SimplifyPassStats* stats) {
  Program out;
  for (const Function& f : program.functions) out.functions.push_back(simplify_function(f, rules, options, stats));
  return out;
}

}  // namespace eqsat
