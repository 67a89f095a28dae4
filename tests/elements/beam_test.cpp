// Co-rotational beam (elements/beam.hpp): exact tangent for every scheme, rigid-motion and
// node-order invariance, the discrete energy identity of the midpoint force, the linear
// (Timoshenko) limit of a cantilever, and conservation in a free-free dynamic run.
#include "elements/beam.hpp"
#include "elements/nodal_load.hpp"

#include "support/beam_cantilever.hpp"
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

constexpr double pi = 3.14159265358979323846;

using testing::indexed;

/// A section whose stiffness terms all stamp Jacobian entries of comparable size (L ≈ 1.5), so a
/// wrong term cannot hide under a larger one.
BeamSection test_section(double damping_time = 0.0, bool with_mass = true) {
  BeamSection s;
  s.EA = 8.0;
  s.GAy = 6.0;
  s.GAz = 5.0;
  s.GJ = 1.5;
  s.EIy = 2.0;
  s.EIz = 3.0;
  if (with_mass) {
    s.rhoA = 0.4;
    s.rhoJ = 0.05;
    s.rhoIy = 0.03;
    s.rhoIz = 0.04;
  }
  s.damping_time = damping_time;
  return s;
}

using testing::rotation;

/// Two frame nodes with non-trivial initial triads (so the section offsets C are not identity),
/// a beam a→b, and optionally the same beam b→a.
struct BeamModel {
  fem::Model model;
  fem::NodeId a, b;
  Beam* beam = nullptr;
  Beam* reversed = nullptr;
  explicit BeamModel(const BeamSection& section, bool with_reversed = false,
                     const Vec3& gravity = Vec3(0.3, -0.5, -9.81),
                     const std::array<Vec3, 2>& offsets = {Vec3::Zero(), Vec3::Zero()}, bool b_first = false) {
    // b_first: b's point lexicographically before a's, so the midpoint's discrete gradient is
    // built from end b's invariants (Beam's constructor).
    const Vec3 pa(0.1, -0.2, 0.3), pb(1.3, 0.4, -0.5);
    a = model.add_node("a", b_first ? pb : pa, fem::NodeKind::Frame);
    b = model.add_node("b", b_first ? pa : pb, fem::NodeKind::Frame);
    model.initial_state[0].orientation = testing::quat(rotation(0.7, Vec3(1, -2, 0.5)));
    model.initial_state[1].orientation = testing::quat(rotation(-1.1, Vec3(0.3, 1, 2)));
    model.gravity = gravity;
    const Vec3 orientation(0.2, 1.0, 0.3);
    beam = &model.add_element<Beam>("ab", model.attach(a), model.attach(b), section, orientation, offsets);
    if (with_reversed)
      reversed = &model.add_element<Beam>("ba", model.attach(b), model.attach(a), section, orientation,
                                          std::array<Vec3, 2>{offsets[1], offsets[0]});
  }
};

/// Applies a rigid motion x → Q x + t, R → Q R to node states.
std::vector<fem::NodeState> moved_rigidly(std::vector<fem::NodeState> states, const Mat3& Q, const Vec3& t) {
  for (fem::NodeState& s : states) {
    s.position = Q * s.position + t;
    s.orientation = (Quaternion(Q) * s.orientation).normalized();
    s.velocity = Q * s.velocity;
    s.angular_velocity = Q * s.angular_velocity;
  }
  return states;
}

/// A bent and twisted state (end triads turned by up to `bend` rad, node b moved), turned as a
/// whole by ~2 rad about a skew axis, with velocities for the inertia terms.
std::vector<fem::NodeState> deformed_state(const fem::Model& m, std::mt19937& rng, double bend = 0.3) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<fem::NodeState> s = m.initial_state;
  for (fem::NodeState& n : s) {
    n.orientation = (Quaternion(testing::random_rotation(rng, bend)) * n.orientation).normalized();
    n.velocity = Vec3(u(rng), u(rng), u(rng));
    n.angular_velocity = Vec3(u(rng), u(rng), u(rng));
  }
  s[1].position += 0.1 * Vec3(u(rng), u(rng), u(rng));
  return moved_rigidly(s, rotation(2.0 + 0.1 * u(rng), Vec3(1, 2, -1)), Vec3(0.5, -1.0, 2.0));
}

