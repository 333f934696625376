#include "ir/build.h"

#include "ir/op.h"

namespace eqsat {

namespace {

bool is_logic(Op op) { return op == Op::And || op == Op::Or || op == Op::Not; }

std::string symbol(Op op) { return std::string(op_info(op).symbol); }

}  // namespace

Result<Expr> make_typed(Op op, std::vector<Expr> args) {
  if (op == Op::Var || op == Op::Const || op == Op::Cast) {
    return Error{"make_typed builds operations: use Expr::var, Expr::constant or build::cast"};
  }
  if (args.size() != static_cast<std::size_t>(op_info(op).arity)) {
    return Error{"'" + symbol(op) + "' takes " + std::to_string(op_info(op).arity) + " operands, got " +
                 std::to_string(args.size())};
  }
  for (const Expr& arg : args) {
    if (!arg.valid()) return Error{"'" + symbol(op) + "': an operand is an empty Expr"};
  }
  if (is_logic(op)) {
    for (const Expr& arg : args) {
      if (arg.dtype() != DType::Bool) {
        return Error{"operand of '" + symbol(op) + "' must be BOOL, got " + std::string(dtype_name(arg.dtype()))};
      }
    }
    return Expr::make(op, DType::Bool, std::move(args));
  }
  std::size_t first = 0;
  if (op == Op::Select) {
    if (args[0].dtype() != DType::Bool) {
      return Error{"the condition of 'select' must be BOOL, got " + std::string(dtype_name(args[0].dtype()))};
    }
    first = 1;
  }
  const DType dtype = args[first].dtype();
  for (std::size_t i = first + 1; i < args.size(); ++i) {
    if (args[i].dtype() != dtype) {
      return Error{std::string(op == Op::Select ? "branches" : "operands") + " of '" + symbol(op) +
                   "' have different dtypes " + std::string(dtype_name(dtype)) + " and " +
                   std::string(dtype_name(args[i].dtype()))};
    }
  }
  if (std::string_view need = operand_requirement(op, dtype); !need.empty()) {
    return Error{"'" + symbol(op) + "' needs " + std::string(need) + " operands, got " +
                 std::string(dtype_name(dtype))};
  }
  return Expr::make(op, is_comparison(op) ? DType::Bool : dtype, std::move(args));
}

namespace build {

namespace {

Expr checked(Op op, std::vector<Expr> args) {
  Result<Expr> made = make_typed(op, std::move(args));
  if (!made) throw TypeError(made.error().message);
  return *made;
}

// An integer beside an expression takes its dtype.
Expr like(const Expr& e, int64_t value) {
  if (!e.valid()) throw TypeError("an integer beside an empty Expr");
  if (e.dtype() == DType::Bool) throw TypeError("an integer beside a BOOL expression (use lit_bool)");
  return Expr::constant(Value::integer(e.dtype(), value));
}

}  // namespace

Expr var(std::string name, DType dtype) { return Expr::var(std::move(name), dtype); }
Expr lit(int64_t value, DType dtype) {
  if (dtype == DType::Bool) throw TypeError("lit: an integer is not BOOL (use lit_bool)");
  return Expr::constant(Value::integer(dtype, value));
}
Expr lit_float(double value, DType dtype) {
  if (!is_float(dtype)) throw TypeError("lit_float: " + std::string(dtype_name(dtype)) + " is not a float dtype");
  return Expr::constant(Value::floating(dtype, value));
}
Expr lit_bool(bool value) { return Expr::constant(Value::boolean(value)); }

Expr operator+(const Expr& a, const Expr& b) { return checked(Op::Add, {a, b}); }
Expr operator-(const Expr& a, const Expr& b) { return checked(Op::Sub, {a, b}); }
Expr operator*(const Expr& a, const Expr& b) { return checked(Op::Mul, {a, b}); }
Expr operator-(const Expr& a) { return checked(Op::Neg, {a}); }
Expr operator<(const Expr& a, const Expr& b) { return checked(Op::Lt, {a, b}); }
Expr operator<=(const Expr& a, const Expr& b) { return checked(Op::Le, {a, b}); }
Expr operator>(const Expr& a, const Expr& b) { return checked(Op::Gt, {a, b}); }
Expr operator>=(const Expr& a, const Expr& b) { return checked(Op::Ge, {a, b}); }
Expr operator&&(const Expr& a, const Expr& b) { return checked(Op::And, {a, b}); }
Expr operator||(const Expr& a, const Expr& b) { return checked(Op::Or, {a, b}); }
Expr operator!(const Expr& a) { return checked(Op::Not, {a}); }
Expr eq(const Expr& a, const Expr& b) { return checked(Op::Eq, {a, b}); }
Expr ne(const Expr& a, const Expr& b) { return checked(Op::Ne, {a, b}); }

Expr operator+(const Expr& a, int64_t b) { return a + like(a, b); }
Expr operator+(int64_t a, const Expr& b) { return like(b, a) + b; }
Expr operator-(const Expr& a, int64_t b) { return a - like(a, b); }
Expr operator-(int64_t a, const Expr& b) { return like(b, a) - b; }
Expr operator*(const Expr& a, int64_t b) { return a * like(a, b); }
Expr operator*(int64_t a, const Expr& b) { return like(b, a) * b; }
Expr operator<(const Expr& a, int64_t b) { return a < like(a, b); }
Expr operator<=(const Expr& a, int64_t b) { return a <= like(a, b); }
Expr operator>(const Expr& a, int64_t b) { return a > like(a, b); }
Expr operator>=(const Expr& a, int64_t b) { return a >= like(a, b); }
Expr eq(const Expr& a, int64_t b) { return eq(a, like(a, b)); }
Expr ne(const Expr& a, int64_t b) { return ne(a, like(a, b)); }

Expr floordiv(const Expr& a, const Expr& b) { return checked(Op::FloorDiv, {a, b}); }
Expr floordiv(const Expr& a, int64_t b) { return floordiv(a, like(a, b)); }
Expr floormod(const Expr& a, const Expr& b) { return checked(Op::FloorMod, {a, b}); }
Expr floormod(const Expr& a, int64_t b) { return floormod(a, like(a, b)); }
Expr truncdiv(const Expr& a, const Expr& b) { return checked(Op::TruncDiv, {a, b}); }
Expr truncdiv(const Expr& a, int64_t b) { return truncdiv(a, like(a, b)); }
Expr truncmod(const Expr& a, const Expr& b) { return checked(Op::TruncMod, {a, b}); }
Expr truncmod(const Expr& a, int64_t b) { return truncmod(a, like(a, b)); }
Expr min(const Expr& a, const Expr& b) { return checked(Op::Min, {a, b}); }
Expr max(const Expr& a, const Expr& b) { return checked(Op::Max, {a, b}); }
Expr abs(const Expr& a) { return checked(Op::Abs, {a}); }
Expr select(const Expr& condition, const Expr& then_value, const Expr& else_value) {
  return checked(Op::Select, {condition, then_value, else_value});
}
Expr cast(const Expr& a, DType to) {
  if (!a.valid()) throw TypeError("cast of an empty Expr");
  return Expr::make(Op::Cast, to, {a});
}

}  // namespace build
}  // namespace eqsat
