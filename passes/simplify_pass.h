// The Simplify pass over a whole function (docs/simplify-pass.md): every expression
// folded with the rules under the facts that hold where it stands, constants
// propagated, proven branches and zero/one-trip loops collapsed, dead scalars dropped.
//
//   1. FunctionIndex (passes/function_index.h): which names are assigned more than once
//      (never bound), where names are defined and used.
//   2. One walk in program order with ScopedFacts (passes/scoped_facts.h):
//      - every expression leaf (values, call arguments, conditions, loop bounds,
//        attributes, types' shape/stride/valid-shape/offset) is substituted, folded and
//        rewritten by simplify_expr under the facts about its names, keeping its dtype;
//      - a name assigned once is bound: a constant is substituted downstream, a plain
//        variable is an alias, a symbolic integer value gives its interval; bindings
//        are scoped to the region of the assignment;
//      - a loop body knows its variable's range (positive step); an arm knows its
//        condition (or its negation);
//      - Fold A: an `if` whose condition folds to a constant is replaced by the arm
//        taken (the other is not evaluated); Fold B: a pure sequential loop proven to
//        run zero or one times is replaced by its effect (nesting capped at 16 per run).
//   3. Dead code (passes/dead_code.h): pure assignments nobody reads, dead loop-carried
//      and `if`-result slots.
//
// constants_only keeps control flow and slots and rewrites nothing but constants.
//
// Fast-math: a function's rules run under the flags the options grant
// (`expr.fast_math`, the run's --fast-math) together with the function's own
// `@fast_math(...)` attribute (ir/stmt.h), so one file may hold strict functions and
// relaxed ones.
#pragma once

#include <span>

#include "egraph/rewrite.h"
#include "ir/stmt.h"
#include "passes/simplify_expr.h"

namespace eqsat {

struct SimplifyPassOptions {
  bool constants_only = false;
  SimplifyOptions expr;             // limits and cost profile for each expression
  int max_nested_single_trip = 16;  // Fold B's depth cap
};

struct SimplifyPassStats {
  int expressions_changed = 0;
  int branches_folded = 0;     // Fold A
  int loops_folded = 0;        // Fold B
  int statements_removed = 0;  // dead code
  int slots_pruned = 0;        // dead loop-carried / if-result slots

  bool changed() const {
    return expressions_changed + branches_folded + loops_folded + statements_removed + slots_pruned > 0;
  }
  SimplifyPassStats& operator+=(const SimplifyPassStats& o);
};

Function simplify_function(const Function& function, std::span<const Rewrite> rules, const SimplifyPassOptions& options,
                           SimplifyPassStats* stats = nullptr);

Program simplify_program(const Program& program, std::span<const Rewrite> rules, const SimplifyPassOptions& options,
                         SimplifyPassStats* stats = nullptr);

}  // namespace eqsat
