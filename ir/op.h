// The operations of the expression language and their static properties.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "ir/dtype.h"

namespace eqsat {

enum class Op : uint8_t {
  // Leaves.
  Var,
  Const,
  // Arithmetic.
  Add,
  Sub,
  Mul,
  Neg,
  FloorDiv,  // a // b
  FloorMod,  // a % b
  TruncDiv,  // truncdiv(a, b)
  TruncMod,  // truncmod(a, b)
  Div,       // a / b, floats only
  Min,
  Max,
  Abs,
  // Bitwise, integers only.
  BitAnd,
  BitOr,
  BitXor,
  BitNot,
  Shl,
  Shr,
  // Comparisons, result BOOL.
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
  // Logic on BOOL.
  And,
  Or,
  Not,
  // Other.
  Select,  // select(c, t, f)
  Cast,    // cast(a, DTYPE): the node's dtype is the target
};

inline constexpr int kNumOps = static_cast<int>(Op::Cast) + 1;

// Python precedence levels, lowest binding first. The printer and parser share them.
enum class Prec : uint8_t {
  Or = 1,
  And,
  Not,
  Compare,
  BitOr,
  BitXor,
  BitAnd,
  Shift,
  Add,
  Mul,
  Unary,
  Atom,
};

struct OpInfo {
  std::string_view name;    // stable identifier ("add", "floordiv", ...) used in reports
  std::string_view symbol;  // infix/prefix spelling, or the call name ("min", "select")
  int arity;                // number of children; 0 for leaves
  bool commutative;
  bool is_call;  // printed as name(args...)
  Prec prec;     // of the infix or prefix form
};

const OpInfo& op_info(Op op);

// The binary infix operation spelled `symbol` ("+", "//", "and", ...), from the op
// table; both parsers (expressions and statements) read operators through it.
std::optional<Op> infix_op_spelled(std::string_view symbol);

// The precedence level just above `level`: the right operand of a left-associative
// operator, and each operand of a comparison chain, must bind tighter.
constexpr Prec tighter(Prec level) { return static_cast<Prec>(static_cast<int>(level) + 1); }

constexpr bool is_comparison(Op op) { return op >= Op::Eq && op <= Op::Ge; }
// The integer quotients and remainders: `//`, `%`, truncdiv, truncmod (undefined for a
// zero divisor).
constexpr bool is_integer_division(Op op) {
  return op == Op::FloorDiv || op == Op::FloorMod || op == Op::TruncDiv || op == Op::TruncMod;
}

// `a op b` is `b mirrored_comparison(op) a` (== and != are symmetric); other ops are
// returned as they are.
Op mirrored_comparison(Op op);
// The comparison that holds exactly when `a op b` does not — for integer operands only:
// with a float NaN both are false. Other ops are returned as they are.
Op negated_comparison(Op op);

// One bit per Op, for sets of operations tested in one AND.
constexpr uint32_t op_bit(Op op) { return uint32_t{1} << static_cast<int>(op); }
static_assert(kNumOps <= 32, "op_bit needs a bit per Op");

// The operations op_info() calls commutative, as a set: the e-graph asks about
// every node it canonicalizes and the matchers about every pattern node, so the
// test is inline here rather than a call and a table lookup in op.cpp (which checks
// that the two agree).
inline constexpr uint32_t kCommutativeOps = op_bit(Op::Add) | op_bit(Op::Mul) | op_bit(Op::Min) | op_bit(Op::Max) |
                                            op_bit(Op::BitAnd) | op_bit(Op::BitOr) | op_bit(Op::BitXor) |
                                            op_bit(Op::Eq) | op_bit(Op::Ne) | op_bit(Op::And) | op_bit(Op::Or);

// Whether `op` on operands of `dtype` gives the same value with its two operands
// swapped. Float min and max are the exception to op_info().commutative: which zero
// min(-0.0, +0.0) returns is not specified (IEEE 754 minNum allows either, and
// `a < b ? a : b` returns b), so min(0.0, f) and min(f, 0.0) may differ.
constexpr bool is_commutative(Op op, DType dtype) {
  if ((op == Op::Min || op == Op::Max) && is_float(dtype)) return false;
  return (kCommutativeOps & op_bit(op)) != 0;
}

// Whether swapping the two operands keeps the value in every reading of undefinedness:
// commutative, and not `and`/`or`. Under the lazy reading those short-circuit, so
// `x == 0 or y // x > 1` is defined at x = 0 and `y // x > 1 or x == 0` is not
// (docs/verification.md). The e-graph treats only these as one node in both operand
// orders, and matches patterns against them in both orders (egraph/egraph.h).
constexpr bool commutes_in_every_reading(Op op, DType dtype) {
  return is_commutative(op, dtype) && op != Op::And && op != Op::Or;
}

// Which operand dtypes an operation accepts, for error messages ("integer", "float",
// "integer or float"); empty when operands of `dtype` are fine. Logic (and, or, not)
// takes BOOL, and ==, !=, select any dtype.
std::string_view operand_requirement(Op op, DType dtype);

}  // namespace eqsat
