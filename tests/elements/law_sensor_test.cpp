// Laws of the motion that read sensors (fem/law_sensors.hpp, elements/law_sensor_reading.hpp): the
// sensors read along a step, at a static step's end and for a linearization give the values
// sensors.csv's formulas give at those states, with exact derivatives (central differences) by the
// nodes' unknowns and rates, for every vector quantity, in frames on nodes and fixed in space, and at
// a point between nodes; joints and nodal loads whose laws read them, or other joints'
// coordinates, have exact Jacobians; a PD law that reads the hub's own rotation and angular
// velocity linearizes as the one of e and e_rate, and a law reading its joint's coordinate as a
// sensor is the law of e; and
// two masses pulled towards each other by laws reading the other's position oscillate exactly as the
// midpoint rule's linear oscillator, with the energy kept to the Newton tolerance.
#include "elements/joint.hpp"
#include "elements/joint_kinds.hpp"
#include "elements/law_sensor_reading.hpp"
#include "elements/nodal_load.hpp"
#include "elements/point_mass.hpp"
#include "fem/law_sensors.hpp"
#include "fem/step_rotation.hpp"

#include "support/dense_newton.hpp"
#include "support/tangent_check.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <string>
#include <vector>

namespace catena::elements {
namespace {

using fem::Mat3;
using fem::Vec3;
using testing::TrialState;

/// Frame nodes p, q, a and a point node r with random orientations and motions, and law sensors of
/// every vector quantity on them: global, in a frame on a node (with an offset and turned axes), in
/// a frame fixed in space, of points at an offset on a node, and a scaled sum of two (a point
/// between nodes).
struct SensorRig {
  fem::Model m;
  fem::NodeId p, q, a, r;
  std::vector<fem::Sensor> sensors;
  std::vector<std::size_t> indices;  ///< of m.law_sensors, one per sensor

  explicit SensorRig(unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    const auto random = [&](double size) { return Vec3(size * u(rng), size * u(rng), size * u(rng)); };
    p = m.add_node("p", Vec3(1.0, 0.2, -0.3), fem::NodeKind::Frame);
    q = m.add_node("q", Vec3(0.5, 1.0, 0.4), fem::NodeKind::Frame);
    a = m.add_node("a", Vec3(0.0, 0.0, 0.0), fem::NodeKind::Frame);
    r = m.add_node("r", Vec3(-0.4, 0.3, 0.6));
    for (fem::NodeState& s : m.initial_state) {
      s.orientation = testing::quat(fem::exp_map(random(0.4)));
      s.velocity = random(1.0);
      s.angular_velocity = random(1.0);
    }
    m.initial_state[static_cast<std::size_t>(r.index)].orientation = fem::Quaternion::Identity();
    m.initial_state[static_cast<std::size_t>(r.index)].angular_velocity = Vec3::Zero();
    const fem::SensorFrame on_q(q, Vec3(0.1, 0.2, -0.1), fem::exp_map(Vec3(0.3, -0.2, 0.5)));
    const fem::SensorFrame fixed(std::nullopt, Vec3(0.2, 0.0, 0.0), fem::exp_map(Vec3(-0.1, 0.2, 0.1)));
    using Q = fem::SensorQuantity;
    const auto add = [&](const std::string& name, fem::NodeId n, Q quantity, int component,
                         std::optional<fem::SensorFrame> frame) {
      fem::Sensor s;
      s.name = name;
      s.node = n;
      s.quantity = quantity;
      s.component = component;
      s.frame = frame;
      sensors.push_back(s);
    };
    add("p_pos_q", p, Q::Position, 1, on_q);
    add("p_disp_q", p, Q::Displacement, 0, on_q);
    add("p_vel_q", p, Q::Velocity, 2, on_q);
    add("p_w_q", p, Q::AngularVelocity, 0, on_q);
    add("p_rot_fixed", p, Q::Rotation, 0, fixed);
    add("p_rot_q", p, Q::Rotation, 2, on_q);
    add("q_w", q, Q::AngularVelocity, 2, std::nullopt);
    add("r_disp", r, Q::Displacement, 2, std::nullopt);
    add("r_vel_p", r, Q::Velocity, 0, fem::SensorFrame(p));
    // Points fixed to p at an offset in its axes (a body's tip).
    add("p_tip_vel_q", p, Q::Velocity, 1, on_q);
    sensors.back().offset = Vec3(0.3, -0.1, 0.2);
    add("p_tip_disp", p, Q::Displacement, 2, std::nullopt);
    sensors.back().offset = Vec3(-0.2, 0.4, 0.1);
    fem::Sensor between;
    between.name = "between";
    between.scale = 2.0;
    between.parts.push_back({0.3, sensors[0]});
    between.parts.push_back({0.7, sensors[8]});
    sensors.push_back(between);
    for (const fem::Sensor& s : sensors) {
      indices.push_back(m.law_sensors->add(s.name));
      m.law_sensors->bind(indices.back(), s, m.nodes, m.initial_state);
    }
  }

