// Nodal loads that are laws of the node's motion, read from a model file and solved by the time
// integrator and the eigen-analysis (elements/nodal_load.hpp, docs/model-format.md "Laws of the
// motion of a load"): a linear drag decays by the midpoint rule's factor per step with the balance
// constant, a thrust from rest approaches its top speed by its own factor, and springs and dampers
// written as laws give the eigen-analysis their frequencies and damping ratios.
#include "support/case_runner.hpp"
#include "support/dense_newton.hpp"  // sci
#include "support/eigen_modes.hpp"
#include "support/test_files.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace catena {
namespace {

/// A point mass m = 2 at the origin launched at `velocity` under the force `force`, h = 0.05,
/// t_end = 5, a row every step.
testing::CaseRun run_ball(const std::string& velocity, const std::string& force) {
  const std::string text = "name: ball\n"
                           "parameters: {m: 2, c: 0.8, T0: 3, v_max: 2}\n"
                           "nodes:\n"
                           "  - {name: ball, position: [0, 0, 0], velocity: " + velocity + "}\n"
                           "masses: [{node: ball, mass: m}]\n"
                           "loads:\n"
                           "  - {name: law, node: ball, force: " + force + "}\n"
                           "analysis: {dt: 0.05, t_end: 5}\n";
  testing::CaseRun c{io::read_model(testing::write_temp("catena_nodal_law", "model.yaml", text)), {}, {}};
  c.stats = testing::run_model(c.model, c.rec);
  return c;
}

TEST(NodalLoadLaws, LinearDragDecaysByTheMidpointFactor) {
  // m dv/dt = −c v: v_{n+1} = ρ v_n, ρ = (1 − ch/2m)/(1 + ch/2m), at every step; the kinetic
  // energy lost is the drag's negative external work.
  const testing::CaseRun c = run_ball("[3, -1, 2]", "[\"-c*vx\", \"-c*vy\", \"-c*vz\"]");
  const double rho = (1 - 0.8 * 0.05 / 4) / (1 + 0.8 * 0.05 / 4);
  ASSERT_EQ(c.rec.rows.size(), 101U);
  double worst = 0.0;
  for (std::size_t k = 1; k < c.rec.rows.size(); ++k) {
    const fem::Vec3& before = c.rec.rows[k - 1].states[0].velocity;
    worst = std::max(worst, (c.rec.rows[k].states[0].velocity - rho * before).norm() / before.norm());
  }
  EXPECT_LT(worst, 1e-13);
  const solvers::EnergyRecord& end = c.rec.rows.back().energy;
  EXPECT_LT(end.work.external_work, -0.9 * 14.0);  // ½ m |v0|² = 14 J, mostly dissipated by c t/m = 2
  EXPECT_LT(c.rec.max_balance_drift(), 1e-11 * 14.0);
  RecordProperty("decay_factor_error", testing::sci(worst));
  RecordProperty("balance_drift", testing::sci(c.rec.max_balance_drift() / 14.0));
}

TEST(NodalLoadLaws, ThrustFromRestApproachesItsTopSpeed) {
  // m dv/dt = T0 (1 − |v|/v_max) from rest: v_max − v shrinks by (1 − a)/(1 + a), a = T0 h/(2 m v_max).
  const testing::CaseRun c = run_ball("[0, 0, 0]", "[\"T0*(1 - speed/v_max)\", 0, 0]");
  const double a = 3.0 * 0.05 / (2 * 2.0 * 2.0), rho = (1 - a) / (1 + a);
  double worst = 0.0;
  for (std::size_t k = 1; k < c.rec.rows.size(); ++k)
    worst = std::max(worst, std::abs((2.0 - c.rec.rows[k].states[0].velocity.x()) -
                                     rho * (2.0 - c.rec.rows[k - 1].states[0].velocity.x())));
  EXPECT_LT(worst, 1e-13);
  EXPECT_GT(c.rec.rows.back().states[0].velocity.x(), 1.9);
  EXPECT_LT(c.rec.max_balance_drift(), 1e-11 * 4.0);
}

TEST(NodalLoadLaws, SpringsAndDampersAsLawsGiveTheEigenAnalysisTheirModes) {
  const solvers::EigenResult r = testing::modes_of("law_oscillator_modes");
  ASSERT_EQ(r.modes.size(), 3U);
  EXPECT_TRUE(r.quadratic);
  const double m = 2, k = 30, c = 0.8;
  for (std::size_t i = 0; i < 3; ++i) {
    const double ki = k * static_cast<double>((i + 1) * (i + 1)), ci = i < 2 ? c : 0.0;
    EXPECT_NEAR(r.modes[i].natural_frequency() / std::sqrt(ki / m), 1.0, 1e-10) << i;
    EXPECT_NEAR(r.modes[i].damping_ratio(), ci / (2 * std::sqrt(ki * m)), 1e-10) << i;
  }
}

}  // namespace
}  // namespace catena
