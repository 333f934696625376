// The printer mirrors the parser's typing (parse.cpp) so that a constant is written as a
// bare literal exactly when the parser would give that literal the constant's dtype
// where it stands, and as `const(v, DTYPE)` otherwise.
//
// A subtree *fixes its own dtype* when it holds a variable, a cast, a comparison, a
// logic operation, True/False or a const(...) on the path that types it. The parser
// types the operands of an operation with the dtype of the first operand that fixes
// its own, else with the dtype its parent pushes down, else with the default (INDEX,
// or FP32 for float literals). So the printer pushes the same dtype down, and where
// nothing would reach a literal with the right dtype, it writes the first operand in
// full (`const(3, INT8) + 4`), which then fixes the dtype for the others.
#include "ir/print.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace eqsat {

namespace {

bool is_logic(Op op) { return op == Op::And || op == Op::Or || op == Op::Not; }

// The operands that share one dtype in the parser: all of them, except a select's
// condition and the operands of logic operations and casts (which are typed apart).
std::span<const Expr> typed_together(const Expr& e) {
  if (is_logic(e.op()) || e.op() == Op::Cast) return {};
  std::span<const Expr> args(e.args());
  return e.op() == Op::Select ? args.subspan(1) : args;
}

// Constants that are always written so that their dtype shows: True/False, and the
// non-finite floats, which have no literal and are written const(inf, FP32).
bool const_fixes_own_dtype(const Value& v) {
  return v.dtype == DType::Bool || (is_float(v.dtype) && !std::isfinite(v.f));
}

// Whether `e` fixes its own dtype, given whether some operand typed together with the
// others does (`operands_fixed`).
bool fixes_own_dtype(const Expr& e, bool operands_fixed) {
  switch (e.op()) {
    case Op::Var:
    case Op::Cast:
      return true;
    case Op::Const:
      return const_fixes_own_dtype(e.value());
    default:
      return is_logic(e.op()) || is_comparison(e.op()) || operands_fixed;
  }
}

// Whether some operand of each node that the parser types together fixes its own dtype
// (the printed form of a subtree fixes it without help, before the printer decides to
// write some constant in full), for every node of `e` in pre-order: the order in which
// the printer visits them, each shared subtree as often as it is printed. One pass
// bottom-up: asked at every node, walking down from there (as the printer did) cost
// about 650 instructions a node, half of all printing, and the simplifier prints its
// atoms to order them (passes/linear_form.cpp). Returns whether `e` fixes its own.
// With a memo, a subterm below the top that it remembers is marked kRemembered and
// not walked: the printer writes its text, or prints it with a pass of its own.
constexpr uint8_t kRemembered = 2;

// The subterms a PrintMemo remembers: no leaf or cast (they print in a step), no sum
// or product (the linear forms read through them: never an atom), and some operation
// below (a term of one operation over leaves costs less to print than to look up).
bool worth_remembering(const Expr& e) {
  switch (e.op()) {
    case Op::Var:
    case Op::Const:
    case Op::Cast:
    case Op::Add:
    case Op::Sub:
    case Op::Mul:
    case Op::Neg:
      return false;
    default:
      return std::any_of(e.args().begin(), e.args().end(), [](const Expr& arg) { return !arg.args().empty(); });
  }
}

bool mark_fixed_operands(const Expr& e, std::vector<uint8_t>& fixed_operands, const PrintMemo* memo = nullptr,
                         bool top = true) {
  if (memo && !top && worth_remembering(e)) {
    if (const PrintMemo::Entry* entry = memo->find(e)) {
      fixed_operands.push_back(kRemembered);
      return entry->fixes_own;
    }
  }
  const std::size_t at = fixed_operands.size();
  fixed_operands.push_back(0);
  const std::span<const Expr> together = typed_together(e);
  const std::size_t first_together = e.args().size() - together.size();
  bool any = false;
  for (std::size_t i = 0; i < e.args().size(); ++i) {
    const bool fixes = mark_fixed_operands(e.arg(i), fixed_operands, memo, false);
    if (i >= first_together) any = any || fixes;
  }
  fixed_operands[at] = any;
  return fixes_own_dtype(e, any);
}

// What the parser defaults a subtree of bare literals to: INDEX for integer literals,
// FP32 for float ones (float constants are always spelled as float literals).
DType default_dtype(DType dtype) { return is_float(dtype) ? DType::FP32 : DType::Index; }

// What the parser will know where a subtree is printed.
struct Context {
  std::optional<DType> pushed;  // the dtype the parent pushes down to open subtrees
  bool must_fix = false;        // the subtree must fix its own dtype (for its siblings)
};

// The contexts of a node's operands (no operation has more than three): on the
// stack, as the printer visits every node.
constexpr std::size_t kMaxArity = 3;
using OperandContexts = std::array<Context, kMaxArity>;

// A constant's text and how tightly it binds (a negative literal like a prefix operator).
struct Printed {
  std::string text;
  Prec prec;
};

// value_text spells floats in Python's way, which always shows a '.', an exponent, or
// inf/nan; this keeps a float from ever reading back as an integer literal.
std::string float_literal(const Value& v) {
  std::string text = value_text(v);
  if (text.find_first_of(".eEn") == std::string::npos) text += ".0";
  return text;
}

std::string literal_text(const Value& v) { return is_float(v.dtype) ? float_literal(v) : value_text(v); }

// Whether `e` prints in `context` as it does at the top of a term (context {}), where
// a PrintMemo's texts were printed: no operand of it must fix its dtype, and the dtype
// pushed down (if any) is the one that a bare literal defaults to and the one its
// operands are typed with, so that the printer decides everything below as it would at
// the top (see operand_contexts and constant).
bool prints_as_at_top(const Expr& e, const Context& context) {
  if (context.must_fix) return false;
  if (!context.pushed) return true;
  const DType dtype = e.dtype();
  if (*context.pushed != dtype || dtype != default_dtype(dtype)) return false;
  const std::span<const Expr> together = typed_together(e);
  return together.empty() || together[0].dtype() == dtype;
}

// Writes the text into one buffer, left to right: a node's text is never built apart
// and copied into its parent's, so printing is linear in the size of the expression
// (a chain of 200 nested max is not copied 200 times over) and allocates little.
class Printer {
 public:
  // With `memo`, the subterms it remembers are written from it where they print as at
  // the top, and the subterms it could remember that this printer prints so are listed
  // in memo->printed().
  Printer(std::string& out, const Expr& e, PrintMemo* memo = nullptr) : out_(out), memo_(memo) {
    mark_fixed_operands(e, fixed_operands_, memo);
  }
  bool visited_all() const { return visited_ == fixed_operands_.size(); }

