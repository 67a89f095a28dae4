// Static analysis (load stepping through the time integrator with the Static stamping) and the
// static equilibrium that can start a dynamic run, on hand-built beam cantilevers; gravity
// ramped with the load parameter.
#include "assembly/tableau.hpp"
#include "elements/beam.hpp"
#include "elements/nodal_load.hpp"
#include "elements/point_mass.hpp"
#include "solvers/time_integrator.hpp"
#include "support/recording_observer.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace catena::solvers {
namespace {

using fem::Vec3;

constexpr double L = 2.0;
constexpr double EI = 10.0;

/// A cantilever along +x of n beams, clamped at the origin, ρA = 2 kg/m, gravity `g`.
fem::Model cantilever(int n, const Vec3& g) {
  fem::Model m;
  m.name = "cantilever";
  m.gravity = g;
  for (int k = 0; k <= n; ++k) m.add_node("n" + std::to_string(k), Vec3(L * k / n, 0, 0), fem::NodeKind::Frame);
  for (int c = 0; c < 3; ++c) {
    m.fix(fem::NodeId{0}, c);
    m.fix_rotation(fem::NodeId{0}, c);
  }
  elements::BeamSection s;
  s.EA = 1e5;
  s.GAy = s.GAz = 1e5;
  s.GJ = 10;
  s.EIy = s.EIz = EI;
  s.rhoA = 2;
  s.rhoJ = 0.01;
  s.rhoIy = s.rhoIz = 0.005;
  for (int k = 0; k < n; ++k)
    m.add_element<elements::Beam>("b" + std::to_string(k), m.attach(fem::NodeId{k}), m.attach(fem::NodeId{k + 1}), s,
                                  Vec3(0, 1, 0));
  m.update_length_scale();
  return m;
}

struct Result {
  testing::RecordingObserver rec;
  RunStatistics stats;
};

Result run(fem::Model& m) {
  assembly::Tableau tableau(m, PETSC_COMM_WORLD);
  TimeIntegrator integrator(m, tableau);
  Result r;
  r.stats = integrator.run(r.rec);
  return r;
}

fem::NodeId tip(const fem::Model& m) { return fem::NodeId{static_cast<std::int32_t>(m.nodes.size() - 1)}; }

TEST(StaticAnalysis, TipMomentBendsTheCantileverIntoAnArcInLoadSteps) {
  // M = π EI / L bends the beam into a semicircle: tip at (0, 2L/π), turned by π about z. Each
  // load step is one output frame. The element reproduces the arc up to the axial strain its
  // second-order term leaves, O(α⁴) in the element's arc angle α (here ≤ π/10): 3e-6 L.
  fem::Model m = cantilever(10, Vec3::Zero());
  const double M = std::numbers::pi * EI / L;
  const fem::ParameterTable p{{"M", M}};
  std::array<fem::Expression, 3> moment{fem::Expression("0", p), fem::Expression("0", p), fem::Expression("M*t", p)};
  m.add_element<elements::NodalLoad>("moment", m.attach(tip(m)), std::move(moment), elements::LoadKind::Moment,
                                     elements::LoadAxes::Global, 1.0);
  m.analysis.type = fem::AnalysisType::Static;
  m.analysis.dt = 0.25;
  m.analysis.t_end = 1.0;
  const Result r = run(m);
  ASSERT_EQ(r.rec.rows.size(), 5U);
  for (std::size_t k = 1; k < r.rec.rows.size(); ++k) {
    // Load level λ = t: a circular arc of angle λπ and radius L/(λπ).
    const double angle = std::numbers::pi * r.rec.rows[k].t;
    const double radius = L / angle;
    const fem::NodeState& s = r.rec.rows[k].states[tip(m).index];
    EXPECT_NEAR(s.position.x(), radius * std::sin(angle), 5e-6 * L) << "t = " << r.rec.rows[k].t;
    EXPECT_NEAR(s.position.y(), radius * (1 - std::cos(angle)), 5e-6 * L);
    EXPECT_NEAR(std::abs(s.position.z()), 0.0, 1e-12);
  }
  const fem::NodeState& end = r.rec.rows.back().states[tip(m).index];
  EXPECT_NEAR(end.position.y(), 2 * L / std::numbers::pi, 5e-6 * L);
  EXPECT_NEAR(std::abs(end.orientation.w()), 0.0, 1e-8);  // half a turn
  EXPECT_NEAR(std::abs(end.orientation.z()), 1.0, 1e-8);
}

TEST(StaticAnalysis, InitialEquilibriumStartsTheDynamicRunAtRest) {
  // Gravity on a slender cantilever (large deflection): the dynamic run that starts from the
  // static equilibrium stays there, and that equilibrium is the static analysis's.
  fem::Model dyn = cantilever(8, Vec3(0, -9.81, 0));
  dyn.analysis.dt = 0.01;
  dyn.analysis.t_end = 0.2;
  dyn.analysis.initial_equilibrium = true;
  const Result d = run(dyn);
  EXPECT_GE(d.stats.equilibrium_increments, 1);

  fem::Model stat = cantilever(8, Vec3(0, -9.81, 0));
  stat.analysis.type = fem::AnalysisType::Static;
  stat.analysis.dt = 1.0;
  stat.analysis.t_end = 1.0;
  const Result s = run(stat);

  const Vec3 x_static = s.rec.rows.back().states[tip(stat).index].position;
  EXPECT_LT(x_static.y(), -1.0);  // far beyond the linear range (linear theory: 3.9 m for 2 m)
  for (const auto& row : d.rec.rows) {
    const fem::NodeState& tip_state = row.states[tip(dyn).index];
    EXPECT_LT((tip_state.position - x_static).norm(), 1e-9) << "t = " << row.t;
    EXPECT_LT(tip_state.velocity.norm(), 1e-9) << "t = " << row.t;
  }
  EXPECT_LT(d.rec.max_balance_drift(), 1e-9 * 2 * L * 9.81 * 2 * L);
}

TEST(StaticAnalysis, InitialEquilibriumOfAFreeBodyFailsWithAMessage) {
  // A point mass under gravity with nothing holding it has no static equilibrium.
  fem::Model m;
  m.name = "falling";
  m.gravity = Vec3(0, 0, -9.81);
  const fem::NodeId n = m.add_node("ball", Vec3::Zero());
  m.add_element<elements::PointMass>("mass", m.attach(n), 1.0);
  m.analysis.dt = 0.1;
  m.analysis.t_end = 1.0;
  m.analysis.initial_equilibrium = true;
  m.update_length_scale();
  try {
    run(m);
    FAIL() << "expected a SolverFailure";
  } catch (const SolverFailure& e) {
    EXPECT_NE(std::string(e.what()).find("initial equilibrium"), std::string::npos) << e.what();
  } catch (const std::exception& e) {
    FAIL() << "expected a SolverFailure, got: " << e.what();
  }
}

TEST(StaticAnalysis, RampedGravityFollowsTheLoadPathOfTheWeight) {
  // Far beyond the linear range (tip 1.5 m down on a 2 m cantilever), gravity ramped over four
  // increments: the state at t = k/4 is the equilibrium under k/4 of the weight (an unramped
  // analysis with g scaled so), and the last one the full weight's; the potential is the weight's
  // at that level.
  const Vec3 g(0, -9.81, 0);
  fem::Model ramped = cantilever(8, g);
  ramped.analysis.type = fem::AnalysisType::Static;
  ramped.analysis.dt = 0.25;
  ramped.analysis.t_end = 1.0;
  ramped.analysis.ramp_gravity = true;
  const Result r = run(ramped);
  ASSERT_EQ(r.rec.rows.size(), 5u);
  for (int k = 1; k <= 4; ++k) {
    fem::Model full = cantilever(8, g * (k / 4.0));
    full.analysis.type = fem::AnalysisType::Static;
    full.analysis.dt = 1.0;
    full.analysis.t_end = 1.0;
    const Result f = run(full);
    const auto& row = r.rec.rows[static_cast<std::size_t>(k)];
    EXPECT_NEAR(row.t, k / 4.0, 1e-12);
    EXPECT_LT((row.states[tip(ramped).index].position - f.rec.rows.back().states[tip(full).index].position).norm(),
              1e-9)
        << "k = " << k;
    EXPECT_NEAR(row.energy.state.potential, f.rec.rows.back().energy.state.potential,
                1e-9 * std::abs(f.rec.rows.back().energy.state.potential))
        << "k = " << k;
  }
}

}  // namespace
}  // namespace catena::solvers
