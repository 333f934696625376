#include "passes/lower_pipeline.h"

#include <map>
#include <set>

#include "passes/pass_manager.h"

namespace eqsat {

namespace {

using Renames = std::map<std::string, std::string>;

void collect_names(const Block& b, std::set<std::string>& names) {
  for (const Stmt& s : b) {
    for_each_definition(s, [&](const std::string& n) { names.insert(n); });
    for_each_read(s, [&](const std::string& n) { names.insert(n); });
    collect_names(s.body, names);
    collect_names(s.orelse, names);
  }
}

void collect_definitions(const Block& b, std::set<std::string>& names) {
  for (const Stmt& s : b) {
    for_each_definition(s, [&](const std::string& n) { names.insert(n); });
    collect_definitions(s.body, names);
    collect_definitions(s.orelse, names);
  }
}

// Names the body reads before it defines them (in program order): their value comes
// from the previous iteration or from before the loop, so a replica must not rename
// them (`acc = matmul_acc(acc, ...)` accumulates across replicas).
void collect_live_in(const Block& b, std::set<std::string>& defined, std::set<std::string>& live_in) {
  for (const Stmt& s : b) {
    for_each_read(s, [&](const std::string& n) {
      if (!defined.count(n)) live_in.insert(n);
    });
    if (s.kind != StmtKind::Assign) for_each_definition(s, [&](const std::string& n) { defined.insert(n); });
    collect_live_in(s.body, defined, live_in);
    collect_live_in(s.orelse, defined, live_in);
    for_each_definition(s, [&](const std::string& n) { defined.insert(n); });
  }
}

// Substitutes `index` (an INDEX expression) for the loop variable and renames names.
class Replicator {
 public:
  Replicator(std::string loop_var, Expr index, Renames renames)
      : loop_var_(std::move(loop_var)), index_(std::move(index)), renames_(std::move(renames)) {}

  Block block(const Block& b) {
    Block out;
    for (const Stmt& s : b) out.push_back(stmt(s));
    return out;
  }

 private:
  std::string name(const std::string& n) const {
    auto it = renames_.find(n);
    return it == renames_.end() ? n : it->second;
  }

  Expr expr(const Expr& e) const {
    if (e.op() == Op::Var) {
      if (e.name() == loop_var_ && e.dtype() == DType::Index) return index_;
      return Expr::var(name(e.name()), e.dtype());
    }
    if (e.args().empty()) return e;
    std::vector<Expr> args;
    for (const Expr& a : e.args()) args.push_back(expr(a));
    return Expr::make(e.op(), e.dtype(), std::move(args));
  }

  Term term(const Term& t) const {
    return map_term(
        t, [&](const Expr& e) { return Term::arith(expr(e)); },
        [&](const std::string& n) { return Term::opaque_name(name(n)); });
  }

  Stmt stmt(const Stmt& s) {
    Stmt r = s;
    r.line = 0;
    for (std::string& t : r.targets) t = name(t);
    r.value = term(s.value);
    if (s.annotation) r.annotation = map_type_exprs(*s.annotation, [&](const Expr& e) { return expr(e); });
    if (s.kind == StmtKind::For) {
      r.start = expr(s.start);
      r.stop = expr(s.stop);
      r.step = expr(s.step);
      r.loop_var = name(s.loop_var);
    }
    for (Keyword& kw : r.attrs) kw.value = term(kw.value);
    for (Carried& c : r.carried) {
      c.name = name(c.name);
      c.init = term(c.init);
    }
    for (std::string& res : r.results) res = name(res);
    for (Term& v : r.values) v = term(v);
    r.body = block(s.body);
    r.orelse = block(s.orelse);
    return r;
  }

  std::string loop_var_;
  Expr index_;
  Renames renames_;
};

std::optional<Int> constant_of(const Expr& e) {
  if (!e.is_const() || e.dtype() != DType::Index) return std::nullopt;
  return e.value().i;
}

std::optional<Int> stage_of(const Stmt& s) {
  for (const Keyword& kw : s.attrs) {
    if (kw.name == "stage" && kw.value.is_arith()) return constant_of(kw.value.expr);
  }
  return std::nullopt;
}

Expr index_const(Int v) { return Expr::constant(Value::integer(DType::Index, v)); }

class PipelineLowering {
 public:
  PipelineLowering(const Function& f, LowerPipelineStats& stats) : stats_(stats) {
    for (const Param& p : f.params) taken_.insert(p.name);
    collect_names(f.body, taken_);
  }

  Block block(const Block& b) {
    Block out;
    for (const Stmt& s : b) lower(s, out);
    return out;
  }

 private:
  std::string fresh(const std::string& base, Int k) {
    std::string candidate = base + "_" + to_string(k);
    for (int n = 2; taken_.count(candidate); ++n) candidate = base + "_" + to_string(k) + "_" + std::to_string(n);
    taken_.insert(candidate);
    return candidate;
  }