  [[nodiscard]] std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const fem::Sensor& s : sensors) out.push_back(s.name);
    return out;
  }
};

/// Random trial unknowns of `size` for every node of `rig`.
void randomize(TrialState& s, unsigned seed, double size) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-size, size);
  for (double& x : s.trial) x = u(rng);
}

/// The node states sensors.csv would read at `at` of the step `s` as the readings take it
/// (law_sensor_reading.hpp): along a dynamic step, or at a static step's end with rates zero.
std::vector<fem::NodeState> states_at(const fem::Model& m, const TrialState& s, SensorReading how, double at) {
  const fem::StepState v = s.view(m);
  std::vector<fem::NodeState> out = s.committed;
  for (std::size_t n = 0; n < out.size(); ++n) {
    const fem::NodeId id{static_cast<std::int32_t>(n)};
    const bool frame = m.nodes[n].rotation.valid();
    const Vec3 dx = v.increment(id), b = frame ? v.rotation_increment(id) : Vec3::Zero();
    const double path = how == SensorReading::Along ? at : 1.0;
    out[n].position += path * dx;
    out[n].orientation = testing::quat(fem::step_rotation(Vec3(path * b)) * out[n].orientation.toRotationMatrix());
    out[n].velocity = how == SensorReading::Along ? Vec3(dx / s.h) : Vec3::Zero();
    out[n].angular_velocity = how == SensorReading::Along && frame ? Vec3(b / s.h) : Vec3::Zero();
  }
  return out;
}

/// The trial index of unknown c (0..5: Δx, b) of `node`; -1 for a point node's rotation.
int trial_index(const fem::Model& m, const TrialState& s, const fem::LawSensorNode& node, int c) {
  const fem::BlockId block = c < 3 ? node.displacement : node.rotation;
  if (!block.valid()) return -1;
  static_cast<void>(m);
  return s.map.dofs(block)[static_cast<std::size_t>(c % 3)];
}

TEST(LawSensorReading, ValuesAreThoseOfTheSensorsAtTheStatesTheStepPassesThrough) {
  SensorRig rig(11);
  LawSensorColumns columns;
  columns.set(*rig.m.law_sensors, rig.indices);
  TrialState s(rig.m);
  s.h = 0.05;
  randomize(s, 12, 0.2);
  SensorGradient g;
  for (std::size_t i = 0; i < rig.sensors.size(); ++i) {
    for (const double at : {0.2, 0.7, 1.0}) {
      const double read = columns.read(*rig.m.law_sensors, rig.indices[i], s.view(rig.m), SensorReading::Along, at, g);
      const double expected = fem::evaluate_sensor(rig.sensors[i], rig.m.nodes,
                                                   states_at(rig.m, s, SensorReading::Along, at), rig.m.initial_state);
      EXPECT_NEAR(read, expected, 1e-13 * std::max(1.0, std::abs(expected))) << rig.sensors[i].name << " at " << at;
    }
    s.scheme = fem::TimeScheme::Static;
    const double end = columns.read(*rig.m.law_sensors, rig.indices[i], s.view(rig.m), SensorReading::End, 1.0, g);
    EXPECT_NEAR(end,
                fem::evaluate_sensor(rig.sensors[i], rig.m.nodes, states_at(rig.m, s, SensorReading::End, 1.0),
                                     rig.m.initial_state),
                1e-13)
        << rig.sensors[i].name;
    s.scheme = fem::TimeScheme::Midpoint;
  }
}

