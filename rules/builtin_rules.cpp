// builtin_rules(): the catalogue the build compiled (rules/compiled_catalogue.h).
//
// Apart from the rest of rules/ because the build's catalogue compiler
// (rules/build_tool/compile_catalogue.cpp) is made of the rest: this is the one part
// that needs what it makes.
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <utility>

#include "rules/catalogue_image.h"
#include "rules/compiled_catalogue.h"
#include "rules/rule.h"
#include "rules/rule_lock.h"

namespace eqsat {

const RuleSet& builtin_rules() {
  static const RuleSet& proved = []() -> const RuleSet& {
    // The build wrote the image only after the lock proved every instance of the
    // catalogue it parsed from the same rule files that are embedded here.
    // Never destroyed: it lives as long as the process, and freeing its ~20,000 blocks at
    // exit took a tenth of a short run's time (docs/performance.md, "The catalogue
    // compiled at build time").
    if (std::optional<RuleSet> compiled = read_catalogue_image(compiled_catalogue_image())) {
      return *new RuleSet(std::move(*compiled));
    }
    // No image: the lock did not prove the catalogue when it was built (an image this
    // program cannot read would be a bug, which CatalogueImage.* rules out). Parse it
    // and check it here, to name the rules that are not proved. (The catalogue itself,
    // not a copy: it is about two thousand rewrites.)
    const RuleSet& catalogue = builtin_rules_unverified();
    if (std::optional<Error> unproved = unproved_error(catalogue, builtin_rule_lock())) {
      std::fprintf(stderr,
                   "eqsat: the built-in rule catalogue has rules that rules/rules.lock does not "
                   "prove (run `eqsat verify-rules --write-lock` after changing a rule):\n%s\n",
                   unproved->message.c_str());
      std::abort();
    }
    return catalogue;
  }();
  return proved;
}

}  // namespace eqsat
