// Joints as relative coordinates with multipliers (elements/joint.hpp): exact tangents for every
// kind (ground and two-node, statics and dynamics, relative rotations past a half turn), motion
// only in the free directions checked from the node states, the pendulum's reaction, a driven
// angle that turns several times, and energy and momenta of free bodies joined by a joint.
#include "elements/joint.hpp"

#include "elements/joint_kinds.hpp"
#include "elements/nodal_load.hpp"
#include "elements/rigid_body.hpp"
#include "support/dense_newton.hpp"
#include "support/tangent_check.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <numbers>
#include <optional>
#include <random>
#include <tuple>

namespace catena::elements {
namespace {

using fem::Mat3;
using fem::Quaternion;
using fem::Vec3;
using testing::TrialState;
constexpr double pi = std::numbers::pi;

using testing::rotation;

/// The joint's axes and point (global, at t = 0) of every JointModel.
const Mat3 joint_axes = rotation(0.6, Vec3(1, 2, -1));
const Vec3 joint_point(0.3, -0.2, 0.5);

Mat3 inertia() {
  Mat3 J;
  J << 0.30, 0.02, -0.01,  //
      0.02, 0.20, 0.03,    //
      -0.01, 0.03, 0.15;
  return J;
}

std::array<fem::Expression, 3> constant_vector(const Vec3& v) {
  const fem::ParameterTable p{{"X", v.x()}, {"Y", v.y()}, {"Z", v.z()}};
  return {fem::Expression("X", p), fem::Expression("Y", p), fem::Expression("Z", p)};
}

/// Two rigid bodies (or one and the ground) joined by a joint of the given kind. The joint frames
/// have offsets and turned axes; at t = 0 the joint is assembled (frames coincide), with the
/// relative rotation `turn` about the joint z axis.
struct JointModel {
  fem::Model model;
  fem::NodeId a, b;
  Joint* joint = nullptr;
  JointModel(std::string_view kind, bool ground, const Vec3& gravity = Vec3::Zero(), double turn = 0.0,
             JointDefinition* custom = nullptr) {
    const Mat3& axes = joint_axes;
    const Vec3& point = joint_point;
    const Mat3 Ra = rotation(0.9, Vec3(-1, 0.5, 2)), Rb = rotation(-1.3, Vec3(2, 1, 0.3));
    const Vec3 xa = point + Vec3(-0.4, 0.1, 0.2), xb = point + Vec3(0.5, 0.3, -0.2);
    a = model.add_node("a", xa, fem::NodeKind::Frame);
    b = model.add_node("b", xb, fem::NodeKind::Frame);
    model.initial_state[0].orientation = Quaternion(Ra);
    model.initial_state[1].orientation = Quaternion(Rb);
    model.gravity = gravity;
    model.add_element<RigidBody>("A", model.attach(a), RigidBodyProperties{1.5, inertia(), Vec3(0.1, 0, -0.1)});
    model.add_element<RigidBody>("B", model.attach(b), RigidBodyProperties{0.8, 0.7 * inertia(), Vec3(0, 0.1, 0.05)});
    JointFrame fa, fb;
    if (ground) {
      fa.offset = point;
      fa.axes = axes;
      for (int c = 0; c < 3; ++c) {
        model.fix(a, c);
        model.fix_rotation(a, c);
      }
    } else {
      fa.node = a;
      fa.offset = Ra.transpose() * (point - xa);
      fa.axes = Ra.transpose() * axes;
    }
    fb.node = b;
    fb.offset = Rb.transpose() * (point - xb);
    fb.axes = Rb.transpose() * axes * rotation(turn, Vec3::UnitZ());
    JointDefinition def = custom ? std::move(*custom) : joint_definition(kind);
    joint = &model.add_element<Joint>("j", attach_frames(model, fa, fb), fa, fb, std::move(def), 1.0);
  }
};

void check_joint_tangent(std::string_view kind, bool ground, fem::TimeScheme scheme, double size, double turn,
                         unsigned seed, const std::function<JointDefinition()>& definition = {}) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < 4; ++trial) {
    std::optional<JointDefinition> def;
    if (definition) def.emplace(definition());
    JointModel jm(kind, ground, Vec3::Zero(), turn, def ? &*def : nullptr);
    TrialState s(jm.model);
    s.scheme = scheme;
    s.h = 0.2;
    for (fem::NodeState& n : s.committed) {
      n.position += 0.05 * Vec3(u(rng), u(rng), u(rng));
      n.orientation = (Quaternion(testing::random_rotation(rng, 0.3)) * n.orientation).normalized();
    }
    for (double& x : s.trial) x = size * u(rng);
    const testing::TangentCheck c = testing::compare_rowwise(jm.model, *jm.joint, s);
    EXPECT_LT(c.max_relative_error, 1e-6) << kind << (ground ? " to ground" : "") << ", trial " << trial << ": "
                                          << c.worst;
  }
}