  // Writes `e`, in parentheses when it binds less tightly than `needed`.
  void print(const Expr& e, Context context, Prec needed = Prec::Or) {
    const OpInfo& info = op_info(e.op());
    const uint8_t mark = fixed_operands_[visited_++];
    if (mark == kRemembered) {
      const PrintMemo::Entry& entry = *memo_->find(e);
      if (prints_as_at_top(e, context)) {
        if (entry.prec < needed) out_ += '(';
        out_ += entry.text;
        if (entry.prec < needed) out_ += ')';
      } else {
        // Where it prints otherwise, a printer of its own prints it (and marks its nodes).
        Printer printer(out_, e, memo_);
        printer.print(e, context, needed);
      }
      return;
    }
    const bool operands_fixed = mark != 0;
    switch (e.op()) {
      case Op::Var:
        out_ += e.name();
        return;
      case Op::Const: {
        const Printed printed = constant(e.value(), context);
        if (printed.prec < needed) {
          out_ += '(';
          out_ += printed.text;
          out_ += ')';
        } else {
          out_ += printed.text;
        }
        return;
      }
      case Op::Cast:
        // The operand is typed on its own: nothing is pushed into it.
        out_ += "cast(";
        print(e.arg(0), {});
        out_ += ", ";
        out_ += dtype_name(e.dtype());
        out_ += ')';
        return;
      default:
        break;
    }
    const OperandContexts contexts = operand_contexts(e, context, operands_fixed);
    const Prec prec = info.is_call      ? Prec::Atom
                      : info.arity == 1 ? (e.op() == Op::Not ? Prec::Not : Prec::Unary)
                                        : info.prec;
    const bool parenthesised = prec < needed;
    if (parenthesised) out_ += '(';
    const std::size_t begin = out_.size();
    if (info.is_call) {
      call(e, contexts);
    } else if (info.arity == 1) {
      prefix(e, contexts[0]);
    } else {
      infix(e, contexts);
    }
    if (memo_ && worth_remembering(e) && prints_as_at_top(e, context)) {
      memo_->printed().push_back({&e, begin, out_.size(), prec, fixes_own_dtype(e, operands_fixed)});
    }
    if (parenthesised) out_ += ')';
  }

 private:
  Printed constant(const Value& v, const Context& context) {
    if (v.dtype == DType::Bool) return {value_text(v), Prec::Atom};
    const bool bare_reads_back = !context.must_fix && !const_fixes_own_dtype(v) &&
                                 (context.pushed ? *context.pushed == v.dtype : v.dtype == default_dtype(v.dtype));
    if (!bare_reads_back) {
      return {"const(" + literal_text(v) + ", " + std::string(dtype_name(v.dtype)) + ")", Prec::Atom};
    }
    std::string text = literal_text(v);
    // "-3" reads back as the literal -3, but binds like a prefix operator.
    const Prec prec = text[0] == '-' ? Prec::Unary : Prec::Atom;
    return {std::move(text), prec};
  }

