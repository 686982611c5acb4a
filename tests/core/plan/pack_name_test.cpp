// One numbering for pack names (issue 33: the inspector's B46 was the Gantt's B47): index 0 is
// "F1" / "B1" (legality_test.cpp checks the messages that use them).
#include "plan/pack_name.h"

#include <gtest/gtest.h>

namespace slimpack {
namespace {

TEST(PackName, IndexZeroIsPackOne) {
  EXPECT_EQ(pack_name(Pass::Forward, 0), "F1");
  EXPECT_EQ(pack_name(Pass::Backward, 0), "B1");
  EXPECT_EQ(pack_name(Pass::Backward, 46), "B47");
  EXPECT_EQ(pack_number(46), 47);
  static_assert(pack_number(0) == 1);
}

}  // namespace
}  // namespace slimpack