void set_random(TrialState& s, std::mt19937& rng, double size) {
  std::uniform_real_distribution<double> u(-size, size);
  for (double& x : s.trial) x = u(rng);
}

Eigen::VectorXd trial_vector(const TrialState& s) {
  return Eigen::Map<const Eigen::VectorXd>(s.trial.data(), static_cast<Eigen::Index>(s.trial.size()));
}

// ---------------------------------------------------------------------------------------------
// 1. Tangent

/// Row-wise central-difference check of the full 12×12 Jacobian (internal force, damping,
/// lumped inertia and weight) over several random states and increments of the given size.
/// Eccentric ends (rigid offsets of the end points from the nodes) for the tests that use them.
const std::array<Vec3, 2> eccentric{Vec3(0.1, 0.25, -0.15), Vec3(-0.2, 0.05, 0.3)};

void check_beam_tangent(fem::TimeScheme scheme, double damping_time, double increment, bool deformed,
                        unsigned seed, const std::array<Vec3, 2>& offsets = {Vec3::Zero(), Vec3::Zero()},
                        bool b_first = false) {
  std::mt19937 rng(seed);
  double worst = 0.0;
  for (int trial = 0; trial < 6; ++trial) {
    BeamModel bm(test_section(damping_time), false, Vec3(0.3, -0.5, -9.81), offsets, b_first);
    TrialState s(bm.model);
    s.scheme = scheme;
    s.h = 0.5;  // inertia 2m/h² comparable with the stiffness entries
    if (deformed) s.committed = deformed_state(bm.model, rng);
    set_random(s, rng, increment);
    // Small increments: differences well inside the step (the discrete gradient's correction
    // varies on the scale of the change of shape, Δz ~ the increment).
    const double fd_step = increment < 1e-6 ? 1e-9 : std::min(1e-6, 1e-4 * increment);
    const testing::TangentCheck c = testing::compare_rowwise(bm.model, *bm.beam, s, fd_step);
    EXPECT_LT(c.max_relative_error, 1e-6) << "trial " << trial << ": " << c.worst;
    worst = std::max(worst, c.max_relative_error);
  }
  ::testing::Test::RecordProperty("worst_relative_error", testing::sci(worst));
}

