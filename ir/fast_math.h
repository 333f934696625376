// Fast-math flags: permissions to relax IEEE 754 semantics for floats, named after
// LLVM's fast-math flags. By default eqsat's floats are strict IEEE (NaN, infinities and
// signed zeros are values a rewrite must preserve); a run, a batch case or a function
// may grant some of these, and then the float rules that need them may fire
// (rules/fastmath.rules, docs/rules.md "Fast-math rules").
//
//   nsz      no signed zeros: -0.0 and +0.0 may be exchanged in a result
//   nnan     no NaNs: an input or a result that would be NaN is poison (as in LLVM), so
//            a rewrite need not preserve what happens there
//   ninf     no infinities: likewise for +inf and -inf
//   reassoc  reassociation: (a + b) + c may become a + (b + c) (also for *), which
//            changes rounding; accepted for pure reassociation rules only, and in
//            translation validation for results that differ only by rounding
//            (docs/verification.md)
//
// Under nnan or ninf, float arithmetic and float variables may be undefined as an
// integer division may (ir/definedness.h): operand order and branch facts respect it.
//
// Written as a comma-separated list in that order ("nsz,nnan"), or "all"; "none" or an
// empty text is no flag.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "ir/error.h"

namespace eqsat {

enum class FastMathFlag : uint8_t { Nsz = 1, Nnan = 2, Ninf = 4, Reassoc = 8 };

class FastMath {
 public:
  constexpr FastMath() = default;
  constexpr FastMath(FastMathFlag flag) : bits_(static_cast<uint8_t>(flag)) {}  // NOLINT: a flag is a set
  static constexpr FastMath all() { return FastMath(uint8_t{15}); }

  constexpr bool has(FastMathFlag flag) const { return (bits_ & static_cast<uint8_t>(flag)) != 0; }
  constexpr bool none() const { return bits_ == 0; }
  // Whether every flag of `other` is in this set (a run with these flags may use a
  // rule that needs `other`).
  constexpr bool includes(FastMath other) const { return (bits_ & other.bits_) == other.bits_; }
  constexpr uint8_t bits() const { return bits_; }
  // Whether a float may be poison (nnan or ninf): then float arithmetic and float
  // variables may be undefined (ir/definedness.h).
  constexpr bool floats_may_be_poison() const { return has(FastMathFlag::Nnan) || has(FastMathFlag::Ninf); }

  constexpr FastMath operator|(FastMath other) const { return FastMath(uint8_t(bits_ | other.bits_)); }
  constexpr FastMath& operator|=(FastMath other) { return *this = *this | other; }
  friend constexpr bool operator==(FastMath a, FastMath b) { return a.bits_ == b.bits_; }

 private:
  constexpr explicit FastMath(uint8_t bits) : bits_(bits) {}
  uint8_t bits_ = 0;
};

// The flag named `word` ("nsz", "nnan", "ninf", "reassoc").
std::optional<FastMathFlag> parse_fast_math_flag(std::string_view word);
std::string_view fast_math_flag_name(FastMathFlag flag);

// "nsz,nnan", "nsz, nnan", "all", "none" or "": the set. An unknown word is an error
// naming it and the known ones (Error::column: 1-based, of the word in `text`).
Result<FastMath> parse_fast_math(std::string_view text);

// The canonical text: the flags in the order nsz, nnan, ninf, reassoc, joined by
// `separator` ("" for no flag).
std::string fast_math_text(FastMath flags, std::string_view separator = ",");

}  // namespace eqsat
