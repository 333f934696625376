// Translation validation: is the simplifier's output equal to its input, under the
// facts that were in force? The check behind `eqsat batch --verify` and
// `eqsat simplify-expr --verify`; the engine itself never links Z3.
#pragma once

#include <string>

#include "ir/expr.h"
#include "passes/facts.h"
#include "verify/refinement.h"

namespace eqsat::verify {

struct EquivalenceResult {
  enum class Status : uint8_t { Equal, Counterexample, Unknown };
  Status status = Status::Unknown;
  ProofKind kind = ProofKind::Exact;  // Equal: which proof
  // Counterexample: "x = 3 (INDEX): input = 5, output = 6"; Unknown: the reason.
  std::string detail;
};

// Proves that wherever `input` is defined, `output` is defined and has the same value,
// for every assignment of the variables within `facts.bounds` on which every
// assumption holds (the refinement of verify/refinement.h, input as the left side).
//
// Under reassoc (`options.fast_math`) reassociating may change rounding, and then no
// IEEE equation holds: `(f + 3.0) + 1.0` reassociated and folded is `f + 4.0`, which
// rounds differently for some f. So when the IEEE claim has a counterexample, the
// result is Equal with ProofKind::AssumedReassoc if the output differs only by
// rounding: it equals the input when every float is a real and every operation exact
// (FloatModel::Real), and it is defined wherever the input is, a NaN or infinity being
// poison under nnan/ninf except as the result of a +, - or * (reassociating may
// overflow where the input did not). That is the permission reassoc grants and a
// little more (exact arithmetic also equates `(x + y) - y` with `x`, which reassoc
// alone does not give): an assumption, like the catalogue's assumed-reassoc rules,
// not a proof.
EquivalenceResult verify_equivalent(const Expr& input, const Expr& output, const Facts& facts,
                                    const ProverOptions& options = {});

}  // namespace eqsat::verify