TEST(LawSensorReading, DerivativesByTheStepsUnknownsAreExact) {
  SensorRig rig(21);
  LawSensorColumns columns;
  columns.set(*rig.m.law_sensors, rig.indices);
  ASSERT_EQ(columns.nodes().size(), 3U);  // p, q, r
  for (const fem::TimeScheme scheme : {fem::TimeScheme::Midpoint, fem::TimeScheme::Static}) {
    const SensorReading how = scheme == fem::TimeScheme::Static ? SensorReading::End : SensorReading::Along;
    TrialState s(rig.m);
    s.scheme = scheme;
    s.h = 0.05;
    randomize(s, 22, 0.2);
    for (std::size_t i = 0; i < rig.sensors.size(); ++i) {
      const auto value = [&](const TrialState& t) {
        SensorGradient unused;
        return columns.read(*rig.m.law_sensors, rig.indices[i], t.view(rig.m), how, 0.7, unused);
      };
      SensorGradient g;
      static_cast<void>(columns.read(*rig.m.law_sensors, rig.indices[i], s.view(rig.m), how, 0.7, g));
      double largest = 0.0, error = 0.0;
      for (std::size_t n = 0; n < columns.nodes().size(); ++n)
        for (int c = 0; c < 6; ++c) {
          const int k = trial_index(rig.m, s, columns.nodes()[n], c);
          const double exact = g[static_cast<Eigen::Index>(6 * n) + c];
          if (k < 0) {
            EXPECT_EQ(exact, 0.0);
            continue;
          }
          TrialState plus = s, minus = s;
          const double step = 1e-6;
          plus.trial[static_cast<std::size_t>(k)] += step;
          minus.trial[static_cast<std::size_t>(k)] -= step;
          const double fd = (value(plus) - value(minus)) / (2.0 * step);
          largest = std::max(largest, std::abs(exact));
          error = std::max(error, std::abs(fd - exact));
        }
      // At a static step's end the rates are zero: a velocity in any frame is 0 whatever the positions.
      const bool of_rates = rig.sensors[i].quantity == fem::SensorQuantity::Velocity ||
                            rig.sensors[i].quantity == fem::SensorQuantity::AngularVelocity;
      if (how == SensorReading::End && of_rates) {
        EXPECT_EQ(largest, 0.0) << rig.sensors[i].name;
        continue;
      }
      EXPECT_GT(largest, 0.01) << rig.sensors[i].name;
      EXPECT_LT(error, 1e-8 * largest) << rig.sensors[i].name;
    }
  }
}

