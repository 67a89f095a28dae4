// The stamp plan: every element once, ranges that never write the same block, one interface
// element per boundary of a chain, and the same calls and the same first error on any number of
// threads.
#include "assembly/stamp_plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <set>
#include <stdexcept>
#include <string>

namespace catena::assembly {
namespace {

/// A chain of n elements: element i writes blocks i and i + 1, its first row 10 i.
struct Chain {
  explicit Chain(std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) by_row.push_back({static_cast<PetscInt>(10 * i), i});
  }
  std::vector<fem::BlockId> blocks(std::size_t i) const {
    return {fem::BlockId{static_cast<std::int32_t>(by_row[i].second)},
            fem::BlockId{static_cast<std::int32_t>(by_row[i].second + 1)}};
  }
  StampPlan plan() const {
    return StampPlan(by_row, [this](std::size_t i) { return blocks(i); }, by_row.size() + 1);
  }
  std::vector<std::pair<PetscInt, std::size_t>> by_row;
};

TEST(StampPlan, EveryElementOnceAndRangesNeverShareABlock) {
  for (const std::size_t n : {1, 5, 40, 300}) {
    const Chain chain(n);
    const StampPlan plan = chain.plan();
    std::vector<std::size_t> order(plan.order().begin(), plan.order().end());
    ASSERT_EQ(order.size(), n);
    std::sort(order.begin(), order.end());
    for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(order[i], i);
    // A chain cut into r ranges has r − 1 boundaries, one element moved at each.
    const std::size_t ranges = n >= 256 ? 8 : n >= 32 ? 4 : 2;
    EXPECT_EQ(plan.n_interface(), std::min(n, ranges) - 1) << n << " elements";
  }
  // Ranges, recovered from the calls of a one-thread run: the kept elements come range by range
  // in row order, so a block written by two of them is written by neighbours in the order.
  const Chain chain(300);
  const StampPlan plan = chain.plan();
  const std::size_t kept = plan.order().size() - plan.n_interface();
  std::vector<int> range_of_block(302, -1);
  int range = 0;
  for (std::size_t k = 0; k < kept; ++k) {
    const std::size_t e = plan.order()[k];
    if (k > 0 && e != plan.order()[k - 1] + 1) ++range;  // a gap: the next range starts
    for (const std::size_t b : {e, e + 1}) {
      EXPECT_TRUE(range_of_block[b] == -1 || range_of_block[b] == range) << "block " << b;
      range_of_block[b] = range;
    }
  }
  EXPECT_EQ(range, 7);
}

TEST(StampPlan, AnyThreadCountStampsEachElementOnce) {
  const Chain chain(1000);
  const StampPlan plan = chain.plan();
  for (const int threads : {1, 2, 3}) {
    std::vector<std::atomic<int>> calls(1000);
    plan.run(threads, [&](std::size_t e) { ++calls[e]; });
    for (std::size_t e = 0; e < 1000; ++e) EXPECT_EQ(calls[e].load(), 1) << "element " << e;
  }
}

TEST(StampPlan, TheFirstRangesErrorIsRethrownOnAnyThreadCount) {
  const Chain chain(1000);
  const StampPlan plan = chain.plan();
  // Elements 900 and 100 fail: 100 is in an earlier range, whatever thread reaches it first.
  for (const int threads : {1, 2}) {
    std::atomic<int> interface_calls = 0;
    const std::set<std::size_t> interface(plan.order().end() - static_cast<std::ptrdiff_t>(plan.n_interface()),
                                          plan.order().end());
    try {
      plan.run(threads, [&](std::size_t e) {
        if (interface.count(e)) ++interface_calls;
        if (e == 900 || e == 100) throw std::runtime_error("element " + std::to_string(e));
      });
      ADD_FAILURE() << "no exception";
    } catch (const std::runtime_error& error) {
      EXPECT_STREQ(error.what(), "element 100") << threads << " threads";
    }
    EXPECT_EQ(interface_calls.load(), 0) << "the interface is not stamped after an error";
  }
}

}  // namespace
}  // namespace catena::assembly
