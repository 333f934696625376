// CLI11's application type, declared for the headers that only name it in a signature.
// <CLI/CLI.hpp> is header-only and takes about 7 s to compile (GCC 12, -O2), so only the
// files that register flags or parse a command line include it. The rest of tools/ and
// the tests, benchmarks and Python module that use its headers compile without it.
#pragma once

namespace CLI {
class App;
}  // namespace CLI
