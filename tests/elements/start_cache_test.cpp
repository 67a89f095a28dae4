// fem::StartCache (fem/start_cache.hpp): what an element derives from the start of a time element
// is computed once per named start and again whenever the start, t_n, h, scheme or load factor
// changes; a stamp from the kept value equals, to the bit, a stamp that computes it afresh.
#include "elements/beam.hpp"
#include "fem/start_cache.hpp"

#include "support/tangent_check.hpp"

#include <gtest/gtest.h>

namespace catena::elements {
namespace {

using fem::Vec3;

TEST(StartCache, ComputesOncePerNamedStart) {
  const fem::StartCache<int> cache;
  int made = 0;
  const auto make = [&] { return ++made; };
  fem::StepState s;
  s.t_n = 0.5;
  s.h = 0.01;
  s.start_id = fem::new_start_id();
  EXPECT_EQ(cache.get(s, make), 1);
  EXPECT_EQ(cache.get(s, make), 1);  // the same start: kept
  s.precise = true;                  // not part of the start
  EXPECT_EQ(cache.get(s, make), 1);
  s.start_id = fem::new_start_id();  // described anew (a commit, a restore)
  EXPECT_EQ(cache.get(s, make), 2);
  s.h = 0.005;  // a cut step from the same states
  EXPECT_EQ(cache.get(s, make), 3);
  s.t_n = 0.6;
  EXPECT_EQ(cache.get(s, make), 4);
  s.scheme = fem::TimeScheme::Static;
  EXPECT_EQ(cache.get(s, make), 5);
  s.load_factor = 0.5;
  EXPECT_EQ(cache.get(s, make), 6);
  EXPECT_EQ(cache.get(s, make), 6);
  s.start_id = 0;  // unnamed: never kept
  EXPECT_EQ(cache.get(s, make), 7);
  EXPECT_EQ(cache.get(s, make), 8);
}

TEST(StartCache, NewIdsAreNeverZeroOrRepeated) {
  const std::uint64_t a = fem::new_start_id(), b = fem::new_start_id();
  EXPECT_NE(a, 0U);
  EXPECT_NE(a, b);
}

BeamSection section() {
  BeamSection s;
  s.EA = 8.0;
  s.GAy = 6.0;
  s.GAz = 5.0;
  s.GJ = 1.5;
  s.EIy = 2.0;
  s.EIz = 3.0;
  s.rhoA = 0.4;
  s.rhoJ = 0.05;
  s.rhoIy = 0.03;
  s.rhoIz = 0.04;
  return s;
}

/// A beam stamped from one start, then from another (moved, turned, with new velocities): the
/// second stamp must be the one of a beam that never saw the first start.
TEST(StartCache, BeamStampFollowsTheStart) {
  fem::Model model;
  const fem::NodeId a = model.add_node("a", Vec3(0.1, -0.2, 0.3), fem::NodeKind::Frame);
  const fem::NodeId b = model.add_node("b", Vec3(1.3, 0.4, -0.5), fem::NodeKind::Frame);
  const Vec3 gravity(0.3, -0.5, -9.81);
  const Beam& kept = model.add_element<Beam>("kept", model.nodes, model.initial_state, a, b, section(),
                                             Vec3(0.2, 1.0, 0.3), gravity, std::array<Vec3, 2>{});
  const Beam& fresh = model.add_element<Beam>("fresh", model.nodes, model.initial_state, a, b, section(),
                                              Vec3(0.2, 1.0, 0.3), gravity, std::array<Vec3, 2>{});
  testing::TrialState s(model);
  for (std::size_t i = 0; i < s.trial.size(); ++i) s.trial[i] = 1e-2 * std::sin(1.0 + static_cast<double>(i));
  const auto stamp = [&](const Beam& beam, std::uint64_t id) {
    fem::DenseResidual r(s.map, static_cast<int>(s.trial.size()));
    fem::NullJacobianSink none;
    fem::StepState view = s.view(model);
    view.start_id = id;
    beam.stamp(view, r, none);
    return Eigen::VectorXd(r.r);
  };
  const std::uint64_t first = fem::new_start_id();
  const Eigen::VectorXd r1 = stamp(kept, first);
  EXPECT_EQ(stamp(kept, first), r1);  // from the kept start
  EXPECT_EQ(stamp(fresh, 0), r1);     // from a start computed afresh

  s.committed[1].position += Vec3(0.05, -0.02, 0.01);
  const fem::Quaternion turn(Eigen::AngleAxisd(0.3, Vec3(0.0, 0.6, 0.8)));
  s.committed[1].orientation = turn * s.committed[1].orientation;
  s.committed[0].velocity = Vec3(0.4, 0.1, -0.2);
  s.committed[0].angular_velocity = Vec3(-0.3, 0.2, 0.5);
  const Eigen::VectorXd r2 = stamp(kept, fem::new_start_id());
  EXPECT_EQ(r2, stamp(fresh, 0));
  EXPECT_GT((r2 - r1).norm(), 1e-3 * r1.norm());  // the start did change the residual
}

}  // namespace
}  // namespace catena::elements