TEST(BeamTangent, MidpointLargeRotationLargeIncrement) { check_beam_tangent(fem::TimeScheme::Midpoint, 0.0, 0.6, true, 1); }
TEST(BeamTangent, MidpointLargeRotationModerateIncrement) {
  check_beam_tangent(fem::TimeScheme::Midpoint, 0.0, 0.05, true, 2);
}
// 1e-3: about the smallest increment whose discrete-gradient correction central differences can
// follow to 1e-6 in double precision: the correction divides the round-off of Δε (~1e-17 here)
// by |Δz| ~ the increment, and a difference step must stay well below the increment. Smaller
// steps are exercised by the runs (spin-up-simo: Newton converges with Δz down to round-off).
TEST(BeamTangent, MidpointLargeRotationSmallIncrement) {
  check_beam_tangent(fem::TimeScheme::Midpoint, 0.0, 1e-3, true, 3);
}
TEST(BeamTangent, MidpointUndeformedModerateIncrement) {
  check_beam_tangent(fem::TimeScheme::Midpoint, 0.0, 0.1, false, 4);
}
TEST(BeamTangent, MidpointDampedLargeRotation) {
  check_beam_tangent(fem::TimeScheme::Midpoint, 0.3, 0.4, true, 5);
  check_beam_tangent(fem::TimeScheme::Midpoint, 0.3, 0.05, true, 6);
  check_beam_tangent(fem::TimeScheme::Midpoint, 0.3, 1e-3, true, 7);
}
TEST(BeamTangent, EccentricEnds) {
  check_beam_tangent(fem::TimeScheme::Midpoint, 0.2, 0.4, true, 17, eccentric);
  check_beam_tangent(fem::TimeScheme::Midpoint, 0.0, 1e-3, true, 18, eccentric);
  check_beam_tangent(fem::TimeScheme::Static, 0.0, 0.4, true, 19, eccentric);
}
TEST(BeamTangent, InvariantsFromEndB) {
  const std::array<Vec3, 2> centred{Vec3::Zero(), Vec3::Zero()};
  check_beam_tangent(fem::TimeScheme::Midpoint, 0.0, 0.6, true, 20, centred, true);
  check_beam_tangent(fem::TimeScheme::Midpoint, 0.3, 0.05, true, 21, centred, true);
  check_beam_tangent(fem::TimeScheme::Midpoint, 0.0, 1e-3, true, 22, eccentric, true);
}
TEST(BeamTangent, TrapezoidalLargeRotation) {
  check_beam_tangent(fem::TimeScheme::Trapezoidal, 0.0, 0.6, true, 8);
  check_beam_tangent(fem::TimeScheme::Trapezoidal, 0.0, 0.05, true, 9);
  check_beam_tangent(fem::TimeScheme::Trapezoidal, 0.0, 1e-9, true, 10);
}
TEST(BeamTangent, TrapezoidalDampedLargeRotation) {
  check_beam_tangent(fem::TimeScheme::Trapezoidal, 0.3, 0.4, true, 11);
  check_beam_tangent(fem::TimeScheme::Trapezoidal, 0.3, 1e-9, true, 12);
}
TEST(BeamTangent, StaticLargeRotation) {
  check_beam_tangent(fem::TimeScheme::Static, 0.0, 0.6, true, 13);
  check_beam_tangent(fem::TimeScheme::Static, 0.0, 0.05, true, 14);
  check_beam_tangent(fem::TimeScheme::Static, 0.0, 1e-9, true, 15);
  check_beam_tangent(fem::TimeScheme::Static, 0.3, 0.1, false, 16);  // damping is ignored in statics
}

// ---------------------------------------------------------------------------------------------
// 3. Invariance

TEST(Beam, RigidMotionGivesZeroStrainsAndEnergy) {
  std::mt19937 rng(21);
  BeamModel bm(test_section());
  EXPECT_LT(bm.beam->strains(bm.model.initial_state).cwiseAbs().maxCoeff(), 1e-14);
  for (int trial = 0; trial < 50; ++trial) {
    const Mat3 Q = testing::random_rotation(rng, 3.1);
    const std::vector<fem::NodeState> moved = moved_rigidly(bm.model.initial_state, Q, Vec3(5.0, -3.0, 7.0));
    EXPECT_LT(bm.beam->strains(moved).cwiseAbs().maxCoeff(), 1e-12) << "trial " << trial;
    EXPECT_LT(bm.beam->strain_energy(moved), 1e-22) << "trial " << trial;
  }
}

TEST(Beam, RigidlyRotatedBentStateKeepsStrainsAndEnergy) {
  std::mt19937 rng(22);
  BeamModel bm(test_section());
  for (int trial = 0; trial < 50; ++trial) {
    const std::vector<fem::NodeState> bent = deformed_state(bm.model, rng, 0.8);
    const auto eps = bm.beam->strains(bent);
    const double W = bm.beam->strain_energy(bent);
    ASSERT_GT(W, 1e-3);
    const std::vector<fem::NodeState> moved =
        moved_rigidly(bent, testing::random_rotation(rng, 3.1), Vec3(-2.0, 4.0, 1.0));
    EXPECT_LT((bm.beam->strains(moved) - eps).cwiseAbs().maxCoeff(), 1e-10 * eps.cwiseAbs().maxCoeff())
        << "trial " << trial;
    EXPECT_NEAR(bm.beam->strain_energy(moved), W, 1e-10 * W) << "trial " << trial;
  }
}

