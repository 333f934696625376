// The rule-file parser: what a good file becomes, and every way a rule is rejected
// (each with its "file:line:column: reason").
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "tests/rules/test_support.h"

namespace eqsat::testing {
namespace {

std::vector<Rule> parse_ok(std::string_view text) {
  Result<std::vector<Rule>> rules = parse_rules(text, "t.rules");
  EXPECT_TRUE(rules.ok()) << (rules.ok() ? "" : rules.error().message);
  return rules.ok() ? *rules : std::vector<Rule>{};
}

std::string parse_error(std::string_view text) {
  Result<std::vector<Rule>> rules = parse_rules(text, "t.rules");
  EXPECT_FALSE(rules.ok()) << "accepted:\n" << text;
  return rules.ok() ? "" : rules.error().message;
}

const PatternVar* var_named(const Rewrite& rewrite, std::string_view name) {
  for (const PatternVar& var : rewrite.vars) {
    if (var.name == name) return &var;
  }
  return nullptr;
}

TEST(RuleFile, AGoodFile) {
  const std::vector<Rule> rules = parse_ok(
      "# Scope of this file: a header, followed by a blank line, belongs to no rule.\n"
      "\n"
      "# x % c is x itself when x already lies in [0, c).\n"
      "mod-in-range [index int uint]: x % c => x  if c > 0 and lower(x) >= 0 and upper(x) < c\n"
      "\n"
      "# (x + c1) + c2 = x + (c1 + c2)\n"
      "# (a second comment line)\n"
      "add-add-const [index]: (x + c1) + c2 => x + (c1 + c2)   # a trailing comment\n"
      "select-not [float bool]: select(not p, x, y)\n"
      "    => select(p, y, x)\n");
  ASSERT_EQ(rules.size(), 3u);

  const Rule& mod = rules[0];
  EXPECT_EQ(mod.name, "mod-in-range");
  EXPECT_EQ(mod.file, "t.rules");
  EXPECT_EQ(mod.line, 4);
  EXPECT_EQ(mod.comment, "x % c is x itself when x already lies in [0, c).");
  EXPECT_EQ(mod.scope_text, "index int uint");
  EXPECT_EQ(mod.lhs_text, "x % c");
  EXPECT_EQ(mod.rhs_text, "x");
  EXPECT_EQ(mod.guard_text, "c > 0 and lower(x) >= 0 and upper(x) < c");
  ASSERT_EQ(mod.dtypes.size(), 9u);
  ASSERT_EQ(mod.rewrites.size(), 9u);
  EXPECT_EQ(mod.dtypes[0], DType::Index);
  EXPECT_EQ(mod.dtypes[1], DType::Int8);
  EXPECT_EQ(mod.dtypes[8], DType::UInt64);
  const Rewrite& uint16 = mod.rewrites[6];
  EXPECT_EQ(uint16.name, "mod-in-range");
  EXPECT_EQ(uint16.lhs.dtype(), DType::UInt16);
  EXPECT_EQ(uint16.lhs.root_node().op, Op::FloorMod);
  ASSERT_EQ(uint16.vars.size(), 2u);
  EXPECT_EQ(uint16.vars[0].name, "x");
  EXPECT_FALSE(uint16.vars[0].const_only);
  EXPECT_EQ(uint16.vars[1].name, "c");
  EXPECT_TRUE(uint16.vars[1].const_only);
  EXPECT_EQ(uint16.vars[1].dtype, DType::UInt16);
  ASSERT_TRUE(uint16.guard.has_value());
  EXPECT_EQ(uint16.guard->text, mod.guard_text);

  const Rule& add = rules[1];
  EXPECT_EQ(add.comment, "(x + c1) + c2 = x + (c1 + c2)\n(a second comment line)");
  EXPECT_EQ(add.rhs_text, "x + (c1 + c2)");
  EXPECT_EQ(add.guard_text, "");
  EXPECT_FALSE(add.rewrites[0].guard.has_value());

  // A line starting with whitespace continues the rule above.
  const Rule& select = rules[2];
  EXPECT_EQ(select.comment, "");
  EXPECT_EQ(select.line, 9);
  EXPECT_EQ(select.rhs_text, "select(p, y, x)");
  ASSERT_EQ(select.dtypes.size(), 5u);
  EXPECT_EQ(select.dtypes[0], DType::Bool);
  EXPECT_EQ(select.dtypes[1], DType::FP16);
  // p stands where only a BOOL can: it is BOOL in every instance; x, y are T.
  const Rewrite& fp32 = select.rewrites[3];
  EXPECT_EQ(var_named(fp32, "p")->dtype, DType::Bool);
  EXPECT_EQ(var_named(fp32, "x")->dtype, DType::FP32);
  EXPECT_EQ(fp32.rhs.dtype(), DType::FP32);
}

TEST(RuleFile, ScopeWordsExpandToDTypesInEnumOrder) {
  auto scope = [](const std::string& words) {
    std::vector<Rule> rules = parse_ok("r [" + words + "]: x == x => True\n");
    std::string names;
    for (DType dtype : rules.at(0).dtypes)
      names += std::string(names.empty() ? "" : " ") + std::string(dtype_name(dtype));
    return names;
  };
  EXPECT_EQ(scope("index"), "INDEX");
  EXPECT_EQ(scope("int"), "INT8 INT16 INT32 INT64");
  EXPECT_EQ(scope("uint"), "UINT8 UINT16 UINT32 UINT64");
  EXPECT_EQ(scope("float"), "FP16 BF16 FP32 FP64");
  EXPECT_EQ(scope("bool"), "BOOL");
  EXPECT_EQ(scope("INT32 index"), "INDEX INT32");
  EXPECT_EQ(scope("int INT16  UINT8"), "INT8 INT16 INT32 INT64 UINT8");
}

// The value of a pattern whose root is a constant.
Value root_value(const Pattern& pattern) { return pattern.value_of(pattern.root_node()); }

TEST(RuleFile, ConstantsAreTypedLikeTheLeftSide) {
  // A right side of literals only takes the left side's dtype in each instance.
  const std::vector<Rule> rules = parse_ok("sub-self [INT8 FP32]: x * 0 => 0\nt [bool]: p and not p => False\n");
  EXPECT_EQ(root_value(rules[0].rewrites[0].rhs), Value::integer(DType::Int8, 0));
  EXPECT_EQ(root_value(rules[0].rewrites[1].rhs), Value::floating(DType::FP32, 0.0));
  EXPECT_EQ(root_value(rules[1].rewrites[0].rhs), Value::boolean(false));
}

TEST(RuleFile, ConstantOnlyVariables) {
  const std::vector<Rule> rules = parse_ok("r [index]: (x * c) + (y * c12) + cx + c0 => x\n");
  const Rewrite& rewrite = rules[0].rewrites[0];
  EXPECT_TRUE(var_named(rewrite, "c")->const_only);
  EXPECT_TRUE(var_named(rewrite, "c12")->const_only);
  EXPECT_TRUE(var_named(rewrite, "c0")->const_only);
  EXPECT_FALSE(var_named(rewrite, "cx")->const_only);
  EXPECT_FALSE(var_named(rewrite, "x")->const_only);
}

// ---------------------------------------------------------------- rejections

// The reason of a syntax error comes from the expression parser (ir/parse.h); the rule
// parser puts the file, line and column in front of it.
std::string location_of(const std::string& message) {
  std::size_t end = message.find(": ");
  return message.substr(0, end);
}

TEST(RuleFileErrors, SyntaxErrorOnTheLeft) {
  const std::string message = parse_error("r [index]: x + * 2 => x\n");
  EXPECT_EQ(location_of(message), "t.rules:1:16") << message;
  EXPECT_NE(message.find("'*'"), std::string::npos) << message;
}

TEST(RuleFileErrors, SyntaxErrorOnTheRight) {
  const std::string message = parse_error("\nr [index]: x + 0 => (x\n");
  EXPECT_EQ(location_of(message), "t.rules:2:23") << message;
  EXPECT_NE(message.find("')'"), std::string::npos) << message;
}

TEST(RuleFileErrors, SyntaxErrorOnAContinuationLine) {
  EXPECT_EQ(parse_error("r [index]: x % c => x\n  if c > 0 and\n"),
            "t.rules:2:15: expected a value, found the end of the guard");
}

TEST(RuleFileErrors, UnboundVariableOnTheRight) {
  EXPECT_EQ(parse_error("r [index]: x + 0 => x + y\n"),
            "t.rules:1:25: variable 'y' on the right is not bound by the left");
}

TEST(RuleFileErrors, GuardOverAnUnboundName) {
  EXPECT_EQ(parse_error("r [index]: x % c => x  if lower(y) >= 0\n"),
            "t.rules:1:33: the guard uses 'y', which the left side does not bind");
  EXPECT_EQ(parse_error("r [index]: x % c => x  if c2 > 0\n"),
            "t.rules:1:27: the guard uses 'c2', which the left side does not bind");
}

TEST(RuleFileErrors, GuardUsesTheValueOfANonConstantVariable) {
  EXPECT_EQ(parse_error("r [index]: x % c => x  if x > 0\n"),
            "t.rules:1:27: 'x' is not a constant-only variable (c, c0, c1, ...): its value is unknown, "
            "use lower(x)/upper(x)");
}

TEST(RuleFileErrors, GuardSyntax) {
  EXPECT_EQ(parse_error("r [index]: x % c => x  if c > \n"),
            "t.rules:1:30: expected a value, found the end of the guard");
  EXPECT_EQ(parse_error("r [index]: x % c => x  if c + 1\n"),
            "t.rules:1:27: a guard must be a condition (a comparison, and, or, not)");
  EXPECT_EQ(parse_error("r [index]: x % c => x  if\n"), "t.rules:1:24: empty guard after 'if'");
}

TEST(RuleFileErrors, DuplicateName) {
  EXPECT_EQ(parse_error("r [index]: x + 0 => x\n\nr [index]: x * 1 => x\n"),
            "t.rules:3:1: duplicate rule name 'r' (first defined at t.rules:1)");
}

TEST(RuleFileErrors, DTypeChangingRule) {
  EXPECT_EQ(parse_error("r [index]: x < y => x\n"),
            "t.rules:1:18: the rule changes the dtype: the left side is BOOL, the right side INDEX");
  EXPECT_EQ(parse_error("r [INT8 INT32]: cast(x, INT32) => x\n"),
            "t.rules:1:32: the rule changes the dtype: the left side is INT32, the right side INT8 (in the INT8 "
            "instance)");
}

TEST(RuleFileErrors, UnknownScopeWord) {
  EXPECT_EQ(parse_error("r [index integer]: x + 0 => x\n"),
            "t.rules:1:10: unknown scope word 'integer' (expected index, int, uint, float, bool or a dtype such as "
            "INT32)");
}

TEST(RuleFileErrors, EmptyScope) {
  EXPECT_EQ(parse_error("r [ ]: x + 0 => x\n"), "t.rules:1:3: empty scope: name the dtypes the rule holds for");
}

TEST(RuleFileErrors, LeftSideIsABareVariableOrConstant) {
  EXPECT_EQ(parse_error("r [index]: x => x + 0\n"),
            "t.rules:1:12: the left side is a bare variable: a rule must match an operation");
  EXPECT_EQ(parse_error("r [index]: 0 => x - x\n"),
            "t.rules:1:12: the left side is a bare constant: a rule must match an operation");
}

TEST(RuleFileErrors, HeaderShape) {
  EXPECT_EQ(parse_error("Rule [index]: x + 0 => x\n"),
            "t.rules:1:1: expected a rule name ([a-z0-9-]+) at the start of the line");
  EXPECT_EQ(parse_error("add_zero [index]: x + 0 => x\n"),
            "t.rules:1:4: invalid character '_' in the rule name (names are [a-z0-9-]+)");
  EXPECT_EQ(parse_error("r: x + 0 => x\n"), "t.rules:1:2: expected '[' and the rule's scope after its name");
  EXPECT_EQ(parse_error("r [index x + 0 => x\n"), "t.rules:1:3: missing ']' after the scope");
  EXPECT_EQ(parse_error("r [index] x + 0 => x\n"),
            "t.rules:1:11: expected ':' (or '{' and fast-math flags) after the scope");
  EXPECT_EQ(parse_error("r [index]: x + 0 = x\n"), "t.rules:1:11: expected '=>' between the left and the right side");
  EXPECT_EQ(parse_error("r [index]:  => x\n"), "t.rules:1:11: empty left side");
  EXPECT_EQ(parse_error("r [index]: x + 0 =>   # nothing\n"), "t.rules:1:20: empty right side");
}

TEST(RuleFile, FastMathFlagsAfterTheScope) {
  const std::vector<Rule> rules = parse_ok(
      "add-zero-nsz [float] {nsz}: x + 0.0 => x\n"
      "mul-zero [FP32 FP64] { nnan, nsz }: x * 0.0 => 0.0\n"
      "strict [float]: x * 1.0 => x\n");
  ASSERT_EQ(rules.size(), 3u);
  EXPECT_EQ(rules[0].fast_math, FastMath{FastMathFlag::Nsz});
  EXPECT_EQ(rules[1].fast_math, FastMath{FastMathFlag::Nsz} | FastMathFlag::Nnan);
  EXPECT_EQ(rules[1].dtypes, (std::vector<DType>{DType::FP32, DType::FP64}));
  EXPECT_EQ(rules[1].lhs_text, "x * 0.0");
  EXPECT_TRUE(rules[2].fast_math.none());
  // Every instance carries the flags: the runner checks them per rewrite.
  for (const Rewrite& rewrite : rules[1].rewrites) EXPECT_EQ(rewrite.fast_math, rules[1].fast_math);
}

TEST(RuleFileErrors, FastMathFlags) {
  EXPECT_EQ(parse_error("r [float] {nzs}: x + 0.0 => x\n"),
            "t.rules:1:12: unknown fast-math flag 'nzs' (expected nsz, nnan, ninf or reassoc)");
  EXPECT_EQ(parse_error("r [float] {nsz nsz}: x + 0.0 => x\n"), "t.rules:1:16: fast-math flag 'nsz' given twice");
  EXPECT_EQ(parse_error("r [float] { }: x + 0.0 => x\n"),
            "t.rules:1:11: empty fast-math flags: name the flags the rule needs, or omit the braces");
  EXPECT_EQ(parse_error("r [float] {nsz: x + 0.0 => x\n"), "t.rules:1:11: missing '}' after the fast-math flags");
  EXPECT_EQ(parse_error("r [float] {nsz} x + 0.0 => x\n"), "t.rules:1:17: expected ':' after the fast-math flags");
  EXPECT_EQ(parse_error("r [index float] {nsz}: x + 0 => x\n"),
            "t.rules:1:17: fast-math flags relax float semantics only, but the scope has INDEX (split the rule)");
  // `all` is for runs; a rule names what it needs.
  EXPECT_EQ(parse_error("r [float] {all}: x + 0.0 => x\n"),
            "t.rules:1:12: unknown fast-math flag 'all' (expected nsz, nnan, ninf or reassoc)");
}

TEST(RuleFileErrors, ContinuationWithoutARule) {
  EXPECT_EQ(parse_error("# comment\n   if c > 0\n"),
            "t.rules:2:4: a line starting with whitespace continues a rule, but no rule line precedes it");
  EXPECT_EQ(parse_error("r [index]: x + 0 => x\n\n  if c > 0\n"),
            "t.rules:3:3: a line starting with whitespace continues a rule, but no rule line precedes it");
}

TEST(RuleFileErrors, VariableBothBoolAndT) {
  EXPECT_EQ(parse_error("r [int]: select(x, x, y) => y\n"),
            "t.rules:1:17: pattern variable 'x' stands both where a BOOL is needed and where a INT8 is (in the "
            "INT8 instance)");
}

TEST(RuleFileErrors, InstanceThatDoesNotTypeCheck) {
  // 300 is no INT8: the scope claims a dtype the rule cannot be written for.
  EXPECT_EQ(parse_error("r [index INT8]: x * 300 => x * 300\n"),
            "t.rules:1:21: literal 300 is out of range of INT8 (in the INT8 instance)");
}

// ---------------------------------------------------------------- files and sets

class RuleFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("eqsat_rules_test_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& text) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path) << text;
    return path;
  }