TEST(JointTangent, EveryKindMidpoint) {
  unsigned seed = 1;
  for (const std::string_view kind : joint_kinds)
    for (const bool ground : {false, true}) check_joint_tangent(kind, ground, fem::TimeScheme::Midpoint, 0.3, 0.0, seed++);
}

TEST(JointTangent, EveryKindStatic) {
  unsigned seed = 100;
  for (const std::string_view kind : joint_kinds)
    for (const bool ground : {false, true}) check_joint_tangent(kind, ground, fem::TimeScheme::Static, 0.3, 0.0, seed++);
}

TEST(JointTangent, PastAHalfTurnAndAtTinySteps) {
  // Committed relative rotation 3 rad about the hinge: steps of up to 0.5 rad cross π.
  check_joint_tangent("revolute", false, fem::TimeScheme::Midpoint, 0.5, 3.0, 200);
  check_joint_tangent("spherical", true, fem::TimeScheme::Midpoint, 0.5, 3.0, 201);
  check_joint_tangent("universal", false, fem::TimeScheme::Midpoint, 0.05, 3.0, 202);
  check_joint_tangent("revolute", false, fem::TimeScheme::Midpoint, 1e-7, 0.0, 203);
}

/// Rotations that carry force through a law (a drive, springs with dampers) take the Gonzalez
/// discrete gradient of the rotation coordinates, whose Jacobian needs the derivative of their
/// spatial gradient (Kinematics::rotation_gradient): both coordinate kinds, large and small steps.
/// A spherical joint whose three rotations are springs with dampers.
JointDefinition sprung_rotations(RotationCoordinates coordinates) {
  JointDefinition def = joint_definition("spherical");
  for (std::size_t k = 3; k < 6; ++k) {
    def.laws[k].kind = JointLawKind::Spring;
    def.laws[k].stiffness = 40.0 + 10.0 * static_cast<double>(k);
    def.laws[k].damping = 0.5;
    def.laws[k].rest = 0.1;
  }
  def.rotation = coordinates;
  return def;
}

TEST(JointTangent, DrivenAndSprungRotations) {
  unsigned seed = 300;
  for (const RotationCoordinates coordinates : {RotationCoordinates::RotationVector, RotationCoordinates::Cardan}) {
    const auto driven = [coordinates] {
      const fem::ParameterTable p;
      JointDefinition def = joint_definition("revolute");
      def.laws[5].kind = JointLawKind::Prescribed;
      def.laws[5].function.emplace("0.3 + 2*t", p);
      def.rotation = coordinates;
      return def;
    };
    const auto sprung = [coordinates] { return sprung_rotations(coordinates); };
    for (const bool ground : {false, true})
      for (const double size : {0.3, 1e-3}) {
        check_joint_tangent("revolute", ground, fem::TimeScheme::Midpoint, size, 0.0, seed++, driven);
        check_joint_tangent("spherical", ground, fem::TimeScheme::Midpoint, size, 0.0, seed++, sprung);
      }
    check_joint_tangent("spherical", false, fem::TimeScheme::Static, 0.3, 0.0, seed++, sprung);
  }
}