TEST(Beam, EccentricBeamIsRigidMotionInvariantAndStartsUnstrained) {
  std::mt19937 rng(24);
  BeamModel bm(test_section(), false, Vec3::Zero(), eccentric);
  EXPECT_LT(bm.beam->strains(bm.model.initial_state).cwiseAbs().maxCoeff(), 1e-14);
  const Vec3 chord = bm.model.initial_state[1].position + eccentric[1] - bm.model.initial_state[0].position - eccentric[0];
  EXPECT_NEAR(bm.beam->length(), chord.norm(), 1e-15);
  for (int trial = 0; trial < 20; ++trial) {
    const std::vector<fem::NodeState> bent = deformed_state(bm.model, rng, 0.8);
    const double W = bm.beam->strain_energy(bent);
    const std::vector<fem::NodeState> moved =
        moved_rigidly(bent, testing::random_rotation(rng, 3.1), Vec3(-2.0, 4.0, 1.0));
    EXPECT_NEAR(bm.beam->strain_energy(moved), W, 1e-10 * W) << "trial " << trial;
  }
}

TEST(Beam, NodeOrderDoesNotMatter) {
  std::mt19937 rng(23);
  for (const fem::TimeScheme scheme : {fem::TimeScheme::Static, fem::TimeScheme::Midpoint}) {
    for (int trial = 0; trial < 20; ++trial) {
      BeamModel bm(test_section(), /*with_reversed=*/true);
      TrialState s(bm.model);
      s.scheme = scheme;
      s.committed = deformed_state(bm.model, rng, 0.6);
      set_random(s, rng, 0.3);
      const double W = bm.beam->strain_energy(s.committed);
      EXPECT_NEAR(bm.reversed->strain_energy(s.committed), W, 1e-12 * W);
      // Same model, same dofs: the nodal forces (and inertia) need no mapping.
      const Eigen::VectorXd fab = testing::element_residual(bm.model, *bm.beam, s);
      const Eigen::VectorXd fba = testing::element_residual(bm.model, *bm.reversed, s);
      EXPECT_LT((fab - fba).cwiseAbs().maxCoeff(), 1e-10 * fab.cwiseAbs().maxCoeff())
          << "scheme " << static_cast<int>(scheme) << ", trial " << trial << "\n"
          << fab.transpose() << "\n"
          << fba.transpose();
    }
  }
}

// ---------------------------------------------------------------------------------------------
// 4. Discrete energy identity of the midpoint force

/// f · u and W(end) − W(start) for the beam without mass (the residual is the internal force).
struct WorkAndEnergy {
  double work = 0.0, dW = 0.0, scale = 0.0, dissipated = 0.0;
};
WorkAndEnergy work_and_energy(double damping_time, fem::TimeScheme scheme, std::mt19937& rng, double size) {
  BeamModel bm(test_section(damping_time, /*with_mass=*/false));
  TrialState s(bm.model);
  s.scheme = scheme;
  s.h = 0.05;
  s.committed = deformed_state(bm.model, rng, 0.5);
  set_random(s, rng, size);
  const Eigen::VectorXd f = testing::element_residual(bm.model, *bm.beam, s);
  const std::vector<fem::NodeState> end = testing::end_states(bm.model, s);
  WorkAndEnergy out;
  out.work = f.dot(trial_vector(s));
  const double W0 = bm.beam->strain_energy(s.committed), W1 = bm.beam->strain_energy(end);
  out.dW = W1 - W0;
  out.scale = std::abs(W0) + std::abs(W1);
  fem::StepWork w;
  bm.beam->add_step_work(s.view(bm.model), w);
  out.dissipated = w.dissipated;
  return out;
}

