// Rules as data: the rule language and its in-memory form.
//
// A rule is written once in a rules/*.rules file and is instantiated as one `Rewrite`
// per dtype of its scope. The engine and the verifier read the same text, so what runs
// is what was proved.
//
// THE RULE LANGUAGE
//
//   # x % c is x itself when x already lies in [0, c).
//   mod-in-range [index int uint]: x % c => x  if c > 0 and lower(x) >= 0 and upper(x) < c
//
// Lines.
//   - One rule per line: `NAME [SCOPE]: LHS => RHS`, optionally followed by `if GUARD`.
//   - A line that starts with whitespace continues the rule on the line above (for long
//     guards); it must directly follow the rule's first line or another continuation.
//   - `#` starts a comment, to the end of the line. The comment lines immediately above a
//     rule (no blank line between) become `Rule::comment`, one line of math by
//     convention. A blank line ends a comment block, so the file's first comment block,
//     which says what the file covers, belongs to no rule when a blank line follows it.
//
// NAME: one or more of [a-z0-9-]; unique across all files loaded together.
//
// SCOPE: space-separated words, each naming the dtypes the rule holds for:
//   index  INDEX              int    INT8 INT16 INT32 INT64
//   uint   UINT8 ... UINT64   float  FP16 BF16 FP32 FP64
//   bool   BOOL               or a single dtype by its name: INDEX, INT32, UINT8, ...
// The scope is the dtype T of the rule's pattern variables: the rule is instantiated
// once per T (`Rule::dtypes`, with `Rule::rewrites` parallel to it), in the order of
// the DType enum. A pattern variable standing where only a BOOL is allowed (a select
// condition, an operand of and/or/not) is a BOOL in every instance; all others are T.
// T is the variables' dtype, not the result's: `x > y => y < x` has scope `int` and a
// BOOL result, and `cast(p, INT32) != 0 => p` has scope `bool`.
// Literals get their dtype from the expression parser's inference (`x + 1`: the 1 is
// a T; a right side of literals only, `x - x => 0`, takes the left side's dtype). A
// literal that does not fit T's n bits is an error; a negative one wraps into an
// unsigned T (`x & -1` is x & 255 for UINT8), as the expression syntax defines.
//
// LHS, RHS: expressions in the syntax of shared/spec/expressions.md; every name is a
// pattern variable. A name that is `c` or `c` followed by digits (c, c0, c1, c12) is a
// constant-only variable: it matches only a class whose constant analysis knows its
// value. The right side may compute with constants (`x + (c1 + c2)`): the e-graph's
// constant analysis folds such nodes with the dtype's exact semantics (wrapping for
// INTn/UINTn, never for INDEX). Commutative operations match in both operand orders,
// so a rule is never written twice for the two orders.
//
// FLAGS: optional, in braces between the scope and the colon: the fast-math flags
// (ir/fast_math.h) the rule needs, separated by spaces or commas:
//
//   # x + 0.0 is x but for x = -0.0, where it gives +0.0.
//   add-zero-nsz [float] {nsz}: x + 0.0 => x
//
// Such a rule is proved under exactly those flags (nsz: results compared up to the sign
// of zero; nnan, ninf: a NaN or an infinity as an input or result of either side makes
// the obligation vacuous, as LLVM's poison does; reassoc: see docs/verification.md) and
// runs only where the run, the batch case or the function grants all of them. Flags
// are for float scopes only.
//
// GUARD: a condition over the match, true for the rule to fire:
//   - `c`, `c1`, ...: the value of a constant-only variable of the left side;
//   - `lower(x)`, `upper(x)`: the interval bounds of the class bound to any variable x
//     of the left side;
//   - integer literals; + - * // % (floor, as in Python), unary -, min, max, abs,
//     & (bitwise and); comparisons == != < <= > >= (chains allowed: `0 <= c < 8`);
//     and, or, not; parentheses. Python precedence.
//   - `is_const(x)`: whether the analysis knows x's class to be a constant. It is about
//     knowledge, not value: it only limits when a rule is tried (`not is_const(y)` keeps
//     constant pushing off constants, which folding handles), so the rule must hold
//     whatever it says; the verifier proves rules without it.
// Evaluation is exact and three-valued (egraph/guard.h): an unbounded side or a
// non-integer value is unknown, and only a definitely true guard lets the rule fire.
//
// A rule is rejected, with "file:line:column: reason", for: a syntax error on either
// side or in the guard; a right side that uses a variable the left does not bind; a
// guard over a name the left does not bind, or over a variable that is not
// constant-only used as a value (use lower(x)/upper(x)); a duplicate rule name (also
// across files); a rule whose two sides have different dtypes; a pattern variable used
// both as a BOOL and as a T; an unknown scope word or an empty scope; a left side that
// is a bare variable or constant; an unknown, repeated or empty fast-math flag list, or
// one on a scope that is not float.
//
// SOUNDNESS: every instance must hold under shared/spec/expressions.md: wherever the
// left side is defined (no division by zero, no out-of-range shift) the right side is
// defined and equal, with INDEX never overflowing, INTn/UINTn wrapping and floats
// following IEEE 754 exactly. verify/ proves each instance with Z3.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "egraph/rewrite.h"
#include "ir/error.h"
#include "rules/rule_instances.h"

