#include "ir/fast_math.h"

#include <array>
#include <cctype>

namespace eqsat {

namespace {

struct FlagName {
  FastMathFlag flag;
  std::string_view name;
};

// In the canonical order.
constexpr std::array<FlagName, 4> kFlags = {{{FastMathFlag::Nsz, "nsz"},
                                             {FastMathFlag::Nnan, "nnan"},
                                             {FastMathFlag::Ninf, "ninf"},
                                             {FastMathFlag::Reassoc, "reassoc"}}};

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

}  // namespace

std::optional<FastMathFlag> parse_fast_math_flag(std::string_view word) {
  for (const FlagName& f : kFlags) {
    if (f.name == word) return f.flag;
  }
  return std::nullopt;
}

std::string_view fast_math_flag_name(FastMathFlag flag) {
  for (const FlagName& f : kFlags) {
    if (f.flag == flag) return f.name;
  }
  return "?";
}

Result<FastMath> parse_fast_math(std::string_view text) {
  FastMath flags;
  std::size_t pos = 0;
  while (pos < text.size()) {
    while (pos < text.size() && (is_space(text[pos]) || text[pos] == ',')) ++pos;
    if (pos == text.size()) break;
    std::size_t end = pos;
    while (end < text.size() && !is_space(text[end]) && text[end] != ',') ++end;
    const std::string_view word = text.substr(pos, end - pos);
    if (word == "all") {
      flags |= FastMath::all();
    } else if (word == "none") {
      // no flag: a way to say so explicitly
    } else if (std::optional<FastMathFlag> flag = parse_fast_math_flag(word)) {
      flags |= *flag;
    } else {
      return Error{
          "unknown fast-math flag '" + std::string(word) + "' (expected nsz, nnan, ninf, reassoc, all or none)",
          static_cast<int>(pos) + 1};
    }
    pos = end;
  }
  return flags;
}

std::string fast_math_text(FastMath flags, std::string_view separator) {
  std::string out;
  for (const FlagName& f : kFlags) {
    if (!flags.has(f.flag)) continue;
    if (!out.empty()) out += separator;
    out += f.name;
  }
  return out;
}

}  // namespace eqsat
