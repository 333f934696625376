// Type checking: the untyped syntax tree (ir/syntax.h) to a typed Expr.
//
// Literals have no dtype of their own, so typing is bidirectional. First, each subtree
// has a *natural* dtype: the one a variable, cast, const(), comparison or True/False
// inside it fixes, whatever surrounds it; a subtree made only of number literals has
// none (it is "open"). Then checking pushes a dtype down: the operands of an operation
// take the natural dtype of the first operand that has one, else the dtype the parent
// pushes, else the default (INDEX, or FP32 when a float literal or '/' is involved).
#include "ir/parse.h"

#include <cmath>
#include <map>
#include <span>
#include <unordered_map>
#include <utility>

#include "ir/syntax.h"

namespace eqsat {

namespace {

struct Natural {
  std::optional<DType> dtype;  // set: the subtree has this dtype wherever it stands
  bool has_float = false;      // open subtree: defaults to FP32 rather than INDEX
};

DType default_dtype(const Natural& natural) { return natural.has_float ? DType::FP32 : DType::Index; }

bool is_logic(Op op) { return op == Op::And || op == Op::Or || op == Op::Not; }

// The operands that share the operation's operand dtype: all of them, except a select's
// condition. (and/or/not are handled apart: their operands are BOOL.)
std::span<const SyntaxPtr> typed_together(const Syntax& node) {
  std::span<const SyntaxPtr> args(node.args);
  return node.op == Op::Select ? args.subspan(1) : args;
}

std::string name_of(DType dtype) { return std::string(dtype_name(dtype)); }

class TypeChecker {
 public:
  explicit TypeChecker(const VarTyper& var_dtype) : var_dtype_(var_dtype) {}

  Result<Expr> run(const Syntax& root, std::optional<DType> expected) {
    Expr expr = check(root, expected);
    if (error_) return *error_;
    return expr;
  }

 private:
  // Records the first error; every check function returns an empty Expr after one.
  Expr fail(std::string message, int column) {
    if (!error_) error_ = Error{std::move(message), column};
    return Expr();
  }

  Natural natural(const Syntax& node) {
    if (auto it = naturals_.find(&node); it != naturals_.end()) return it->second;
    Natural result = compute_natural(node);
    naturals_.emplace(&node, result);
    return result;
  }

  Natural compute_natural(const Syntax& node) {
    switch (node.kind) {
      case SyntaxKind::IntLit:
        return {};
      case SyntaxKind::FloatLit:
        return {std::nullopt, true};
      case SyntaxKind::BoolLit:
        return {DType::Bool};
      case SyntaxKind::Name:
        return {var_dtype(node)};
      case SyntaxKind::Cast:
      case SyntaxKind::Const:
        return {node.dtype};
      case SyntaxKind::Apply:
        break;
    }
    if (is_logic(node.op) || is_comparison(node.op)) return {DType::Bool};
    return joined_operands(node);
  }

  // What the operands typed together make of the operation: the natural dtype of the
  // first one that has one.
  Natural joined_operands(const Syntax& node) {
    Natural joined;
    for (const SyntaxPtr& arg : typed_together(node)) {
      const Natural operand = natural(*arg);
      if (operand.dtype) return operand;
      joined.has_float |= operand.has_float;
    }
    // As in Python, dividing integer literals gives a float.
    joined.has_float |= node.op == Op::Div;
    return joined;
  }

  // nullopt (with the error recorded) for an unknown name.
  std::optional<DType> var_dtype(const Syntax& name) {
    std::optional<DType> dtype;
    // A dotted name ("pl.x") is only meaningful for calls and dtypes.
    if (var_dtype_ && name.text.find('.') == std::string::npos) {
      dtype = var_dtype_(name.text, name.bool_context);
    }
    if (!dtype) fail("unknown name '" + name.text + "'", name.column);
    return dtype;
  }

