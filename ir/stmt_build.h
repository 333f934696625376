// Building functions of the statement IR (ir/stmt.h) from C++, for a compiler that
// hands its kernels to the Simplify pass without going through the text form:
//
//   using namespace eqsat::build;
//   const Expr i = var("i"), n = var("n");
//   Function kernel = function("kernel", {param("n", Type::scalar(DType::Index))},
//                              {for_range("i", lit(0), n, lit(1),
//                                         {eval(call("store", {arith(i * 4 + 0)}))})});
//
// Expressions come from ir/build.h. The pass reads a loop variable's range from its
// `for`, so the builder needs nothing else to know that 0 <= i < n inside the body.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ir/build.h"
#include "ir/stmt.h"

namespace eqsat::build {

Param param(std::string name, Type type);
Function function(std::string name, std::vector<Param> params, Block body, std::optional<Type> result = {});

// A call term (an opaque operation the pass never removes or moves): `store(x, i)`.
// Expression arguments become arithmetic terms.
Term call(std::string callee, std::vector<Term> args);
inline Term arith(Expr e) { return Term::arith(std::move(e)); }

Stmt assign(std::string target, Term value);
Stmt assign(std::string target, const Expr& value);
Stmt eval(Term call);
Stmt for_range(std::string loop_var, Expr start, Expr stop, Expr step, Block body,
               LoopKind kind = LoopKind::Sequential);
Stmt if_then(const Expr& condition, Block then_arm, Block else_arm = {});
Stmt return_values(std::vector<Term> values);

}  // namespace eqsat::build
