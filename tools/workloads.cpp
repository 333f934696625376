#include "tools/workloads.h"

#include <charconv>

namespace eqsat::cli {

std::string sum_workload(int n) {
  std::string term = "a0";
  for (int i = 1; i < n; ++i) {
    term = (i > 1 ? "(" + term + ")" : term) + " + a" + std::to_string(i);
  }
  return term;
}

namespace {

// The i-th variable name of `pos`: a..z, then v26, v27, ...
std::string pos_variable(int i) {
  if (i < 26) return std::string(1, static_cast<char>('a' + i));
  return "v" + std::to_string(i);
}

}  // namespace

std::string pos_workload(int k) {
  auto sum = [](int s) { return "(" + pos_variable(2 * s) + " + " + pos_variable(2 * s + 1) + ")"; };
  if (k == 1) return pos_variable(0) + " + " + pos_variable(1);
  std::string term = sum(0);
  for (int s = 1; s < k; ++s) {
    term = (s > 1 ? "(" + term + ")" : term) + " * " + sum(s);
  }
  return term;
}

Result<std::string> workload_term(std::string_view name) {
  const std::string_view kinds[] = {"sum", "pos"};
  for (std::string_view kind : kinds) {
    if (name.substr(0, kind.size()) != kind || name.size() < kind.size() + 2) continue;
    const char separator = name[kind.size()];
    if (separator != ' ' && separator != ':') continue;
    std::string_view digits = name.substr(kind.size() + 1);
    int n = 0;
    auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (error != std::errc() || end != digits.data() + digits.size() || n < 1 || n > 1000) {
      return Error{"workload '" + std::string(name) + "': expected a count from 1 to 1000 after '" + std::string(kind) +
                   "'"};
    }
    return kind == "sum" ? sum_workload(n) : pos_workload(n);
  }
  return Error{"unknown workload '" + std::string(name) + "' (expected 'sum N' or 'pos K')"};
}

}  // namespace eqsat::cli