  Expr check(const Syntax& node, std::optional<DType> hint) {
    if (error_) return Expr();
    const std::pair<const Syntax*, int> key(&node, hint ? int(*hint) : -1);
    if (auto it = checked_.find(key); it != checked_.end()) return it->second;
    Expr expr = compute_check(node, hint);
    // Remembered so that the shared operand of a comparison chain is typed once.
    if (expr.valid()) checked_.emplace(key, expr);
    return expr;
  }

  Expr compute_check(const Syntax& node, std::optional<DType> hint) {
    switch (node.kind) {
      case SyntaxKind::IntLit:
        return int_literal(node, hint.value_or(DType::Index));
      case SyntaxKind::FloatLit:
        return float_literal(node, hint.value_or(DType::FP32));
      case SyntaxKind::BoolLit:
        return Expr::constant(Value::boolean(node.bool_value));
      case SyntaxKind::Name: {
        const std::optional<DType> dtype = natural(node).dtype;
        return dtype ? Expr::var(node.text, *dtype) : Expr();
      }
      case SyntaxKind::Cast: {
        // The operand stands alone: `cast(3, INT8)` casts the INDEX 3.
        Expr operand = check(*node.args[0], std::nullopt);
        if (!operand.valid()) return Expr();
        return Expr::make(Op::Cast, node.dtype, {operand});
      }
      case SyntaxKind::Const:
        return const_call(node);
      case SyntaxKind::Apply:
        break;
    }
    return is_logic(node.op) ? logic(node) : operation(node, hint);
  }

  // and, or, not: BOOL operands, BOOL result.
  Expr logic(const Syntax& node) {
    std::vector<Expr> args;
    for (const SyntaxPtr& arg : node.args) {
      Expr operand = check(*arg, DType::Bool);
      if (!operand.valid()) return Expr();
      if (operand.dtype() != DType::Bool) {
        return fail("operand of '" + node.text + "' must be BOOL, got " + name_of(operand.dtype()), node.column);
      }
      args.push_back(operand);
    }
    return Expr::make(node.op, DType::Bool, std::move(args));
  }

  // Arithmetic, bitwise, min/max/abs, comparisons and select.
  Expr operation(const Syntax& node, std::optional<DType> hint) {
    const DType dtype = operand_dtype(node, hint);
    if (error_) return Expr();
    if (std::string_view need = operand_requirement(node.op, dtype); !need.empty()) {
      return fail("'" + node.text + "' needs " + std::string(need) + " operands, got " + name_of(dtype), node.column);
    }
    std::vector<Expr> args;
    if (node.op == Op::Select) {
      Expr condition = check(*node.args[0], DType::Bool);
      if (!condition.valid()) return Expr();
      if (condition.dtype() != DType::Bool) {
        return fail("the condition of '" + node.text + "' must be BOOL, got " + name_of(condition.dtype()),
                    node.column);
      }
      args.push_back(condition);
    }
    std::optional<DType> seen;  // the dtype of the first operand
    for (const SyntaxPtr& arg : typed_together(node)) {
      Expr operand = check(*arg, dtype);
      if (!operand.valid()) return Expr();
      if (seen && operand.dtype() != *seen) {
        const char* what = node.op == Op::Select ? "branches" : "operands";
        return fail(std::string(what) + " of '" + node.text + "' have different dtypes " + name_of(*seen) + " and " +
                        name_of(operand.dtype()),
                    node.column);
      }
      seen = operand.dtype();
      args.push_back(operand);
    }
    const DType result = is_comparison(node.op) ? DType::Bool : dtype;
    return Expr::make(node.op, result, std::move(args));
  }

  // The dtype the operands of `node` share. A comparison does not pass its parent's
  // BOOL down: `3 < 4` compares INDEX values.
  DType operand_dtype(const Syntax& node, std::optional<DType> hint) {
    const Natural joined = joined_operands(node);
    if (joined.dtype) return *joined.dtype;
    if (is_comparison(node.op)) return default_dtype(joined);
    return hint.value_or(default_dtype(joined));
  }

