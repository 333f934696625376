// Z3 loaded by the eqsat command when a command first calls it, not when it starts.
//
// Linked as usual, libz3 (23 MB) is mapped and relocated before main() runs: 1.8 ms of
// every start on this project's machines (a C++ program that does nothing starts in
// 3.4 ms, 5.2 ms linked to libz3), a fifth of `eqsat simplify` on a small expression,
// though only --verify, verify-rules and fuzz ever call Z3 (docs/performance.md). So the
// command links stubs instead (tools/z3_lazy/z3_stubs.cmake, written at configure
// time): each Z3 function jumps through a table whose entries first lead here. The
// first call loads libz3 with dlopen, fills the whole table and goes on into the
// function, as if it had been called directly; later calls cost one indirect jump.
//
// A command that needs Z3 asks verify::z3_unavailable() first (verify/z3_available.h),
// which loads it here: without libz3, that command fails with the loader's reason, and
// every other command runs as before.
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

extern "C" {
// Written by z3_stubs.cmake: the table, how many entries, their names one after the
// other (each ends with a NUL).
extern void* eqsat_z3_slots[];
extern const unsigned eqsat_z3_count;
extern const char eqsat_z3_names[];

const char* eqsat_z3_load();
__attribute__((visibility("hidden"))) void* eqsat_z3_resolve(unsigned index);
}

namespace {

// dlopen's reason, or null once every function is in the table. Loaded once, whichever
// thread calls first; the table's entries are written and read whole (atomically), so a
// thread that reads an entry meanwhile gets either the loader or the function.
const char* load_once() {
  static const char* error = nullptr;
  static std::once_flag once;
  std::call_once(once, [] {
    void* z3 = dlopen(EQSAT_Z3_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (z3 == nullptr) {
      const char* reason = dlerror();
      error = strdup(reason != nullptr ? reason : "dlopen failed: " EQSAT_Z3_SONAME);
      return;
    }
    const char* name = eqsat_z3_names;
    for (unsigned i = 0; i < eqsat_z3_count; ++i, name += std::strlen(name) + 1) {
      void* function = dlsym(z3, name);
      if (function == nullptr) {
        static char missing[256];
        std::snprintf(missing, sizeof missing, "%s has no function %s", EQSAT_Z3_SONAME, name);
        error = missing;
        return;
      }
      __atomic_store_n(&eqsat_z3_slots[i], function, __ATOMIC_RELEASE);
    }
  });
  return error;
}

}  // namespace

// For verify::z3_unavailable(): null when Z3 is loaded, else why it cannot be.
const char* eqsat_z3_load() { return load_once(); }

// The stubs' first call of function `index`.
void* eqsat_z3_resolve(unsigned index) {
  if (const char* error = load_once()) {
    // Only a command that did not ask z3_unavailable() first gets here.
    std::fprintf(stderr, "eqsat: error: Z3 is needed here and cannot be loaded: %s\n", error);
    std::fflush(nullptr);
    std::_Exit(2);
  }
  return __atomic_load_n(&eqsat_z3_slots[index], __ATOMIC_ACQUIRE);
}
