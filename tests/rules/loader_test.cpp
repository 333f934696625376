#include <gtest/gtest.h>
#include "rules/rule.h"
namespace eqsat { namespace { TEST(Loader, Builds) { EXPECT_GT(builtin_rules().rules.size(), 60u); } } }