  Expr int_literal(const Syntax& literal, DType dtype) {
    const Int value = literal.int_value;
    if (is_float(dtype)) {
      // Rounded once, straight from the integer (not through a double).
      const Value rounded = Value::integer(dtype, value);
      if (std::isinf(rounded.f)) return out_of_range(literal, dtype);
      return Expr::constant(rounded);
    }
    if (dtype == DType::Bool) {
      return fail("integer literal " + literal.text + " where BOOL is expected (use True/False)", literal.column);
    }
    // A fixed-width literal may be written as any n-bit two's complement pattern, signed or
    // unsigned, and wraps into the dtype the way C converts it: `x & -4` with x: UINT32
    // is x & 4294967292 (tinygrad and Halide write masks so). Beyond n bits is an error.
    if (is_fixed_width_int(dtype)) {
      const int bits = bit_width(dtype);
      const Int lowest = -(Int(1) << (bits - 1));
      const Int highest = (Int(1) << bits) - 1;
      if (value < lowest || value > highest) return out_of_range(literal, dtype);
    }
    return Expr::constant(Value::integer(dtype, value));
  }

  Expr float_literal(const Syntax& literal, DType dtype) {
    if (!is_float(dtype)) {
      return fail("float literal " + literal.text + " where " + name_of(dtype) + " is expected", literal.column);
    }
    // Rounded to the dtype; a finite literal that would round to infinity is out of range.
    const Value rounded = Value::floating(dtype, literal.float_value);
    if (std::isinf(rounded.f) && !std::isinf(literal.float_value)) {
      return out_of_range(literal, dtype);
    }
    return Expr::constant(rounded);
  }

  Expr out_of_range(const Syntax& literal, DType dtype) {
    return fail("literal " + literal.text + " is out of range of " + name_of(dtype), literal.column);
  }

  // const(v, DTYPE): the literal gets the dtype; only here may 0 and 1 be BOOL.
  Expr const_call(const Syntax& node) {
    const Syntax& literal = *node.args[0];
    const DType dtype = node.dtype;
    switch (literal.kind) {
      case SyntaxKind::BoolLit:
        if (dtype != DType::Bool) {
          return fail(literal.text + " is not a value of " + name_of(dtype), literal.column);
        }
        return Expr::constant(Value::boolean(literal.bool_value));
      case SyntaxKind::IntLit:
        if (dtype == DType::Bool) {
          if (literal.int_value != 0 && literal.int_value != 1) return out_of_range(literal, dtype);
          return Expr::constant(Value::boolean(literal.int_value == 1));
        }
        return int_literal(literal, dtype);
      default:
        return float_literal(literal, dtype);
    }
  }

  const VarTyper& var_dtype_;
  std::optional<Error> error_;
  std::unordered_map<const Syntax*, Natural> naturals_;
  std::map<std::pair<const Syntax*, int>, Expr> checked_;
};

}  // namespace

Result<Expr> type_syntax(const Syntax& syntax, const VarTyper& var_dtype) {
  return TypeChecker(var_dtype).run(syntax, std::nullopt);
}

Result<Expr> parse_expr(std::string_view text, const VarTyper& var_dtype) {
  Result<SyntaxPtr> syntax = parse_syntax(text);
  if (!syntax) return syntax.error();
  return type_syntax(**syntax, var_dtype);
}

Result<Expr> parse_expr(std::string_view text, const VarTyper& var_dtype, DType expected) {
  Result<SyntaxPtr> syntax = parse_syntax(text);
  if (!syntax) return syntax.error();
  return TypeChecker(var_dtype).run(**syntax, expected);
}

VarTyper index_by_default(std::function<std::optional<DType>(std::string_view)> vars) {
  return [vars = std::move(vars)](std::string_view name, bool) -> std::optional<DType> {
    if (vars) {
      if (std::optional<DType> dtype = vars(name)) return dtype;
    }
    return DType::Index;
  };
}

}  // namespace eqsat
