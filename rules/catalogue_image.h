// A rule set as bytes: the built-in catalogue compiled at build time.
//
// Parsing the catalogue's 371 rules into their ~1,900 dtype instances took about 11 ms,
// two thirds of every `eqsat` process's start-up before its first expression, and its
// result is the same every time. So the build parses it once (rules/build_tool/
// compile_catalogue.cpp), checks it against its lock, and writes it as an image that
// the library embeds; `builtin_rules()` reads the image back, which builds the same
// RuleSet with no parsing or typing (docs/performance.md, "The catalogue compiled at
// build time").
//
// The image holds every field of every rule and of each of its instances, so that
// what is read back is exactly what parse_rule_set made (a test compares the two
// field by field). Its layout is private to this file pair: a format number in its
// header changes with it, and a reader refuses an image of another format, or one
// that is cut short or holds a value out of range, rather than guess.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "rules/rule.h"

namespace eqsat {

// The image of `rules`.
std::string write_catalogue_image(const RuleSet& rules);

// The rule set `image` holds, its instances one array in rule order as parse_rule_set
// makes them (RuleSet::shared_rewrites hands it out without a copy); nullopt for an
// image that is not one this program writes.
std::optional<RuleSet> read_catalogue_image(std::string_view image);

}  // namespace eqsat