/// The tangent checks above cannot see a wrong spatial gradient G of the coordinates E (the force
/// −Gᵀλ and its derivative would be wrong together). In statics, at a zero increment (where the
/// Cayley step's derivative is the spatial one), the node rows' column of λ_k is −G_kᵀ and the
/// row of component k is (dc/de) ∂E_k/∂u by automatic differentiation of E itself: one is minus
/// the other's transpose over dc/de (1 for the held translations, k for the springs).
TEST(JointTangent, StaticNodeRowsCarryTheGradientOfTheCoordinates) {
  std::mt19937 rng(400);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (const RotationCoordinates coordinates : {RotationCoordinates::RotationVector, RotationCoordinates::Cardan})
    for (const bool ground : {false, true}) {
      JointDefinition def = sprung_rotations(coordinates);
      std::array<double, 6> dc_de{1.0, 1.0, 1.0};
      for (std::size_t k = 3; k < 6; ++k) dc_de[k] = def.laws[k].stiffness;
      JointModel jm("spherical", ground, Vec3::Zero(), 0.0, &def);
      TrialState s(jm.model);
      s.scheme = fem::TimeScheme::Static;
      for (fem::NodeState& n : s.committed) {
        n.position += 0.05 * Vec3(u(rng), u(rng), u(rng));
        n.orientation = (Quaternion(testing::random_rotation(rng, 0.8)) * n.orientation).normalized();
      }
      std::vector<fem::Dof> multipliers, node_rows;
      for (std::size_t b = 0; b < jm.model.registry.n_blocks(); ++b)
        for (const fem::Dof d : s.map.dofs(fem::BlockId{static_cast<std::int32_t>(b)}))
          if (d != fem::fixed_dof)
            (jm.model.registry.blocks()[b].kind == fem::UnknownKind::Multiplier ? multipliers : node_rows).push_back(d);
      ASSERT_EQ(multipliers.size(), 6U);
      for (const fem::Dof m : multipliers) s.trial[static_cast<std::size_t>(m)] = 10.0 * u(rng);
      const Eigen::MatrixXd J = testing::element_jacobian(jm.model, *jm.joint, s);
      for (std::size_t k = 0; k < 6; ++k)
        for (const fem::Dof n : node_rows) {
          const double column = J(n, multipliers[k]), row = J(multipliers[k], n) / dc_de[k];
          EXPECT_NEAR(column, -row, 1e-12 * (1.0 + std::abs(row))) << "component " << k << ", unknown " << n;
        }
    }
}

/// The spherical joint's hand-derived Jacobian (dynamic steps) against its automatic
/// differentiation, to round-off: to the ground and between nodes, large steps and tiny ones.
TEST(JointTangent, SphericalByHandEqualsAutomaticDifferentiation) {
  std::mt19937 rng(300);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (const bool ground : {false, true})
    for (const double size : {0.5, 1e-3, 1e-8}) {
      JointModel jm("spherical", ground, Vec3::Zero(), 0.0);
      TrialState s(jm.model);
      s.h = 0.2;
      for (fem::NodeState& n : s.committed) {
        n.position += 0.05 * Vec3(u(rng), u(rng), u(rng));
        n.orientation = (Quaternion(testing::random_rotation(rng, 0.3)) * n.orientation).normalized();
      }
      for (double& x : s.trial) x = size * u(rng);
      const int n = static_cast<int>(s.trial.size());
      fem::DenseResidual r_hand(s.map, n), r_ad(s.map, n);
      fem::DenseJacobian J_hand(s.map, n), J_ad(s.map, n);
      jm.joint->stamp(s.view(jm.model), r_hand, J_hand);
      jm.joint->stamp_by_automatic_differentiation(s.view(jm.model), r_ad, J_ad);
      EXPECT_LT((r_hand.r - r_ad.r).cwiseAbs().maxCoeff(), 1e-14 * r_ad.r.cwiseAbs().maxCoeff());
      const double scale = J_ad.J.cwiseAbs().maxCoeff();
      EXPECT_LT((J_hand.J - J_ad.J).cwiseAbs().maxCoeff(), 1e-13 * scale)
          << (ground ? "to ground" : "between nodes") << ", steps of " << size;
    }
}

/// Runs `steps` midpoint steps with dense Newton, calling `check(states, joint)` after each.
template <class F>
void run(fem::Model& m, TrialState& s, int steps, F check) {
  for (int k = 0; k < steps; ++k) {
    testing::predict(m, s);
    // Absolute correction tolerance: the multipliers (forces of several N balancing inertia
    // rows of 2m/h²) carry round-off near 1e-9; positions converge far below (see newton.cpp).
    testing::newton(m, s, 1e-8);
    testing::commit(m, s);
    check(s.committed);
  }
}

