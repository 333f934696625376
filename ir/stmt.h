// The statement IR: functions of statements over typed variables, the input of the
// Simplify pass (passes/simplify_pass.h). The text form is docs/ir.md; the parser is
// ir/stmt_parse.h and the printer ir/stmt_print.h.
//
// Variables are names. A name may be assigned more than once (input before SSA
// conversion); the pass finds out which are assigned once. Statements:
//
//   Assign   x = v          x: Scalar[INT32] = v        a, b = f(y)
//   Eval     f(x, kw=e)                       a call for its effect
//   For      for i in range(start, stop, step, attr=e):           kind: range = sequential,
//            for i, (acc,) in range(0, n, init_values=(a0,)):     parallel, unroll, pipeline
//                ...
//                acc_out = yield_(acc + 1)                        the results
//   While    while c:       for (n,) in while_(n < 8, init_values=(0,)):
//   If       if c: ... else: ...   with results when both arms end in `r = yield_(v)`
//   Yield    yield_(v, ...)        the last statement of a loop body or an if arm
//   Return   return v, ...
//   Scope    with spmd(core_num=8):    a region with expression-valued attributes
//   Pass     pass                      an empty body
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ir/fast_math.h"
#include "ir/stmt_type.h"
#include "ir/term.h"

namespace eqsat {

enum class StmtKind : uint8_t { Assign, Eval, For, While, If, Yield, Return, Scope, Pass };

// How a `for` runs its iterations: `range` (one after another), `parallel`, `unroll`
// and `pipeline` (software-pipelined, replicated by the lower-pipeline pass).
enum class LoopKind : uint8_t { Sequential, Parallel, Unroll, Pipeline };

// "range", "parallel", "unroll", "pipeline".
const char* loop_kind_name(LoopKind kind);

// A loop-carried value: `name` holds `init` on the first iteration and what the body
// yields on the others.
struct Carried {
  std::string name;
  Term init;
  friend bool operator==(const Carried& a, const Carried& b) { return a.name == b.name && a.init == b.init; }
};

struct Stmt {
  StmtKind kind = StmtKind::Pass;
  int line = 0;  // where the parser read it; 0 for statements a pass made

  // Assign: `targets = value`; a single target may carry an annotation.
  std::vector<std::string> targets;
  std::optional<Type> annotation;
  // Assign: the value. Eval: the call. If, While: the condition.
  Term value;

  // For.
  std::string loop_var;
  LoopKind loop_kind = LoopKind::Sequential;
  Expr start, stop, step;      // INDEX
  std::vector<Keyword> attrs;  // For: the range's keyword arguments; Scope: its attributes

  // For, While: the loop-carried values. For, While, If: the result variables, which
  // receive the values of the trailing yield (of the last iteration, or of the arm taken).
  std::vector<Carried> carried;
  std::vector<std::string> results;

  // Yield, Return: the values.
  std::vector<Term> values;

  // Scope: its name ("spmd").
  std::string scope_name;

  // For, While, Scope: the body. If: the then arm and the else arm (empty: no else).
  std::vector<Stmt> body;
  std::vector<Stmt> orelse;

  // Structural equality, ignoring `line`.
  friend bool operator==(const Stmt& a, const Stmt& b);
  friend bool operator!=(const Stmt& a, const Stmt& b) { return !(a == b); }
};

using Block = std::vector<Stmt>;

struct Param {
  std::string name;
  Type type;
  friend bool operator==(const Param& a, const Param& b) { return a.name == b.name && a.type == b.type; }
};

// A decorator before a `def`: `@name(args)`, each argument a string ("div-expensive")
// or `key=value` with a number or a name as the value (floordiv=40, select=inf). The
// IR only carries them; what one means is up to the pass that reads it
// (`@costs`: passes/function_costs.h).
struct DecoratorArg {
  std::string key;    // empty for a positional argument
  std::string value;  // the string's contents, or the number's or name's text
  bool is_string = false;
  int line = 0, column = 0;  // where the argument starts, for messages
  friend bool operator==(const DecoratorArg& a, const DecoratorArg& b) {
    return a.key == b.key && a.value == b.value && a.is_string == b.is_string;
  }
};

struct Decorator {
  std::string name;
  std::vector<DecoratorArg> args;
  int line = 0, column = 0;
  friend bool operator==(const Decorator& a, const Decorator& b) { return a.name == b.name && a.args == b.args; }
};

// A function, or a fragment: statements written at the top level of a file, without a
// `def` (the seed's examples are mostly fragments). A fragment's free names are INDEX
// scalars, as in the batch format.
//
// A function may carry fast-math flags (ir/fast_math.h), written as a decorator:
//
//   @fast_math(nsz, nnan)
//   def f(x: Tensor[[64], FP32]) -> Tensor[[64], FP32]:
//
// They let the float rules that need them rewrite this function's expressions (in
// addition to the flags of the run). A fragment has none of its own.
struct Function {
  std::string name;  // empty for a fragment
  std::vector<Decorator> decorators;
  std::vector<Param> params;
  std::optional<Type> result;
  Block body;
  FastMath fast_math;

  bool is_fragment() const { return name.empty(); }
  friend bool operator==(const Function& a, const Function& b) {
    return a.name == b.name && a.decorators == b.decorators && a.params == b.params && a.result == b.result &&
           a.body == b.body && a.fast_math == b.fast_math;
  }
};

struct Program {
  std::vector<Function> functions;
  friend bool operator==(const Program& a, const Program& b) { return a.functions == b.functions; }
};

// Every name the statement itself reads, not counting its bodies: the value or
// condition, an annotation's expressions, loop bounds, attributes, initial values,
// yielded and returned values. With repetitions.
void for_each_read(const Stmt& s, const std::function<void(const std::string&)>& f);

// Every name the statement itself defines: assignment targets, the loop variable,
// loop-carried variables, result variables.
void for_each_definition(const Stmt& s, const std::function<void(const std::string&)>& f);

// Number of statements, counting nested ones (the size the pass's budget is about).
std::size_t count_stmts(const Block& block);

}  // namespace eqsat