namespace eqsat {

struct Rule {
  std::string name;
  std::string file;  // where it was written, for messages
  int line = 0;
  std::string comment;     // the comment lines right above the rule, without '#'
  std::string scope_text;  // as written, e.g. "index int uint"
  FastMath fast_math;      // the flags written in braces after the scope; none: strict IEEE
  std::string lhs_text;
  std::string rhs_text;
  std::string guard_text;     // empty when the rule has no guard
  std::vector<DType> dtypes;  // the scope, expanded: one instance per dtype
  RuleInstances rewrites;     // parallel to `dtypes` (rules/rule_instances.h)
};

struct RuleSet {
  std::vector<Rule> rules;

  // Every dtype instance of every rule, in rule order: a copy.
  std::vector<Rewrite> rewrites() const;
  // The same, without a copy where the rules are the whole of the array their instances
  // share, in order (a set as parse_rule_set or the loaders make it, the catalogue):
  // what a long-lived user of the rewrites (the command line, a compiler) holds. Else
  // a copy of its own.
  std::shared_ptr<const std::vector<Rewrite>> shared_rewrites() const;
  const Rule* find(std::string_view name) const;
  // The same set without the named rule (for tests that show a rule is needed).
  RuleSet without(std::string_view name) const;
  // Appends rules; a name already in the set is an error ("file:line:1: duplicate
  // rule name ..."), and then nothing after that rule is added.
  std::optional<Error> add(std::vector<Rule> more);
};

// Parses the text of one rule file. Errors name "file:line:column" and the reason, in
// Error::message (Error::line and column stay 0: the file is part of the position).
Result<std::vector<Rule>> parse_rules(std::string_view text, std::string_view file_name);

// The text of a rule file and the name its messages give it.
struct RuleText {
  std::string_view text;
  std::string_view file_name;
};

// Parses rule files as one set, in order: rule names must be unique across all of them
// (a duplicate is reported as RuleSet::add does), and all their instances are one array
// (RuleSet::shared_rewrites).
Result<RuleSet> parse_rule_set(std::span<const RuleText> files);

// Reads and parses rule files; rule names must be unique across all of them.
Result<RuleSet> load_rule_files(const std::vector<std::string>& paths);

// The built-in catalogue: the rules/*.rules files of the source tree, embedded into
// the library at build time (so an installed tool needs no data files), with the lock
// of proved rules (rules/rules.lock, rules/rule_lock.h). Parsed once. Only proved rules
// run: a rule of the catalogue that the lock does not prove with its current digest is
// a bug of the build (CI runs `eqsat verify-rules --check-lock`), reported on stderr,
// naming each such rule, before aborting. A syntax error in the catalogue likewise.
const RuleSet& builtin_rules();

// The same catalogue without the lock check: for the verifier, which proves the rules
// and writes the lock (`eqsat verify-rules --write-lock`). Never run these rules.
const RuleSet& builtin_rules_unverified();

}  // namespace eqsat
