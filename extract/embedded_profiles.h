// The cost profiles embedded into the library (private to extract/).
//
// The definition is generated at build time by profiles/embed_profiles.cmake from
// profiles/*.json (see the top-level CMakeLists.txt), so editing a profile rebuilds it.
#pragma once

#include <span>
#include <string_view>

namespace eqsat {

struct EmbeddedProfile {
  std::string_view name;  // the file name without ".json", e.g. "div-expensive"
  std::string_view text;
};

// In name order.
std::span<const EmbeddedProfile> embedded_profiles();

}  // namespace eqsat
