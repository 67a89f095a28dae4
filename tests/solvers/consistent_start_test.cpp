// Consistent initial velocities (solvers/consistent_start.hpp), against closed forms: a
// parallelogram four-bar whose crank alone is given a speed (by its drive) starts with the
// coupler translating and the rocker turning at the crank's rate, every velocity constraint met
// to round-off; a pendulum given a velocity with a radial part keeps the velocity of least
// kinetic-energy change that turns about its hinge; contradictory drives are refused. Reactions
// at t = 0 (TimeIntegrator::start_reactions): a uniform bar released horizontal from its hinge
// pushes on it with m g / 4 at that instant.
#include "support/four_bar_model.hpp"
#include "support/test_files.hpp"
#include "assembly/tableau.hpp"
#include "io/model_reader.hpp"
#include "solvers/committed_state.hpp"
#include "solvers/solver_failure.hpp"
#include "solvers/consistent_start.hpp"
#include "solvers/time_integrator.hpp"
#include "support/recording_observer.hpp"

#include <gtest/gtest.h>

#include <cmath>
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

TEST(StartReactions, ABarReleasedHorizontalFromItsHingeStartsWithAQuarterOfItsWeight) {
  // A uniform bar of length 1.5 m hinged at one end, at rest and level: α = 3 g / (2 L), its
  // centre accelerates down at α L / 2 = 3 g / 4, so the hinge holds m g / 4 (vertical; no
  // horizontal force at rest). Step-averaged reactions after t = 0 move on from there.
  const double m = 2.0, g = 9.81;
  fem::Model model = io::read_model(testing::write_temp("catena_start_reactions", "model.yaml", R"yaml(name: bar
nodes:
  - {name: bar, position: [0.75, 0, 0]}
rigid_bodies:
  - {node: bar, mass: 2, inertia: [0.0001, 0.375, 0.375]}
joints:
  - {name: pin, kind: revolute, node: bar, at: [0, 0, 0], axis: [0, 1, 0]}
gravity: [0, 0, -9.81]
analysis: {dt: 0.001, t_end: 0.002}
sensors:
  - {name: force, element: pin, quantity: reaction_force_norm}
  - {name: fx, element: pin, quantity: reaction_force_x}
)yaml"));
  assembly::Tableau tableau(model, PETSC_COMM_WORLD);
  solvers::TimeIntegrator integrator(model, tableau);
  testing::RecordingObserver rec;
  static_cast<void>(integrator.run(rec));
  ASSERT_GE(rec.rows.size(), 2u);
  EXPECT_NEAR(rec.rows[0].sensors[0], m * g / 4, 1e-9 * m * g);
  EXPECT_LT(std::abs(rec.rows[0].sensors[1]), 1e-5 * m * g);  // the extrapolation's O(dt²)
}

}  // namespace
}  // namespace catena
