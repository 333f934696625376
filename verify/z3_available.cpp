#include "verify/z3_available.h"

// Defined by the on-demand loader (tools/z3_lazy/loader.cpp) where it is linked: null
// when Z3 is loaded, else why not. Weak, so that elsewhere its address is null.
extern "C" __attribute__((weak)) const char* eqsat_z3_load();

namespace eqsat::verify {

std::optional<std::string> z3_unavailable() {
  if (eqsat_z3_load == nullptr) return std::nullopt;  // linked to Z3 as usual
  if (const char* error = eqsat_z3_load()) return std::string(error);
  return std::nullopt;
}

}  // namespace eqsat::verify
