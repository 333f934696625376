// The untyped syntax tree (private to ir/): what the text says, before dtypes.
//
// Parsing is split in two because a literal's dtype is only known from where it
// stands: `x + 1` makes the 1 an INT32 when x is one. The syntax parser builds this
// tree with Python's grammar; the type checker (parse.cpp) then gives every node its
// dtype and produces an `Expr`.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ir/dtype.h"
#include "ir/error.h"
#include "ir/int128.h"
#include "ir/op.h"

namespace eqsat {

enum class SyntaxKind : uint8_t {
  IntLit,    // 12, -3, 0x10 (a minus written directly before the literal is part of it)
  FloatLit,  // 1.5, -0.0, and inside const(): inf, -inf, nan
  BoolLit,   // True, False
  Name,      // a variable
  Apply,     // an operation on args: `a + b`, `not a`, `min(a, b)`, `select(c, t, f)`
  Cast,      // cast(args[0], dtype)
  Const,     // const(args[0], dtype): args[0] is a literal
};

struct Syntax;
// Shared so that a comparison chain `a < b < c` can use `b` in both comparisons.
using SyntaxPtr = std::shared_ptr<const Syntax>;

struct Syntax {
  SyntaxKind kind = SyntaxKind::Name;
  int column = 0;              // the literal, the name, the operator or the function name
  std::string text;            // literal or name as written; operator or function as written
  Op op = Op::Const;           // Apply only
  DType dtype = DType::Index;  // Cast and Const: the dtype argument
  Int int_value = 0;           // IntLit
  double float_value = 0;      // FloatLit
  bool bool_value = false;     // BoolLit
  // Name only: the name stands where only a BOOL is allowed (an operand of and/or/not
  // or a select condition); passed on to the VarTyper.
  bool bool_context = false;
  int height = 1;  // of the tree, for the depth limit
  std::vector<SyntaxPtr> args;
};

// Deeper nesting of parentheses, calls and prefix operators, or a taller tree, is
// rejected ("expression nested too deeply") so that neither the parser nor a later
// recursive pass can overflow the stack on a pathological input. The parser spends
// about 1 KB of stack per nesting level; the height allows sums of ~1000 terms.
inline constexpr int kMaxNesting = 500;
inline constexpr int kMaxTreeHeight = 1000;

Result<SyntaxPtr> parse_syntax(std::string_view text);

}  // namespace eqsat