TEST(LawSensorReading, DerivativesByTheRatesAreThoseOfTheSensorsVelocities) {
  // A linearization's damping: the derivative of each sensor by the nodes' velocities and angular
  // velocities at a state with rates zero, against central differences of sensors.csv's formulas.
  SensorRig rig(31);
  LawSensorColumns columns;
  columns.set(*rig.m.law_sensors, rig.indices);
  TrialState s(rig.m);
  s.scheme = fem::TimeScheme::Static;
  std::vector<fem::NodeState> at_rest = states_at(rig.m, s, SensorReading::End, 1.0);
  for (std::size_t i = 0; i < rig.sensors.size(); ++i) {
    SensorGradient g;
    const double value = columns.read(*rig.m.law_sensors, rig.indices[i], s.view(rig.m), SensorReading::Rates, 1.0, g);
    EXPECT_NEAR(value, fem::evaluate_sensor(rig.sensors[i], rig.m.nodes, at_rest, rig.m.initial_state), 1e-14);
    for (std::size_t n = 0; n < columns.nodes().size(); ++n)
      for (int c = 0; c < 6; ++c) {
        std::vector<fem::NodeState> plus = at_rest, minus = at_rest;
        const auto node = static_cast<std::size_t>(columns.nodes()[n].id.index);
        const bool frame = rig.m.nodes[node].rotation.valid();
        if (c >= 3 && !frame) continue;
        Vec3& rate_plus = c < 3 ? plus[node].velocity : plus[node].angular_velocity;
        Vec3& rate_minus = c < 3 ? minus[node].velocity : minus[node].angular_velocity;
        rate_plus[c % 3] += 1e-6;
        rate_minus[c % 3] -= 1e-6;
        const double fd = (fem::evaluate_sensor(rig.sensors[i], rig.m.nodes, plus, rig.m.initial_state) -
                           fem::evaluate_sensor(rig.sensors[i], rig.m.nodes, minus, rig.m.initial_state)) /
                          2e-6;
        EXPECT_NEAR(g[static_cast<Eigen::Index>(6 * n) + c], fd, 1e-8) << rig.sensors[i].name << " node " << n;
      }
  }
}

/// The law's variables: `own` (a joint's or a load's), then every sensor of the rig.
std::vector<std::string> variables_with_sensors(std::span<const std::string_view> own, const SensorRig& rig) {
  std::vector<std::string> out(own.begin(), own.end());
  for (const std::string& n : rig.names()) out.push_back(n);
  return out;
}

const fem::ParameterTable gains{{"Kp", 30.0}, {"Kd", 4.0}, {"th", 0.1}, {"c", 0.8}, {"hub0", 0.3}};

const char* const joint_law =
    "-Kp*(e - p_rot_fixed) - Kd*(e_rate - q_w) + p_pos_q*p_vel_q - 0.5*p_disp_q^2 + p_w_q*r_disp + "
    "sin(p_rot_q)*r_vel_p + between*sin(t)";

TEST(LawSensorTangent, JointLawReadingSensorsOfOtherNodes) {
  for (const fem::TimeScheme scheme : {fem::TimeScheme::Midpoint, fem::TimeScheme::Static})
    for (const double size : {0.2, 1e-3}) {
      SensorRig rig(41);
      JointDefinition def = joint_definition("revolute");
      def.law_sensors = rig.m.law_sensors;
      JointLaw& law = def.laws[5];
      law.law.emplace(joint_law, gains, variables_with_sensors(joint_law_variables, rig), joint_law_variables.size() +
                                                                                              rig.sensors.size(),
                      "test");
      law.law_sensors = rig.indices;
      JointFrame ground, fb;
      fb.node = rig.a;
      const Joint& hinge =
          rig.m.add_element<Joint>("hinge", attach_frames(rig.m, ground, fb), ground, fb, std::move(def), 1.0);
      rig.m.couple_law_sensors();
      TrialState s(rig.m);
      s.scheme = scheme;
      s.t_n = 0.3;
      s.h = 0.05;
      randomize(s, 42, size);
      const testing::TangentCheck c = testing::compare_rowwise(rig.m, hinge, s, std::min(1e-6, 1e-4 * size));
      EXPECT_LT(c.max_relative_error, 1e-7) << "size " << size << ": " << c.worst;
    }
}