  void lower(const Stmt& s, Block& out) {
    Stmt r = s;
    r.body = block(s.body);
    r.orelse = block(s.orelse);
    if (r.kind != StmtKind::For || r.loop_kind != LoopKind::Pipeline || !replicate(r, out)) out.push_back(std::move(r));
  }

  // The replicated loop and its tail, appended to `out`; false when `s` is kept.
  bool replicate(const Stmt& s, Block& out) {
    const std::optional<Int> start = constant_of(s.start), stop = constant_of(s.stop), step = constant_of(s.step);
    const std::optional<Int> stage = stage_of(s);
    if (!start || !stop || !step || !stage || *step < 1 || *stage < 1) return false;
    // In 128 bits: trips = ceil((stop - start) / step), main_stop = start + (trips // F) * F * step.
    const Int kLimit = Int(1) << 100;  // far inside the 128-bit range: no product below overflows
    if (*start > kLimit || *start < -kLimit || *stop > kLimit || *stop < -kLimit || *step > kLimit || *stage > kLimit)
      return false;
    const Int span = *stop > *start ? *stop - *start : 0;
    const Int trips = (span + *step - 1) / *step;
    const Int groups = trips / *stage;
    const std::optional<Int> group_step = checked_mul(*stage, *step);
    if (!group_step) return false;
    const std::optional<Int> covered = checked_mul(groups, *group_step);
    if (!covered) return false;
    const Int main_stop = *start + *covered;

    std::set<std::string> defined, seen, live_in;
    collect_definitions(s.body, defined);
    collect_live_in(s.body, seen, live_in);
    defined.erase(s.loop_var);
    for (const std::string& n : live_in) defined.erase(n);
    const bool yields = !s.body.empty() && s.body.back().kind == StmtKind::Yield;

    Stmt main = s;
    main.loop_kind = LoopKind::Sequential;
    main.attrs.clear();
    for (const Keyword& kw : s.attrs) {
      if (kw.name != "stage") main.attrs.push_back(kw);
    }
    main.stop = index_const(main_stop);
    main.step = index_const(*group_step);
    main.body.clear();
    for (Int k = 0; k < *stage; ++k) {
      const bool last = k + 1 == *stage;
      Renames renames;
      if (!last) {
        for (const std::string& n : defined) {
          if (std::any_of(s.carried.begin(), s.carried.end(), [&](const Carried& c) { return c.name == n; })) continue;
          if (std::find(s.results.begin(), s.results.end(), n) != s.results.end()) continue;
          renames[n] = fresh(n, k);
        }
      }
      Expr index = Expr::var(s.loop_var, DType::Index);
      if (k > 0) index = Expr::make(Op::Add, DType::Index, {index, index_const(k * *step)});
      Block replica = Replicator(s.loop_var, index, renames).block(s.body);
      if (yields && !last) {
        // The carried values of the next replica are what this one yields.
        Stmt y = std::move(replica.back());
        replica.pop_back();
        for (std::size_t c = 0; c < s.carried.size(); ++c) {
          Stmt a;
          a.kind = StmtKind::Assign;
          a.targets = {s.carried[c].name};
          a.value = y.values[c];
          replica.push_back(std::move(a));
        }
      }
      for (Stmt& st : replica) main.body.push_back(std::move(st));
    }
    ++stats_.loops_replicated;
    if (main_stop == *stop || trips % *stage == 0) {
      out.push_back(std::move(main));
      return true;
    }
    // The tail runs the remaining iterations; it carries on from the main loop's results.
    Stmt tail = s;
    tail.loop_kind = LoopKind::Sequential;
    tail.attrs = main.attrs;
    tail.start = index_const(main_stop);
    if (!s.carried.empty()) {
      std::vector<std::string> between;
      for (const Carried& c : s.carried) between.push_back(fresh(c.name, -1));
      main.results = between;
      for (std::size_t c = 0; c < tail.carried.size(); ++c) {
        tail.carried[c].init = Term::opaque_name(between[c]);
        if (s.carried[c].init.is_arith())
          tail.carried[c].init = Term::arith(Expr::var(between[c], s.carried[c].init.expr.dtype()));
      }
    }
    out.push_back(std::move(main));
    out.push_back(std::move(tail));
    return true;
  }

  LowerPipelineStats& stats_;
  std::set<std::string> taken_;
};

}  // namespace

Function lower_pipeline_loops(const Function& function, LowerPipelineStats& stats) {
  Function out = function;
  out.body = PipelineLowering(function, stats).block(function.body);
  return out;
}

std::vector<PassInfo> extra_passes() {
  std::vector<PassInfo> passes;
  passes.push_back({"lower-pipeline", "replicate pipeline(start, stop, step, stage=F) loops F times, with a tail",
                    [](const Program& p, const PassContext&, PassReport& r) {
                      LowerPipelineStats stats;
                      Program out;
                      for (const Function& f : p.functions) out.functions.push_back(lower_pipeline_loops(f, stats));
                      r.counters = {{"loops_replicated", stats.loops_replicated}};
                      r.changed = stats.loops_replicated > 0;
                      return out;
                    }});
  return passes;
}

}  // namespace eqsat
