// The index behind the e-graph's interned names and constants (egraph/intern_index.h):
// it finds a value's position by hash and the caller's comparison, grows as entries
// come, and forgets them all on clear (or reset_for, sized for what comes next).
#include "egraph/intern_index.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace eqsat {
namespace {

// A table of names with its index, as EGraph::intern_symbol keeps them.
struct Names {
  std::vector<std::string> names;
  InternIndex index;

  uint32_t find(std::string_view name, std::size_t hash) const {
    return index.find(hash, [&](uint32_t position) { return names[position] == name; });
  }
  uint32_t intern(std::string_view name, std::size_t hash) {
    const uint32_t found = find(name, hash);
    if (found != InternIndex::kAbsent) return found;
    names.emplace_back(name);
    index.insert(hash, static_cast<uint32_t>(names.size() - 1));
    return static_cast<uint32_t>(names.size() - 1);
  }
  uint32_t intern(std::string_view name) { return intern(name, std::hash<std::string_view>{}(name)); }
};

TEST(InternIndex, FindsEachValueAtThePositionItWasInsertedWith) {
  Names table;
  EXPECT_EQ(table.intern("x"), 0u);
  EXPECT_EQ(table.intern("y"), 1u);
  EXPECT_EQ(table.intern("x"), 0u);
  EXPECT_EQ(table.find("z", std::hash<std::string_view>{}("z")), InternIndex::kAbsent);
  EXPECT_EQ(table.names.size(), 2u);
}

TEST(InternIndex, ValuesWithOneHashAreToldApartByTheCallersComparison) {
  // Every name under the same hash: the probe walks past the others to the right one.
  Names table;
  for (const char* name : {"a", "b", "c", "d"}) table.intern(name, 42);
  EXPECT_EQ(table.intern("c", 42), 2u);
  EXPECT_EQ(table.intern("a", 42), 0u);
  EXPECT_EQ(table.find("e", 42), InternIndex::kAbsent);
}

TEST(InternIndex, KeepsEveryEntryWhileItGrows) {
  Names table;
  for (int i = 0; i < 5000; ++i) ASSERT_EQ(table.intern("v" + std::to_string(i)), static_cast<uint32_t>(i));
  for (int i = 0; i < 5000; ++i) EXPECT_EQ(table.intern("v" + std::to_string(i)), static_cast<uint32_t>(i));
  EXPECT_EQ(table.names.size(), 5000u);
}

TEST(InternIndex, ForgetsEverythingOnClear) {
  for (int entries : {3, 3000}) {  // storage kept, and storage given back
    Names table;
    for (int i = 0; i < entries; ++i) table.intern("v" + std::to_string(i));
    table.index.clear();
    table.names.clear();
    EXPECT_EQ(table.find("v0", std::hash<std::string_view>{}("v0")), InternIndex::kAbsent);
    EXPECT_EQ(table.intern("w"), 0u);
    EXPECT_EQ(table.intern("v0"), 1u);
  }
}

// reset_for forgets every entry, as clear does, and sizes the table for the entries to
// come, larger or smaller than it was: all of them are found afterwards.
TEST(InternIndex, ResetForForgetsEverythingAndHoldsWhatIsToCome) {
  Names table;
  for (int i = 0; i < 3000; ++i) table.intern("v" + std::to_string(i));
  for (int entries : {5, 4000, 5}) {
    table.index.reset_for(entries);
    table.names.clear();
    EXPECT_EQ(table.find("v0", std::hash<std::string_view>{}("v0")), InternIndex::kAbsent) << entries;
    for (int i = 0; i < entries; ++i) ASSERT_EQ(table.intern("w" + std::to_string(i)), static_cast<uint32_t>(i));
    for (int i = 0; i < entries; ++i) EXPECT_EQ(table.intern("w" + std::to_string(i)), static_cast<uint32_t>(i));
  }
}

}  // namespace
}  // namespace eqsat
