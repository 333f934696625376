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
  std::map<std::string, DType> var_dtypes;  // a name not listed is INDEX
  std::map<std::string, Interval> bounds;   // inclusive, sides optional
  std::vector<Expr> assumptions;            // BOOL expressions known to hold

  // The parser's view of the declared variables (unknown names are INDEX).
  VarTyper var_typer() const;
};

// Seeds an e-graph with the facts. Call before adding the expression to simplify.
//   - variable intervals from the bounds;
//   - each assumption's class merged with True, and split into literals: the operands
//     of `and` hold, those of a negated `or` do not, `not` flips; each literal's class is
//     merged with True or False;
//   - integer comparisons (never floats: NaN) between any two expressions: a negated one
//     is flipped (`not (a < b)` is `a >= b`); `a == b` merges the two classes; the orders
//     (<, <=, >, >=, and != upgrading a <= to <) are closed transitively, and every
//     comparison a derived order decides is added and merged with True or False, in both
//     operand orders (x < y and y <= z: `x < z`, `z > x`, `x <= z`, `x != z` are True,
//     `x >= z`, `x == z` False); a <= b and b <= a merges a and b;
//   - congruences: `e % c == r` (INDEX, constants c and r) gives e the congruence
//     e ≡ r (mod |c|) (egraph/congruence.h);
//   - intervals: a comparison with a constant narrows the other side (`e != c` only at
//     an interval's edge), and along the closure a < b gives upper(a) <= upper(b) - 1 and
//     lower(b) >= lower(a) + 1 (<= without the 1), repeated a bounded number of rounds.
// The e-graph is rebuilt on return.
void assert_facts(EGraph& egraph, const Facts& facts);

}  // namespace eqsat