TEST(LawSensorTangent, NodalForceAndMomentReadingSensorsOfOtherNodes) {
  const std::array<std::string, 3> force{"-c*(x - p_pos_q) - c*vx*q_w", "p_vel_q*p_w_q - speed*r_disp", "between"};
  const std::array<std::string, 3> moment{"-c*wx + p_rot_fixed", "-c*wz*p_rot_q + r_vel_p", "p_disp_q*x"};
  for (const fem::TimeScheme scheme : {fem::TimeScheme::Midpoint, fem::TimeScheme::Static})
    for (const LoadKind kind : {LoadKind::Force, LoadKind::Moment}) {
      SensorRig rig(51);
      const std::size_t motion = kind == LoadKind::Force ? nodal_force_variable_count : nodal_load_variables.size();
      const std::vector<std::string> variables = variables_with_sensors(
          std::span<const std::string_view>(nodal_load_variables).first(motion), rig);
      LoadLaws laws;
      laws.law_sensors = rig.m.law_sensors;
      std::array<fem::Expression, 3> zero{fem::Expression("0", gains), fem::Expression("0", gains),
                                          fem::Expression("0", gains)};
      for (std::size_t k = 0; k < 3; ++k)
        laws.components[k].emplace(LoadLaw{fem::Law((kind == LoadKind::Force ? force : moment)[k], gains, variables,
                                                    motion + rig.sensors.size(), "test"),
                                           {}, rig.indices});
      const fem::NodeId on = kind == LoadKind::Force ? rig.r : rig.a;
      const NodalLoad& load = rig.m.add_element<NodalLoad>("load", rig.m.attach(on), std::move(zero), kind,
                                                           LoadAxes::Global, 1.5, fem::Quaternion::Identity(),
                                                           std::move(laws));
      rig.m.couple_law_sensors();
      TrialState s(rig.m);
      s.scheme = scheme;
      s.h = 0.05;
      randomize(s, 52, 0.2);
      const testing::TangentCheck c = testing::compare_rowwise(rig.m, load, s, 1e-6);
      EXPECT_LT(c.max_relative_error, 1e-7) << (kind == LoadKind::Force ? "force: " : "moment: ") << c.worst;
    }
}

/// A hub frame node turned about z by hub0 = 0.3 rad at t = 0, on a revolute joint to the ground whose rz law is
/// `text`, reading the hub's rotation `hub_rz` and angular velocity `hub_wz` (global z).
struct Hub {
  fem::Model m;
  const Joint* joint = nullptr;
  explicit Hub(const std::string& text) {
    const fem::NodeId hub = m.add_node("hub", Vec3::Zero(), fem::NodeKind::Frame);
    m.initial_state[0].orientation = testing::quat(fem::exp_map(Vec3(0, 0, 0.3)));
    std::vector<std::string> variables(joint_law_variables.begin(), joint_law_variables.end());
    JointDefinition def = joint_definition("revolute");
    def.law_sensors = m.law_sensors;
    for (const auto& [name, quantity] :
         {std::pair{"hub_rz", fem::SensorQuantity::Rotation}, std::pair{"hub_wz", fem::SensorQuantity::AngularVelocity}}) {
      fem::Sensor s;
      s.name = name;
      s.node = hub;
      s.quantity = quantity;
      s.component = 2;
      const std::size_t i = m.law_sensors->add(name);
      m.law_sensors->bind(i, s, m.nodes, m.initial_state);
      def.laws[5].law_sensors.push_back(i);
      variables.emplace_back(name);
    }
    def.laws[5].law.emplace(text, gains, variables, variables.size(), "test");
    JointFrame ground, fb;
    fb.node = hub;
    joint = &m.add_element<Joint>("motor", attach_frames(m, ground, fb), ground, fb, std::move(def), 1.0);
    m.couple_law_sensors();
  }
};

