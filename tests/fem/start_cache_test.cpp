// fem::StartCache (fem/start_cache.hpp): what an element derives from the start of a time element
// is computed once per named start and again whenever the start, t_n, h, scheme or load factor
// changes. That a stamp from the kept value equals a fresh one is Beam.StampFollowsTheStartItKeeps.
#include "fem/start_cache.hpp"

#include <gtest/gtest.h>

namespace catena::fem {
namespace {

TEST(StartCache, ComputesOncePerNamedStart) {
  const StartCache<int> cache;
  int made = 0;
  const auto make = [&] { return ++made; };
  StepState s;
  s.time.t_n = 0.5;
  s.time.h = 0.01;
  s.start_id = new_start_id();
  EXPECT_EQ(cache.get(s, make), 1);
  EXPECT_EQ(cache.get(s, make), 1);  // the same start: kept
  s.precise = true;                  // not part of the start
  EXPECT_EQ(cache.get(s, make), 1);
  s.start_id = new_start_id();  // described anew (a commit, a restore)
  EXPECT_EQ(cache.get(s, make), 2);
  s.time.h = 0.005;  // a cut step from the same states
  EXPECT_EQ(cache.get(s, make), 3);
  s.time.t_n = 0.6;
  EXPECT_EQ(cache.get(s, make), 4);
  s.time.scheme = TimeScheme::Static;
  EXPECT_EQ(cache.get(s, make), 5);
  s.time.load_factor = 0.5;
  EXPECT_EQ(cache.get(s, make), 6);
  EXPECT_EQ(cache.get(s, make), 6);
  s.time.phase = StepPhase::Equilibrium;
  EXPECT_EQ(cache.get(s, make), 7);
  s.start_id = 0;  // unnamed: never kept
  EXPECT_EQ(cache.get(s, make), 8);
  EXPECT_EQ(cache.get(s, make), 9);
}

TEST(StartCache, NewIdsAreNeverZeroOrRepeated) {
  const std::uint64_t a = new_start_id(), b = new_start_id();
  EXPECT_NE(a, 0U);
  EXPECT_NE(a, b);
}

}  // namespace
}  // namespace catena::fem
