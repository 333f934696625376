#include "ir/op.h"

#include <array>

namespace eqsat {

namespace {
// Indexed by Op; keep in the enum's order.
constexpr std::array<OpInfo, kNumOps> kOps = {{
    {"var", "", 0, false, false, Prec::Atom},
    {"const", "", 0, false, false, Prec::Atom},
    {"add", "+", 2, true, false, Prec::Add},
    {"sub", "-", 2, false, false, Prec::Add},
    {"mul", "*", 2, true, false, Prec::Mul},
    {"neg", "-", 1, false, false, Prec::Unary},
    {"floordiv", "//", 2, false, false, Prec::Mul},
    {"floormod", "%", 2, false, false, Prec::Mul},
    {"truncdiv", "truncdiv", 2, false, true, Prec::Atom},
    {"truncmod", "truncmod", 2, false, true, Prec::Atom},
    {"div", "/", 2, false, false, Prec::Mul},
    {"min", "min", 2, true, true, Prec::Atom},
    {"max", "max", 2, true, true, Prec::Atom},
    {"abs", "abs", 1, false, true, Prec::Atom},
    {"bitand", "&", 2, true, false, Prec::BitAnd},
    {"bitor", "|", 2, true, false, Prec::BitOr},
    {"bitxor", "^", 2, true, false, Prec::BitXor},
    {"bitnot", "~", 1, false, false, Prec::Unary},
    {"shl", "<<", 2, false, false, Prec::Shift},
    {"shr", ">>", 2, false, false, Prec::Shift},
    {"eq", "==", 2, true, false, Prec::Compare},
    {"ne", "!=", 2, true, false, Prec::Compare},
    {"lt", "<", 2, false, false, Prec::Compare},
    {"le", "<=", 2, false, false, Prec::Compare},
    {"gt", ">", 2, false, false, Prec::Compare},
    {"ge", ">=", 2, false, false, Prec::Compare},
    {"and", "and", 2, true, false, Prec::And},
    {"or", "or", 2, true, false, Prec::Or},
    {"not", "not", 1, false, false, Prec::Not},
    {"select", "select", 3, false, true, Prec::Atom},
    {"cast", "cast", 1, false, true, Prec::Atom},
}};
}  // namespace

const OpInfo& op_info(Op op) { return kOps[static_cast<int>(op)]; }

std::string_view operand_requirement(Op op, DType dtype) {
  switch (op) {
    case Op::Add:
    case Op::Sub:
    case Op::Mul:
    case Op::Neg:
    case Op::Min:
    case Op::Max:
    case Op::Abs:
    case Op::Lt:
    case Op::Le:
    case Op::Gt:
    case Op::Ge:
      return is_integer(dtype) || is_float(dtype) ? "" : "integer or float";
    case Op::FloorDiv:
    case Op::FloorMod:
    case Op::TruncDiv:
    case Op::TruncMod:
    case Op::BitAnd:
    case Op::BitOr:
    case Op::BitXor:
    case Op::BitNot:
    case Op::Shl:
    case Op::Shr:
      return is_integer(dtype) ? "" : "integer";
    case Op::Div:
      return is_float(dtype) ? "" : "float";
    default:
      return "";  // == != select take any dtype
  }
}

std::optional<Op> infix_op_spelled(std::string_view symbol) {
  for (int i = 0; i < kNumOps; ++i) {
    const auto op = static_cast<Op>(i);
    const OpInfo& info = op_info(op);
    if (info.arity == 2 && !info.is_call && info.symbol == symbol) return op;
  }
  return std::nullopt;
}

// The table and kCommutativeOps (op.h) name the same operations.
namespace {
constexpr bool commutative_set_matches_table() {
  for (int i = 0; i < kNumOps; ++i) {
    if (kOps[i].commutative != ((kCommutativeOps & op_bit(static_cast<Op>(i))) != 0)) return false;
  }
  return true;
}
}  // namespace
static_assert(commutative_set_matches_table(), "kCommutativeOps disagrees with the op table");

Op mirrored_comparison(Op op) {
  switch (op) {
    case Op::Lt:
      return Op::Gt;
    case Op::Le:
      return Op::Ge;
    case Op::Gt:
      return Op::Lt;
    case Op::Ge:
      return Op::Le;
    default:
      return op;
  }
}

Op negated_comparison(Op op) {
  switch (op) {
    case Op::Lt:
      return Op::Ge;
    case Op::Le:
      return Op::Gt;
    case Op::Gt:
      return Op::Le;
    case Op::Ge:
      return Op::Lt;
    case Op::Eq:
      return Op::Ne;
    case Op::Ne:
      return Op::Eq;
    default:
      return op;
  }
}

}  // namespace eqsat
