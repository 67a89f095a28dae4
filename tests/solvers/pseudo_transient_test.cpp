// Static equilibria of mechanisms by pseudo-transient continuation (solvers/pseudo_transient.hpp),
// against closed forms: a pendulum started horizontal (where the gravity Hessian vanishes) hangs
// straight down, its last corrections converging quadratically; a pendulum on a torsion spring
// settles where k φ = m g (L/2) cos φ; a bar hanging from a spherical joint, free to spin about
// its own axis at the solution too, hangs straight down without its spin being called singular.
#include "support/test_files.hpp"
#include "assembly/tableau.hpp"
#include "io/model_reader.hpp"
#include "solvers/committed_state.hpp"
#include "solvers/newton.hpp"
#include "solvers/pseudo_transient.hpp"
#include "solvers/static_equilibrium.hpp"
#include "solvers/time_integrator.hpp"
#include "support/recording_observer.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

namespace catena {
namespace {

constexpr double m = 1.7595, L = 1.5, g = 9.81;  // Omar's link (seed 002)

/// A link of length L hinged at the origin by `joint` (a YAML mapping's inner text), its centre
/// at `centre`, in a static analysis of one increment.
fem::Model link_model(const std::string& centre, const std::string& joint) {
  const std::string text = "name: link\nnodes:\n  - {name: bar, position: " + centre +
                           "}\nrigid_bodies:\n  - {node: bar, mass: 1.7595, inertia: [0.0001, 0.3299, 0.3299]}\n"
                           "joints:\n  - {name: pin, node: bar, at: [0, 0, 0], " +
                           joint + "}\ngravity: [0, 0, -9.81]\nanalysis: {type: static, dt: 1, t_end: 1}\n";
  return io::read_model(testing::write_temp("catena_pseudo_transient", "model.yaml", text));
}

struct Solved {
  solvers::PseudoTransientReport report;
  fem::NodeState bar;  ///< the link's state at the equilibrium
};

/// The equilibrium of `model` from its initial state, by PseudoTransient with the pseudo-mass
/// StaticEquilibrium builds.
Solved solve(fem::Model& model) {
  assembly::Tableau tableau(model, PETSC_COMM_WORLD);
  solvers::RunCounters counters;
  solvers::Newton newton(tableau, model.length_scale, solvers::newton_settings(model.analysis), counters);
  solvers::CommittedState state(model, tableau);
  solvers::StaticEquilibrium equilibrium(model, tableau, newton, state, counters);
  const assembly::VecHandle u = tableau.create_vector();
  const fem::TimeElement time = fem::TimeElement::equilibrium(0.0, 1.0);
  state.linearization_point(u);
  solvers::PseudoTransient solver(newton, state, 1e-10, 200);
  Solved out;
  out.report = solver.solve(time, u, equilibrium.pseudo_mass(), solvers::CommittedState::Work::Leave);
  state.commit(state.describe(time), u, solvers::CommittedState::Work::Leave);
  out.bar = state.states().front();
  return out;
}

TEST(PseudoTransient, APendulumStartedHorizontalHangsStraightDownConvergingQuadratically) {
  fem::Model model = link_model("[0.75, 0, 0]", "kind: revolute, axis: [0, 1, 0]");
  const Solved s = solve(model);
  ASSERT_TRUE(s.report.converged) << s.report.reason;
  EXPECT_NEAR(s.bar.position.x(), 0.0, 1e-12);
  EXPECT_NEAR(s.bar.position.z(), -L / 2, 1e-12);
  // Quadratic at the end: each residual (relative to the first) at most ten times the square of
  // the one before, once below 1e-2. Linear convergence, even fast, fails this.
  const std::vector<double>& r = s.report.residual_norms;
  ASSERT_GE(r.size(), 4u);
  int quadratic_steps = 0;
  for (std::size_t k = 0; k + 1 < r.size(); ++k) {
    const double rho = r[k] / r.front(), next = r[k + 1] / r.front();
    if (rho >= 1e-2 || next < 1e-15) continue;
    EXPECT_LE(next, 10.0 * rho * rho) << "correction " << k + 2;
    ++quadratic_steps;
  }
  EXPECT_GE(quadratic_steps, 2);
}

TEST(PseudoTransient, APendulumOnATorsionSpringSettlesWhereSpringAndWeightBalance) {
  const double k = 10.0;  // N m/rad, rest at the horizontal start
  fem::Model model = link_model("[0.75, 0, 0]", "kind: revolute, axis: [0, 1, 0], laws: {rz: {stiffness: 10}}");
  const Solved s = solve(model);
  ASSERT_TRUE(s.report.converged) << s.report.reason;
  // k φ = m g (L/2) cos φ, φ the turn below the horizontal (about +y), by bisection.
  double lo = 0.0, hi = M_PI / 2;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (k * mid - m * g * L / 2 * std::cos(mid) < 0.0 ? lo : hi) = mid;
  }
  const double phi = 0.5 * (lo + hi);
  EXPECT_NEAR(s.bar.position.x(), L / 2 * std::cos(phi), 1e-11);
  EXPECT_NEAR(s.bar.position.z(), -L / 2 * std::sin(phi), 1e-11);
}

TEST(PseudoTransient, ABarOnASphericalJointHangsDownWithItsSpinLeftFree) {
  // Started 30° off the vertical in the x-z plane; its spin about its own axis has no stiffness
  // at any configuration, the minimum-norm corrections leave it alone.
  const double a = M_PI / 6;
  char centre[96];
  std::snprintf(centre, sizeof centre, "[%.17g, 0, %.17g]", L / 2 * std::sin(a), -L / 2 * std::cos(a));
  fem::Model model = link_model(centre, "kind: spherical");
  const Solved s = solve(model);
  ASSERT_TRUE(s.report.converged) << s.report.reason;
  EXPECT_NEAR(s.bar.position.x(), 0.0, 1e-12);
  EXPECT_NEAR(s.bar.position.y(), 0.0, 1e-12);
  EXPECT_NEAR(s.bar.position.z(), -L / 2, 1e-12);
}

TEST(PseudoTransient, AStaticAnalysisOfAPendulumRunsAndCountsItsCorrections) {
  fem::Model model = link_model("[0.75, 0, 0]", "kind: revolute, axis: [0, 1, 0]");
  assembly::Tableau tableau(model, PETSC_COMM_WORLD);
  solvers::TimeIntegrator integrator(model, tableau);
  testing::RecordingObserver rec;
  const solvers::RunStatistics stats = integrator.run(rec);
  ASSERT_NEAR(rec.rows.back().t, 1.0, 1e-12);
  EXPECT_NEAR(rec.rows.back().energy.state.potential, -m * g * L / 2, 1e-9);
  EXPECT_GT(stats.equilibrium_iterations, 5);
  EXPECT_LE(stats.equilibrium_iterations, stats.newton_iterations);
}

}  // namespace
}  // namespace catena