TEST(Beam, MidpointWorkEqualsStrainEnergyChange) {
  std::mt19937 rng(31);
  double worst = 0.0;
  for (int trial = 0; trial < 100; ++trial) {
    const WorkAndEnergy e = work_and_energy(0.0, fem::TimeScheme::Midpoint, rng, trial % 2 ? 0.5 : 0.02);
    ASSERT_GT(e.scale, 1e-3);
    EXPECT_NEAR(e.work, e.dW, 1e-10 * e.scale) << "trial " << trial;
    worst = std::max(worst, std::abs(e.work - e.dW) / e.scale);
  }
  RecordProperty("worst_relative_error", testing::sci(worst));
}

// A step that is nearly a rigid turn (the spinning beam's): the change of shape |Δz| is ~1e-7,
// where the discrete gradient's correction amplifies the rounding of Δε some 1e5 times. Along a
// line of increments 1e-13 apart the residual must be the same smooth function in both modes, with
// the noise about that line far lower when Newton asks for precise residuals (what is left is the
// rounding of the rest of the force, not amplified).
TEST(Beam, PreciseResidualIsTheSameForceWithLessRoundingNoise) {
  std::mt19937 rng(41);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  double worst_ratio = 0.0;
  for (int trial = 0; trial < 5; ++trial) {
    BeamModel bm(test_section(0.0, /*with_mass=*/false));
    TrialState s(bm.model);
    s.h = 0.01;
    s.committed = deformed_state(bm.model, rng, 0.3);
    // A rigid Cayley step b about the origin (every point moves along its chord), then a shape change.
    const Vec3 b = 0.06 * Vec3(uniform(rng), uniform(rng), uniform(rng));
    const Mat3 turn = fem::cayley(b);
    Eigen::VectorXd u(12), v(12);
    for (int k = 0; k < 2; ++k) {
      const Vec3 x = s.committed[static_cast<std::size_t>(k)].position;
      u.segment<3>(6 * k) = turn * x - x;
      u.segment<3>(6 * k + 3) = b;
    }
    for (int i = 0; i < 12; ++i) {
      u[i] += 1e-7 * uniform(rng);
      v[i] = uniform(rng);
    }
    constexpr int n = 21;
    double noise[2] = {0.0, 0.0};
    Eigen::VectorXd mean[2];
    for (const bool precise : {false, true}) {
      s.precise = precise;
      // Least-squares line through r(u + i δ v), i = 0 … n−1, per component; noise = rms misfit.
      Eigen::MatrixXd r(12, n);
      for (int i = 0; i < n; ++i) {
        const Eigen::VectorXd w = u + (1e-13 * i) * v;
        for (int k = 0; k < 12; ++k) s.trial[static_cast<std::size_t>(k)] = w[k];
        r.col(i) = testing::element_residual(bm.model, *bm.beam, s);
      }
      Eigen::MatrixXd A(n, 2);
      for (int i = 0; i < n; ++i) A.row(i) << 1.0, i;
      const Eigen::MatrixXd fit = A.colPivHouseholderQr().solve(r.transpose());
      noise[precise] = std::sqrt((r.transpose() - A * fit).squaredNorm() / (12.0 * n));
      mean[precise] = fit.row(0).transpose();
    }
    const double scale = mean[0].cwiseAbs().maxCoeff();
    ASSERT_GT(noise[0], 1e-13 * scale) << "trial " << trial << ": no rounding noise to remove";
    EXPECT_LT(noise[1], 0.2 * noise[0]) << "trial " << trial;  // measured 0.03 ... 0.07
    EXPECT_LT((mean[1] - mean[0]).cwiseAbs().maxCoeff(), 10.0 * noise[0]) << "trial " << trial;
    worst_ratio = std::max(worst_ratio, noise[1] / noise[0]);
  }
  RecordProperty("worst_noise_ratio", testing::sci(worst_ratio));
}

TEST(Beam, MidpointDampedWorkIsEnergyChangePlusDissipation) {
  std::mt19937 rng(32);
  for (int trial = 0; trial < 50; ++trial) {
    const WorkAndEnergy e = work_and_energy(0.2, fem::TimeScheme::Midpoint, rng, 0.4);
    EXPECT_GT(e.dissipated, 1e-3 * e.scale) << "trial " << trial;
    EXPECT_NEAR(e.work, e.dW + e.dissipated, 1e-10 * (e.scale + e.dissipated)) << "trial " << trial;
  }
}