TEST(LawSensor, PdLawOnTheHubsSensorsLinearizesAsTheLawOfItsCoordinate) {
  // About a hub turned about the joint's axis, its rotation sensor's z is the joint's coordinate e
  // plus the hub's initial turn (e starts at 0) and its angular velocity's z is e_rate: the static
  // stiffness and the linearized damping agree.
  Hub coordinate("-Kp*(e - th) - Kd*e_rate"), sensors("-Kp*(hub_rz - hub0 - th) - Kd*hub_wz");
  TrialState a(coordinate.m), b(sensors.m);
  a.scheme = b.scheme = fem::TimeScheme::Static;
  const Eigen::MatrixXd Ka = testing::element_jacobian(coordinate.m, *coordinate.joint, a);
  const Eigen::MatrixXd Kb = testing::element_jacobian(sensors.m, *sensors.joint, b);
  EXPECT_GT(Ka.cwiseAbs().maxCoeff(), 10.0);
  EXPECT_LT((Ka - Kb).cwiseAbs().maxCoeff(), 1e-12 * Ka.cwiseAbs().maxCoeff());
  EXPECT_LT((testing::element_residual(coordinate.m, *coordinate.joint, a) -
             testing::element_residual(sensors.m, *sensors.joint, b))
                .cwiseAbs()
                .maxCoeff(),
            1e-12);
  fem::NullJacobianSink none;
  fem::DenseJacobian Da(a.map, static_cast<int>(a.trial.size())), Db(b.map, static_cast<int>(b.trial.size()));
  coordinate.joint->stamp_rates(a.view(coordinate.m), none, Da);
  sensors.joint->stamp_rates(b.view(sensors.m), none, Db);
  EXPECT_GT(Da.J.cwiseAbs().maxCoeff(), 1.0);
  EXPECT_LT((Da.J - Db.J).cwiseAbs().maxCoeff(), 1e-12 * Da.J.cwiseAbs().maxCoeff());
}

/// A law variable named `name` reading field `field` of `element` (bound now: the element exists).
std::size_t bind_field(fem::Model& m, const std::string& name, const fem::Element& element, const std::string& field) {
  fem::Sensor s;
  s.name = name;
  s.quantity = fem::SensorQuantity::ElementField;
  s.element = &element;
  s.field = field;
  const std::size_t i = m.law_sensors->add(name);
  m.law_sensors->bind(i, s, m.nodes, m.initial_state);
  return i;
}

/// A law of the motion with the joint's variables and then `sensors`.
fem::Law joint_law_reading(const std::string& text, const std::vector<std::string>& sensors) {
  std::vector<std::string> variables(joint_law_variables.begin(), joint_law_variables.end());
  variables.insert(variables.end(), sensors.begin(), sensors.end());
  return fem::Law(text, gains, variables, variables.size(), "test");
}

TEST(LawSensor, JointLawReadingItsOwnCoordinateAsASensorIsTheLawOfE) {
  // A joint's relative_rz read as a sensor is e along the step, e_n + s (e_{n+1} − e_n), with the
  // end's derivatives: the same residual and Jacobian as the law of e, in a step and in statics.
  const auto hinge = [](bool as_sensor, fem::Model& m) -> const Joint& {
    const fem::NodeId hub = m.add_node("hub", Vec3::Zero(), fem::NodeKind::Frame);
    m.initial_state[0].orientation = testing::quat(fem::exp_map(Vec3(0.1, -0.2, 0.3)));
    m.initial_state[0].angular_velocity = Vec3(0.2, 0.1, 1.5);
    JointDefinition def = joint_definition("revolute");
    def.law_sensors = m.law_sensors;
    def.laws[5].law.emplace(as_sensor ? joint_law_reading("-Kp*(angle - th) - 3*angle^3 - Kd*e_rate", {"angle"})
                                      : joint_law_reading("-Kp*(e - th) - 3*e^3 - Kd*e_rate", {}));
    if (as_sensor) def.laws[5].law_sensors = {0};
    JointFrame ground, fb;
    fb.node = hub;
    const Joint& j = m.add_element<Joint>("motor", attach_frames(m, ground, fb), ground, fb, std::move(def), 1.0);
    if (as_sensor) {
      EXPECT_EQ(bind_field(m, "angle", j, "relative_rz"), 0u);
    }
    m.couple_law_sensors();
    return j;
  };
  for (const fem::TimeScheme scheme : {fem::TimeScheme::Midpoint, fem::TimeScheme::Static}) {
    fem::Model ma, mb;
    const Joint& a = hinge(false, ma);
    const Joint& b = hinge(true, mb);
    TrialState sa(ma), sb(mb);
    sa.scheme = sb.scheme = scheme;
    randomize(sa, 61, 0.3);
    sb.trial = sa.trial;
    const Eigen::MatrixXd Ja = testing::element_jacobian(ma, a, sa), Jb = testing::element_jacobian(mb, b, sb);
    EXPECT_GT(Ja.cwiseAbs().maxCoeff(), 10.0);
    EXPECT_LT((Ja - Jb).cwiseAbs().maxCoeff(), 1e-12 * Ja.cwiseAbs().maxCoeff());
    EXPECT_LT((testing::element_residual(ma, a, sa) - testing::element_residual(mb, b, sb)).cwiseAbs().maxCoeff(), 1e-12);
  }
}

