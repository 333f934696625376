// The printer: an `Expr` to text in the spec's syntax that parses back to the same
// expression (same ops, dtypes and values), with the fewest parentheses Python needs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ir/expr.h"
#include "ir/op.h"

namespace eqsat {

std::string print(const Expr& expr);
// The same, for text that `parse_expr(text, typer, expected)` reads back: a constant of
// dtype `expected` is written as a bare literal (`5`, not `const(5, INT32)`).
std::string print(const Expr& expr, DType expected);

// print(expr) for a caller that prints many terms holding one another. The simplifier
// orders the atoms of its normal forms by their text (passes/linear_form.cpp,
// linear_inequalities.cpp, minmax_form.cpp), and an atom of a chain (a quotient of a
// max of a quotient ...) holds the atoms below it: printed one by one, a chain of 200
// cost its depth per atom, a quarter of its simplification. A PrintMemo remembers
// the text of the subterms it printed (those that are not sums or products, with
// some operation below them: the atoms of such chains), by node, and writes it again
// where the subterm stands where it would print the same. The texts are print's,
// byte for byte; only the work differs. Small terms are printed as print does,
// remembering nothing: their text costs less to make than to look up.
class PrintMemo {
 public:
  std::string print(const Expr& expr);

  // For the printer (ir/print.cpp).
  struct Entry {
    Expr term;  // keeps the node alive: its address is the key
    std::string text;
    Prec prec;       // how tightly the text binds
    bool fixes_own;  // whether the text fixes its own dtype (ir/print.cpp)
  };
  // A subterm printed where it prints as at the top, in the text being made: its text
  // is text[begin, end).
  struct Printed {
    const Expr* term;  // in the term being printed
    std::size_t begin, end;
    Prec prec;
    bool fixes_own;
  };
  const Entry* find(const Expr& term) const;
  std::vector<Printed>& printed() { return printed_; }

 private:
  // Remembers the subterms of `text` (printed_) once it is this long.
  static constexpr std::size_t kRememberFromChars = 64;
  // At most this much text is remembered (an expression of 10^5 nodes has many
  // subterms): past it, terms are printed as print does.
  static constexpr std::size_t kMaxRememberedChars = std::size_t{1} << 22;

  std::unordered_map<const void*, Entry> entries_;
  std::vector<Printed> printed_;
  std::size_t remembered_chars_ = 0;
};

}  // namespace eqsat
