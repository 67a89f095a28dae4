// Nodal loads on frame nodes (elements/nodal_load.hpp): follower force and moment (value,
// exact tangent, step work) and dead moments.
#include "elements/nodal_load.hpp"

#include "support/dense_newton.hpp"
#include "support/tangent_check.hpp"

#include <gtest/gtest.h>

#include <random>

namespace catena::elements {
namespace {

using fem::Mat3;
using fem::Quaternion;
using fem::Vec3;
using testing::TrialState;

std::array<fem::Expression, 3> time_dependent_load() {
  const fem::ParameterTable p{{"F0", 4.0}};
  return {fem::Expression("F0*t", p), fem::Expression("-2 + sin(t)", p), fem::Expression("F0", p)};
}

struct LoadModel {
  fem::Model model;
  fem::NodeId node;
  NodalLoad* load = nullptr;
  LoadModel(LoadKind kind, LoadAxes axes, double scale = 1.5) {
    node = model.add_node("n", Vec3(1, 2, 3), fem::NodeKind::Frame);
    model.initial_state[0].orientation = Quaternion(Eigen::AngleAxisd(2.0, Vec3(1, -1, 2).normalized()));
    load = &model.add_element<NodalLoad>("f", model.attach(node), time_dependent_load(), kind, axes, scale);
  }
};

void check_follower_tangent(LoadKind kind, fem::TimeScheme scheme, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (const double size : {1.2, 0.05, 1e-9}) {
    for (int trial = 0; trial < 5; ++trial) {
      LoadModel lm(kind, LoadAxes::Follower);
      TrialState s(lm.model);
      s.scheme = scheme;
      s.t_n = 0.7;
      s.h = 0.2;
      s.load_factor = 0.8;
      s.committed[0].orientation = Quaternion(testing::random_rotation(rng, 3.0));
      for (double& x : s.trial) x = size * u(rng);
      const Eigen::MatrixXd J = testing::element_jacobian(lm.model, *lm.load, s);
      ASSERT_GT(J.cwiseAbs().maxCoeff(), 1.0);  // the load turns with the node: a real Jacobian
      const testing::TangentCheck c = testing::compare_rowwise(lm.model, *lm.load, s);
      EXPECT_LT(c.max_relative_error, 1e-8) << "size " << size << ", trial " << trial << ": " << c.worst;
    }
  }
}

TEST(FollowerLoadTangent, ForceMidpoint) { check_follower_tangent(LoadKind::Force, fem::TimeScheme::Midpoint, 1); }
TEST(FollowerLoadTangent, ForceStatic) { check_follower_tangent(LoadKind::Force, fem::TimeScheme::Static, 2); }
TEST(FollowerLoadTangent, MomentMidpoint) { check_follower_tangent(LoadKind::Moment, fem::TimeScheme::Midpoint, 3); }
TEST(FollowerLoadTangent, MomentStatic) { check_follower_tangent(LoadKind::Moment, fem::TimeScheme::Static, 4); }

/// Residual and step work of a load at a given rotation increment φ (and Δx).
struct LoadOnStep {
  Eigen::VectorXd r;
  double work = 0.0;
};
LoadOnStep load_on_step(LoadModel& lm, fem::TimeScheme scheme, const Vec3& dx, const Vec3& phi, TrialState& s) {
  s.scheme = scheme;
  s.t_n = 0.7;
  s.h = 0.2;
  s.load_factor = 0.8;
  testing::set_block(s, lm.model.nodes[0].displacement, dx);
  testing::set_block(s, lm.model.nodes[0].rotation, phi);
  LoadOnStep out;
  out.r = testing::element_residual(lm.model, *lm.load, s);
  fem::StepWork w;
  lm.load->add_step_work(s.view(lm.model), w);
  out.work = w.external_work;
  return out;
}

TEST(NodalLoad, FollowerForceTurnsWithTheNodeAtMidStep) {
  LoadModel lm(LoadKind::Force, LoadAxes::Follower);
  TrialState s(lm.model);
  const Vec3 dx(0.1, -0.2, 0.05), phi(0.4, 0.9, -0.3);
  const LoadOnStep l = load_on_step(lm, fem::TimeScheme::Midpoint, dx, phi, s);
  const Mat3 Rn = lm.model.initial_state[0].orientation.toRotationMatrix();
  const Vec3 g = 0.5 * (lm.load->value(0.7) + lm.load->value(0.9));
  EXPECT_LT((g - 1.5 * Vec3(4 * 0.8, -2 + 0.5 * (std::sin(0.7) + std::sin(0.9)), 4)).norm(), 1e-14);
  const Vec3 f = testing::cayley_turn(phi, 0.5) * Rn * g;
  EXPECT_LT((l.r.head<3>() + f).norm(), 1e-13 * f.norm());
  EXPECT_LT(l.r.tail<3>().norm(), 1e-300);  // a force: nothing on the moment rows
  EXPECT_NEAR(l.work, f.dot(dx), 1e-13 * f.norm());
}

TEST(NodalLoad, FollowerMomentStaticUsesEndAxesAndLoadFactor) {
  LoadModel lm(LoadKind::Moment, LoadAxes::Follower);
  TrialState s(lm.model);
  const Vec3 dx(0.1, -0.2, 0.05), phi(-1.1, 0.3, 0.6);
  const LoadOnStep l = load_on_step(lm, fem::TimeScheme::Static, dx, phi, s);
  const Mat3 Rn = lm.model.initial_state[0].orientation.toRotationMatrix();
  const Vec3 mom = testing::cayley_turn(phi) * Rn * (0.8 * lm.load->value(0.9));
  EXPECT_LT(l.r.head<3>().norm(), 1e-300);
  EXPECT_LT((l.r.tail<3>() + mom).norm(), 1e-13 * mom.norm());
  EXPECT_NEAR(l.work, mom.dot(phi), 1e-13 * mom.norm());
}

TEST(NodalLoad, DeadMomentIsTrapezoidalAndWorksOnPhi) {
  LoadModel lm(LoadKind::Moment, LoadAxes::Global);
  TrialState s(lm.model);
  const Vec3 dx(0.1, -0.2, 0.05), phi(0.2, -0.7, 0.4);
  const LoadOnStep l = load_on_step(lm, fem::TimeScheme::Midpoint, dx, phi, s);
  const Vec3 g = 0.5 * (lm.load->value(0.7) + lm.load->value(0.9));
  EXPECT_LT(l.r.head<3>().norm(), 1e-300);
  EXPECT_LT((l.r.tail<3>() + g).norm(), 1e-14 * g.norm());
  EXPECT_NEAR(l.work, g.dot(phi), 1e-14 * g.norm());
  EXPECT_TRUE(testing::element_jacobian(lm.model, *lm.load, s).isZero());
}

TEST(NodalLoad, MomentOrFollowerOnPointNodeIsRejected) {
  fem::Model m;
  const fem::NodeId n = m.add_node("p", Vec3::Zero());
  EXPECT_THROW(NodalLoad("f", m.attach(n), time_dependent_load(), LoadKind::Moment), std::invalid_argument);
  EXPECT_THROW(NodalLoad("f", m.attach(n), time_dependent_load(), LoadKind::Force, LoadAxes::Follower),
               std::invalid_argument);
}

}  // namespace
}  // namespace catena::elements
