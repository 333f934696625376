#include "ir/stmt_type.h"

namespace eqsat {

namespace {

std::vector<Expr> map_all(const std::vector<Expr>& exprs, const std::function<Expr(const Expr&)>& f) {
  std::vector<Expr> out;
  out.reserve(exprs.size());
  for (const Expr& e : exprs) out.push_back(f(e));
  return out;
}

}  // namespace

bool operator==(const Type& a, const Type& b) {
  return a.kind == b.kind && a.dtype == b.dtype && a.shape == b.shape && a.stride == b.stride &&
         a.valid_shape == b.valid_shape && a.offset == b.offset && a.elements == b.elements;
}

Type map_type_exprs(const Type& type, const std::function<Expr(const Expr&)>& f) {
  Type out = type;
  out.shape = map_all(type.shape, f);
  if (type.stride) out.stride = map_all(*type.stride, f);
  if (type.valid_shape) out.valid_shape = map_all(*type.valid_shape, f);
  if (type.offset) out.offset = f(*type.offset);
  for (Type& element : out.elements) element = map_type_exprs(element, f);
  return out;
}

void for_each_type_expr(const Type& type, const std::function<void(const Expr&)>& f) {
  for (const Expr& e : type.shape) f(e);
  if (type.stride) {
    for (const Expr& e : *type.stride) f(e);
  }
  if (type.valid_shape) {
    for (const Expr& e : *type.valid_shape) f(e);
  }
  if (type.offset) f(*type.offset);
  for (const Type& element : type.elements) for_each_type_expr(element, f);
}

}  // namespace eqsat