/// Relative motion of B with respect to A, from the node states alone (independent of the
/// joint's kinematics): the displacement of the joint points and the rotation of the frames, in
/// A's joint axes at t = 0 turned with A.
struct Relative {
  Vec3 d;
  Mat3 R;
};
Relative relative_motion(const JointModel& jm, const std::vector<fem::NodeState>& st) {
  const Mat3& axes = joint_axes;
  const Vec3& point = joint_point;
  const auto& i = jm.model.initial_state;
  const Mat3 Ra0 = i[0].orientation.toRotationMatrix(), Rb0 = i[1].orientation.toRotationMatrix();
  const Mat3 Ra = st[0].orientation.toRotationMatrix(), Rb = st[1].orientation.toRotationMatrix();
  const Vec3 pa = st[0].position + Ra * Ra0.transpose() * (point - i[0].position);
  const Vec3 pb = st[1].position + Rb * Rb0.transpose() * (point - i[1].position);
  const Mat3 Ja = Ra * Ra0.transpose() * axes, Jb = Rb * Rb0.transpose() * axes;
  return {Ja.transpose() * (pb - pa), Ja.transpose() * Jb};
}

TEST(Joint, EachKindMovesOnlyInItsFreeDirections) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (const std::string_view kind : joint_kinds) {
    if (kind == "free") continue;  // no constraint: nothing to hold
    JointModel jm(kind, false);
    for (const fem::NodeId n : {jm.a, jm.b}) {
      jm.model.add_element<NodalLoad>("F" + std::to_string(n.index), jm.model.attach(n),
                                      constant_vector(Vec3(u(rng), u(rng), u(rng))));
      jm.model.add_element<NodalLoad>("M" + std::to_string(n.index), jm.model.attach(n),
                                      constant_vector(Vec3(u(rng), u(rng), u(rng))), LoadKind::Moment);
    }
    TrialState s(jm.model);
    s.h = 0.02;
    Vec3 d_max = Vec3::Zero(), rot_max = Vec3::Zero();
    // The universal joint reaches its gimbal lock (forks' axes aligned) at 1.6 s under these loads.
    run(jm.model, s, kind == "universal" ? 60 : 100, [&](const std::vector<fem::NodeState>& st) {
      const Relative r = relative_motion(jm, st);
      const Vec3 phi = fem::log_map(r.R);
      const Vec3 cardan(std::atan2(-r.R(1, 2), r.R(2, 2)), std::asin(r.R(0, 2)), std::atan2(-r.R(0, 1), r.R(0, 0)));
      const Vec3 rot = kind == "universal" ? cardan : phi;
      d_max = d_max.cwiseMax(r.d.cwiseAbs());
      rot_max = rot_max.cwiseMax(rot.cwiseAbs());
    });
    const JointDefinition def = joint_definition(kind);
    for (int c = 0; c < 6; ++c) {
      const double moved = c < 3 ? d_max[c] : rot_max[c - 3];
      if (def.laws[static_cast<std::size_t>(c)].kind == JointLawKind::Prescribed) {
        EXPECT_LT(moved, 1e-10) << kind << " component " << c;
      } else {
        EXPECT_GT(moved, 1e-3) << kind << " component " << c << " should move";
      }
    }
  }
}

TEST(Joint, HangingPendulumReactionIsTheWeight) {
  const Vec3 g(0, 0, -9.81);
  // Body B hangs below the joint point: its centre of mass (node + offset) on the vertical.
  fem::Model m;
  m.gravity = g;
  const fem::NodeId bob = m.add_node("bob", Vec3(0, 0, -1.2), fem::NodeKind::Frame);
  m.add_element<RigidBody>("body", m.attach(bob), RigidBodyProperties{2.5, inertia(), Vec3::Zero()});
  JointFrame ground, fb;
  fb.node = bob;
  fb.offset = Vec3(0, 0, 1.2);
  m.add_element<Joint>("pin", attach_frames(m, ground, fb), ground, fb, joint_definition("spherical"), 1.0);
  TrialState s(m);
  s.scheme = fem::TimeScheme::Static;
  s.h = 1.0;
  testing::newton(m, s, 1e-14);
  testing::commit(m, s);
  const auto* pin = dynamic_cast<const Joint*>(m.elements.back().get());
  // λ is the force on B: it holds the weight up.
  EXPECT_NEAR(pin->reactions()[2], 2.5 * 9.81, 1e-10);
  EXPECT_LT(pin->reactions().head<2>().norm() + pin->reactions().tail<3>().norm(), 1e-10);
}

