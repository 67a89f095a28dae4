// Static equilibria of closed-loop mechanisms (static analyses of models with joints, solved by
// Newton or, when it fails, by pseudo-transient continuation: solvers/pseudo_transient.hpp):
// fourbar-statics and luffing-crane, each model file run in-process and checked against the references and
// tolerances of its reference.yaml (the minimum of the potential energy over the mechanism's one
// degree of freedom, computed by the case's reference.py).
#include "support/case_reference.hpp"
#include "support/case_runner.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

namespace catena {
namespace {

using testing::CaseReference;
using testing::CaseRun;
using testing::run_case;
using testing::final_value;
using testing::sensor_index;

constexpr double degrees = 180.0 / std::numbers::pi;

/// |value − reference| within `tolerance` relative to the reference.
void expect_relative(double value, double reference, double tolerance, const std::string& what) {
  EXPECT_NEAR(value, reference, tolerance * std::abs(reference)) << what;
}

/// The overrides that turn a case into a dynamic run of 0.5 s from its static equilibrium at t = 0
/// (analysis.initial_equilibrium): the mechanism stays at rest there.
const std::vector<std::string> at_rest{"analysis.type=dynamic", "analysis.initial_equilibrium=true", "analysis.dt=0.01",
                                       "analysis.t_end=0.5"};

/// Largest change of a sensor over the run.
double largest_change(const CaseRun& c, const std::string& sensor) {
  const std::size_t i = sensor_index(c.model, sensor);
  double d = 0.0;
  for (const auto& r : c.rec.rows) d = std::max(d, std::abs(r.sensors[i] - c.rec.rows.front().sensors[i]));
  return d;
}

// ---------------------------------------------------------------------------------------------
// fourbar-statics: a four-bar of steel bars with a counterweight and a torsion spring, at rest
// under gravity; the crank angle, the rocker's and the spring's, and the spring's moment.

TEST(CaseFourbarStatics, EquilibriumIsTheMinimumOfThePotentialEnergy) {
  const CaseReference ref("fourbar-statics");
  const double tol = ref.number("tolerance");
  const CaseRun c = run_case("fourbar-statics");
  ASSERT_NEAR(c.rec.rows.back().t, 1.0, 1e-12);
  EXPECT_EQ(c.stats.cut_steps, 0);
  expect_relative(ref.number("start/theta_deg") + degrees * final_value(c, "crank_turn"), ref.number("theta_deg"), tol,
                  "crank angle");
  expect_relative(degrees * std::atan2(final_value(c, "crank_y"), final_value(c, "crank_x")), ref.number("theta_deg"),
                  tol, "crank angle from the crank's centre");
  expect_relative(ref.number("start/phi_deg") + degrees * final_value(c, "rocker_turn"), ref.number("phi_deg"), tol,
                  "rocker angle");
  expect_relative(ref.number("start/psi_deg") - ref.number("start/theta_deg") + degrees * final_value(c, "spring_turn"),
                  ref.number("beta_deg"), tol, "spring angle");
  expect_relative(final_value(c, "spring_moment"), ref.number("spring_moment"), tol, "spring moment");
  expect_relative(final_value(c, "A_fy") + final_value(c, "D_fy"), ref.number("total_weight"), tol,
                  "vertical reactions");
}

TEST(CaseFourbarStatics, StartFarOffReachesTheSameEquilibrium) {
  // 153.7 degrees off, Newton alone fails and pseudo-transient continuation takes over.
  const CaseReference ref("fourbar-statics");
  const double start = ref.number("far_start_deg");
  const CaseRun c = run_case("fourbar-statics", {"th0=" + std::to_string(start) + "*pi/180"});
  ASSERT_NEAR(c.rec.rows.back().t, 1.0, 1e-12);
  EXPECT_GT(c.stats.equilibrium_iterations, 0);
  expect_relative(start + degrees * final_value(c, "crank_turn"), ref.number("theta_deg"), ref.number("tolerance"),
                  "crank angle");
  expect_relative(degrees * std::atan2(final_value(c, "crank_y"), final_value(c, "crank_x")), ref.number("theta_deg"),
                  ref.number("tolerance"), "crank angle from the crank's centre");
}

TEST(CaseFourbarStatics, DynamicRunFromTheInitialEquilibriumStaysThere) {
  const CaseReference ref("fourbar-statics");
  const CaseRun c = run_case("fourbar-statics", at_rest);
  ASSERT_NEAR(c.rec.rows.back().t, 0.5, 1e-12);
  EXPECT_GT(c.stats.equilibrium_iterations, 0);
  expect_relative(ref.number("start/theta_deg") + degrees * c.rec.rows.front().sensors[sensor_index(c.model, "crank_turn")],
                  ref.number("theta_deg"), ref.number("tolerance"), "crank angle at t = 0");
  EXPECT_LT(largest_change(c, "crank_turn"), 1e-12);
}

// ---------------------------------------------------------------------------------------------
// luffing-crane: a boom with a load at its tip held by a hydraulic cylinder (barrel and rod on a
// prismatic joint with a spring on the cylinder's length); the boom's elevation and the
// cylinder's force.

/// The cylinder's force k (L − L_rest), tension positive: minus the prismatic joint's reaction
/// on the rod along the axis.
double cylinder_force(const CaseRun& c) { return -final_value(c, "cylinder_push"); }

TEST(CaseLuffingCrane, EquilibriumIsTheMinimumOfThePotentialEnergy) {
  const CaseReference ref("luffing-crane");
  const double tol = ref.number("tolerance");
  const CaseRun c = run_case("luffing-crane");
  ASSERT_NEAR(c.rec.rows.back().t, 1.0, 1e-12);
  EXPECT_EQ(c.stats.cut_steps, 0);
  expect_relative(degrees * final_value(c, "boom_angle"), ref.number("theta_deg"), tol, "boom elevation");
  expect_relative(degrees * std::asin((final_value(c, "tip_z") - ref.number("model/hH")) / ref.number("model/lB")),
                  ref.number("theta_deg"), tol, "boom elevation from the tip's height");
  expect_relative(cylinder_force(c), ref.number("cylinder_force"), tol, "cylinder force (reaction)");
  expect_relative(ref.number("model/k") *
                      (ref.number("start/length") + final_value(c, "extension") - ref.number("model/L_rest")),
                  ref.number("cylinder_force"), tol, "cylinder force (slide)");
  expect_relative(final_value(c, "hinge_up") + final_value(c, "foot_fy") * ref.number("start/ux") +
                      final_value(c, "foot_fz") * ref.number("start/uz"),
                  ref.number("total_weight"), tol, "vertical reactions");
  for (const char* sensor : {"rod_y", "foot_tilt", "foot_twist"})
    EXPECT_LE(std::abs(final_value(c, sensor)), ref.number("plane_tolerance")) << sensor;
}

TEST(CaseLuffingCrane, RaisedStartReachesTheSameEquilibrium) {
  // The boom 40 degrees up: Newton alone fails, pseudo-transient continuation takes over.
  const CaseReference ref("luffing-crane");
  const double start = ref.number("raised_start_deg");
  const CaseRun c = run_case("luffing-crane", {"th0=" + std::to_string(start) + "*pi/180"});
  ASSERT_NEAR(c.rec.rows.back().t, 1.0, 1e-12);
  EXPECT_GT(c.stats.equilibrium_iterations, 0);
  expect_relative(start + degrees * final_value(c, "boom_angle"), ref.number("theta_deg"), ref.number("tolerance"),
                  "boom elevation");
  expect_relative(cylinder_force(c), ref.number("cylinder_force"), ref.number("tolerance"), "cylinder force");
}

TEST(CaseLuffingCrane, FreeSpinOfTheCylinderLeavesTheSameEquilibrium) {
  // A spherical foot instead of the universal joint: barrel and rod may spin about the cylinder's
  // axis without any stiffness; the static tangent is singular in that direction at every state.
  const CaseReference ref("luffing-crane");
  const CaseRun c = run_case("luffing-crane", {"joints.foot.kind=spherical"});
  ASSERT_NEAR(c.rec.rows.back().t, 1.0, 1e-12);
  EXPECT_GT(c.stats.equilibrium_iterations, 0);
  expect_relative(degrees * final_value(c, "boom_angle"), ref.number("theta_deg"), ref.number("tolerance"),
                  "boom elevation");
  expect_relative(cylinder_force(c), ref.number("cylinder_force"), ref.number("tolerance"), "cylinder force");
  EXPECT_LE(std::abs(final_value(c, "foot_twist")), ref.number("plane_tolerance"));  // the spin stays put
}

TEST(CaseLuffingCrane, DynamicRunFromTheInitialEquilibriumStaysThere) {
  const CaseReference ref("luffing-crane");
  const CaseRun c = run_case("luffing-crane", at_rest);
  ASSERT_NEAR(c.rec.rows.back().t, 0.5, 1e-12);
  EXPECT_GT(c.stats.equilibrium_iterations, 0);
  expect_relative(degrees * c.rec.rows.front().sensors[sensor_index(c.model, "boom_angle")], ref.number("theta_deg"),
                  ref.number("tolerance"), "boom elevation at t = 0");
  EXPECT_LT(largest_change(c, "boom_angle"), 1e-12);
  expect_relative(cylinder_force(c), ref.number("cylinder_force"), ref.number("tolerance"), "cylinder force at the end");
}

}  // namespace
}  // namespace catena