TEST(LawSensorTangent, JointLawsReadingAnotherJointsCoordinates) {
  // A hinge to the ground at node a whose law reads a free joint's (a to b) coordinates, and the
  // free joint's law that reads the hinge's angle: exact Jacobians; the fields' end values are the
  // coordinates the joints report at the end of the step.
  for (const fem::TimeScheme scheme : {fem::TimeScheme::Midpoint, fem::TimeScheme::Static})
    for (const double size : {0.2, 1e-3}) {
      SensorRig rig(71);
      fem::Model& m = rig.m;
      JointDefinition hinge_def = joint_definition("revolute"), free_def = joint_definition("free");
      hinge_def.law_sensors = free_def.law_sensors = m.law_sensors;
      const std::size_t first = m.law_sensors->size();
      hinge_def.laws[5].law.emplace(joint_law_reading("-Kp*(e - free_x) - Kd*e_rate + 5*free_ry^2", {"free_x", "free_ry"}));
      hinge_def.laws[5].law_sensors = {first, first + 1};
      free_def.laws[0].law.emplace(joint_law_reading("-Kp*e*(1 + hinge_rz^2) - Kd*e_rate", {"hinge_rz"}));
      free_def.laws[0].law_sensors = {first + 2};
      JointFrame ground, on_a, on_b;
      on_a.node = rig.a;
      on_b.node = rig.p;
      on_b.offset = Vec3(0.1, -0.2, 0.3);
      const Joint& hinge =
          m.add_element<Joint>("hinge", attach_frames(m, ground, on_a), ground, on_a, std::move(hinge_def), 1.0);
      const Joint& free = m.add_element<Joint>("free", attach_frames(m, on_a, on_b), on_a, on_b, std::move(free_def), 1.0);
      EXPECT_EQ(bind_field(m, "free_x", free, "relative_x"), first);
      EXPECT_EQ(bind_field(m, "free_ry", free, "relative_ry"), first + 1);
      EXPECT_EQ(bind_field(m, "hinge_rz", hinge, "relative_rz"), first + 2);
      m.couple_law_sensors();
      TrialState s(m);
      s.scheme = scheme;
      s.h = 0.05;
      randomize(s, 72, size);
      for (const Joint* j : {&hinge, &free}) {
        const testing::TangentCheck c = testing::compare_rowwise(m, *j, s, std::min(1e-6, 1e-4 * size));
        EXPECT_LT(c.max_relative_error, 1e-7) << j->name() << ", size " << size << ": " << c.worst;
      }
      const Eigen::Matrix<double, 6, 1> end = free.relative_coordinates(testing::end_states(m, s));
      EXPECT_NEAR(free.law_field_over_step(0, s.view(m)).end, end[0], 1e-14);
      EXPECT_NEAR(free.law_field_over_step(4, s.view(m)).end, end[4], 1e-14);
      EXPECT_EQ(free.law_field_over_step(4, s.view(m)).start, free.committed_coordinates()[4]);
    }
}