TEST(Joint, RefusesNodesOtherThanThoseOfItsFrames) {
  fem::Model m;
  const fem::NodeId a = m.add_node("a", Vec3::Zero(), fem::NodeKind::Frame);
  const fem::NodeId b = m.add_node("b", Vec3(1, 0, 0), fem::NodeKind::Frame);
  JointFrame ground, fa, fb;
  fa.node = a;
  fb.node = b;
  const fem::AttachedNode na = m.attach(a), nb = m.attach(b);
  EXPECT_NO_THROW(Joint("j", std::vector{na, nb}, fa, fb, joint_definition("spherical"), 1.0));
  EXPECT_THROW(Joint("j", std::vector{nb, na}, fa, fb, joint_definition("spherical"), 1.0), std::invalid_argument);
  EXPECT_THROW(Joint("j", std::vector{nb}, fa, fb, joint_definition("spherical"), 1.0), std::invalid_argument);
  EXPECT_THROW(Joint("j", std::vector{na, nb}, ground, fb, joint_definition("spherical"), 1.0), std::invalid_argument);
}

TEST(Joint, SwingingPendulumTensionAndEnergy) {
  // A point-like bob (tiny inertia) on a massless rod of length l, released horizontal: at the
  // bottom the rod tension is 3 m g, and energy stays constant to Newton tolerance.
  const double m_bob = 2.0, l = 1.5, gz = 9.81;
  fem::Model m;
  m.gravity = Vec3(0, 0, -gz);
  const fem::NodeId bob = m.add_node("bob", Vec3(l, 0, 0), fem::NodeKind::Frame);
  m.add_element<RigidBody>("body", m.attach(bob), RigidBodyProperties{m_bob, 1e-6 * Mat3::Identity(), Vec3::Zero()});
  JointFrame ground, fb;
  fb.node = bob;
  fb.offset = Vec3(-l, 0, 0);
  auto& pin = m.add_element<Joint>("pin", attach_frames(m, ground, fb), ground, fb, joint_definition("spherical"), l);
  TrialState s(m);
  s.h = 1e-3;
  const fem::StateEnergy e0 = testing::model_energy(m, s.committed);
  double drift = 0.0, tension_at_bottom = 0.0, lowest = 0.0;
  run(m, s, 1000, [&](const std::vector<fem::NodeState>& st) {
    const fem::StateEnergy e = testing::model_energy(m, st);
    drift = std::max(drift, std::abs(e.kinetic + e.potential - e0.kinetic - e0.potential));
    if (st[0].position.z() < lowest) {
      lowest = st[0].position.z();
      tension_at_bottom = pin.reactions()[2];
    }
  });
  EXPECT_LT(drift, 1e-9 * m_bob * gz * l);
  EXPECT_NEAR(lowest, -l, 1e-4 * l);
  // λ averages the step around the bottom: the tension there varies by O(h²).
  EXPECT_NEAR(tension_at_bottom, 3 * m_bob * gz, 1e-3 * m_bob * gz);
}