TEST(Beam, TrapezoidalForceDoesNotConserveStrainEnergy) {
  // Control: the end-point average is not a discrete gradient.
  std::mt19937 rng(33);
  const WorkAndEnergy e = work_and_energy(0.0, fem::TimeScheme::Trapezoidal, rng, 0.5);
  EXPECT_GT(std::abs(e.work - e.dW), 1e-4 * e.scale);
}

// ---------------------------------------------------------------------------------------------
// 6. Linear limit: Timoshenko cantilever

using testing::Cantilever;
using testing::constant_load;

TEST(Beam, CantileverTipLoadGivesTimoshenkoDeflection) {
  Cantilever c(10);
  const double P = 1e-5;
  c.model.add_element<NodalLoad>("P", c.model.attach(c.nodes.back()), constant_load(0, P, 0));
  const std::vector<fem::NodeState> end = c.solve();
  const double tip = end[c.nodes.back().index].position.y();
  const double expected = P * std::pow(c.L, 3) / (3 * c.section.EIz) + P * c.L / c.section.GAy;
  RecordProperty("relative_error", testing::sci(std::abs(tip / expected - 1)));
  EXPECT_NEAR(tip, expected, 1e-3 * expected);
  // The tip load bends about z only.
  EXPECT_LT(std::abs(end[c.nodes.back().index].position.z()), 1e-12 * expected);
}

TEST(Beam, LoadOnAnEccentricTipTwistsTheCantilever) {
  // The tip node sits e off the beam's axis, joined to its end by a rigid offset: a force along z
  // on the node bends the beam and twists it by P e L/GJ, which moves the node by that times e.
  const double e = 0.3, P = 1e-6;
  Cantilever c(10, e);
  c.model.add_element<NodalLoad>("P", c.model.attach(c.nodes.back()), constant_load(0, 0, P));
  const std::vector<fem::NodeState> end = c.solve();
  const BeamSection& s = c.section;
  const double w = end[c.nodes.back().index].position.z();
  const double expected = P * c.L * c.L * c.L / (3 * s.EIy) + P * c.L / s.GAz + P * e * e * c.L / s.GJ;
  RecordProperty("relative_error", testing::sci(std::abs(w / expected - 1)));
  EXPECT_NEAR(w, expected, 1e-3 * expected);
  const double twist = P * e * c.L / s.GJ;
  EXPECT_NEAR(fem::rotation_vector(end[c.nodes.back().index].orientation).x(), twist, 1e-3 * twist);
}

TEST(Beam, CantileverTipMomentGivesRotationMLOverEI) {
  Cantilever c(10);
  const double M = 1e-4;
  c.model.add_element<NodalLoad>("M", c.model.attach(c.nodes.back()), constant_load(0, 0, M), LoadKind::Moment);
  const std::vector<fem::NodeState> end = c.solve();
  const Vec3 tip = fem::rotation_vector(end[c.nodes.back().index].orientation);
  const double expected = M * c.L / c.section.EIz;
  RecordProperty("relative_error", testing::sci(std::abs(tip.z() / expected - 1)));
  EXPECT_NEAR(tip.z(), expected, 1e-6 * expected);
  EXPECT_LT(std::abs(tip.x()) + std::abs(tip.y()), 1e-9 * expected);
}

// ---------------------------------------------------------------------------------------------
// 7. Free-free beam: energy and momenta over a dynamic run

/// Drifts over a run of a free-free beam of 4 elements (lumped mass and rotary inertia): a rigid
/// spin about a skew axis plus a bending and twisting velocity, Midpoint scheme, dense Newton.
struct FreeFreeRun {
  double energy_drift = 0.0;    ///< max |ΔE| / E0, E = kinetic + strain
  double momentum_drift = 0.0;  ///< max |Δp| / Σ m_k |v_k|
  double angular_momentum_drift = 0.0;  ///< max |ΔL| / (Σ m_k |x_k| |v_k| + |L0|)
  double max_strain_fraction = 0.0;     ///< max strain energy / E0
};

