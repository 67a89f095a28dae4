// The processors other programs leave free (assembly/free_processors.hpp), from /proc/loadavg's
// text: what the default threads follow.
#include "assembly/free_processors.hpp"

#include <gtest/gtest.h>

namespace catena::assembly {
namespace {

TEST(FreeProcessors, AreTheProcessorsOnlineLessOtherProcessesRunnableTasks) {
  // Three runnable tasks, one of them ours: two other programs keep both processors busy.
  EXPECT_EQ(free_processors("0.52 0.58 0.59 3/467 12345\n", 1, 2), 0);
  // Only ours.
  EXPECT_EQ(free_processors("0.10 0.20 0.30 1/467 12345\n", 1, 2), 2);
  // One other program on one of four processors; three of our own threads running.
  EXPECT_EQ(free_processors("2.00 2.00 2.00 4/90 7\n", 3, 4), 3);
  // More other tasks than processors: none free, never negative.
  EXPECT_EQ(free_processors("9.1 9.2 9.3 12/900 77\n", 1, 2), 0);
  // Our own threads counted after the machine's (a race between the two reads): all free.
  EXPECT_EQ(free_processors("0.1 0.1 0.1 1/50 9\n", 2, 2), 2);
}

TEST(FreeProcessors, TextNotOfLoadavgsFormGivesNothing) {
  for (const char* text : {"", "0.1 0.2", "0.1 0.2 0.3 ", "0.1 0.2 0.3 x/5 1", "0.1 0.2 0.3 3", "0.1 0.2 0.3 3 4"})
    EXPECT_FALSE(free_processors(text, 1, 2).has_value()) << "'" << text << "'";
}

TEST(FreeProcessors, ThisMachineGivesACountWithinItsProcessors) {
  const std::optional<int> free = free_processors();
  ASSERT_TRUE(free.has_value()) << "/proc/loadavg unreadable";
  EXPECT_GE(*free, 0);
  EXPECT_LE(*free, 4096);
}

}  // namespace
}  // namespace catena::assembly
