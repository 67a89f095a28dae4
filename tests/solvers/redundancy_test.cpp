// Redundant constraints (solvers/redundancy.hpp): a planar four-bar of rigid links with four
// revolute joints, run in 3D, is over-constrained three times; the run is refused at t = 0 with
// the undetermined reactions named. The same linkage with `planar: xy` runs and keeps its energy.
#include "support/test_files.hpp"
#include "assembly/tableau.hpp"
#include "io/model_reader.hpp"
#include "solvers/time_integrator.hpp"
#include "support/recording_observer.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace catena {
namespace {

const std::string four_bar = R"yaml(name: four-bar
gravity: [-3, -9.81, 0]
nodes:
  - {name: crank, position: [0, 0.5, 0]}
  - {name: coupler, position: [1, 1, 0]}
  - {name: rocker, position: [2, 0.5, 0]}
rigid_bodies:
  - {name: b1, node: crank, mass: 1, inertia: [0.08, 0.001, 0.08]}
  - {name: b2, node: coupler, mass: 2, inertia: [0.001, 0.6, 0.6]}
  - {name: b3, node: rocker, mass: 1, inertia: [0.08, 0.001, 0.08]}
joints:
  - {name: A, kind: revolute, node: crank, at: [0, 0, 0]}
  - {name: B, kind: revolute, nodes: [crank, coupler], at: [0, 1, 0]}
  - {name: C, kind: revolute, nodes: [coupler, rocker], at: [2, 1, 0]}
  - {name: D, kind: revolute, node: rocker, at: [2, 0, 0]}
analysis: {dt: 0.01, t_end: 1}
)yaml";

fem::Model read(const std::string& text) {
  return io::read_model(testing::write_temp("catena_redundancy", "model.yaml", text));
}

TEST(Redundancy, OverConstrainedFourBarIsRefusedNamingTheReactions) {
  fem::Model model = read(four_bar);
  assembly::Tableau tableau(model, PETSC_COMM_WORLD);
  solvers::TimeIntegrator integrator(model, tableau);
  testing::RecordingObserver rec;
  try {
    static_cast<void>(integrator.run(rec));
    FAIL() << "an over-constrained four-bar ran";
  } catch (const solvers::SolverFailure& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("3 unknown(s) cannot be determined"), std::string::npos) << what;
    // Only out-of-plane reactions (force z, moments x and y) of the loop's joints are redundant.
    for (const char* in_plane : {"reaction x", "reaction y", "reaction rz"}) EXPECT_EQ(what.find(in_plane), std::string::npos) << what;
    EXPECT_NE(what.find("joint '"), std::string::npos) << what;
  }
}

TEST(Redundancy, PlanarFourBarRunsAndKeepsItsEnergy) {
  fem::Model model = read(four_bar + "planar: xy\n");
  assembly::Tableau tableau(model, PETSC_COMM_WORLD);
  solvers::TimeIntegrator integrator(model, tableau);
  testing::RecordingObserver rec;
  static_cast<void>(integrator.run(rec));
  EXPECT_NEAR(rec.rows.back().t, 1.0, 1e-12);
  EXPECT_GT(rec.rows.back().energy.state.kinetic, 1.0);  // it moves
  EXPECT_LT(rec.max_balance_drift(), 1e-9 * 4 * 9.81);
}

}  // namespace
}  // namespace catena
