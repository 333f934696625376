// The catalogue compiled at build time (rules/catalogue_image.h): what builtin_rules()
// reads back is exactly what parsing the rule files gives, and an image that is not one
// this program writes is refused, never half read.
#include "rules/catalogue_image.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "rules/compiled_catalogue.h"
#include "rules/rule.h"
#include "tests/support/sweep.h"

namespace eqsat::testing {
namespace {

void expect_same_pattern(const Pattern& a, const Pattern& b, const std::string& where) {
  ASSERT_EQ(a.nodes.size(), b.nodes.size()) << where;
  for (std::size_t i = 0; i < a.nodes.size(); ++i) {
    const PatternNode& x = a.nodes[i];
    const PatternNode& y = b.nodes[i];
    EXPECT_TRUE(x.kind == y.kind && x.op == y.op && x.dtype == y.dtype && x.children == y.children) << where;
    if (x.kind == PatternNode::Kind::Var) {
      EXPECT_EQ(x.var, y.var) << where;
    }
    if (x.kind == PatternNode::Kind::Const) {
      EXPECT_EQ(x.constant, y.constant) << where;
    }
  }
  EXPECT_EQ(a.constants, b.constants) << where;  // floats by bit pattern: -0.0 is not 0.0
  EXPECT_EQ(a.root, b.root) << where;
}

void expect_same_guard(const Guard& a, const Guard& b, const std::string& where) {
  ASSERT_EQ(a.nodes.size(), b.nodes.size()) << where;
  for (std::size_t i = 0; i < a.nodes.size(); ++i) {
    const GuardNode& x = a.nodes[i];
    const GuardNode& y = b.nodes[i];
    EXPECT_TRUE(x.kind == y.kind && x.op == y.op && x.literal == y.literal && x.var == y.var &&
                x.children == y.children)
        << where << ", guard node " << i;
  }
  EXPECT_EQ(a.root, b.root) << where;
  EXPECT_EQ(a.text, b.text) << where;
}

void expect_same_rewrite(const Rewrite& a, const Rewrite& b, const std::string& where) {
  EXPECT_EQ(a.name, b.name) << where;
  EXPECT_TRUE(a.fast_math == b.fast_math) << where;
  ASSERT_EQ(a.vars.size(), b.vars.size()) << where;
  for (std::size_t i = 0; i < a.vars.size(); ++i) {
    EXPECT_EQ(a.vars[i].name, b.vars[i].name) << where;
    EXPECT_EQ(a.vars[i].dtype, b.vars[i].dtype) << where;
    EXPECT_EQ(a.vars[i].const_only, b.vars[i].const_only) << where;
  }
  expect_same_pattern(a.lhs, b.lhs, where + ", left side");
  expect_same_pattern(a.rhs, b.rhs, where + ", right side");
  ASSERT_EQ(a.guard.has_value(), b.guard.has_value()) << where;
  if (a.guard) expect_same_guard(*a.guard, *b.guard, where);
}

// Every field of every rule and of each of its instances.
void expect_same_rules(const RuleSet& a, const RuleSet& b) {
  ASSERT_EQ(a.rules.size(), b.rules.size());
  for (std::size_t r = 0; r < a.rules.size(); ++r) {
    const Rule& x = a.rules[r];
    const Rule& y = b.rules[r];
    const std::string where = x.file + ":" + std::to_string(x.line) + " " + x.name;
    EXPECT_EQ(x.name, y.name) << where;
    EXPECT_EQ(x.file, y.file) << where;
    EXPECT_EQ(x.line, y.line) << where;
    EXPECT_EQ(x.comment, y.comment) << where;
    EXPECT_EQ(x.scope_text, y.scope_text) << where;
    EXPECT_TRUE(x.fast_math == y.fast_math) << where;
    EXPECT_EQ(x.lhs_text, y.lhs_text) << where;
    EXPECT_EQ(x.rhs_text, y.rhs_text) << where;
    EXPECT_EQ(x.guard_text, y.guard_text) << where;
    EXPECT_EQ(x.dtypes, y.dtypes) << where;
    ASSERT_EQ(x.rewrites.size(), y.rewrites.size()) << where;
    for (std::size_t i = 0; i < x.rewrites.size(); ++i) {
      expect_same_rewrite(x.rewrites[i], y.rewrites[i], where + " (" + std::string(dtype_name(x.dtypes[i])) + ")");
    }
  }
}

// Rules with every kind of part an image holds: several dtypes, a BOOL variable,
// constant-only variables, guards over every fact, float constants (-0.0, a NaN is not
// writable in a rule), fast-math flags, a comment.
constexpr std::string_view kVariedRules = R"(# what the file covers

# x % c is x itself when x already lies in [0, c)
mod-in-range [index int uint]: x % c => x  if c > 0 and lower(x) >= 0 and upper(x) < c
# facts
mod-aligned [index]: x % c => x % c + 0  if modulus(x) % c == 0 and remainder(x) >= 0 and not is_const(x) and total(x)
big-literal [INT64]: x + c => x  if 0 <= c < 18446744073709551616 and abs(-3) == 3
zero-sub-nsz [float] {nsz, nnan}: -0.0 - x => -x
pick [int float]: select(p, x, x + 1) => select(not p, x + 1, x)
)";

RuleSet varied_rules() {
  const RuleText file{kVariedRules, "varied.rules"};
  Result<RuleSet> set = parse_rule_set(std::span(&file, 1));
  EXPECT_TRUE(set.ok()) << set.error().message;
  return set.ok() ? std::move(set).value() : RuleSet{};
}

TEST(CatalogueImage, BuiltinRulesAreTheCompiledCatalogueAndEqualTheParsedOne) {
  ASSERT_FALSE(compiled_catalogue_image().empty()) << "the build found the catalogue not proved by its lock";
  const std::optional<RuleSet> compiled = read_catalogue_image(compiled_catalogue_image());
  ASSERT_TRUE(compiled.has_value());
  expect_same_rules(*compiled, builtin_rules_unverified());
  // builtin_rules() is the image read back, not the parsed set.
  EXPECT_NE(&builtin_rules(), &builtin_rules_unverified());
  expect_same_rules(builtin_rules(), builtin_rules_unverified());
}

TEST(CatalogueImage, RoundTripsRulesOfEveryKind) {
  const RuleSet rules = varied_rules();
  ASSERT_EQ(rules.rules.size(), 5u);
  const std::string image = write_catalogue_image(rules);
  const std::optional<RuleSet> read = read_catalogue_image(image);
  ASSERT_TRUE(read.has_value());
  expect_same_rules(*read, rules);
  EXPECT_EQ(write_catalogue_image(*read), image);
  // The -0.0 kept its sign.
  const Rewrite& zero_sub = read->find("zero-sub-nsz")->rewrites[0];
  ASSERT_EQ(zero_sub.lhs.constants.size(), 1u);
  EXPECT_TRUE(std::signbit(zero_sub.lhs.constants[0].f));
}

TEST(CatalogueImage, InstancesAreOneArrayHandedOutWithoutACopy) {
  const std::optional<RuleSet> read = read_catalogue_image(write_catalogue_image(varied_rules()));
  ASSERT_TRUE(read.has_value());
  const auto& storage = read->rules.front().rewrites.storage();
  ASSERT_NE(storage, nullptr);
  EXPECT_EQ(read->shared_rewrites(), storage);
  std::size_t instances = 0;
  for (const Rule& rule : read->rules) instances += rule.dtypes.size();
  EXPECT_EQ(storage->size(), instances);
  EXPECT_EQ(instances, 9u + 1 + 1 + 4 + 8);  // index int uint; INDEX; INT64; float; int float
}

TEST(CatalogueImage, RefusesAnImageCutShortOrWithBytesAfterIt) {
  const std::string image = write_catalogue_image(varied_rules());
  for (std::size_t size = 0; size < image.size(); ++size) {
    if (!in_sweep(size)) continue;
    EXPECT_FALSE(read_catalogue_image(std::string_view(image).substr(0, size)).has_value()) << size;
  }
  EXPECT_FALSE(read_catalogue_image(image + '\0').has_value());
}

TEST(CatalogueImage, RefusesAnotherFormat) {
  std::string image = write_catalogue_image(varied_rules());
  std::string other_magic = image;
  other_magic[0] = 'X';
  EXPECT_FALSE(read_catalogue_image(other_magic).has_value());
  std::string other_format = image;
  other_format[8] = static_cast<char>(other_format[8] + 1);  // the format number, after the magic
  EXPECT_FALSE(read_catalogue_image(other_format).has_value());
}

TEST(CatalogueImage, AnyByteChangedReadsSafely) {
  // Whatever one changed byte makes of the image, reading it never crashes, never reads
  // past its end (the sanitizer build checks) and never gives a rewrite whose indices
  // point outside it.
  const std::string image = write_catalogue_image(varied_rules());
  for (std::size_t at = 0; at < image.size(); ++at) {
    if (!in_sweep(at)) continue;
    for (unsigned char value : {0x00, 0x01, 0x07, 0x80, 0xff}) {
      std::string changed = image;
      changed[at] = static_cast<char>(value);
      const std::optional<RuleSet> read = read_catalogue_image(changed);
      if (!read) continue;
      for (const Rule& rule : read->rules) {
        for (const Rewrite& rewrite : rule.rewrites) {
          for (const Pattern* side : {&rewrite.lhs, &rewrite.rhs}) {
            ASSERT_LT(side->root, side->nodes.size()) << at;
            for (std::size_t i = 0; i < side->nodes.size(); ++i) {
              const PatternNode& node = side->nodes[i];
              for (uint32_t child : node.children) ASSERT_LT(child, i) << at;
              if (node.kind == PatternNode::Kind::Var) {
                ASSERT_LT(node.var, rewrite.vars.size()) << at;
              }
              if (node.kind == PatternNode::Kind::Const) {
                ASSERT_LT(node.constant, side->constants.size()) << at;
              }
            }
          }
          if (rewrite.guard) {
            ASSERT_LT(rewrite.guard->root, rewrite.guard->nodes.size()) << at;
            for (std::size_t i = 0; i < rewrite.guard->nodes.size(); ++i) {
              for (uint32_t child : rewrite.guard->nodes[i].children) ASSERT_LT(child, i) << at;
            }
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace eqsat::testing
