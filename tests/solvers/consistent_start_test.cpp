// Consistent initial velocities (solvers/consistent_start.hpp), against closed forms: a
// parallelogram four-bar whose crank alone is given a speed (by its drive) starts with the
// coupler translating and the rocker turning at the crank's rate, every velocity constraint met
// to round-off; a pendulum given a velocity with a radial part keeps the velocity of least
// kinetic-energy change that turns about its hinge; contradictory drives are refused. Reactions
// at t = 0 (TimeIntegrator::start_reactions): a uniform bar released horizontal from its hinge
// pushes on it with m g / 4 at that instant; with `output.reactions: instantaneous` it pushes at
// every row with the closed-form force of the swinging bar at the row's angle.
#include "support/four_bar_model.hpp"
#include "support/test_files.hpp"
#include "assembly/tableau.hpp"
#include "io/model_reader.hpp"
#include "solvers/committed_state.hpp"
#include "solvers/solver_failure.hpp"
#include "solvers/consistent_start.hpp"
#include "solvers/time_integrator.hpp"
#include "support/case_runner.hpp"
#include "support/recording_observer.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <string>

namespace catena {
namespace {

/// Reads `text`, projects its initial velocities, returns the report and the states.
struct Projected {
  solvers::VelocityProjectionReport report;
  std::vector<fem::NodeState> states;
};

Projected project(const std::string& text) {
  fem::Model model = io::read_model(testing::write_temp("catena_projection", "model.yaml", text));
  assembly::Tableau tableau(model, PETSC_COMM_WORLD);
  solvers::CommittedState state(model, tableau);
  Projected p;
  p.report = solvers::project_velocities(model, tableau, state, 0.0);
  p.states.assign(state.states().begin(), state.states().end());
  return p;
}

// The redundancy test's four-bar (A (0,0), B (0,1), C (2,1), D (2,0): a parallelogram), planar,
// its crank driven at omega about z, every body at rest in the model file.
std::string four_bar(const std::string& rocker_law = "") {
  return testing::four_bar_model(", laws: {rz: {rate: 3}}", rocker_law, "planar: xy\n");
}

TEST(VelocityProjection, ADrivenFourBarStartsAtTheCranksSpeed) {
  const double omega = 3.0;
  const Projected p = project(four_bar());
  EXPECT_LT(p.report.largest_violation, 1e-13);
  EXPECT_EQ(p.report.constraints, 9);  // each hinge's x and y in the plane, and A's drive
  // Crank and rocker turn at omega about z; the coupler translates at B's velocity omega × (0, 1).
  const fem::NodeState &crank = p.states[0], &coupler = p.states[1], &rocker = p.states[2];
  EXPECT_NEAR((crank.angular_velocity - fem::Vec3(0, 0, omega)).norm(), 0.0, 1e-13);
  EXPECT_NEAR((rocker.angular_velocity - fem::Vec3(0, 0, omega)).norm(), 0.0, 1e-13);
  EXPECT_NEAR(coupler.angular_velocity.norm(), 0.0, 1e-13);
  EXPECT_NEAR((crank.velocity - fem::Vec3(-0.5 * omega, 0, 0)).norm(), 0.0, 1e-13);
  EXPECT_NEAR((coupler.velocity - fem::Vec3(-omega, 0, 0)).norm(), 0.0, 1e-13);
  EXPECT_NEAR((rocker.velocity - fem::Vec3(-0.5 * omega, 0, 0)).norm(), 0.0, 1e-13);
  // From rest: the largest change is the crank's and rocker's turn rate times the model's size
  // (the diagonal of (0, 0) … (2, 1)).
  EXPECT_NEAR(p.report.largest_change, omega * std::sqrt(5.0), 1e-12);
}

TEST(VelocityProjection, ContradictoryDrivesAreRefused) {
  // The parallelogram's rocker must turn as the crank does: a second drive at twice the rate
  // contradicts the first.
  try {
    static_cast<void>(project(four_bar(", laws: {rz: {rate: 6}}")));
    FAIL() << "contradictory drives were accepted";
  } catch (const solvers::SolverFailure& e) {
    EXPECT_NE(std::string(e.what()).find("contradict"), std::string::npos) << e.what();
    // Each joint involved with the line the model file writes it on (joints A to D).
    EXPECT_TRUE(std::regex_search(e.what(), std::regex("joint '[A-D]' at \\S*\\.yaml:1[1-5]"))) << e.what();
  }
}

TEST(VelocityProjection, APendulumKeepsTheVelocityOfLeastKineticEnergyChange) {
  // Centre 0.75 m from a hinge about y, given v0 = (1, 0, 1) at rest otherwise: the allowed
  // motions turn about the hinge, v = (0, 0, −0.75 ω), ω about y. Least ½ m |v − v0|² + ½ I ω²:
  // ω = −0.75 m / (0.5625 m + I).
  const double m = 2.0, I = 0.3;
  const Projected p = project(R"yaml(name: pendulum
nodes:
  - {name: bob, position: [0.75, 0, 0], velocity: [1, 0, 1]}
rigid_bodies:
  - {name: body, node: bob, mass: 2, inertia: [1e-3, 0.3, 0.3]}
joints:
  - {name: pin, kind: revolute, node: bob, at: [0, 0, 0], axis: [0, 1, 0]}
analysis: {dt: 0.001, t_end: 1}
)yaml");
  const double omega = -0.75 * m / (0.5625 * m + I);
  const fem::NodeState& bob = p.states[0];
  EXPECT_NEAR((bob.angular_velocity - fem::Vec3(0, omega, 0)).norm(), 0.0, 1e-13);
  EXPECT_NEAR((bob.velocity - fem::Vec3(0, 0, -0.75 * omega)).norm(), 0.0, 1e-13);
  EXPECT_LT(p.report.largest_violation, 1e-14);
}

/// A uniform bar of length 1.5 m and mass 2 kg hinged at one end, released at rest and level,
/// swinging for 0.5 s (to about 70°), with its reactions reported as `timing` says.
testing::RecordingObserver swing_of_released_bar(const std::string& timing) {
  std::string text = R"yaml(name: bar
nodes:
  - {name: bar, position: [0.75, 0, 0]}
rigid_bodies:
  - {node: bar, mass: 2, inertia: [0.0001, 0.375, 0.375]}
joints:
  - {name: pin, kind: revolute, node: bar, at: [0, 0, 0], axis: [0, 1, 0]}
gravity: [0, 0, -9.81]
analysis: {dt: 0.002, t_end: 0.5, newton_tolerance: 1e-13}
output: {reactions: )yaml";
  text += timing;
  text += R"yaml(}
sensors:
  - {name: force, element: pin, quantity: reaction_force_norm}
  - {name: x, node: bar, quantity: position, component: x}
  - {name: z, node: bar, quantity: position, component: z}
  - {name: fx, element: pin, quantity: reaction_force_x}
)yaml";
  fem::Model model = io::read_model(testing::write_temp("catena_reaction_timing_" + timing, "model.yaml", text));
  testing::RecordingObserver rec;
  static_cast<void>(testing::run_model(model, rec));
  return rec;
}

TEST(StartReactions, ABarReleasedHorizontalFromItsHingeStartsWithAQuarterOfItsWeight) {
  // At rest and level: α = 3 g / (2 L), its centre accelerates down at α L / 2 = 3 g / 4, so the
  // hinge holds m g / 4 (vertical; no horizontal force at rest). Step-averaged reactions after
  // t = 0 move on from there.
  const double m = 2.0, g = 9.81;
  const testing::RecordingObserver rec = swing_of_released_bar("step_average");
  EXPECT_NEAR(rec.rows[0].sensors[0], m * g / 4, 1e-9 * m * g);
  EXPECT_LT(std::abs(rec.rows[0].sensors[3]), 1e-5 * m * g);  // the extrapolation's O(dt²)
}

TEST(StartReactions, InstantaneousReactionsFollowTheClosedFormOfTheSwingingBarAtEveryRow) {
  // The bar at θ below the horizontal: energy gives ω² = 3 g sin θ / L (the midpoint rule
  // conserves it exactly, so this holds at the computed states), the moment about the hinge
  // α = 3 g cos θ / (2 L); the centre's acceleration then asks the hinge for −(5/2) m g sin θ
  // along the bar and −m g cos θ / 4 across it: |R| = m g √((5/2 sin θ)² + (cos θ / 4)²).
  // Step averages are of t − Δt/2 (an error of Δt/2 · dR/dt, 7e-3 of m g here); the
  // instantaneous reactions' extrapolation leaves O(Δt²) (6e-6 of m g; 0.24 N, O(Δt), before
  // the velocities were projected first). The motion itself is the same, bit for bit: the extra
  // solves leave the committed velocities and Newton's kept Jacobian as they found them.
  const double m = 2.0, g = 9.81;
  const testing::RecordingObserver averaged = swing_of_released_bar("step_average");
  const testing::RecordingObserver instantaneous = swing_of_released_bar("instantaneous");
  ASSERT_EQ(averaged.rows.size(), 251u);
  ASSERT_EQ(instantaneous.rows.size(), averaged.rows.size());
  double error_instantaneous = 0.0, error_averaged = 0.0;
  for (std::size_t k = 0; k < averaged.rows.size(); ++k) {
    const std::vector<double>& s = instantaneous.rows[k].sensors;
    ASSERT_EQ(s[1], averaged.rows[k].sensors[1]) << "row " << k;
    ASSERT_EQ(s[2], averaged.rows[k].sensors[2]) << "row " << k;
    const double theta = std::atan2(-s[2], s[1]);
    const double exact = m * g * std::hypot(2.5 * std::sin(theta), 0.25 * std::cos(theta));
    error_instantaneous = std::max(error_instantaneous, std::abs(s[0] - exact));
    if (k > 0) error_averaged = std::max(error_averaged, std::abs(averaged.rows[k].sensors[0] - exact));
  }
  EXPECT_GT(std::atan2(-instantaneous.rows.back().sensors[2], instantaneous.rows.back().sensors[1]), 1.0);
  EXPECT_LT(error_instantaneous, 2e-5 * m * g);
  EXPECT_GT(error_averaged, 1e-3 * m * g);
}

}  // namespace
}  // namespace catena