TEST(Joint, ReleasedPendulumFallsFreelyAndKeepsItsEnergy) {
  // A bob hanging still from a spherical joint released at t = 0.1 s (Borri's unhooking): while
  // held the reaction carries the weight; once released it is zero and the bob falls at g.
  const double m_bob = 2.0, gz = 9.81;
  fem::Model m;
  m.gravity = Vec3(0, 0, -gz);
  const fem::NodeId bob = m.add_node("bob", Vec3(0, 0, -1), fem::NodeKind::Frame);
  m.add_element<RigidBody>("body", m.attach(bob), RigidBodyProperties{m_bob, 0.01 * Mat3::Identity(), Vec3::Zero()});
  JointFrame ground, fb;
  fb.node = bob;
  fb.offset = Vec3(0, 0, 1);
  JointDefinition def = joint_definition("spherical");
  def.active_until = 0.1;
  auto& pin = m.add_element<Joint>("pin", attach_frames(m, ground, fb), ground, fb, std::move(def), 1.0);
  TrialState s(m);
  s.h = 0.01;
  const fem::StateEnergy e0 = testing::model_energy(m, s.committed);
  double drift = 0.0;
  run(m, s, 30, [&](const std::vector<fem::NodeState>& st) {
    const fem::StateEnergy e = testing::model_energy(m, st);
    drift = std::max(drift, std::abs(e.kinetic + e.potential - e0.kinetic - e0.potential));
    if (s.t_n < 0.1 + 1e-9) {  // the step just committed was held
      EXPECT_NEAR(pin.reactions()[2], m_bob * gz, 1e-9);
      EXPECT_NEAR(st[0].position.z(), -1.0, 1e-12);
    } else {
      EXPECT_EQ(pin.reactions().norm(), 0.0);
    }
  });
  // Free fall from t = 0.1 to 0.3: the midpoint rule is exact for constant acceleration.
  EXPECT_NEAR(s.committed[0].position.z(), -1.0 - 0.5 * gz * 0.2 * 0.2, 1e-10);
  EXPECT_LT(drift, 1e-10 * m_bob * gz);
}

TEST(Joint, DrivenHingeFollowsItsLawThroughSeveralTurns) {
  // A revolute joint to the ground driven by ψ(t) = 2t + 3t²: 5 turns in 2 s; the angle read off
  // the node's orientation equals the law, unwrapped, at every step.
  JointDefinition def = joint_definition("revolute");
  const fem::ParameterTable p;
  def.laws[5].kind = JointLawKind::Prescribed;
  def.laws[5].function.emplace("2*t + 3*t^2", p);
  JointModel jm("revolute", true, Vec3(0, 0, -9.81), 0.0, &def);
  TrialState s(jm.model);
  s.h = 0.01;
  double worst = 0.0, previous = 0.0, worst_axis = 0.0;
  run(jm.model, s, 200, [&](const std::vector<fem::NodeState>& st) {
    const Relative r = relative_motion(jm, st);
    // Unwrap the hinge angle step by step from the orientation alone.
    double angle = std::atan2(r.R(1, 0), r.R(0, 0));
    angle += 2 * pi * std::round((previous - angle) / (2 * pi));
    previous = angle;
    const double t = s.t_n;
    worst = std::max(worst, std::abs(angle - (2 * t + 3 * t * t)));
    worst_axis = std::max(worst_axis, (r.R.col(2) - Vec3::UnitZ()).norm());
    EXPECT_NEAR(jm.joint->committed_coordinates()[5], 2 * t + 3 * t * t, 1e-10);
  });
  EXPECT_GT(previous, 5 * pi);
  EXPECT_LT(worst, 1e-10);
  EXPECT_LT(worst_axis, 1e-10);
}

