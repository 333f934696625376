#include "passes/pass_manager.h"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "passes/simplify_pass.h"

namespace eqsat {

namespace {

Program run_simplify(const Program& program, const PassContext& context, PassReport& report, bool constants_only) {
  SimplifyPassOptions options;
  options.constants_only = constants_only;
  options.expr = context.expr;
  const std::size_t n = program.functions.size();
  std::vector<SimplifyPassStats> per_function(n);
  Program out;
  out.functions.resize(n);
  auto simplify_one = [&](std::size_t i) {
    const Function& f = program.functions[i];
    SimplifyPassOptions for_function = options;
    if (auto it = context.function_costs.find(f.name); it != context.function_costs.end() && !f.is_fragment()) {
      for_function.expr.costs = &it->second;
    }
    out.functions[i] = simplify_function(f, context.rules, for_function, &per_function[i]);
  };
  if (context.threads == 1 || n < 2) {
    for (std::size_t i = 0; i < n; ++i) simplify_one(i);
  } else {
    const int threads = context.threads == 0 ? tbb::this_task_arena::max_concurrency() : int(context.threads);
    tbb::task_arena arena(threads);
    arena.execute([&] { tbb::parallel_for(std::size_t(0), n, simplify_one); });
  }
  SimplifyPassStats stats;  // summed in function order
  for (const SimplifyPassStats& s : per_function) stats += s;
  report.counters = {{"expressions_changed", stats.expressions_changed},
                     {"branches_folded", stats.branches_folded},
                     {"loops_folded", stats.loops_folded},
                     {"statements_removed", stats.statements_removed},
                     {"slots_pruned", stats.slots_pruned}};
  report.changed = !(out == program);
  return out;
}

std::vector<PassInfo> make_registry() {
  std::vector<PassInfo> passes;
  passes.push_back(
      {"simplify", "fold expressions, propagate constants, collapse proven branches and loops, drop dead code",
       [](const Program& p, const PassContext& c, PassReport& r) { return run_simplify(p, c, r, false); }});
  passes.push_back({"simplify-constants", "constants-only Simplify: no control-flow change, no non-constant rewrite",
                    [](const Program& p, const PassContext& c, PassReport& r) { return run_simplify(p, c, r, true); }});
  for (PassInfo& info : extra_passes()) passes.push_back(std::move(info));
  return passes;
}

}  // namespace

const std::vector<PassInfo>& registered_passes() {
  static const std::vector<PassInfo> passes = make_registry();
  return passes;
}

Result<std::vector<const PassInfo*>> parse_pipeline(std::string_view names) {
  std::vector<const PassInfo*> pipeline;
  std::size_t start = 0;
  while (start <= names.size()) {
    std::size_t comma = names.find(',', start);
    if (comma == std::string_view::npos) comma = names.size();
    std::string_view name = names.substr(start, comma - start);
    while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    const PassInfo* found = nullptr;
    for (const PassInfo& p : registered_passes()) {
      if (p.name == name) found = &p;
    }
    if (!found) {
      std::string known;
      for (const PassInfo& p : registered_passes()) known += (known.empty() ? "" : ", ") + p.name;
      return Error{"unknown pass '" + std::string(name) + "' (known passes: " + known + ")"};
    }
    pipeline.push_back(found);
    start = comma + 1;
  }
  return pipeline;
}

Program run_pipeline(const Program& program, const std::vector<const PassInfo*>& pipeline, const PassContext& context,
                     std::vector<PassReport>& reports) {
  Program current = program;
  for (const PassInfo* pass : pipeline) {
    PassReport report;
    report.pass = pass->name;
    current = pass->run(current, context, report);
    reports.push_back(std::move(report));
  }
  return current;
}

}  // namespace eqsat