  std::filesystem::path dir_;
};

TEST_F(RuleFiles, LoadsSeveralFilesInOrder) {
  const std::string a = write("a.rules", "# a\n\nadd-zero [index]: x + 0 => x\n");
  const std::string b = write("b.rules", "mul-one [index int]: x * 1 => x\n");
  Result<RuleSet> set = load_rule_files({a, b});
  ASSERT_TRUE(set.ok()) << set.error().message;
  ASSERT_EQ(set->rules.size(), 2u);
  EXPECT_EQ(set->rules[0].file, a);
  EXPECT_EQ(set->rules[1].name, "mul-one");
  EXPECT_EQ(set->rewrites().size(), 6u);  // 1 + 5 instances
  EXPECT_EQ(set->find("mul-one"), &set->rules[1]);
  EXPECT_EQ(set->find("nothing"), nullptr);
  const RuleSet rest = set->without("add-zero");
  ASSERT_EQ(rest.rules.size(), 1u);
  EXPECT_EQ(rest.rules[0].name, "mul-one");
}

// Rules loaded together share one array of instances, which the engine is given as it
// is (RuleSet::shared_rewrites): no copy of the rewrites is made to run them.
TEST_F(RuleFiles, RulesLoadedTogetherShareOneArrayOfInstances) {
  const std::string a = write("a.rules", "add-zero [index]: x + 0 => x\n");
  const std::string b = write("b.rules", "mul-one [index int]: x * 1 => x\nsub-self [index]: x - x => 0\n");
  Result<RuleSet> set = load_rule_files({a, b});
  ASSERT_TRUE(set.ok()) << set.error().message;
  const std::shared_ptr<const std::vector<Rewrite>> all = set->shared_rewrites();
  ASSERT_EQ(all->size(), 7u);  // 1 + 5 + 1 instances
  for (const Rule& rule : set->rules) EXPECT_EQ(rule.rewrites.storage(), all) << rule.name;
  EXPECT_EQ(&set->rules[1].rewrites[0], &(*all)[1]);  // mul-one's INDEX instance
  EXPECT_EQ(set->rules[1].rewrites[4].lhs.dtype(), DType::Int64);
  EXPECT_EQ(&set->rules[2].rewrites.at(0), &all->back());  // sub-self
  EXPECT_THROW(set->rules[2].rewrites.at(1), std::out_of_range);
  EXPECT_EQ(set->shared_rewrites(), all);  // asked again: the same array

  // A set that is not the whole array, in order, gets an array of its own, equal to
  // its rules' instances in rule order.
  const RuleSet rest = set->without("mul-one");
  const std::shared_ptr<const std::vector<Rewrite>> own = rest.shared_rewrites();
  ASSERT_NE(own, all);
  ASSERT_EQ(own->size(), 2u);
  EXPECT_EQ((*own)[0].name, "add-zero");
  EXPECT_EQ((*own)[1].name, "sub-self");
  RuleSet reordered;
  reordered.rules = {set->rules[2], set->rules[0], set->rules[1]};
  ASSERT_NE(reordered.shared_rewrites(), all);
  EXPECT_EQ(reordered.shared_rewrites()->front().name, "sub-self");

  // A copy of a rule shares the array and outlives the set it came from.
  Rule kept = set->rules[1];
  set = Error{"dropped"};
  EXPECT_EQ(kept.rewrites.size(), 5u);
  EXPECT_EQ(kept.rewrites[0].name, "mul-one");
}

// The built-in catalogue is one such array: the command line runs it without a copy.
TEST(BuiltinRuleArray, IsTheCataloguesOwn) {
  const RuleSet& catalogue = builtin_rules();
  const std::shared_ptr<const std::vector<Rewrite>> all = catalogue.shared_rewrites();
  EXPECT_EQ(all, catalogue.rules.front().rewrites.storage());
  EXPECT_EQ(all->size(), catalogue.rewrites().size());
}

TEST(RuleSetParse, DuplicateNamesAcrossTexts) {
  const std::vector<RuleText> files = {{"r [index]: x + 0 => x\n", "a.rules"},
                                       {"\nr [index]: x * 1 => x\n", "b.rules"}};
  Result<RuleSet> set = parse_rule_set(files);
  ASSERT_FALSE(set.ok());
  EXPECT_EQ(set.error().message, "b.rules:2:1: duplicate rule name 'r' (first defined at a.rules:1)");
}

TEST_F(RuleFiles, DuplicateNamesAcrossFiles) {
  const std::string a = write("a.rules", "r [index]: x + 0 => x\n");
  const std::string b = write("b.rules", "\nr [index]: x * 1 => x\n");
  Result<RuleSet> set = load_rule_files({a, b});
  ASSERT_FALSE(set.ok());
  EXPECT_EQ(set.error().message, b + ":2:1: duplicate rule name 'r' (first defined at " + a + ":1)");
}

TEST_F(RuleFiles, AnErrorNamesItsFile) {
  const std::string a = write("a.rules", "r [index]: x + 0 => x\n");
  const std::string b = write("b.rules", "s [index]: x + 0 => y\n");
  Result<RuleSet> set = load_rule_files({a, b});
  ASSERT_FALSE(set.ok());
  EXPECT_EQ(set.error().message, b + ":1:21: variable 'y' on the right is not bound by the left");
}

TEST_F(RuleFiles, MissingFile) {
  const std::string missing = (dir_ / "missing.rules").string();
  Result<RuleSet> set = load_rule_files({missing});
  ASSERT_FALSE(set.ok());
  EXPECT_EQ(set.error().message, missing + ": cannot open the rule file");
}

}  // namespace
}  // namespace eqsat::testing