TEST(Joint, FreeBodiesJoinedKeepEnergyAndMomenta) {
  for (const std::string_view kind : {"spherical", "revolute", "universal", "cylindrical"}) {
    SCOPED_TRACE(kind);
    JointModel jm(kind, false);
    TrialState s(jm.model);
    s.h = 0.01;
    s.committed[0].velocity = Vec3(0.3, -0.2, 0.1);
    s.committed[0].angular_velocity = Vec3(1.0, -2.0, 0.5);
    // B starts with a velocity compatible with the joint: the same rigid motion, plus a turn
    // about a free axis of the joint (z; x for the universal joint, whose twist is held).
    const Vec3 spin = 1.5 * (joint_axes * (kind == std::string_view("universal") ? Vec3::UnitX() : Vec3::UnitZ()));
    s.committed[1].angular_velocity = s.committed[0].angular_velocity + spin;
    s.committed[1].velocity = s.committed[0].velocity +
                              s.committed[0].angular_velocity.cross(s.committed[1].position - s.committed[0].position) +
                              spin.cross(s.committed[1].position - joint_point);
    const fem::StateEnergy e0 = testing::model_energy(jm.model, s.committed);
    double de = 0.0, dp = 0.0, dl = 0.0;
    // The universal joint reaches its gimbal lock (the forks' axes aligned, β = −π/2) at 0.82 s.
    const int steps = kind == std::string_view("universal") ? 60 : 300;
    run(jm.model, s, steps, [&](const std::vector<fem::NodeState>& st) {
      const fem::StateEnergy e = testing::model_energy(jm.model, st);
      de = std::max(de, std::abs(e.kinetic - e0.kinetic));
      dp = std::max(dp, (e.momentum - e0.momentum).norm());
      dl = std::max(dl, (e.angular_momentum - e0.angular_momentum).norm());
    });
    EXPECT_LT(de, 1e-10 * e0.kinetic) << kind;
    EXPECT_LT(dp, 1e-10 * e0.momentum.norm()) << kind;
    EXPECT_LT(dl, 1e-10 * e0.angular_momentum.norm()) << kind;
  }
}

// ---- Laws of the motion (JointLaw::law) ----

/// A joint of `kind` whose components `laws` are laws of the motion, reading the input `u` = 0.7.
JointDefinition with_laws(std::string_view kind, const std::vector<std::pair<int, std::string>>& laws) {
  const fem::ParameterTable p{{"Tmax", 0.5}, {"Kp", 30.0}, {"Kd", 4.0}, {"th", 0.1}, {"k1", 40.0}, {"k3", 900.0}};
  JointDefinition def = joint_definition(kind);
  auto inputs = std::make_shared<fem::Inputs>();
  inputs->add("u", 0.7);
  def.inputs = inputs;
  std::vector<std::string> variables(joint_law_variables.begin(), joint_law_variables.end());
  variables.emplace_back("u");
  for (const auto& [k, text] : laws) {
    JointLaw& law = def.laws[static_cast<std::size_t>(k)];
    law.law.emplace(text, p, variables, joint_law_variables.size(), "test");
    law.law_inputs = {0};
  }
  return def;
}

TEST(JointTangent, LawsOfTheMotion) {
  // Laws that couple translations and rotations, rates, an input and t; a saturated PD law on a
  // hinge (saturated and not); a law on a free rotation that reads a held translation.
  const std::vector<std::tuple<std::string_view, std::vector<std::pair<int, std::string>>>> cases{
      {"free",
       {{0, "-3*x - 2*rz*x_rate + u - 0.5*x^3"}, {5, "-5*rz^3 - 0.2*rz_rate*abs(rz_rate) + x*z + sin(t)"}}},
      {"revolute", {{5, "max(-Tmax, min(Tmax, -Kp*(e - th) - Kd*e_rate))"}}},
      {"revolute", {{5, "max(-100, min(100, -Kp*(e - th*u) - Kd*e_rate))"}}},
      {"prismatic", {{2, "-k1*e - k3*e^3 + e_rate*rz"}}},
      {"spherical", {{3, "-4*rx - z*rx_rate + ry*rz"}}},
  };
  unsigned seed = 600;
  for (const auto& [kind, laws] : cases) {
    const auto definition = [&] { return with_laws(kind, laws); };
    for (const bool ground : {false, true})
      for (const double size : {0.3, 1e-3}) {
        check_joint_tangent(kind, ground, fem::TimeScheme::Midpoint, size, 0.0, seed++, definition);
        check_joint_tangent(kind, ground, fem::TimeScheme::Static, size, 0.0, seed++, definition);
      }
  }
}

