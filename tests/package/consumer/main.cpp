// A compiler pass using eqsat through its installed package: builds an index
// expression directly (no text), simplifies it under a loop bound with the built-in
// rules and a cost profile, reads the report; then builds a kernel in C++ and runs the
// Simplify pass over it under a shipped cost profile. Prints what it got;
// tests/package/run.sh compares that with what it expects.
#include <filesystem>
#include <iostream>
#include <memory>

#include "extract/cost.h"
#include "ir/build.h"
#include "ir/print.h"
#include "ir/stmt_build.h"
#include "ir/stmt_print.h"
#include "passes/pass_manager.h"
#include "passes/simplify_expr.h"
#include "rules/rule.h"

int main() {
  using namespace eqsat;
  using namespace eqsat::build;
  // (ko * 8 + ki) % 8 with 0 <= ki <= 7: the inner index of a tiled loop.
  const Expr ko = var("ko"), ki = var("ki");
  const Expr index = floormod(ko * 8 + ki, 8);
  Facts facts;
  facts.bounds["ki"] = Interval::range(0, 7);

  Result<CostProfile> costs =
      CostProfile::from_json_text(R"({"name": "div-heavy", "ops": {"floormod": 40}})", "inline profile");
  if (!costs) {
    std::cerr << costs.error().describe() << '\n';
    return 1;
  }
  const std::shared_ptr<const std::vector<Rewrite>> rules = builtin_rules().shared_rewrites();
  SimplifyOptions options;
  options.costs = &*costs;
  const SimplifyResult result = simplify_expr(index, facts, *rules, options);
  std::cout << print(index) << " -> " << print(result.output) << " (cost " << result.cost.value() << ", "
            << stop_reason_name(result.report.stop_reason) << ")\n";

  // A kernel built in C++: the pass knows 0 <= i < 1 from the loop, so the loop runs
  // once with i = 0. truncdiv(j, 8) of a non-negative j equals j // 8, which the default
  // profile would pick; the shipped div-expensive profile prices floor division higher
  // (44 against 40: C's division is the target's instruction), so it stays.
  const Expr i = var("i"), j = var("j");
  const Function kernel =
      function("kernel", {param("n", Type::scalar(DType::Index))},
               {for_range("i", lit(0), lit(1), lit(1), {eval(call("store", {arith(i * 4 + 0)}))}),
                for_range("j", lit(0), var("n"), lit(1), {eval(call("load", {arith(truncdiv(j, 8))}))})});
  Result<CostProfile> shipped = CostProfile::resolve("div-expensive");
  if (!shipped) {
    std::cerr << shipped.error().describe() << '\n';
    return 1;
  }
  Result<std::vector<const PassInfo*>> pipeline = parse_pipeline("simplify");
  SimplifyOptions pass_options;
  pass_options.costs = &*shipped;
  std::vector<PassReport> reports;
  const Program simplified = run_pipeline(Program{{kernel}}, *pipeline, PassContext{*rules, pass_options, {}}, reports);
  std::cout << print_program(simplified);
  std::cout << "rules installed: " << std::filesystem::exists(EQSAT_RULES_DIR "/arith.rules") << '\n';
  std::cout << "profiles installed: " << std::filesystem::exists(EQSAT_PROFILES_DIR "/div-expensive.json") << '\n';
  return 0;
}
