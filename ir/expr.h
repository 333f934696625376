// Typed expression trees: what the parser produces, the extractor returns and the
// printer writes. Immutable and cheap to copy (a shared pointer to the node).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ir/dtype.h"
#include "ir/op.h"
#include "ir/value.h"

namespace eqsat {

class Expr;

struct ExprNode {
  Op op;
  DType dtype;             // the result dtype; for Cast the target dtype
  std::string name;        // Var only
  Value value;             // Const only
  std::vector<Expr> args;  // op_info(op).arity children
};

class Expr {
 public:
  Expr() = default;  // an empty handle; only valid as a placeholder

  static Expr var(std::string name, DType dtype);
  static Expr constant(Value value);
  // Builds an operation node. The caller is responsible for well-typedness; use
  // `make_typed` (ir/build.h) to check operand dtypes first.
  static Expr make(Op op, DType dtype, std::vector<Expr> args);

  bool valid() const { return node_ != nullptr; }
  Op op() const { return node_->op; }
  DType dtype() const { return node_->dtype; }
  const std::string& name() const { return node_->name; }
  const Value& value() const { return node_->value; }
  const std::vector<Expr>& args() const { return node_->args; }
  const Expr& arg(std::size_t i) const { return node_->args[i]; }
  bool is_const() const { return node_->op == Op::Const; }
  // The node's identity: equal for copies of one handle (a key for memo tables).
  const void* identity() const { return node_.get(); }

  // Number of nodes of the tree (shared subtrees counted each time they appear).
  std::size_t tree_size() const;

  // Structural equality: same ops, dtypes, names, values and children.
  friend bool operator==(const Expr& a, const Expr& b);
  friend bool operator!=(const Expr& a, const Expr& b) { return !(a == b); }

 private:
  explicit Expr(std::shared_ptr<const ExprNode> node) : node_(std::move(node)) {}
  std::shared_ptr<const ExprNode> node_;
};

}  // namespace eqsat
