// The initial equilibrium of a mechanism on joints (solvers/pseudo_transient.hpp): a pendulum
// on a revolute joint, started off the vertical, hangs straight down at t = 0 with the joint
// carrying its weight, and stays there.
#include "support/test_files.hpp"
#include "assembly/tableau.hpp"
#include "io/model_reader.hpp"
#include "solvers/time_integrator.hpp"
#include "support/recording_observer.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

namespace catena {
namespace {

TEST(JointEquilibrium, PendulumStartedOffTheVerticalHangsStraightDown) {
  const auto file = testing::write_temp("catena_joint_equilibrium", "model.yaml", R"yaml(name: pendulum
nodes: [{name: bob, position: [0.3, 0, -1]}]
rigid_bodies: [{node: bob, mass: 2, inertia: [0.01, 0.01, 0.01]}]
joints: [{name: pivot, kind: revolute, node: bob, at: [0, 0, 0], axis: [0, 1, 0]}]
gravity: [0, 0, -9.81]
analysis: {dt: 0.01, t_end: 0.5, initial_equilibrium: true}
sensors:
  - {name: x, node: bob, quantity: position, component: x}
  - {name: z, node: bob, quantity: position, component: z}
  - {name: tension, element: pivot, quantity: reaction_force_norm}
)yaml");
  fem::Model model = io::read_model(file);
  assembly::Tableau tableau(model, PETSC_COMM_WORLD);
  solvers::TimeIntegrator integrator(model, tableau);
  testing::RecordingObserver rec;
  static_cast<void>(integrator.run(rec));
  const double l = std::hypot(0.3, 1.0);
  for (const auto& r : rec.rows) {
    EXPECT_NEAR(r.sensors[0], 0.0, 1e-10) << "t = " << r.t;
    EXPECT_NEAR(r.sensors[1], -l, 1e-10) << "t = " << r.t;
    EXPECT_NEAR(r.sensors[2], 2 * 9.81, 1e-8) << "t = " << r.t;
  }
}

}  // namespace
}  // namespace catena
