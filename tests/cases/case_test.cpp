// Case regressions (docs/benchmarks.md): each case's model file run in-process, its sensors checked
// against the references and tolerances of the case's reference.yaml, its balance checked constant.
#include "support/case_reference.hpp"
#include "support/case_runner.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace catena {
namespace {

using testing::CaseReference;
using testing::CaseRun;
using testing::run_case;
using testing::sensor_index;

TEST(CaseBathePendulum, MidpointConservesEnergyOverTenPeriods) {
  const CaseReference ref("bathe-pendulum");
  const double mgl = ref.number("energy_scale"), l = ref.number("l");
  for (const char* dt : {"0.1", "0.5"}) {
    const CaseRun c = run_case("bathe-pendulum", {std::string("analysis.dt=") + dt});
    EXPECT_NEAR(c.rec.rows.back().t, 41.33, 1e-9);
    EXPECT_LT(c.rec.max_balance_drift(), ref.number("energy_tolerance") * mgl) << "dt = " << dt;
    EXPECT_EQ(c.stats.cut_steps, 0);
    // The bob stays on the circle of radius l (EA = 1e10 N: stretch below 1e-6 m).
    const std::size_t ix = sensor_index(c.model, "tip_x"), iy = sensor_index(c.model, "tip_y");
    for (const auto& r : c.rec.rows) EXPECT_NEAR(std::hypot(r.sensors[ix], r.sensors[iy]), l, ref.number("circle_tolerance"));
  }
}

TEST(CaseBathePendulum, MidpointSwingReachesNinetyDegrees) {
  // v0 = 7.725 m/s lifts the bob to about the pivot's height: max tip_y within 2 % of l of zero.
  const CaseRun c = run_case("bathe-pendulum", {"analysis.t_end=4.2", "analysis.dt=0.01"});
  const std::size_t iy = sensor_index(c.model, "tip_y");
  double top = -1e9;
  for (const auto& r : c.rec.rows) top = std::max(top, r.sensors[iy]);
  EXPECT_NEAR(top, 0.0, 0.02 * CaseReference("bathe-pendulum").number("l"));
}

TEST(CaseBathePendulum, NewmarkLocksAtDtPointOne) {
  const CaseRun c = run_case("bathe-pendulum", {"analysis.integrator=newmark"});
  const double mgl = CaseReference("bathe-pendulum").number("energy_scale");
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
  const CaseReference ref("free-flying-chain");
  const CaseRun c = run_case("free-flying-chain");
  const double h = 0.1, w = (2.0 / h) * std::atan(ref.number("omega") * h / 2.0), amplitude = ref.number("amplitude");
  const std::size_t iu = sensor_index(c.model, "left_tip_ux");
  double worst = 0.0;
  for (const auto& r : c.rec.rows) worst = std::max(worst, std::abs(r.sensors[iu] - amplitude * (1.0 - std::cos(w * r.t))));
  EXPECT_LT(worst, ref.number("tip_tolerance"));
  EXPECT_NEAR(c.rec.rows.back().t, 20.0, 1e-12);
}

TEST(CaseFreeFlyingChain, EnergyAndAngularMomentumAreConserved) {
  const CaseReference ref("free-flying-chain");
  for (const char* dt : {"0.1", "2.0"}) {
    const CaseRun c = run_case("free-flying-chain", {std::string("analysis.dt=") + dt});
    const solvers::EnergyRecord& e0 = c.rec.rows.front().energy;
    const double scale = e0.state.kinetic;
    ASSERT_NEAR(scale, ref.number("energy_scale"), 1e-6 * scale);
    EXPECT_LT(c.rec.max_balance_drift(), ref.number("energy_tolerance") * scale) << "dt = " << dt;
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
