// The types of the statement IR: what a function parameter, a result or an annotated
// variable holds.
//
//   Scalar[DTYPE]                         one value
//   Tensor[[d0, d1, ...], DTYPE, ...]     a tensor in memory, elementwise DTYPE
//   Tile[[d0, d1, ...], DTYPE, ...]       an on-chip tile, elementwise DTYPE
//   Tuple[T0, T1, ...]                    several values (a multi-result function)
//
// A shaped type (Tensor, Tile) may carry more layout, each an INDEX expression:
// `stride=[...]`, `valid_shape=[...]` and `offset=...`. These are ordinary expressions
// over the function's scalars, so the Simplify pass folds them like any other (the
// "type rebuild"): `Tile[[CHUNK, 64], FP32]` becomes `Tile[[512, 64], FP32]` once CHUNK
// is known to be 512.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "ir/expr.h"

namespace eqsat {

enum class TypeKind : uint8_t { Scalar, Tensor, Tile, Tuple };

struct Type {
  TypeKind kind = TypeKind::Scalar;
  DType dtype = DType::Index;                    // Scalar, Tensor, Tile: the element dtype
  std::vector<Expr> shape;                       // Tensor, Tile
  std::optional<std::vector<Expr>> stride;       // Tensor, Tile, optional
  std::optional<std::vector<Expr>> valid_shape;  // Tensor, Tile, optional
  std::optional<Expr> offset;                    // Tensor, Tile, optional
  std::vector<Type> elements;                    // Tuple

  static Type scalar(DType dtype) { return Type{TypeKind::Scalar, dtype, {}, {}, {}, {}, {}}; }
  bool is_scalar() const { return kind == TypeKind::Scalar; }
  bool is_shaped() const { return kind == TypeKind::Tensor || kind == TypeKind::Tile; }

  friend bool operator==(const Type& a, const Type& b);
  friend bool operator!=(const Type& a, const Type& b) { return !(a == b); }
};

// The same type with every embedded expression replaced by `f(expr)` (shape, stride,
// valid shape, offset, recursively through tuples).
Type map_type_exprs(const Type& type, const std::function<Expr(const Expr&)>& f);

// Calls `f` on every embedded expression.
void for_each_type_expr(const Type& type, const std::function<void(const Expr&)>& f);

}  // namespace eqsat