  // The context of each operand, mirroring how the parser types them.
  OperandContexts operand_contexts(const Expr& e, const Context& context, bool operands_fixed) {
    assert(e.args().size() <= kMaxArity);
    OperandContexts contexts{};
    const std::size_t arity = e.args().size();
    if (is_logic(e.op())) {
      for (std::size_t i = 0; i < arity; ++i) contexts[i].pushed = DType::Bool;
      return contexts;
    }
    const std::span<const Expr> together = typed_together(e);
    const std::size_t first = e.args().size() - together.size();  // skips select's condition
    if (first == 1) contexts[0].pushed = DType::Bool;
    const DType dtype = together[0].dtype();
    for (std::size_t i = first; i < arity; ++i) contexts[i].pushed = dtype;
    if (operands_fixed) return contexts;
    // An open operation: the parser pushes the parent's dtype (a comparison pushes none,
    // its result being BOOL) or else the default into the operands.
    const Context incoming = is_comparison(e.op()) ? Context{} : context;
    const bool reaches = incoming.pushed ? *incoming.pushed == dtype : dtype == default_dtype(dtype);
    if (incoming.must_fix || !reaches) contexts[first].must_fix = true;
    return contexts;
  }

  void call(const Expr& e, const OperandContexts& contexts) {
    out_ += op_info(e.op()).symbol;
    out_ += '(';
    for (std::size_t i = 0; i < e.args().size(); ++i) {
      if (i > 0) out_ += ", ";
      print(e.arg(i), contexts[i]);
    }
    out_ += ')';
  }

  void prefix(const Expr& e, const Context& context) {
    const OpInfo& info = op_info(e.op());
    if (e.op() == Op::Not) {
      out_ += "not ";
      print(e.arg(0), context, Prec::Not);
      return;
    }
    out_ += info.symbol;
    const std::size_t operand_at = out_.size();
    print(e.arg(0), context, Prec::Unary);
    // `-3` would read back as the literal -3: Neg(3) is written `-(3)`.
    const char first = out_[operand_at];
    const bool bare_number = (first >= '0' && first <= '9') || first == '.';
    if (e.op() == Op::Neg && bare_number) {
      out_.insert(operand_at, 1, '(');
      out_ += ')';
      // The texts listed for the memo inside the operand moved by one.
      if (memo_) {
        for (PrintMemo::Printed& printed : memo_->printed()) {
          if (printed.begin >= operand_at) {
            ++printed.begin;
            ++printed.end;
          }
        }
      }
    }
  }

  // Left-associative: the right operand must bind tighter. Comparisons do not chain
  // in our trees (a Python chain means `and`), so both of their operands must.
  void infix(const Expr& e, const OperandContexts& contexts) {
    const OpInfo& info = op_info(e.op());
    const Prec left_needs = is_comparison(e.op()) ? tighter(info.prec) : info.prec;
    print(e.arg(0), contexts[0], left_needs);
    out_ += ' ';
    out_ += info.symbol;
    out_ += ' ';
    print(e.arg(1), contexts[1], tighter(info.prec));
  }

  std::string& out_;
  PrintMemo* memo_;
  // Of each node, in the order print visits them (mark_fixed_operands).
  std::vector<uint8_t> fixed_operands_;
  std::size_t visited_ = 0;
};

std::string print_in(const Expr& expr, const Context& context) {
  std::string out;
  Printer printer(out, expr);
  printer.print(expr, context);
  assert(printer.visited_all() && "print visits every node mark_fixed_operands marked, in its order");
  return out;
}

}  // namespace

std::string print(const Expr& expr) { return print_in(expr, {}); }

std::string print(const Expr& expr, DType expected) { return print_in(expr, Context{expected, false}); }

const PrintMemo::Entry* PrintMemo::find(const Expr& term) const {
  const auto it = entries_.find(term.identity());
  return it == entries_.end() ? nullptr : &it->second;
}

std::string PrintMemo::print(const Expr& expr) {
  if (!worth_remembering(expr)) return eqsat::print(expr);
  if (const Entry* entry = find(expr)) return entry->text;
  std::string out;
  printed_.clear();  // (its storage is kept from print to print)
  Printer printer(out, expr, this);
  printer.print(expr, {});
  assert(printer.visited_all() && "print visits every node mark_fixed_operands marked, in its order");
  if (out.size() < kRememberFromChars) return out;
  for (const Printed& printed : printed_) {
    const std::size_t length = printed.end - printed.begin;
    if (remembered_chars_ + length > kMaxRememberedChars) break;
    const auto [it, inserted] = entries_.try_emplace(printed.term->identity());
    if (!inserted) continue;  // a subterm the tree holds twice
    it->second = Entry{*printed.term, out.substr(printed.begin, length), printed.prec, printed.fixes_own};
    remembered_chars_ += length;
  }
  return out;
}

}  // namespace eqsat
