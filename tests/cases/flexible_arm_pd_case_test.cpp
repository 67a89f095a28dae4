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
#include <petscmat.h>

#include <memory>

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

/// The same controller as the joint's constant-coefficient law (the model writes it as a law of
/// the motion, -Kp*(e - theta_ref) - Kd*e_rate).
const std::vector<std::string> kConstantCoefficients{"joints.0.laws.rz.force=Kp*theta_ref",
                                                     "joints.0.laws.rz.stiffness=Kp", "joints.0.laws.rz.damping=Kd"};

/// The same controller reading sensors instead of the joint's coordinate and its rate: the hub
/// joint's angle (an element sensor, the joint's relative_rz) or the hub node's rotation, and the
/// hub node's angular velocity about z.
const std::vector<std::vector<std::string>> kOnSensors{
    {"joints.0.laws.rz.force=-Kp*(hub_angle - theta_ref) - Kd*hub_rate"},
    {"joints.0.laws.rz.force=-Kp*(hub_rotation - theta_ref) - Kd*hub_rate"}};

/// The closed loop linearized about its equilibrium at theta_ref, with `elements` beam elements.
struct ClosedLoop {
  fem::Model model;
  std::unique_ptr<solvers::LinearizedAnalysis> analysis;
};

ClosedLoop closed_loop(int elements, const std::vector<std::string>& more = {}) {
  std::vector<std::string> overrides{"n=" + std::to_string(elements), "analysis.type=eigen", "analysis.modes=4"};
  overrides.insert(overrides.end(), more.begin(), more.end());
  ClosedLoop c{io::read_model(std::string(CATENA_SOURCE_DIR) + "/cases/flexible-arm-pd/model.yaml", overrides), {}};
  elements::add_node_inertia(c.model);
  c.analysis = std::make_unique<solvers::LinearizedAnalysis>(c.model, PETSC_COMM_WORLD);
  c.analysis->establish_state();
  c.analysis->linearize();
  return c;
}

solvers::EigenResult closed_loop_modes(int elements) { return closed_loop(elements).analysis->modes(); }

/// ‖a − b‖ / ‖b‖ in the Frobenius norm (same numbering: the same model).
double relative_difference(Mat a, Mat b) {
  Mat d = nullptr;
  MatDuplicate(a, MAT_COPY_VALUES, &d);
  MatAXPY(d, -1.0, b, DIFFERENT_NONZERO_PATTERN);
  PetscReal nd = 0.0, nb = 0.0;
  MatNorm(d, NORM_FROBENIUS, &nd);
  MatNorm(b, NORM_FROBENIUS, &nb);
  MatDestroy(&d);
  return nd / nb;
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

/// The largest difference of sensor `name` between two runs of the same rows.
double largest_difference(const testing::CaseRun& a, const testing::CaseRun& b, const std::string& name) {
  const std::size_t i = testing::sensor_index(a.model, name);
  double d = 0.0;
  for (std::size_t k = 0; k < a.rec.rows.size(); ++k)
    d = std::max(d, std::abs(a.rec.rows[k].sensors[i] - b.rec.rows[k].sensors[i]));
  return d;
}

TEST(CaseFlexibleArmPd, ControllerReadingSensorsEqualsTheLawOfTheJointsCoordinate) {
  // The hub turns about the joint's axis from 0: the joint's angle sensor is e, the hub node's
  // rotation sensor's z is e too, and its angular velocity's z is e_rate. The laws of the sensors
  // have the same exact derivatives (through the sensors, by the hub node's unknowns), so the same
  // linearized matrices and pairs; in time the sensors read the step's mean angular velocity b/h
  // where e_rate is Δe/h (b = 2 tan(Δe/2)), which differ by Δe³/(12 h), below 1e-9 rad/s here.
  const ClosedLoop coordinate = closed_loop(10);
  std::vector<std::string> short_run{"n=10", "analysis.t_end=0.5"};
  const testing::CaseRun by_coordinate = testing::run_case("flexible-arm-pd", short_run);
  for (const std::vector<std::string>& law : kOnSensors) {
    const ClosedLoop sensors = closed_loop(10, law);
    EXPECT_LT(relative_difference(sensors.analysis->stiffness(), coordinate.analysis->stiffness()), 1e-11) << law[0];
    EXPECT_LT(relative_difference(sensors.analysis->damping(), coordinate.analysis->damping()), 1e-14) << law[0];
    const solvers::EigenResult a = sensors.analysis->modes(), b = coordinate.analysis->modes();
    ASSERT_EQ(a.modes.size(), b.modes.size());
    for (std::size_t k = 0; k < a.modes.size(); ++k)
      EXPECT_LT(std::abs(a.modes[k].s / b.modes[k].s - 1.0), 1e-6) << law[0] << ", pair " << k;
    std::vector<std::string> with_law = short_run;
    with_law.insert(with_law.end(), law.begin(), law.end());
    const testing::CaseRun by_sensors = testing::run_case("flexible-arm-pd", with_law);
    ASSERT_EQ(by_sensors.rec.rows.size(), by_coordinate.rec.rows.size());
    EXPECT_LT(largest_difference(by_sensors, by_coordinate, "hub_angle"), 1e-8 * 0.1) << law[0];  // of theta_ref
    EXPECT_LT(largest_difference(by_sensors, by_coordinate, "hub_torque"), 1e-8 * 1.0) << law[0];  // of Kp theta_ref
    EXPECT_LT(by_sensors.rec.max_balance_drift(), 1e-9) << law[0];
  }
}

TEST(CaseFlexibleArmPd, ControllerAsALawOfTheMotionEqualsTheConstantCoefficientLaw) {
  // The law's exact derivatives are the linearized problem's stiffness Kp and damping Kd: the
  // same matrices (about equilibria that agree to Newton's tolerance), the same pairs (to the
  // eigensolver's convergence).
  const ClosedLoop law = closed_loop(10);
  const ClosedLoop constant = closed_loop(10, kConstantCoefficients);
  EXPECT_LT(relative_difference(law.analysis->stiffness(), constant.analysis->stiffness()), 1e-11);
  EXPECT_LT(relative_difference(law.analysis->damping(), constant.analysis->damping()), 1e-14);
  const solvers::EigenResult law_modes = law.analysis->modes();
  const solvers::EigenResult constant_modes = constant.analysis->modes();
  ASSERT_EQ(law_modes.modes.size(), constant_modes.modes.size());
  for (std::size_t k = 0; k < law_modes.modes.size(); ++k)
    EXPECT_LT(std::abs(law_modes.modes[k].s / constant_modes.modes[k].s - 1.0), 1e-6) << "pair " << k;
  // The time runs agree to Newton's tolerance (the law's step average of a linear law is its
  // midpoint value, summed in another order).
  std::vector<std::string> short_run{"n=10", "analysis.t_end=0.5"};
  const testing::CaseRun a = testing::run_case("flexible-arm-pd", short_run);
  short_run.insert(short_run.end(), kConstantCoefficients.begin(), kConstantCoefficients.end());
  const testing::CaseRun b = testing::run_case("flexible-arm-pd", short_run);
  ASSERT_EQ(a.rec.rows.size(), b.rec.rows.size());
  EXPECT_LT(largest_difference(a, b, "hub_angle"), 1e-9 * 0.1);  // of theta_ref
  EXPECT_LT(largest_difference(a, b, "hub_torque"), 1e-9 * 1.0);  // of Kp theta_ref [N m]
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
