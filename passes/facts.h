// What is known about an expression's variables: declared dtypes, inclusive bounds,
// and assumed conditions. The batch format's `vars`, `bounds` and `assume` fields and
// the command line's --var, --bound and --assume flags all become a `Facts`.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "egraph/egraph.h"
#include "egraph/interval.h"
#include "ir/expr.h"
#include "ir/parse.h"

namespace eqsat {

struct Facts {
  std::map<std::string, DType> var_dtypes;   // a name not listed is INDEX
  std::map<std::string, Interval> bounds;    // inclusive, sides optional
  std::vector<Expr> assumptions;             // BOOL expressions known to hold

  // The parser's view of the declared variables (unknown names are INDEX).
  VarTyper var_typer() const;
};

// Seeds an e-graph with the facts: variable intervals, each assumption's class merged
// with True, and the intervals that simple assumed comparisons give (`e < c`,
// `e >= c`, `e == c`, `e != c` at an interval's edge, either operand order, and
// conjunctions of these). Call before adding the expression to simplify, then rebuild.
void assert_facts(EGraph& egraph, const Facts& facts);

}  // namespace eqsat
