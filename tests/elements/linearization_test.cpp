// Pieces of the linearized analyses at element level: NodeInertia (merged lumps, centrifugal
// force and its tangent, mass and gyroscopic matrices) and the semitangential moment (tangents,
// its first-order turn by half the node's rotation, exact work in time elements).
#include "elements/nodal_load.hpp"
#include "elements/node_inertia.hpp"
#include "elements/rigid_body.hpp"
#include "fem/rotation.hpp"

#include "support/tangent_check.hpp"

#include <gtest/gtest.h>

#include <random>

namespace catena::elements {
namespace {

using fem::Mat3;
using fem::Quaternion;
using fem::Vec3;
using testing::TrialState;

/// A frame node carrying an eccentric lump, seen from a frame turning about an off-origin axis.
struct InertiaModel {
  fem::Model model;
  NodeInertia* inertia = nullptr;
  fem::InertiaLump lump;
  TurningFrame frame{Vec3(0.3, -1.2, 2.0), Vec3(0.5, 0.1, -0.2)};
  explicit InertiaModel(bool turning = true) {
    const fem::NodeId n = model.add_node("n", Vec3(1.0, 2.0, -0.5), fem::NodeKind::Frame);
    model.initial_state[0].orientation = Quaternion(Eigen::AngleAxisd(0.8, Vec3(1, 2, -1).normalized()));
    lump = {n, 2.5, Vec3(0.3, -0.2, 0.4), Mat3(Vec3(0.4, 0.7, 0.9).asDiagonal())};
    lump.inertia(0, 1) = lump.inertia(1, 0) = 0.05;
    if (!turning) frame.angular_velocity.setZero();
    inertia = &model.add_element<NodeInertia>("i", model.attach(lump.node), std::span(&lump, 1), frame);
  }
};

Eigen::MatrixXd rate_matrix(const InertiaModel& im, bool mass) {
  const TrialState s(im.model);
  fem::DenseJacobian M(s.map, static_cast<int>(s.trial.size())), D(s.map, static_cast<int>(s.trial.size()));
  im.inertia->stamp_rates(s.view(im.model), M, D);
  return mass ? M.J : D.J;
}

TEST(NodeInertia, MergedLumpsKeepMassCentreAndInertia) {
  const fem::NodeId n{0};
  const std::array<fem::InertiaLump, 2> lumps{fem::InertiaLump{n, 1.0, Vec3(1, 0, 0), Mat3::Identity()},
                                              fem::InertiaLump{n, 3.0, Vec3(-1, 0, 0), Mat3::Zero()}};
  const fem::InertiaLump m = merge_lumps(lumps);
  EXPECT_DOUBLE_EQ(m.mass, 4.0);
  EXPECT_NEAR((m.offset - Vec3(-0.5, 0, 0)).norm(), 0.0, 1e-15);
  // About the common centre: 1 (own) + 1·1.5² + 3·0.5² about y and z, 1 about x.
  EXPECT_NEAR((m.inertia - Vec3(1.0, 4.0, 4.0).asDiagonal().toDenseMatrix()).norm(), 0.0, 1e-14);
}

TEST(NodeInertia, MassMatrixOfAnEccentricBody) {
  const InertiaModel im(false);
  const Eigen::MatrixXd M = rate_matrix(im, true);
  const Mat3 R = im.model.initial_state[0].orientation.toRotationMatrix();
  const Vec3 d = R * im.lump.offset;
  const Mat3 J = R * im.lump.inertia * R.transpose();
  const Mat3 dh = fem::skew(d);
  Eigen::Matrix<double, 6, 6> expected;
  expected << im.lump.mass * Mat3::Identity(), -im.lump.mass * dh, im.lump.mass * dh, J - im.lump.mass * dh * dh;
  EXPECT_LT((M - expected).cwiseAbs().maxCoeff(), 1e-13);
  EXPECT_LT(rate_matrix(im, false).cwiseAbs().maxCoeff(), 1e-15);  // no damping in an inertial frame
}

TEST(NodeInertia, GyroscopicMatrixIsSkewWithCoriolisBlock) {
  const InertiaModel im;
  const Eigen::MatrixXd D = rate_matrix(im, false);
  EXPECT_LT((D + D.transpose()).cwiseAbs().maxCoeff(), 1e-12 * D.cwiseAbs().maxCoeff());
  // Translations: 2 m Ω̂ (Coriolis).
  const Eigen::MatrixXd coriolis = 2.0 * im.lump.mass * fem::skew(im.frame.angular_velocity);
  EXPECT_LT((D.topLeftCorner<3, 3>() - coriolis).cwiseAbs().maxCoeff(), 1e-13);
}

TEST(NodeInertia, CentrifugalForceOfThePointLump) {
  InertiaModel im;
  TrialState s(im.model);
  s.scheme = fem::TimeScheme::Static;
  const Eigen::VectorXd r = testing::element_residual(im.model, *im.inertia, s);
  const Vec3 c = im.model.initial_state[0].position + im.model.initial_state[0].orientation * im.lump.offset;
  const Vec3& W = im.frame.angular_velocity;
  const Vec3 expected = im.lump.mass * W.cross(W.cross(c - im.frame.centre));
  EXPECT_LT((r.head<3>() - expected).norm(), 1e-12 * expected.norm());
  // Nothing in time elements: there the elements that own the lumps stamp their inertia.
  s.scheme = fem::TimeScheme::Midpoint;
  EXPECT_EQ(testing::element_residual(im.model, *im.inertia, s).cwiseAbs().maxCoeff(), 0.0);
}

TEST(NodeInertiaTangent, StaticCentrifugalAndGyroscopicTerms) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (const double size : {0.8, 1e-3}) {
    InertiaModel im;
    TrialState s(im.model);
    s.scheme = fem::TimeScheme::Static;
    for (double& x : s.trial) x = size * u(rng);
    const Eigen::MatrixXd J = testing::element_jacobian(im.model, *im.inertia, s);
    ASSERT_GT(J.cwiseAbs().maxCoeff(), 1.0);
    const testing::TangentCheck c = testing::compare_rowwise(im.model, *im.inertia, s);
    EXPECT_LT(c.max_relative_error, 1e-8) << size << ": " << c.worst;
  }
}

/// A frame node under a semitangential moment m (global), its reference orientation R_0.
struct MomentModel {
  fem::Model model;
  NodalLoad* load = nullptr;
  Vec3 m{3.0, -1.0, 2.0};
  MomentModel() {
    model.add_node("n", Vec3::Zero(), fem::NodeKind::Frame);
    model.initial_state[0].orientation = Quaternion(Eigen::AngleAxisd(0.6, Vec3(0, 1, 1).normalized()));
    const fem::ParameterTable p;
    std::array<fem::Expression, 3> g{fem::Expression(std::to_string(m.x()), p), fem::Expression(std::to_string(m.y()), p),
                                     fem::Expression(std::to_string(m.z()), p)};
    load = &model.add_element<NodalLoad>("m", model.attach(fem::NodeId{0}), std::move(g), LoadKind::Moment,
                                         LoadAxes::Semitangential, 1.0, model.initial_state[0].orientation);
  }
};

void set_rotation_step(const MomentModel& mm, TrialState& s, const Vec3& b) {
  const auto dofs = s.map.dofs(mm.model.nodes[0].rotation);
  for (int c = 0; c < 3; ++c) s.trial[static_cast<std::size_t>(dofs[c])] = b[c];
}

Vec3 rotation_row(const MomentModel& mm, const TrialState& s) {
  const Eigen::VectorXd r = testing::element_residual(mm.model, *mm.load, s);
  const auto dofs = s.map.dofs(mm.model.nodes[0].rotation);
  return Vec3(r[dofs[0]], r[dofs[1]], r[dofs[2]]);
}

void check_semitangential_tangent(fem::TimeScheme scheme) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (const double size : {0.6, 1e-3}) {
    for (int trial = 0; trial < 4; ++trial) {
      MomentModel mm;
      TrialState s(mm.model);
      s.scheme = scheme;
      // Turned from the reference by up to 1.2 rad, then the step.
      s.committed[0].orientation =
          Quaternion(testing::random_rotation(rng, 1.2)) * mm.model.initial_state[0].orientation;
      for (double& x : s.trial) x = size * u(rng);
      const testing::TangentCheck c = testing::compare_rowwise(mm.model, *mm.load, s);
      // Gonzalez's correction divides round-off in Δψ (ε |ψ|) by |b|: central differences of a
      // small step see that noise, ~1e-6 of the row at |b| = 1e-3.
      const double tolerance = scheme == fem::TimeScheme::Midpoint && size < 0.1 ? 1e-5 : 1e-7;
      EXPECT_LT(c.max_relative_error, tolerance) << size << ": " << c.worst;
    }
  }
}