TEST(Joint, LinearLawStampsAsSpringAndDamper) {
  // F = -Kp e - Kd ė on a hinge is the spring and damper k = Kp, c = Kd: the same static
  // stiffness and linearized damping (stamp_rates: c - ∂F/∂ė), though a dynamic step averages the
  // law by quadrature (the same for a linear law).
  JointDefinition keys = joint_definition("revolute");
  keys.laws[5].kind = JointLawKind::Spring;
  keys.laws[5].stiffness = 30.0;
  keys.laws[5].damping = 4.0;
  JointModel a("revolute", true, Vec3::Zero(), 0.0, &keys);
  JointDefinition law = with_laws("revolute", {{5, "-Kp*e - Kd*e_rate"}});
  JointModel b("revolute", true, Vec3::Zero(), 0.0, &law);
  for (const fem::TimeScheme scheme : {fem::TimeScheme::Static, fem::TimeScheme::Midpoint}) {
    TrialState sa(a.model), sb(b.model);
    sa.scheme = sb.scheme = scheme;
    std::mt19937 rng(700);
    std::uniform_real_distribution<double> u(-0.2, 0.2);
    for (std::size_t i = 0; i < sa.trial.size(); ++i) sa.trial[i] = sb.trial[i] = u(rng);
    const Eigen::MatrixXd Ja = testing::element_jacobian(a.model, *a.joint, sa);
    const Eigen::MatrixXd Jb = testing::element_jacobian(b.model, *b.joint, sb);
    EXPECT_LT((Ja - Jb).cwiseAbs().maxCoeff(), 1e-12 * Ja.cwiseAbs().maxCoeff());
    EXPECT_LT((testing::element_residual(a.model, *a.joint, sa) - testing::element_residual(b.model, *b.joint, sb))
                  .cwiseAbs()
                  .maxCoeff(),
              1e-12);
  }
  TrialState sa(a.model), sb(b.model);
  sa.scheme = sb.scheme = fem::TimeScheme::Static;
  fem::NullJacobianSink none;
  fem::DenseJacobian Da(sa.map, static_cast<int>(sa.trial.size())), Db(sb.map, static_cast<int>(sb.trial.size()));
  a.joint->stamp_rates(sa.view(a.model), none, Da);
  b.joint->stamp_rates(sb.view(b.model), none, Db);
  EXPECT_GT(Da.J.cwiseAbs().maxCoeff(), 1.0);
  EXPECT_LT((Da.J - Db.J).cwiseAbs().maxCoeff(), 1e-12 * Da.J.cwiseAbs().maxCoeff());
}

TEST(Joint, NonlinearSpringLawConservesEnergy) {
  // A body on a slider to the ground under F = -k1 e - k3 e³ (a hardening Duffing spring), started
  // with a speed that stretches it far into its cubic part: kinetic energy plus the law's
  // potential ∫ -F de is constant to the Newton tolerance, the law's work booked as external work
  // (the step average of F by quadrature makes F̄ Δe = -ΔV exactly for a cubic).
  const double mass = 2.0, k1 = 40.0, k3 = 900.0;
  fem::Model m;
  const fem::NodeId body = m.add_node("body", Vec3::Zero(), fem::NodeKind::Frame);
  m.initial_state[0].velocity = Vec3(0, 0, 3.0);
  m.add_element<RigidBody>("B", m.attach(body), RigidBodyProperties{mass, 0.1 * Mat3::Identity(), Vec3::Zero()});
  JointFrame ground, fb;
  fb.node = body;
  JointDefinition def = with_laws("prismatic", {{2, "-k1*e - k3*e^3"}});
  auto& slider = m.add_element<Joint>("slider", attach_frames(m, ground, fb), ground, fb, std::move(def), 1.0);
  TrialState s(m);
  s.h = 0.01;
  const double e0 = testing::model_energy(m, s.committed).kinetic;
  double work = 0.0, drift = 0.0, largest = 0.0;
  for (int step = 0; step < 200; ++step) {
    testing::predict(m, s);
    testing::newton(m, s, 1e-12);
    work += testing::model_step_work(m, s).external_work;
    testing::commit(m, s);
    const double e = slider.committed_coordinates()[2];
    const double potential = 0.5 * k1 * e * e + 0.25 * k3 * e * e * e * e;
    largest = std::max(largest, std::abs(e));
    drift = std::max(drift, std::abs(testing::model_energy(m, s.committed).kinetic - work - e0));
    EXPECT_NEAR(work, -potential, 1e-9 * e0) << "step " << step;
  }
  EXPECT_GT(largest, 0.1);  // k3 e² > 9 k1: far from linear
  EXPECT_LT(drift, 1e-9 * e0);
}

}  // namespace
}  // namespace catena::elements
