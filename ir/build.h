// Building expressions from C++ with their dtypes checked, the way a compiler pass
// builds the index arithmetic it wants simplified:
//
//   using namespace eqsat::build;
//   const Expr ko = var("ko"), ki = var("ki");       // INDEX variables
//   const Expr index = floormod(ko * 8 + ki, 8);     // (ko * 8 + ki) % 8
//   const Expr inside = ki < 8 && ki >= 0;           // BOOL
//
// `make_typed` checks what the parser checks (operands of one dtype, BOOL conditions
// and logic, integer-only and float-only operations) and says what is wrong. The
// operators of `eqsat::build` call it and throw `build::TypeError` on a mistake: an
// ill-typed expression in C++ code is a bug in that code, not bad input. An integer
// operand takes the dtype of the expression beside it (`x + 1` with x: INT8 adds the
// INT8 1), as in the text form.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "ir/error.h"
#include "ir/expr.h"

namespace eqsat {

// The operation node over `args`, or why it is ill-typed. The result dtype follows from
// the operands (BOOL for comparisons and logic); a Cast is not built here (its target
// dtype is not implied: use Expr::make(Op::Cast, dtype, {e}) or build::cast).
Result<Expr> make_typed(Op op, std::vector<Expr> args);

namespace build {

struct TypeError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

Expr var(std::string name, DType dtype = DType::Index);
Expr lit(int64_t value, DType dtype = DType::Index);  // wraps into a fixed-width dtype
Expr lit_float(double value, DType dtype = DType::FP32);
Expr lit_bool(bool value);

Expr operator+(const Expr& a, const Expr& b);
Expr operator-(const Expr& a, const Expr& b);
Expr operator*(const Expr& a, const Expr& b);
Expr operator-(const Expr& a);
Expr operator<(const Expr& a, const Expr& b);
Expr operator<=(const Expr& a, const Expr& b);
Expr operator>(const Expr& a, const Expr& b);
Expr operator>=(const Expr& a, const Expr& b);
Expr operator&&(const Expr& a, const Expr& b);  // BOOL `and` (both sides are built: no short circuit)
Expr operator||(const Expr& a, const Expr& b);
Expr operator!(const Expr& a);
// `==` and `!=` on Expr compare structure (ir/expr.h); the comparison nodes are these:
Expr eq(const Expr& a, const Expr& b);
Expr ne(const Expr& a, const Expr& b);

// With an integer on one side: the integer in the other side's dtype.
Expr operator+(const Expr& a, int64_t b);
Expr operator+(int64_t a, const Expr& b);
Expr operator-(const Expr& a, int64_t b);
Expr operator-(int64_t a, const Expr& b);
Expr operator*(const Expr& a, int64_t b);
Expr operator*(int64_t a, const Expr& b);
Expr operator<(const Expr& a, int64_t b);
Expr operator<=(const Expr& a, int64_t b);
Expr operator>(const Expr& a, int64_t b);
Expr operator>=(const Expr& a, int64_t b);
Expr eq(const Expr& a, int64_t b);
Expr ne(const Expr& a, int64_t b);

// Division and modulo by name: floor (Python's // and %, the text form's) or truncating
// (C's); `/` would leave the reader guessing which.
Expr floordiv(const Expr& a, const Expr& b);
Expr floordiv(const Expr& a, int64_t b);
Expr floormod(const Expr& a, const Expr& b);
Expr floormod(const Expr& a, int64_t b);
Expr truncdiv(const Expr& a, const Expr& b);
Expr truncdiv(const Expr& a, int64_t b);
Expr truncmod(const Expr& a, const Expr& b);
Expr truncmod(const Expr& a, int64_t b);
Expr min(const Expr& a, const Expr& b);
Expr max(const Expr& a, const Expr& b);
Expr abs(const Expr& a);
Expr select(const Expr& condition, const Expr& then_value, const Expr& else_value);
Expr cast(const Expr& a, DType to);

}  // namespace build
}  // namespace eqsat
