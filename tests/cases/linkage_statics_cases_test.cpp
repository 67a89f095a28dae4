// Static equilibria of closed-loop mechanisms (static analyses of models with joints, solved by
// Newton or, when it fails, by pseudo-transient continuation: solvers/pseudo_transient.hpp):
// fourbar-statics, each model file run in-process and checked against the references and
// tolerances of its reference.yaml (the minimum of the potential energy over the mechanism's one
// degree of freedom, computed by the case's reference.py).
#include "support/case_reference.hpp"
#include "support/case_runner.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

namespace catena {
namespace {

using testing::CaseReference;
using testing::CaseRun;
using testing::run_case;
using testing::sensor_index;

constexpr double degrees = 180.0 / std::numbers::pi;

/// A sensor at the end of the run (a static run of one increment: its equilibrium).
double final_value(const CaseRun& c, const std::string& sensor) {
  return c.rec.rows.back().sensors[sensor_index(c.model, sensor)];
}

/// |value − reference| within `tolerance` relative to the reference.
void expect_relative(double value, double reference, double tolerance, const std::string& what) {
  EXPECT_NEAR(value, reference, tolerance * std::abs(reference)) << what;
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

}  // namespace
}  // namespace catena
