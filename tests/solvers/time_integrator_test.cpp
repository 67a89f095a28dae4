// Time integration on hand-built truss models: the energy-conserving midpoint scheme against
// Newmark's trapezoidal rule (Crisfield & Shi 1994), symbolic factorization reuse, step cutting.
#include "solvers/time_integrator.hpp"

#include "elements/nodal_load.hpp"
#include "elements/point_mass.hpp"
#include "elements/truss.hpp"
#include "support/recording_observer.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string_view>

namespace catena::solvers {
namespace {

using fem::Vec3;

/// Bathe's pendulum (docs/benchmarks.md): m = 10 kg, l = 3.0443 m, g = 9.80, EA = 1e10 N, fired
/// from hanging at 7.725 m/s.
fem::Model bathe_pendulum(double dt, double t_end, fem::TimeScheme scheme) {
  fem::Model m;
  m.name = "bathe";
  const double l = 3.0443;
  m.gravity = Vec3(0, -9.80, 0);
  const fem::NodeId pivot = m.add_node("pivot", Vec3::Zero());
  const fem::NodeId bob = m.add_node("bob", Vec3(0, -l, 0));
  m.initial_state[bob.index].velocity = Vec3(7.725, 0, 0);
  for (int c = 0; c < 3; ++c) m.fix(pivot, c);
  m.fix(bob, 2);
  m.add_element<elements::PointMass>("mass", m.attach(bob), 10.0);
  m.add_element<elements::Truss>("rod", m.attach(pivot), m.attach(bob), elements::TrussSection{1e10}, l);
  m.analysis.dt = dt;
  m.analysis.t_end = t_end;
  m.analysis.scheme = scheme;
  m.update_length_scale();
  return m;
}

testing::RecordingObserver run(fem::Model& m, RunStatistics* stats = nullptr) {
  assembly::Tableau tableau(m, PETSC_COMM_WORLD);
  TimeIntegrator integrator(m, tableau);
  testing::RecordingObserver rec;
  const RunStatistics s = integrator.run(rec);
  if (stats) *stats = s;
  return rec;
}

TEST(TimeIntegrator, MidpointConservesPendulumEnergyAtLargeSteps) {
  const double mgl = 10.0 * 9.80 * 3.0443;
  for (const double dt : {0.1, 0.5}) {
    fem::Model m = bathe_pendulum(dt, 41.33, fem::TimeScheme::Midpoint);
    const testing::RecordingObserver rec = run(m);
    EXPECT_LT(rec.max_balance_drift(), 1e-9 * mgl) << "dt = " << dt;
    // The rod stays inextensible to EA precision: strain energy negligible against m g l.
    double max_strain = 0.0;
    for (const auto& r : rec.rows) max_strain = std::max(max_strain, r.energy.state.strain);
    EXPECT_LT(max_strain, 1e-3 * mgl) << "dt = " << dt;
  }
}

TEST(TimeIntegrator, NewmarkGainsEnergyOnThePendulum) {
  // Crisfield & Shi Fig. 3: at dt = 0.1 s the trapezoidal rule pumps energy into axial vibration.
  const double mgl = 10.0 * 9.80 * 3.0443;
  fem::Model m = bathe_pendulum(0.1, 41.33, fem::TimeScheme::Trapezoidal);
  const testing::RecordingObserver rec = run(m);
  const double e0 = rec.rows.front().energy.balance();
  double max_gain = 0.0, max_strain = 0.0;
  for (const auto& r : rec.rows) {
    max_gain = std::max(max_gain, r.energy.balance() - e0);
    max_strain = std::max(max_strain, r.energy.state.strain);
  }
  EXPECT_GT(max_gain, 0.01 * mgl);
  EXPECT_GT(max_strain, 0.01 * mgl);
}

TEST(TimeIntegrator, SymbolicFactorizationIsComputedOnce) {
  // MUMPS and KLU log their analysis apart from their factorizations; SuperLU (the serial
  // default) analyses inside its first one and logs each as a whole: its count is 0.
  for (const char* package : {"mumps", "klu", "superlu"}) {
    fem::Model m = bathe_pendulum(0.1, 2.0, fem::TimeScheme::Midpoint);
    m.analysis.linear_solver = package;
    RunStatistics s;
    run(m, &s);
    EXPECT_EQ(s.steps, 20) << package;
    EXPECT_EQ(s.symbolic_factorizations, std::string_view(package) == "superlu" ? 0 : 1) << package;
    EXPECT_EQ(s.numeric_factorizations, s.jacobian_evaluations) << package;
    EXPECT_GE(s.newton_iterations, s.steps) << package;
  }
}

TEST(TimeIntegrator, TimeDependentLoadWorkKeepsTheBalance) {
  // A spring-mass pushed by a sinusoidal force: external work enters the balance exactly.
  fem::Model m;
  m.name = "pushed";
  const fem::NodeId a = m.add_node("a", Vec3::Zero());
  const fem::NodeId b = m.add_node("b", Vec3(1, 0, 0));
  for (int c = 0; c < 3; ++c) m.fix(a, c);
  m.add_element<elements::PointMass>("mb", m.attach(b), 2.0);
  m.add_element<elements::Truss>("spring", m.attach(a), m.attach(b), elements::TrussSection{1e3}, 1.0);
  const fem::ParameterTable p{{"F", 30.0}};
  m.add_element<elements::NodalLoad>("push", m.attach(b),
                                     std::array<fem::Expression, 3>{fem::Expression("F*sin(3*t)", p),
                                                                    fem::Expression("F*cos(2*t)", p),
                                                                    fem::Expression("0", p)});
  m.analysis.dt = 0.05;
  m.analysis.t_end = 5.0;
  m.update_length_scale();
  const testing::RecordingObserver rec = run(m);
  double scale = 0.0;
  for (const auto& r : rec.rows) scale = std::max(scale, std::abs(r.energy.work.external_work));
  ASSERT_GT(scale, 1.0);
  EXPECT_LT(rec.max_balance_drift(), 1e-10 * scale);
}

TEST(TimeIntegrator, CollapsingBarCutsTheStepThenFailsWithItsName) {
  // A bar driven through zero length by a huge force: Newton meets a domain error, the step is
  // cut down to dt_min, then the run fails naming time and owner.
  fem::Model m;
  m.name = "collapse";
  const fem::NodeId a = m.add_node("a", Vec3::Zero());
  const fem::NodeId b = m.add_node("tip", Vec3(1, 0, 0));
  for (int c = 0; c < 3; ++c) m.fix(a, c);
  m.add_element<elements::PointMass>("mb", m.attach(b), 1.0);
  m.add_element<elements::Truss>("bar", m.attach(a), m.attach(b), elements::TrussSection{1.0}, 1.0);
  const fem::ParameterTable p;
  m.add_element<elements::NodalLoad>("crush", m.attach(b),
                                     std::array<fem::Expression, 3>{fem::Expression("-1e9", p), fem::Expression("0", p),
                                                                    fem::Expression("0", p)});
  m.analysis.dt = 0.1;
  m.analysis.t_end = 1.0;
  m.analysis.dt_min = 1e-3;
  m.update_length_scale();
  assembly::Tableau tableau(m, PETSC_COMM_WORLD);
  TimeIntegrator integrator(m, tableau);
  testing::RecordingObserver rec;
  try {
    integrator.run(rec);
    FAIL() << "the run should fail";
  } catch (const SolverFailure& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("t = "), std::string::npos) << what;
    // Issue 39: it said "step cut down to 0.000977 s < dt_min = 0.000977 s" (the step that
    // failed, not the half that would be below dt_min).
    EXPECT_NE(what.find("the step h = 0.00156 s failed, and halving it would go below dt_min = 0.001 s"),
              std::string::npos)
        << what;
    EXPECT_GT(integrator.statistics().cut_steps, 5);
  }
}

}  // namespace
}  // namespace catena::solvers
