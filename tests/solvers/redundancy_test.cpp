// Redundant constraints (solvers/redundancy.hpp): a planar four-bar of rigid links with four
// revolute joints, run in 3D, is over-constrained three times; the run is refused at t = 0 with
// the undetermined reactions named, in a dynamic and in a static analysis. The same linkage with
// `planar: xy` runs and keeps its energy. A mechanism (a pendulum) whose static tangent is
// singular is not called over-constrained.
#include "support/four_bar_model.hpp"
#include "support/test_files.hpp"
#include "assembly/tableau.hpp"
#include "io/model_reader.hpp"
#include "solvers/committed_state.hpp"
#include "solvers/newton.hpp"
#include "solvers/static_equilibrium.hpp"
#include "solvers/time_integrator.hpp"
#include "support/recording_observer.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

namespace catena {
namespace {

const std::string four_bar = testing::four_bar_model("", "", "", "gravity: [-3, -9.81, 0]\n");

fem::Model read(const std::string& text) {
  return io::read_model(testing::write_temp("catena_redundancy", "model.yaml", text));
}

/// Runs `text` and expects it refused at t = 0 for the four-bar's three redundant reactions.
void expect_refused_as_over_constrained(const std::string& text) {
  fem::Model model = read(text);
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
    // With the lines the model file writes the joints on (A to D: lines 12 to 15).
    EXPECT_TRUE(std::regex_search(what, std::regex("joint '[A-D]' at \\S*\\.yaml:1[1-5]"))) << what;
  }
}

TEST(Redundancy, OverConstrainedFourBarIsRefusedNamingTheReactions) { expect_refused_as_over_constrained(four_bar); }

TEST(Redundancy, OverConstrainedFourBarIsRefusedInAStaticAnalysisToo) {
  std::string static_four_bar = four_bar;
  const std::string dynamic = "analysis: {dt: 0.01, t_end: 1}";
  static_four_bar.replace(static_four_bar.find(dynamic), dynamic.size(), "analysis: {type: static, dt: 0.5, t_end: 1}");
  expect_refused_as_over_constrained(static_four_bar);
}

TEST(Redundancy, APendulumIsAMechanismNotAnOverConstrainedLoop) {
  // Its static tangent is singular at the start (no multiplier yet carries its weight), but every
  // constraint is independent: the rank test must find nothing, in a static analysis as in a
  // dynamic one.
  for (const char* type : {"static", "dynamic"}) {
    fem::Model model = read(std::string(R"yaml(name: pendulum
nodes:
  - {name: bob, position: [0.75, 0, 0]}
rigid_bodies:
  - {node: bob, mass: 1.7595, inertia: [0.0001, 0.33, 0.33]}
joints:
  - {name: pin, kind: revolute, node: bob, at: [0, 0, 0], axis: [0, 1, 0]}
gravity: [0, 0, -9.81]
analysis: {type: )yaml") + type + ", dt: 0.1, t_end: 1}\n");
    assembly::Tableau tableau(model, PETSC_COMM_WORLD);
    solvers::RunCounters counters;
    solvers::Newton newton(tableau, model.length_scale, solvers::newton_settings(model.analysis), counters);
    solvers::CommittedState state(model, tableau);
    solvers::StaticEquilibrium equilibrium(model, tableau, newton, state, counters);
    const assembly::VecHandle u = tableau.create_vector();
    EXPECT_NO_THROW(equilibrium.check_redundancy(u)) << type;
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