TEST(LawSensor, MassesPulledByLawsOfEachOthersPositionOscillateAsTheMidpointRule) {
  // F_1 = -k (x_1 - x_2) on mass 1 reading mass 2's position, and the same law on mass 2: the
  // linear oscillator of the stretch d = x_1 - x_2, ω² = k (1/m_1 + 1/m_2). The midpoint rule turns
  // a linear oscillator's phase by exactly 2 atan(ω h / 2) per step at a constant amplitude, and
  // each law's step average along the straight path of both masses makes their work the exact
  // −ΔV: the energy is kept to the Newton tolerance.
  const double k = 50.0, m1 = 2.0, m2 = 3.0, d0 = 0.1, h = 0.02;
  fem::Model m;
  const fem::NodeId n1 = m.add_node("n1", Vec3(d0, 0, 0)), n2 = m.add_node("n2", Vec3::Zero());
  m.add_element<PointMass>("m1", m.attach(n1), m1);
  m.add_element<PointMass>("m2", m.attach(n2), m2);
  const fem::ParameterTable p{{"k", k}};
  for (const auto& [on, other] : {std::pair{n1, n2}, std::pair{n2, n1}}) {
    fem::Sensor s;
    s.name = "x_" + m.nodes[static_cast<std::size_t>(other.index)].name;
    s.node = other;
    const std::size_t i = m.law_sensors->add(s.name);
    m.law_sensors->bind(i, s, m.nodes, m.initial_state);
    std::vector<std::string> variables(nodal_load_variables.begin(),
                                       nodal_load_variables.begin() + nodal_force_variable_count);
    variables.push_back(s.name);
    LoadLaws laws;
    laws.law_sensors = m.law_sensors;
    laws.components[0].emplace(
        LoadLaw{fem::Law("-k*(x - " + s.name + ")", p, variables, variables.size(), "test"), {}, {i}});
    m.add_element<NodalLoad>("pull_" + s.name, m.attach(on),
                             std::array<fem::Expression, 3>{fem::Expression("0", p), fem::Expression("0", p),
                                                            fem::Expression("0", p)},
                             LoadKind::Force, LoadAxes::Global, 1.0, fem::Quaternion::Identity(), std::move(laws));
  }
  m.couple_law_sensors();
  TrialState s(m);
  s.h = h;
  const double omega = std::sqrt(k * (1.0 / m1 + 1.0 / m2)), phase = 2.0 * std::atan(omega * h / 2.0);
  const double energy0 = 0.5 * k * d0 * d0;
  double work = 0.0, largest_error = 0.0, largest_drift = 0.0;
  for (int step = 1; step <= 300; ++step) {
    testing::predict(m, s);
    testing::newton(m, s, 1e-13);
    work += testing::model_step_work(m, s).external_work;
    testing::commit(m, s);
    const double d = s.committed[0].position.x() - s.committed[1].position.x();
    largest_error = std::max(largest_error, std::abs(d - d0 * std::cos(step * phase)));
    const double potential = 0.5 * k * d * d;
    largest_drift = std::max(largest_drift, std::abs(testing::model_energy(m, s.committed).kinetic + potential - energy0));
    EXPECT_NEAR(work, energy0 - potential, 1e-10 * energy0) << "step " << step;
  }
  EXPECT_LT(largest_error, 1e-10 * d0);
  EXPECT_LT(largest_drift, 1e-10 * energy0);
  // The centre of mass stays where it was: the two laws' forces are equal and opposite at every
  // quadrature point.
  EXPECT_NEAR(m1 * s.committed[0].position.x() + m2 * s.committed[1].position.x(), m1 * d0, 1e-12);
}

}  // namespace
}  // namespace catena::elements
