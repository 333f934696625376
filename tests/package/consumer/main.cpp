// A compiler pass using eqsat through its installed package: builds an index
// expression directly (no text), simplifies it under a loop bound with the built-in
// rules and a cost profile, reads the report; then runs the Simplify pass over a
// kernel. Prints what it got; tests/package/run.sh compares that with what it expects.
#include <filesystem>
#include <iostream>

#include "extract/cost.h"
#include "ir/expr.h"
#include "ir/print.h"
#include "ir/stmt_parse.h"
#include "ir/stmt_print.h"
#include "passes/pass_manager.h"
#include "passes/simplify_expr.h"
#include "rules/rule.h"

int main() {
  using namespace eqsat;
  // (ko * 8 + ki) % 8 with 0 <= ki <= 7: the inner index of a tiled loop.
  const Expr ko = Expr::var("ko", DType::Index);
  const Expr ki = Expr::var("ki", DType::Index);
  const Expr eight = Expr::constant(Value::integer(DType::Index, 8));
  const Expr index =
      Expr::make(Op::FloorMod, DType::Index,
                 {Expr::make(Op::Add, DType::Index, {Expr::make(Op::Mul, DType::Index, {ko, eight}), ki}), eight});
  Facts facts;
  facts.bounds["ki"] = Interval::range(0, 7);

  Result<CostProfile> costs =
      CostProfile::from_json_text(R"({"name": "div-heavy", "ops": {"floormod": 40}})", "inline profile");
  if (!costs) {
    std::cerr << costs.error().describe() << '\n';
    return 1;
  }
  const std::vector<Rewrite> rules = builtin_rules().rewrites();
  SimplifyOptions options;
  options.costs = &*costs;
  const SimplifyResult result = simplify_expr(index, facts, rules, options);
  std::cout << print(index) << " -> " << print(result.output) << " (cost " << result.cost.value() << ", "
            << stop_reason_name(result.report.stop_reason) << ")\n";

  Result<Program> kernel = parse_program(
      "def kernel(n: Scalar[INDEX]):\n"
      "    for i in range(0, 1, 1):\n"
      "        store(i * 4 + 0)\n");
  if (!kernel) {
    std::cerr << kernel.error().describe() << '\n';
    return 1;
  }
  Result<std::vector<const PassInfo*>> pipeline = parse_pipeline("simplify");
  std::vector<PassReport> reports;
  const Program simplified = run_pipeline(*kernel, *pipeline, PassContext{rules, {}, {}}, reports);
  std::cout << print_program(simplified);
  std::cout << "rules installed: " << std::filesystem::exists(EQSAT_RULES_DIR "/arith.rules") << '\n';
  return 0;
}
