// Whether this process can call Z3.
//
// The eqsat command loads libz3 only when a command first needs it (tools/z3_lazy/):
// there a missing or broken libz3 is an error of --verify, verify-rules or fuzz, not of
// every start. A program linked to Z3 as usual (the libraries, the tests) always has it.
#pragma once

#include <optional>
#include <string>

namespace eqsat::verify {

// nullopt when Z3 can be called (loading it now if it is loaded on demand); otherwise
// the reason it cannot, as the dynamic loader gives it.
std::optional<std::string> z3_unavailable();

}  // namespace eqsat::verify
