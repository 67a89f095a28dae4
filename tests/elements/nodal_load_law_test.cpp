// Nodal loads whose components are laws of the node's motion (elements/nodal_load.hpp): the exact
// Jacobian against central differences (forces of position, velocity, speed, an input and t;
// moments of angular velocity and position; dynamic and static), a linear drag's decay by the
// midpoint factor per step with the dissipated energy booked as external work, a spring to a
// point written as a law keeping the energy, speed at rest (differentiable, or a cone that a step
// starts from and a linearization refuses), a thrust from rest, the linearized stiffness and
// damping, and the refusals.
#include "elements/nodal_load.hpp"
#include "elements/point_mass.hpp"

#include "support/dense_newton.hpp"
#include "support/tangent_check.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>

namespace catena::elements {
namespace {

using fem::Mat3;
using fem::Vec3;
using testing::TrialState;

const fem::ParameterTable parameters{{"c", 0.8},  {"k", 30.0},  {"k3", 200.0}, {"x0", 0.4},
                                     {"T0", 3.0}, {"v_max", 2.0}, {"m", 2.0}};

/// A load on node `n` of `m` whose non-empty `laws` are laws of the motion reading the input u
/// (0.7) too; the other components are the function of time 2 t; `scale` multiplies all.
NodalLoad& add_law_load(fem::Model& m, fem::NodeId n, const std::array<std::string, 3>& laws,
                        LoadKind kind = LoadKind::Force, double scale = 1.5) {
  auto inputs = std::make_shared<fem::Inputs>();
  inputs->add("u", 0.7);
  const std::size_t motion = kind == LoadKind::Force ? nodal_force_variable_count : nodal_load_variables.size();
  std::vector<std::string> variables(nodal_load_variables.begin(), nodal_load_variables.begin() + motion);
  variables.emplace_back("u");
  LoadLaws l;
  l.inputs = inputs;
  std::array<fem::Expression, 3> functions{fem::Expression("2*t", parameters), fem::Expression("2*t", parameters),
                                           fem::Expression("2*t", parameters)};
  for (std::size_t k = 0; k < 3; ++k) {
    if (laws[k].empty()) continue;
    fem::Law law(laws[k], parameters, variables, motion, "model.yaml:9:20: loads[0]");
    l.components[k].emplace(LoadLaw{std::move(law), {0}});
    functions[k] = fem::Expression("0", parameters);
  }
  return m.add_element<NodalLoad>("f", m.attach(n), std::move(functions), kind, LoadAxes::Global, scale,
                                  fem::Quaternion::Identity(), std::move(l));
}

void check_law_tangent(LoadKind kind, const std::array<std::string, 3>& laws, fem::TimeScheme scheme, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (const double size : {0.3, 1e-3}) {
    for (int trial = 0; trial < 5; ++trial) {
      fem::Model m;
      const fem::NodeId n = m.add_node("n", Vec3(0.3, -0.2, 0.5), fem::NodeKind::Frame);
      m.initial_state[0].velocity = Vec3(u(rng), u(rng), u(rng));
      m.initial_state[0].angular_velocity = Vec3(u(rng), u(rng), u(rng));
      const NodalLoad& load = add_law_load(m, n, laws, kind);
      TrialState s(m);
      s.scheme = scheme;
      s.t_n = 0.7;
      s.h = 0.2;
      s.load_factor = 0.8;
      for (double& x : s.trial) x = size * u(rng);
      const Eigen::MatrixXd J = testing::element_jacobian(m, load, s);
      ASSERT_GT(J.cwiseAbs().maxCoeff(), 0.1);  // the law depends on the motion: a real Jacobian
      // Steps well below the increment: |v| = |Δx|/h curves on the scale of the increment itself.
      const testing::TangentCheck c = testing::compare_rowwise(m, load, s, std::min(1e-6, 1e-4 * size));
      EXPECT_LT(c.max_relative_error, 1e-7) << "size " << size << ", trial " << trial << ": " << c.worst;
    }
  }
}

const std::array<std::string, 3> force_laws{"-c*speed*vx + u*sin(t)", "-k*(y - x0) - k3*(y - x0)^3 + x*vz",
                                            "T0*(1 - speed/v_max) - c*abs(vz)*vz"};
const std::array<std::string, 3> moment_laws{"-c*wx - k*x*wz - k*(x - x0)", "-c*sqrt(1 + wy^2)*wy + speed",
                                             "T0*sin(wz) - c*z*vx*u"};

TEST(NodalLoadLawTangent, ForceMidpoint) {
  check_law_tangent(LoadKind::Force, force_laws, fem::TimeScheme::Midpoint, 1);
}
TEST(NodalLoadLawTangent, ForceStatic) { check_law_tangent(LoadKind::Force, force_laws, fem::TimeScheme::Static, 2); }
TEST(NodalLoadLawTangent, MomentMidpoint) {
  check_law_tangent(LoadKind::Moment, moment_laws, fem::TimeScheme::Midpoint, 3);
}
TEST(NodalLoadLawTangent, MomentStatic) {
  check_law_tangent(LoadKind::Moment, moment_laws, fem::TimeScheme::Static, 4);
}
TEST(NodalLoadLawTangent, OneComponentAmongFunctionsOfTime) {
  check_law_tangent(LoadKind::Force, {"", "-k*y*vy", ""}, fem::TimeScheme::Midpoint, 5);
}

/// A point mass m = 2 launched at v0 under `laws` (force components), stepped with Newton to
/// 1e-13; calls `each` after each step with the states before and after and the step's work.
template <class Each>
void launch(const std::array<std::string, 3>& laws, const Vec3& x0, const Vec3& v0, double h, int steps, Each each) {
  fem::Model m;
  const fem::NodeId n = m.add_node("n", x0);
  m.initial_state[0].velocity = v0;
  m.add_element<PointMass>("mass", m.attach(n), 2.0);
  add_law_load(m, n, laws, LoadKind::Force, 1.0);
  TrialState s(m);
  s.h = h;
  for (int step = 0; step < steps; ++step) {
    testing::predict(m, s);
    testing::newton(m, s, 1e-13);
    const double work = testing::model_step_work(m, s).external_work;
    const fem::NodeState before = s.committed[0];
    testing::commit(m, s);
    each(before, s.committed[0], work, testing::model_energy(m, s.committed).kinetic);
  }
}

TEST(NodalLoadLaw, LinearDragDecaysByTheMidpointFactor) {
  // F = −c v on m: v_{n+1} = ρ v_n, ρ = (1 − ch/2m)/(1 + ch/2m), to round-off, which approximates
  // exp(−c h/m) to third order; the kinetic energy lost is the drag's (negative) work.
  const double c = 0.8, m = 2.0, h = 0.05;
  const Vec3 v0(3.0, -1.0, 2.0);
  const double rho = (1 - c * h / (2 * m)) / (1 + c * h / (2 * m));
  const double kinetic0 = 0.5 * m * v0.squaredNorm();
  double t = 0.0, work = 0.0, worst_factor = 0.0, worst_balance = 0.0;
  Vec3 v = v0;
  launch({"-c*vx", "-c*vy", "-c*vz"}, Vec3(1, 2, 3), v0, h, 100, [&](const fem::NodeState& a, const fem::NodeState& b,
                                                                    double w, double kinetic) {
    worst_factor = std::max(worst_factor, (b.velocity - rho * a.velocity).norm() / a.velocity.norm());
    work += w;
    t += h;
    v = b.velocity;
    worst_balance = std::max(worst_balance, std::abs(kinetic - kinetic0 - work));
  });
  EXPECT_LT(worst_factor, 1e-14);
  EXPECT_LT(worst_balance, 1e-12 * kinetic0);
  EXPECT_LT(work, -0.5 * kinetic0);  // most of it dissipated by t = 5 (c t/m = 2)
  EXPECT_NEAR((v - v0 * std::exp(-c * t / m)).norm() / v.norm(), 0.0, 1e-4);
  RecordProperty("decay_factor_error", testing::sci(worst_factor));
  RecordProperty("balance_drift", testing::sci(worst_balance / kinetic0));
}

TEST(NodalLoadLaw, QuadraticDragDissipatesWhatTheKineticEnergyLoses) {
  // F = −c |v| v: nonlinear in the rates, differentiable at rest; the balance holds all the same.
  const Vec3 v0(3.0, -1.0, 2.0);
  const double kinetic0 = 0.5 * 2.0 * v0.squaredNorm();
  double work = 0.0, worst_balance = 0.0;
  launch({"-c*speed*vx", "-c*speed*vy", "-c*speed*vz"}, Vec3::Zero(), v0, 0.05, 100,
         [&](const fem::NodeState&, const fem::NodeState&, double w, double kinetic) {
           work += w;
           worst_balance = std::max(worst_balance, std::abs(kinetic - kinetic0 - work));
         });
  EXPECT_LT(work, -0.5 * kinetic0);
  EXPECT_LT(worst_balance, 1e-12 * kinetic0);
}

TEST(NodalLoadLaw, SpringToAPointKeepsTheEnergy) {
  // F = −∇V, V = ½ k |x − p|² + ¼ k3 (y − x0)⁴ (p = (x0, x0, 0)): the quadrature along the step makes
  // F̄ · Δx = −ΔV, so kinetic + V stays constant to the Newton tolerance through large swings.
  const double k = 30.0, k3 = 200.0, x0 = 0.4;
  const auto potential = [&](const Vec3& x) {
    const Vec3 d = x - Vec3(x0, x0, 0);
    return 0.5 * k * d.squaredNorm() + 0.25 * k3 * std::pow(d.y(), 4);
  };
  const Vec3 start(0, 0, 0.3), v0(1.0, 2.0, -0.5);
  const double energy0 = 0.5 * 2.0 * v0.squaredNorm() + potential(start);
  double work = 0.0, worst = 0.0, worst_work = 0.0, largest_potential = 0.0;
  launch({"-k*(x - x0)", "-k*(y - x0) - k3*(y - x0)^3", "-k*z"}, start, v0, 0.02, 300,
         [&](const fem::NodeState& a, const fem::NodeState& b, double w, double kinetic) {
           work += w;
           worst = std::max(worst, std::abs(kinetic + potential(b.position) - energy0));
           worst_work = std::max(worst_work, std::abs(w + potential(b.position) - potential(a.position)));
           largest_potential = std::max(largest_potential, potential(b.position));
         });
  EXPECT_GT(largest_potential, 0.5 * energy0);  // it swings through its potential
  EXPECT_LT(worst, 1e-11 * energy0);
  EXPECT_LT(worst_work, 1e-12 * energy0);
  RecordProperty("energy_drift", testing::sci(worst / energy0));
}

/// The Jacobian of a force law on a node at rest over a step that does not move it (Δx = 0).
Eigen::MatrixXd jacobian_at_rest(const std::string& law) {
  fem::Model m;
  const fem::NodeId n = m.add_node("n", Vec3::Zero());
  const NodalLoad& load = add_law_load(m, n, {law, "", ""});
  TrialState s(m);
  return testing::element_jacobian(m, load, s);
}

/// The linearized damping of a force law on a node at rest.
Eigen::MatrixXd damping_at_rest(const std::string& law) {
  fem::Model m;
  const fem::NodeId n = m.add_node("n", Vec3::Zero());
  const NodalLoad& load = add_law_load(m, n, {law, "", ""});
  TrialState s(m);
  s.scheme = fem::TimeScheme::Static;
  fem::NullJacobianSink none;
  fem::DenseJacobian D(s.map, static_cast<int>(s.trial.size()));
  load.stamp_rates(s.view(m), none, D);
  return D.J;
}

TEST(NodalLoadLaw, SpeedAtRest) {
  // −c |v| vx is differentiable at v = 0, its derivative 0: the step's Jacobian and the linearized
  // damping are 0. The speed itself, or a thrust that fades with it, has a cone there: a step's
  // Newton matrix takes the zero element of its generalized gradient (so that a step from rest
  // can start), a linearized analysis has nothing to take and gets a LawError naming the law.
  EXPECT_EQ(jacobian_at_rest("-c*speed*vx").cwiseAbs().maxCoeff(), 0.0);
  EXPECT_EQ(damping_at_rest("-c*speed*vx").cwiseAbs().maxCoeff(), 0.0);
  for (const std::string law : {"speed", "T0*(1 - speed/v_max)"}) {
    EXPECT_EQ(jacobian_at_rest(law).cwiseAbs().maxCoeff(), 0.0) << law;
    try {
      static_cast<void>(damping_at_rest(law));
      ADD_FAILURE() << law << " was linearized at rest";
    } catch (const fem::LawError& e) {
      const std::string expected = "model.yaml:9:20: loads[0]: the law '" + law + "' has no linearization at rest";
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos)
          << e.what();
    }
  }
  // Written out as sqrt, even the drag's derivative is 0/0 for fem::Law: not finite, a LawError;
  // `speed` is the way to write it.
  EXPECT_THROW(static_cast<void>(jacobian_at_rest("-c*sqrt(vx^2 + vy^2 + vz^2)*vx")), fem::LawError);
}

TEST(NodalLoadLaw, ThrustFromRestApproachesItsTopSpeedByTheMidpointFactor) {
  // m dv/dt = T0 (1 − |v|/v_max) from rest along x: the first Newton iterate is at rest (the
  // speed's cone), the converged steps move, and v_max − v shrinks by ρ = (1 − a)/(1 + a),
  // a = T0 h/(2 m v_max), every step from the first, to round-off.
  const double T0 = 3.0, m = 2.0, v_max = 2.0, h = 0.05;
  const double a = T0 * h / (2 * m * v_max), rho = (1 - a) / (1 + a);
  double worst = 0.0, last = 0.0;
  launch({"T0*(1 - speed/v_max)", "-c*vy", "-c*vz"}, Vec3::Zero(), Vec3::Zero(), h, 100,
         [&](const fem::NodeState& before, const fem::NodeState& after, double, double) {
           worst = std::max(worst, std::abs((v_max - after.velocity.x()) - rho * (v_max - before.velocity.x())));
           last = after.velocity.x();
         });
  EXPECT_LT(worst, 1e-14 * v_max);
  EXPECT_GT(last, 0.9 * v_max);
  EXPECT_LT(last, v_max);
}

TEST(NodalLoadLaw, StaticsTakeTheLawAtRestWhole) {
  // Statics: the rates are zero, the speed's missing derivative is not needed, and the law is not
  // scaled by the load factor (the function of time is): 1.5 (T0 + 0.8 · 2 t) at t = 0.9.
  fem::Model m;
  const fem::NodeId n = m.add_node("n", Vec3::Zero());
  const NodalLoad& load = add_law_load(m, n, {"T0*(1 - speed/v_max)", "", ""});
  TrialState s(m);
  s.scheme = fem::TimeScheme::Static;
  s.t_n = 0.7;
  s.h = 0.2;
  s.load_factor = 0.8;
  const Eigen::VectorXd r = testing::element_residual(m, load, s);
  EXPECT_DOUBLE_EQ(r[0], -1.5 * 3.0);
  EXPECT_DOUBLE_EQ(r[1], -1.5 * 0.8 * 2 * 0.9);
}

TEST(NodalLoadLaw, LinearizedStiffnessAndDampingAreTheLawsDerivatives) {
  // A spring and damper written as laws: −∂F/∂x in the static stamp, −∂F/∂v in stamp_rates; a
  // moment's −∂M/∂w likewise, and its ∂M/∂v across to the displacement block.
  fem::Model m;
  const fem::NodeId n = m.add_node("n", Vec3(0.1, 0.2, 0.3), fem::NodeKind::Frame);
  const NodalLoad& force = add_law_load(m, n, {"-k*x - c*vx", "-k*x*y", ""});
  const NodalLoad& moment = add_law_load(m, n, {"", "-c*wy + 3*vz", ""}, LoadKind::Moment);
  TrialState s(m);
  s.scheme = fem::TimeScheme::Static;
  const Eigen::MatrixXd K = testing::element_jacobian(m, force, s);
  EXPECT_DOUBLE_EQ(K(0, 0), 1.5 * 30.0);
  EXPECT_DOUBLE_EQ(K(1, 0), 1.5 * 30.0 * 0.2);
  EXPECT_DOUBLE_EQ(K(1, 1), 1.5 * 30.0 * 0.1);
  fem::NullJacobianSink none;
  fem::DenseJacobian D(s.map, static_cast<int>(s.trial.size()));
  force.stamp_rates(s.view(m), none, D);
  moment.stamp_rates(s.view(m), none, D);
  Eigen::MatrixXd expected = Eigen::MatrixXd::Zero(6, 6);
  expected(0, 0) = 1.5 * 0.8;   // force x by vx
  expected(4, 4) = 1.5 * 0.8;   // moment y by wy
  expected(4, 2) = -1.5 * 3.0;  // moment y by vz
  EXPECT_LT((D.J - expected).cwiseAbs().maxCoeff(), 1e-15) << D.J;
}

TEST(NodalLoadLaw, LawsOnFollowerLoadsOrWithOtherVariablesAreRefused) {
  fem::Model m;
  const fem::NodeId n = m.add_node("n", Vec3::Zero(), fem::NodeKind::Frame);
  const std::vector<std::string> variables(nodal_load_variables.begin(), nodal_load_variables.end());
  const auto laws = [&](std::size_t count) {
    LoadLaws l;
    const std::vector<std::string> read(variables.begin(), variables.begin() + static_cast<std::ptrdiff_t>(count));
    l.components[0].emplace(LoadLaw{fem::Law("-c*vx", parameters, read, count, "here"), {}});
    return l;
  };
  const auto zero = [] {
    return std::array<fem::Expression, 3>{fem::Expression("0", parameters), fem::Expression("0", parameters),
                                          fem::Expression("0", parameters)};
  };
  EXPECT_THROW(NodalLoad("f", m.attach(n), zero(), LoadKind::Force, LoadAxes::Follower, 1.0,
                         fem::Quaternion::Identity(), laws(nodal_force_variable_count)),
               std::invalid_argument);
  // A force's law reads the force's 7 variables; a moment's all 10.
  EXPECT_THROW(NodalLoad("f", m.attach(n), zero(), LoadKind::Force, LoadAxes::Global, 1.0,
                         fem::Quaternion::Identity(), laws(nodal_load_variables.size())),
               std::invalid_argument);
  EXPECT_THROW(NodalLoad("f", m.attach(n), zero(), LoadKind::Moment, LoadAxes::Global, 1.0,
                         fem::Quaternion::Identity(), laws(nodal_force_variable_count)),
               std::invalid_argument);
  EXPECT_NO_THROW(NodalLoad("f", m.attach(n), zero(), LoadKind::Moment, LoadAxes::Global, 1.0,
                            fem::Quaternion::Identity(), laws(nodal_load_variables.size())));
}

}  // namespace
}  // namespace catena::elements