FreeFreeRun free_free_run(int steps, bool eccentric_ends = false, double mass_coupling = 0.0) {
  const int n = 4;
  const double L = 2.0;
  fem::Model m;
  BeamSection sec;
  sec.EA = 200.0;
  sec.GAy = 80.0;
  sec.GAz = 70.0;
  sec.GJ = 3.0;
  sec.EIy = 4.0;
  sec.EIz = 5.0;
  sec.rhoA = 1.0;
  sec.rhoJ = 0.02;
  sec.rhoIy = 0.01;
  sec.rhoIz = 0.015;
  sec.mass_coupling = mass_coupling;
  std::vector<fem::NodeId> nodes;
  for (int k = 0; k <= n; ++k)
    nodes.push_back(m.add_node(indexed("n", k), Vec3(L * k / n, 0.1 * k, 0), fem::NodeKind::Frame));
  for (int k = 0; k < n; ++k)
    m.add_element<Beam>(indexed("e", k), m.attach(nodes[k]), m.attach(nodes[k + 1]), sec, Vec3(0, 0.3, 1),
                        std::array<Vec3, 2>{eccentric_ends && k == 0 ? eccentric[0] : Vec3::Zero(),
                                            eccentric_ends && k == n - 1 ? eccentric[1] : Vec3::Zero()});
  const Vec3 omega(0.4, -0.7, 1.5), v0(0.2, -0.1, 0.3), centre(1.0, 0.2, 0.0);
  for (int k = 0; k <= n; ++k) {
    fem::NodeState& st = m.initial_state[static_cast<std::size_t>(k)];
    const double xi = static_cast<double>(k) / n;
    st.velocity = v0 + omega.cross(st.position - centre) + Vec3(0, 0.3, 0.8) * std::cos(pi * xi);
    st.angular_velocity = omega + Vec3(0.5 * std::sin(pi * xi), 0.4 * pi / L * std::sin(pi * xi), 0.2);
  }
  TrialState s(m);
  s.h = 0.01;
  const fem::StateEnergy e0 = testing::model_energy(m, s.committed);
  double p_scale = 0.0, l_scale = e0.angular_momentum.norm();
  for (std::size_t k = 0; k < m.nodes.size(); ++k) {
    const double mk = (k == 0 || k == m.nodes.size() - 1 ? 0.5 : 1.0) * sec.rhoA * L / n;
    p_scale += mk * s.committed[k].velocity.norm();
    l_scale += mk * s.committed[k].velocity.norm() * s.committed[k].position.norm();
  }
  const double E0 = e0.kinetic + e0.strain;
  FreeFreeRun out;
  for (int step = 0; step < steps; ++step) {
    testing::predict(m, s);
    testing::newton(m, s, 1e-13);
    testing::commit(m, s);
    const fem::StateEnergy e = testing::model_energy(m, s.committed);
    out.energy_drift = std::max(out.energy_drift, std::abs(e.kinetic + e.strain - E0) / E0);
    out.momentum_drift = std::max(out.momentum_drift, (e.momentum - e0.momentum).norm() / p_scale);
    out.angular_momentum_drift =
        std::max(out.angular_momentum_drift, (e.angular_momentum - e0.angular_momentum).norm() / l_scale);
    out.max_strain_fraction = std::max(out.max_strain_fraction, e.strain / E0);
  }
  return out;
}

TEST(Beam, FreeFreeMidpointRunConservesEnergyAndMomenta) {
  for (const bool eccentric_ends : {false, true}) {
    const FreeFreeRun r = free_free_run(200, eccentric_ends);
    const std::string tag = eccentric_ends ? "eccentric_" : "";
    RecordProperty(tag + "energy_drift", testing::sci(r.energy_drift));
    RecordProperty(tag + "momentum_drift", testing::sci(r.momentum_drift));
    RecordProperty(tag + "angular_momentum_drift", testing::sci(r.angular_momentum_drift));
    EXPECT_GT(r.max_strain_fraction, 1e-2);  // the beam really bends
    EXPECT_LT(r.energy_drift, 1e-10) << tag;
    EXPECT_LT(r.momentum_drift, 1e-10) << tag;
    EXPECT_LT(r.angular_momentum_drift, 1e-10) << tag;
  }
}

