#include "elements/nodal_load.hpp"
#include "elements/point_mass.hpp"

#include "support/tangent_check.hpp"

#include <gtest/gtest.h>

namespace catena::elements {
namespace {

using fem::Vec3;

TEST(PointMass, TangentMatchesCentralDifferences) {
  fem::Model m;
  const fem::NodeId n = m.add_node("n", Vec3(1, 2, 3));
  m.initial_state[0].velocity = Vec3(0.5, -1.0, 2.0);
  m.gravity = Vec3(0, 0, -9.81);
  const auto& pm = m.add_element<PointMass>("m", m.attach(n), 2.5);
  testing::TrialState s(m);
  s.trial = {0.1, -0.2, 0.3};
  const testing::TangentCheck c = testing::compare_with_central_differences(m, pm, s);
  EXPECT_LT(c.max_relative_error, 1e-8) << c.worst;
}

TEST(PointMass, FreeFallIsExactUnderTheMidpointRule) {
  // Constant force: the midpoint rule integrates x(t) exactly; the residual vanishes on it.
  fem::Model m;
  const Vec3 g(0, 0, -9.81), v0(1, 0, 2);
  const fem::NodeId n = m.add_node("n", Vec3::Zero());
  m.initial_state[0].velocity = v0;
  m.gravity = g;
  const auto& pm = m.add_element<PointMass>("m", m.attach(n), 3.0);
  testing::TrialState s(m);
  s.h = 0.25;
  const Vec3 dx = v0 * s.h + 0.5 * g * s.h * s.h;
  s.trial = {dx.x(), dx.y(), dx.z()};
  EXPECT_LT(testing::element_residual(m, pm, s).norm(), 1e-12);
  EXPECT_LT((s.view(m).velocity_end(n) - (v0 + g * s.h)).norm(), 1e-12);
}

TEST(NodalLoad, StepWorkIsTrapezoidalInTime) {
  fem::Model m;
  const fem::NodeId n = m.add_node("n", Vec3::Zero());
  const fem::ParameterTable p{{"F0", 4.0}};
  auto& load = m.add_element<NodalLoad>("f", m.attach(n),
                                        std::array<fem::Expression, 3>{fem::Expression("F0*t", p), fem::Expression("0", p),
                                                                       fem::Expression("-F0", p)});
  testing::TrialState s(m);
  s.t_n = 1.0;
  s.h = 0.5;
  s.trial = {0.2, 0.0, 0.1};
  fem::StepWork w;
  load.add_step_work(s.view(m), w);
  EXPECT_DOUBLE_EQ(w.external_work, 0.5 * (4.0 + 6.0) * 0.2 + (-4.0) * 0.1);
  const Eigen::VectorXd r = testing::element_residual(m, load, s);
  EXPECT_DOUBLE_EQ(r[0], -5.0);
  EXPECT_DOUBLE_EQ(r[2], 4.0);
}

}  // namespace
}  // namespace catena::elements