TEST(SemitangentialMomentTangent, Static) { check_semitangential_tangent(fem::TimeScheme::Static); }
TEST(SemitangentialMomentTangent, Midpoint) { check_semitangential_tangent(fem::TimeScheme::Midpoint); }

TEST(SemitangentialMoment, TurnsByHalfTheNodeRotationToFirstOrder) {
  // At the reference, a small turn θ of the node turns the moment by θ/2: the static row is
  // −(m + ½ θ × m) + O(θ²), where a follower moment would give −(m + θ × m) and a dead one −m.
  MomentModel mm;
  TrialState s(mm.model);
  s.scheme = fem::TimeScheme::Static;
  const Vec3 theta(1e-4, -2e-4, 1.5e-4);
  set_rotation_step(mm, s, theta);
  const Vec3 r = rotation_row(mm, s);
  const Vec3 expected = -(mm.m + 0.5 * theta.cross(mm.m));
  EXPECT_LT((r - expected).norm(), 1e-7 * mm.m.norm());
  EXPECT_GT((r + mm.m).norm(), 1e-5 * mm.m.norm());  // it does turn
}

TEST(SemitangentialMoment, WorkOverAStepIsMomentTimesRotationVectorIncrement) {
  MomentModel mm;
  TrialState s(mm.model);
  s.scheme = fem::TimeScheme::Midpoint;
  std::mt19937 rng(3);
  s.committed[0].orientation = Quaternion(testing::random_rotation(rng, 0.9)) * mm.model.initial_state[0].orientation;
  const Vec3 b(0.3, -0.5, 0.2);
  set_rotation_step(mm, s, b);
  const Mat3 R0 = mm.model.initial_state[0].orientation.toRotationMatrix();
  const Mat3 Rn = s.committed[0].orientation.toRotationMatrix();
  const Vec3 psi_n = fem::log_map<double>(Mat3(Rn * R0.transpose()));
  const Vec3 psi_1 = fem::log_map<double>(Mat3(testing::cayley_turn(b) * Rn * R0.transpose()));
  fem::StepWork w;
  mm.load->add_step_work(s.view(mm.model), w);
  EXPECT_NEAR(w.external_work, mm.m.dot(psi_1 - psi_n), 1e-13);
  // And the row does that work: −row · b.
  EXPECT_NEAR(-rotation_row(mm, s).dot(b), w.external_work, 1e-13);
}

TEST(SemitangentialMoment, OnlyMoments) {
  fem::Model model;
  model.add_node("n", Vec3::Zero(), fem::NodeKind::Frame);
  const fem::ParameterTable p;
  EXPECT_THROW(NodalLoad("f", model.attach(fem::NodeId{0}),
                         {fem::Expression("1", p), fem::Expression("0", p), fem::Expression("0", p)}, LoadKind::Force,
                         LoadAxes::Semitangential),
               std::invalid_argument);
}

}  // namespace
}  // namespace catena::elements
