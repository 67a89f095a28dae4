// Rigid body on a frame node (elements/rigid_body.hpp, elements/rigid_inertia.hpp): exact tangent,
// and the energy–momentum scheme over long runs (free body flipping about its intermediate axis,
// heavy top about a fixed node, free body with an offset centre under gravity).
#include "elements/rigid_body.hpp"

#include "support/dense_newton.hpp"
#include "support/tangent_check.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace catena::elements {
namespace {

using fem::Mat3;
using fem::Quaternion;
using fem::Vec3;
using testing::TrialState;

Mat3 full_inertia() {
  Mat3 J;
  J << 3.0, 0.2, -0.1,  //
      0.2, 2.0, 0.3,    //
      -0.1, 0.3, 1.5;
  return J;
}

struct BodyModel {
  fem::Model model;
  fem::NodeId node;
  RigidBody* body = nullptr;
  BodyModel(const RigidBodyProperties& p, const Vec3& gravity, const Vec3& position = Vec3(0.4, -0.3, 1.2)) {
    model.gravity = gravity;
    node = model.add_node("n", position, fem::NodeKind::Frame);
    body = &model.add_element<RigidBody>("body", model.attach(node), p);
  }
};

void check_rigid_body_tangent(fem::TimeScheme scheme, double increment, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < 10; ++trial) {
    BodyModel bm(RigidBodyProperties{2.5, full_inertia(), Vec3(0.3, -0.2, 0.5)}, Vec3(0.5, -0.3, -9.81));
    TrialState s(bm.model);
    s.scheme = scheme;
    s.h = 0.3;
    s.load_factor = 0.7;  // statics: the weight is scaled
    fem::NodeState& st = s.committed[0];
    st.orientation = Quaternion(testing::random_rotation(rng, 3.0));
    st.velocity = Vec3(u(rng), u(rng), u(rng));
    st.angular_velocity = 2.0 * Vec3(u(rng), u(rng), u(rng));
    for (double& x : s.trial) x = increment * u(rng);
    const testing::TangentCheck c = testing::compare_rowwise(bm.model, *bm.body, s);
    EXPECT_LT(c.max_relative_error, 1e-7) << "trial " << trial << ": " << c.worst;
  }
}

TEST(RigidBodyTangent, Midpoint) {
  check_rigid_body_tangent(fem::TimeScheme::Midpoint, 1.0, 1);  // step rotations up to ~1.7 rad
  check_rigid_body_tangent(fem::TimeScheme::Midpoint, 0.05, 2);
  check_rigid_body_tangent(fem::TimeScheme::Midpoint, 1e-9, 3);  // series branches
}

TEST(RigidBodyTangent, Static) {
  check_rigid_body_tangent(fem::TimeScheme::Static, 1.0, 4);
  check_rigid_body_tangent(fem::TimeScheme::Static, 1e-9, 5);
}

TEST(RigidBody, StaticResidualIsTheWeightAndItsMoment) {
  const Vec3 c(0.3, -0.2, 0.5), g(0.5, -0.3, -9.81);
  BodyModel bm(RigidBodyProperties{2.5, full_inertia(), c}, g);
  TrialState s(bm.model);
  s.scheme = fem::TimeScheme::Static;
  s.load_factor = 0.5;
  std::mt19937 rng(9);
  const Mat3 R0 = testing::random_rotation(rng, 2.0);
  s.committed[0].orientation = Quaternion(R0);
  const Vec3 phi(0.3, -0.4, 0.2);
  testing::set_block(s, bm.model.nodes[0].rotation, phi);
  const Eigen::VectorXd r = testing::element_residual(bm.model, *bm.body, s);
  const Vec3 w = 0.5 * 2.5 * g;
  const Vec3 a1 = testing::cayley_turn(phi) * (R0 * c);
  EXPECT_LT((r.head<3>() + w).norm(), 1e-14);
  EXPECT_LT((r.tail<3>() + a1.cross(w)).norm(), 1e-13);
}

/// Runs `steps` time elements with the Midpoint scheme and dense Newton, committing as the time
/// integrator does; calls `check` after each.
template <class F>
void run(const fem::Model& m, TrialState& s, int steps, F check) {
  for (int k = 0; k < steps; ++k) {
    testing::predict(m, s);
    testing::newton(m, s, 1e-14);
    testing::commit(m, s);
    check(s.committed);
  }
}

TEST(RigidBody, FreeBodyFlipsAboutIntermediateAxisConservingEnergyAndMomentum) {
  // Dzhanibekov: spin near the intermediate axis (J = diag(1, 2, 3)) is unstable; the body turns
  // over again and again while energy and angular momentum stay fixed.
  BodyModel bm(RigidBodyProperties{1.0, Vec3(1.0, 2.0, 3.0).asDiagonal(), Vec3::Zero()}, Vec3::Zero());
  TrialState s(bm.model);
  s.h = 0.01;
  s.committed[0].angular_velocity = Vec3(0.01, 2.0, 0.01);
  const fem::StateEnergy e0 = testing::model_energy(bm.model, s.committed);
  double de = 0.0, dl = 0.0, omega_y_min = 1e300, omega_y_max = -1e300;
  int sign_changes = 0;
  double last = 2.0;
  run(bm.model, s, 10000, [&](const std::vector<fem::NodeState>& st) {
    const fem::StateEnergy e = testing::model_energy(bm.model, st);
    de = std::max(de, std::abs(e.kinetic - e0.kinetic));
    dl = std::max(dl, (e.angular_momentum - e0.angular_momentum).norm());
    // Body-axis component of ω along the intermediate axis.
    const double wy = (st[0].orientation.conjugate() * st[0].angular_velocity).y();
    omega_y_min = std::min(omega_y_min, wy);
    omega_y_max = std::max(omega_y_max, wy);
    if (wy * last < 0.0) ++sign_changes;
    last = wy;
  });
  RecordProperty("energy_drift", testing::sci(de / e0.kinetic));
  RecordProperty("angular_momentum_drift", testing::sci(dl / e0.angular_momentum.norm()));
  RecordProperty("sign_changes", std::to_string(sign_changes));
  EXPECT_LT(de, 1e-10 * e0.kinetic);
  EXPECT_LT(dl, 1e-10 * e0.angular_momentum.norm());
  EXPECT_GT(omega_y_max, 1.9);
  EXPECT_LT(omega_y_min, -1.9);  // turned over completely
  EXPECT_GE(sign_changes, 4);
}

