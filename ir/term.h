// A value as a statement uses it: an arithmetic expression, or something the
// expression language has no node for (a call, a list, a tuple, `...`).
//
// Arithmetic is an `Expr` (ir/expr.h) whenever it can be: every operand a typed
// variable or literal, every function one of the language's (min, select, cast, ...).
// Those are the leaves the Simplify pass folds. Everything else wraps them:
//
//   Arith     x + 1, ko == -128, min(a, b)           the Expr
//   Name      acc                                    a variable whose type is not a
//                                                    Scalar, Tensor or Tile (an opaque call
//                                                    result): it cannot be folded
//   Call      tile.slice(pool, [16, 16], [r, 0], kw=e)  an opaque call: may have side effects
//   List      [16, 16]
//   Tuple     (a, b)
//   Ellipsis  ...
//   Apply     f(x) + 1                               arithmetic with a non-Arith operand;
//                                                    kept as written, its Arith operands
//                                                    folded
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ir/expr.h"

namespace eqsat {

enum class TermKind : uint8_t { Arith, Name, Call, List, Tuple, Ellipsis, Apply };

struct Keyword;

struct Term {
  TermKind kind = TermKind::Arith;
  Expr expr;                    // Arith
  std::string name;             // Name: the variable; Call: the callee as written without
                                // "pl." ("tile.zeros")
  Op op = Op::Add;              // Apply
  std::vector<Term> args;       // Call: positional arguments; List, Tuple: items; Apply: operands
  std::vector<Keyword> kwargs;  // Call: keyword arguments, in order

  static Term arith(Expr e);
  static Term opaque_name(std::string name);
  static Term call(std::string callee, std::vector<Term> args, std::vector<Keyword> kwargs = {});

  bool is_arith() const { return kind == TermKind::Arith; }

  friend bool operator==(const Term& a, const Term& b);
  friend bool operator!=(const Term& a, const Term& b) { return !(a == b); }
};

struct Keyword {
  std::string name;
  Term value;
  friend bool operator==(const Keyword& a, const Keyword& b) { return a.name == b.name && a.value == b.value; }
};

// True when the term calls something (at any depth): a call may have side effects, so
// the pass never duplicates, deletes or moves one.
bool contains_call(const Term& term);

// Every variable name the term reads, with repetitions.
void for_each_name(const Term& term, const std::function<void(const std::string&)>& f);
void for_each_name(const Expr& expr, const std::function<void(const std::string&)>& f);

// The same term with every Arith leaf `e` replaced by `f(e)` and every Name leaf `n`
// by `g(n)`.
Term map_term(const Term& term, const std::function<Term(const Expr&)>& f,
              const std::function<Term(const std::string&)>& g);

}  // namespace eqsat