// The consistent part of the mass (mixed, consistent) is a constant matrix with isotropic node
// blocks: the time element keeps energy and both momenta, with their extra terms.
TEST(Beam, CoupledMassRunConservesEnergyAndMomenta) {
  for (const double coupling : {0.5, 1.0}) {
    const FreeFreeRun r = free_free_run(200, false, coupling);
    EXPECT_GT(r.max_strain_fraction, 1e-2);
    EXPECT_LT(r.energy_drift, 1e-10) << coupling;
    EXPECT_LT(r.momentum_drift, 1e-10) << coupling;
    EXPECT_LT(r.angular_momentum_drift, 1e-10) << coupling;
  }
}

TEST(BeamTangent, CoupledMassMidpoint) {
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> u(-0.3, 0.3);
  BeamSection sec = test_section();
  sec.mass_coupling = 0.5;
  BeamModel bm(sec);
  TrialState s(bm.model);
  for (auto& st : s.committed) st.velocity = Vec3(u(rng), u(rng), u(rng));
  for (double& x : s.trial) x = u(rng);
  const testing::TangentCheck c = testing::compare_rowwise(bm.model, *bm.beam, s);
  EXPECT_LT(c.max_relative_error, 1e-7) << c.worst;
  // The coupling is really there: the Jacobian's (a, b) displacement block differs from the lumped one.
  BeamModel lumped(test_section());
  const Eigen::MatrixXd J = testing::element_jacobian(bm.model, *bm.beam, s);
  const Eigen::MatrixXd J0 = testing::element_jacobian(lumped.model, *lumped.beam, s);
  EXPECT_GT((J - J0).cwiseAbs().maxCoeff(), 1.0);
}

/// A beam stamped from one start, then from another (moved, turned, with new velocities): with
/// StepState::start_id the second stamp must be the one of a beam that never kept the first start
/// (fem::StartCache), and the kept start must give the stamp a fresh one gives, to the bit.
TEST(Beam, StampFollowsTheStartItKeeps) {
  BeamModel kept(test_section()), fresh(test_section());
  TrialState s(kept.model);
  for (std::size_t i = 0; i < s.trial.size(); ++i) s.trial[i] = 1e-2 * std::sin(1.0 + static_cast<double>(i));
  const auto stamp = [&](const BeamModel& bm, std::uint64_t id) {
    fem::StepState view = s.view(bm.model);
    view.start_id = id;
    fem::DenseResidual r(s.map, static_cast<int>(s.trial.size()));
    fem::NullJacobianSink none;
    bm.beam->stamp(view, r, none);
    return Eigen::VectorXd(r.r);
  };
  const std::uint64_t first = fem::new_start_id();
  const Eigen::VectorXd r1 = stamp(kept, first);
  EXPECT_EQ(stamp(kept, first), r1);  // from the kept start
  EXPECT_EQ(stamp(fresh, 0), r1);     // from a start computed afresh

  s.committed[1].position += Vec3(0.05, -0.02, 0.01);
  s.committed[1].orientation = testing::quat(rotation(0.3, Vec3(0.0, 0.6, 0.8))) * s.committed[1].orientation;
  s.committed[0].velocity = Vec3(0.4, 0.1, -0.2);
  s.committed[0].angular_velocity = Vec3(-0.3, 0.2, 0.5);
  const Eigen::VectorXd r2 = stamp(kept, fem::new_start_id());
  EXPECT_EQ(r2, stamp(fresh, 0));
  EXPECT_GT((r2 - r1).norm(), 1e-3 * r1.norm());  // the start did change the residual
}

}  // namespace
}  // namespace catena::elements
