#include "rules/rule_digest.h"

#include <cstdint>
#include <string_view>

namespace eqsat {

namespace {

constexpr uint64_t kFnvOffset = 0xcbf29ce484222325ULL;
constexpr uint64_t kFnvPrime = 0x100000001b3ULL;

void feed(uint64_t& h, std::string_view text) {
  for (char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= kFnvPrime;
  }
  h ^= 0;  // the NUL separator, so that ("ab", "c") and ("a", "bc") differ
  h *= kFnvPrime;
}

}  // namespace

std::string rule_digest(const Rule& rule, DType dtype) {
  uint64_t h = kFnvOffset;
  feed(h, rule.name);
  feed(h, rule.lhs_text);
  feed(h, rule.rhs_text);
  feed(h, rule.guard_text);
  feed(h, dtype_name(dtype));
  // Only rules with flags feed them, so the digests of strict rules stay as they were.
  if (!rule.fast_math.none()) feed(h, "{" + fast_math_text(rule.fast_math) + "}");
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, h >>= 4) out[i] = kHex[h & 0xf];
  return out;
}

}  // namespace eqsat
