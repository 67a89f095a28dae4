// The stability of a mechanism's static equilibrium and the directions it leaves free
// (solvers/equilibrium_stability.hpp), against closed forms: a pendulum hanging down is stable
// and one balanced upright unstable, the lowest eigenvalue of their constrained stiffness being
// ±m g a / (a² + L²) (a = L = 0.75 m: the centre's distance from the hinge and the model's size);
// a bar hanging from a spherical joint leaves its spin about its own (vertical) axis free.
#include "support/test_files.hpp"
#include "assembly/tableau.hpp"
#include "io/model_reader.hpp"
#include "solvers/time_integrator.hpp"
#include "support/recording_observer.hpp"

#include <gtest/gtest.h>

#include <string>

namespace catena {
namespace {

/// A static analysis of a 1.5 m link of 1.7595 kg hinged at the origin by `joint`, its centre
/// at `centre`.
solvers::RunStatistics run_link(const std::string& centre, const std::string& joint) {
  fem::Model model = io::read_model(testing::write_temp(
      "catena_stability", "model.yaml",
      "name: link\nnodes:\n  - {name: bar, position: " + centre +
          "}\nrigid_bodies:\n  - {node: bar, mass: 1.7595, inertia: [0.0001, 0.3299, 0.3299]}\n"
          "joints:\n  - {name: pin, node: bar, at: [0, 0, 0], " +
          joint + "}\ngravity: [0, 0, -9.81]\nanalysis: {type: static, dt: 1, t_end: 1}\n"));
  assembly::Tableau tableau(model, PETSC_COMM_WORLD);
  solvers::TimeIntegrator integrator(model, tableau);
  testing::RecordingObserver rec;
  return integrator.run(rec);
}

constexpr double m = 1.7595, g = 9.81, a = 0.75;
constexpr double hanging_eigenvalue = m * g * a / (a * a + a * a);  // [N/m]

TEST(EquilibriumStability, APendulumHangingDownIsStable) {
  const solvers::RunStatistics s = run_link("[0.75, 0, 0]", "kind: revolute, axis: [0, 1, 0]");
  EXPECT_EQ(s.equilibrium_stability, "stable");
  EXPECT_NEAR(s.equilibrium_lowest_eigenvalue, hanging_eigenvalue, 1e-9 * hanging_eigenvalue);
  EXPECT_EQ(s.free_directions, "");
}

TEST(EquilibriumStability, APendulumBalancedUprightIsFlaggedUnstable) {
  const solvers::RunStatistics s = run_link("[0, 0, 0.75]", "kind: revolute, axis: [0, 1, 0]");
  EXPECT_EQ(s.equilibrium_stability, "unstable");
  EXPECT_NEAR(s.equilibrium_lowest_eigenvalue, -hanging_eigenvalue, 1e-9 * hanging_eigenvalue);
}

TEST(EquilibriumStability, ABarOnASphericalJointLeavesItsSpinFree) {
  const solvers::RunStatistics s = run_link("[0.3, 0, -0.6873864]", "kind: spherical");
  EXPECT_EQ(s.equilibrium_stability, "stable");
  EXPECT_EQ(s.free_directions, "node 'bar' rotation about z");
}

}  // namespace
}  // namespace catena
