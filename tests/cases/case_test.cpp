// Case regressions (docs/benchmarks.md): each case's model file run in-process, its sensors checked
// against the reference and tolerance stated in the case README, its balance checked constant.
#include "support/case_runner.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace catena {
namespace {

using testing::CaseRun;
using testing::run_case;
using testing::sensor_index;

constexpr double mgl = 10.0 * 9.80 * 3.0443;  // bathe-pendulum energy scale [J]

TEST(CaseBathePendulum, MidpointConservesEnergyOverTenPeriods) {
  for (const char* dt : {"0.1", "0.5"}) {
    const CaseRun c = run_case("bathe-pendulum", {std::string("analysis.dt=") + dt});
    EXPECT_NEAR(c.rec.rows.back().t, 41.33, 1e-9);
    EXPECT_LT(c.rec.max_balance_drift(), 1e-9 * mgl) << "dt = " << dt;
    EXPECT_EQ(c.stats.cut_steps, 0);
    // The bob stays on the circle of radius l (EA = 1e10 N: stretch below 1e-6 m).
    const std::size_t ix = sensor_index(c.model, "tip_x"), iy = sensor_index(c.model, "tip_y");
    for (const auto& r : c.rec.rows) EXPECT_NEAR(std::hypot(r.sensors[ix], r.sensors[iy]), 3.0443, 1e-6);
  }
}

TEST(CaseBathePendulum, MidpointSwingReachesNinetyDegrees) {
  // v0 = 7.725 m/s lifts the bob to about the pivot's height: max tip_y within 2 % of l of zero.
  const CaseRun c = run_case("bathe-pendulum", {"analysis.t_end=4.2", "analysis.dt=0.01"});
  const std::size_t iy = sensor_index(c.model, "tip_y");
  double top = -1e9;
  for (const auto& r : c.rec.rows) top = std::max(top, r.sensors[iy]);
  EXPECT_NEAR(top, 0.0, 0.02 * 3.0443);
}

TEST(CaseBathePendulum, NewmarkLocksAtDtPointOne) {
  const CaseRun c = run_case("bathe-pendulum", {"analysis.integrator=newmark"});
  const double e0 = c.rec.rows.front().energy.balance();
  double gain = 0.0, strain = 0.0;
  for (const auto& r : c.rec.rows) {
    gain = std::max(gain, r.energy.balance() - e0);
    strain = std::max(strain, r.energy.state.strain);
  }
  EXPECT_GT(gain, 0.01 * mgl);    // energy grows...
  EXPECT_GT(strain, 0.01 * mgl);  // ...into axial vibration of the rod
}

TEST(CaseFreeFlyingChain, LeftTipFollowsTheDiscreteRigidRotation) {
  const CaseRun c = run_case("free-flying-chain");
  const double h = 0.1, w = (2.0 / h) * std::atan(h / 2.0);
  const std::size_t iu = sensor_index(c.model, "left_tip_ux");
  double worst = 0.0;
  for (const auto& r : c.rec.rows) worst = std::max(worst, std::abs(r.sensors[iu] - 200.0 * (1.0 - std::cos(w * r.t))));
  EXPECT_LT(worst, 1e-3 * 400.0);
  EXPECT_NEAR(c.rec.rows.back().t, 20.0, 1e-12);
}

TEST(CaseFreeFlyingChain, EnergyAndAngularMomentumAreConserved) {
  for (const char* dt : {"0.1", "2.0"}) {
    const CaseRun c = run_case("free-flying-chain", {std::string("analysis.dt=") + dt});
    const solvers::EnergyRecord& e0 = c.rec.rows.front().energy;
    const double scale = e0.state.kinetic;
    ASSERT_GT(scale, 1e6);
    EXPECT_LT(c.rec.max_balance_drift(), 1e-9 * scale) << "dt = " << dt;
    const double L0 = e0.state.angular_momentum.norm();
    for (const auto& r : c.rec.rows) {
      EXPECT_LT((r.energy.state.angular_momentum - e0.state.angular_momentum).norm(), 1e-9 * L0) << "t = " << r.t;
      EXPECT_LT((r.energy.state.momentum - e0.state.momentum).norm(), 1e-9 * L0 / 400.0) << "t = " << r.t;
    }
    // Bounded (no locking) even at dt = 2: the tip stays within the chain's reach.
    const std::size_t iu = sensor_index(c.model, "left_tip_ux");
    for (const auto& r : c.rec.rows) EXPECT_LE(std::abs(r.sensors[iu]), 400.0 * (1 + 1e-6));
  }
}

}  // namespace
}  // namespace catena