/// Heavy top: the node is a fixed point (translations removed); the centre hangs off it by c, so
/// weight and inertia act through the offset moment of elements/rigid_inertia.hpp.
struct HeavyTopRun {
  double energy_drift = 0.0;       ///< max |ΔE| / scale
  double lz_drift = 0.0;           ///< max |ΔL_z| / |L0| (about the fixed point)
  double potential_change = 0.0;   ///< max |ΔV| / scale
};
HeavyTopRun heavy_top() {
  const Vec3 g(0, 0, -9.81), c(0.1, -0.05, 0.6);
  BodyModel bm(RigidBodyProperties{1.5, full_inertia(), c}, g, Vec3::Zero());
  for (int k = 0; k < 3; ++k) bm.model.fix(bm.node, k);
  TrialState s(bm.model);
  s.h = 0.01;
  const Mat3 R0 = Eigen::AngleAxisd(0.4, Vec3(1, 0.2, 0).normalized()).toRotationMatrix();
  s.committed[0].orientation = Quaternion(R0);
  s.committed[0].angular_velocity = R0 * Vec3(0.2, -0.1, 8.0);
  const fem::StateEnergy e0 = testing::model_energy(bm.model, s.committed);
  const double scale = e0.kinetic + std::abs(e0.potential) + 1.5 * 9.81 * 0.6;
  HeavyTopRun out;
  run(
      bm.model, s, 3000,
      [&](const std::vector<fem::NodeState>& st) {
        const fem::StateEnergy e = testing::model_energy(bm.model, st);
        out.energy_drift =
            std::max(out.energy_drift, std::abs(e.kinetic + e.potential - e0.kinetic - e0.potential) / scale);
        out.lz_drift = std::max(out.lz_drift, std::abs(e.angular_momentum.z() - e0.angular_momentum.z()) /
                                                  e0.angular_momentum.norm());
        out.potential_change = std::max(out.potential_change, std::abs(e.potential - e0.potential) / scale);
      });
  return out;
}

TEST(RigidBody, HeavyTopConservesEnergy) {
  const HeavyTopRun r = heavy_top();
  RecordProperty("energy_drift", testing::sci(r.energy_drift));
  RecordProperty("vertical_angular_momentum_drift", testing::sci(r.lz_drift));
  EXPECT_GT(r.potential_change, 1e-2);  // it really nutates
  EXPECT_LT(r.energy_drift, 1e-10);
  // L_z about the fixed point is a first integral of the heavy top. The support reaction acts at
  // the node, and the midpoint rule keeps the moment of the weight about it exactly: L_z too.
  EXPECT_LT(r.lz_drift, 1e-10);
}

/// Free body with its centre off the node, under gravity.
struct FreeFallRun {
  double energy_drift = 0.0, horizontal_momentum_drift = 0.0, vertical_momentum_error = 0.0;
};
FreeFallRun free_fall() {
  const Vec3 g(0.0, 0.0, -9.81), c(0.2, -0.3, 0.4);
  const double m = 2.0;
  BodyModel bm(RigidBodyProperties{m, full_inertia(), c}, g);
  TrialState s(bm.model);
  s.h = 0.01;
  s.committed[0].orientation = Quaternion(Eigen::AngleAxisd(1.0, Vec3(0.3, 1, -0.5).normalized()));
  s.committed[0].velocity = Vec3(1.0, -0.5, 3.0);
  s.committed[0].angular_velocity = Vec3(1.5, -2.0, 3.0);
  const fem::StateEnergy e0 = testing::model_energy(bm.model, s.committed);
  double de = 0.0, dp = 0.0, scale = e0.kinetic;
  run(
      bm.model, s, 1000,
      [&](const std::vector<fem::NodeState>& st) {
        const fem::StateEnergy e = testing::model_energy(bm.model, st);
        scale = std::max(scale, e.kinetic);
        de = std::max(de, std::abs(e.kinetic + e.potential - e0.kinetic - e0.potential));
        dp = std::max(dp, (e.momentum - e0.momentum).head<2>().norm());
      });
  const fem::StateEnergy e = testing::model_energy(bm.model, s.committed);
  FreeFallRun out;
  out.energy_drift = de / scale;
  out.horizontal_momentum_drift = dp / e0.momentum.norm();
  // After 10 s the vertical momentum is m (v_z0 + g t).
  out.vertical_momentum_error =
      std::abs(e.momentum.z() - (e0.momentum.z() + m * g.z() * s.t_n)) / std::abs(m * g.z() * s.t_n);
  return out;
}

TEST(RigidBody, FreeBodyWithOffsetUnderGravityConservesEnergyAndMomentum) {
  const FreeFallRun r = free_fall();
  RecordProperty("energy_drift", testing::sci(r.energy_drift));
  EXPECT_LT(r.energy_drift, 1e-10);
  EXPECT_LT(r.horizontal_momentum_drift, 1e-10);
  EXPECT_LT(r.vertical_momentum_error, 1e-10);
}

}  // namespace
}  // namespace catena::elements
