// flexible-arm-pd (cases/flexible-arm-pd): a flexible arm turned to a target angle by a PD hub
// torque. The closed loop's three lowest pairs from the eigen-analysis, and the step response, the
// settling time and the energy balance from the time run, against the linear modal model of the
// case's reference.py (reference.yaml, reference.csv; README.md derives the tolerances).
#include "elements/node_inertia.hpp"
#include "io/model_reader.hpp"
#include "solvers/linearized_analysis.hpp"
#include "support/case_reference.hpp"
#include "support/case_runner.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

namespace catena {
namespace {

using testing::CaseReference;
using testing::record;

constexpr std::array<const char*, 3> kPairs{"rigid", "flexible_1", "flexible_2"};

/// The closed loop's modes about its equilibrium at theta_ref, with `elements` beam elements.
solvers::EigenResult closed_loop_modes(int elements) {
  const std::vector<std::string> overrides{"n=" + std::to_string(elements), "analysis.type=eigen", "analysis.modes=4"};
  fem::Model model = io::read_model(std::string(CATENA_SOURCE_DIR) + "/cases/flexible-arm-pd/model.yaml", overrides);
  elements::add_node_inertia(model);
  solvers::LinearizedAnalysis analysis(model, PETSC_COMM_WORLD);
  analysis.establish_state();
  analysis.linearize();
  return analysis.modes();
}

TEST(CaseFlexibleArmPd, ClosedLoopPairsMatchTheModalModelAndConvergeAtOrderTwo) {
  const CaseReference ref("flexible-arm-pd");
  const int elements = static_cast<int>(ref.number("elements"));
  const solvers::EigenResult coarse = closed_loop_modes(elements);
  EXPECT_TRUE(coarse.quadratic);  // the controller's damping makes it a quadratic problem
  ASSERT_GE(coarse.modes.size(), kPairs.size());
  for (std::size_t k = 0; k < kPairs.size(); ++k) {
    const std::string pair = std::string("pairs/") + kPairs[k] + "/";
    const std::string tolerance = std::string("tolerances/") + (k == 0 ? "rigid/" : "flexible/");
    const solvers::Mode& mode = coarse.modes[k];
    const double omega = ref.number(pair + "natural_frequency"), zeta = ref.number(pair + "damping_ratio");
    record(std::string(kPairs[k]) + "_frequency_error", mode.natural_frequency() / omega - 1.0);
    record(std::string(kPairs[k]) + "_damping_error", mode.damping_ratio() / zeta - 1.0);
    EXPECT_EQ(mode.kind, solvers::ModeKind::Elastic) << kPairs[k];
    EXPECT_NEAR(mode.natural_frequency() / omega, 1.0, ref.number(tolerance + "natural_frequency")) << kPairs[k];
    EXPECT_NEAR(mode.damping_ratio() / zeta, 1.0, ref.number(tolerance + "damping_ratio")) << kPairs[k];
  }
  // The flexible pairs' errors are the beam's discretization: they quarter when the mesh is halved.
  const solvers::EigenResult fine = closed_loop_modes(2 * elements);
  for (std::size_t k = 1; k < kPairs.size(); ++k) {
    const double omega = ref.number(std::string("pairs/") + kPairs[k] + "/natural_frequency");
    const double order = std::log2(std::abs(coarse.modes[k].natural_frequency() - omega) /
                                   std::abs(fine.modes.at(k).natural_frequency() - omega));
    record(std::string(kPairs[k]) + "_order", order);
    EXPECT_NEAR(order, 2.0, ref.number("tolerances/order")) << kPairs[k];
  }
}

/// The last time |theta - theta_ref| crosses `band` theta_ref, interpolated between rows.
double settling_time(const testing::CaseRun& c, std::size_t angle, double theta_ref, double band) {
  const auto& rows = c.rec.rows;
  const auto gap = [&](std::size_t k) { return std::abs(rows[k].sensors[angle] - theta_ref) - band * theta_ref; };
  std::size_t k = rows.size() - 1;
  while (k > 0 && gap(k) <= 0.0) --k;
  if (k + 1 >= rows.size()) return rows.back().t;  // never settled
  return rows[k].t + (rows[k + 1].t - rows[k].t) * gap(k) / (gap(k) - gap(k + 1));
}

TEST(CaseFlexibleArmPd, StepResponseAndSettlingFollowTheModalModel) {
  const CaseReference ref("flexible-arm-pd");
  const testing::CaseRun c = testing::run_case("flexible-arm-pd");
  EXPECT_EQ(c.stats.cut_steps, 0);
  const std::size_t angle = testing::sensor_index(c.model, "hub_angle");
  const std::size_t tip = testing::sensor_index(c.model, "tip_deflection");
  const double theta_ref = ref.number("theta_ref");

  // The hub angle and the tip's deflection at reference.csv's times (the run has rows there).
  const std::vector<double>& t = ref.csv_column("t");
  const std::vector<double>& modal_angle = ref.csv_column("hub_angle");
  const std::vector<double>& modal_tip = ref.csv_column("tip_deflection");
  ASSERT_NEAR(c.rec.rows.back().t, t.back(), 1e-9);
  double largest_tip = 0.0, angle_error = 0.0, tip_error = 0.0;
  for (std::size_t k = 0; k < t.size(); ++k) {
    const auto& row = c.rec.row_at(t[k]);
    largest_tip = std::max(largest_tip, std::abs(modal_tip[k]));
    angle_error = std::max(angle_error, std::abs(row.sensors[angle] - modal_angle[k]));
    tip_error = std::max(tip_error, std::abs(row.sensors[tip] - modal_tip[k]));
  }
  record("hub_angle_error", angle_error / theta_ref);
  record("tip_deflection_error", tip_error / largest_tip);
  EXPECT_LT(angle_error / theta_ref, ref.number("tolerances/hub_angle"));
  EXPECT_LT(tip_error / largest_tip, ref.number("tolerances/tip_deflection"));

  // The settling time: an error of the hub angle moves it by that error over |theta'| there.
  const double settled = settling_time(c, angle, theta_ref, 0.02);
  record("settling_time", settled);
  EXPECT_NEAR(settled, ref.number("settling_time"),
              ref.number("tolerances/hub_angle") * theta_ref / std::abs(ref.number("settling_rate")));

  // The PD law's work, its damper and the arm's energies balance.
  const double drift = c.rec.max_balance_drift() / ref.number("energy_scale");
  record("energy_drift", drift);
  EXPECT_LT(drift, ref.number("energy_tolerance"));
}

}  // namespace
}  // namespace catena
