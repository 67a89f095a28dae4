// `planar: xy` (io/model/planar.cpp, apply_planar): a beam model moving in its plane gives the same
// results with the out-of-plane unknowns removed as the full 3D model, and the planar model has
// exactly those unknowns fewer. Loads in the plane are taken, loads that would leave it refused
// (one file per kind in tests/io/bad_input/planar_*).
#include "support/test_files.hpp"
#include "assembly/tableau.hpp"
#include "io/model_reader.hpp"
#include "solvers/time_integrator.hpp"
#include "support/recording_observer.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace catena {
namespace {

// A free-flying bent beam (flying spaghetti, short): force and moment in the plane, then free.
const std::string model_text = R"yaml(name: planar
parameters: {L: 10}
nodes:
  - {name: a, position: [0, 8, 0]}
  - {name: b, position: [6, 0, 0]}
beams:
  - name: beam
    from: a
    to: b
    elements: 6
    section: {EA: 1e4, GAy: 1e4, GAz: 1e4, GJ: 100, EIy: 100, EIz: 100, rhoA: 1, rhoJ: 20, rhoIy: 10, rhoIz: 10}
loads:
  - {node: b, force: ["8*(t<=1)", 0, 0]}
  - {node: b, moment: [0, 0, "80*(t<=1)"]}
analysis: {dt: 0.1, t_end: 3}
)yaml";

struct PlanarRun {
  testing::RecordingObserver rec;
  int unknowns = 0;
};

PlanarRun run_model(const std::string& extra, const std::string& text = model_text) {
  fem::Model model = io::read_model(testing::write_temp("catena_planar", "model.yaml", text + extra));
  PlanarRun r;
  r.unknowns = model.registry.n_free_dofs();
  assembly::Tableau tableau(model, PETSC_COMM_WORLD);
  solvers::TimeIntegrator integrator(model, tableau);
  static_cast<void>(integrator.run(r.rec));
  return r;
}

TEST(Planar, GivesTheResultsOfThe3DModelWithFewerUnknowns) {
  const PlanarRun full = run_model("");
  const PlanarRun planar = run_model("planar: xy\n");
  EXPECT_EQ(full.unknowns, 7 * 6);
  EXPECT_EQ(planar.unknowns, 7 * 3);  // x, y and the rotation about z per node
  ASSERT_EQ(full.rec.rows.size(), planar.rec.rows.size());
  double worst = 0.0, out_of_plane = 0.0, moved = 0.0;
  for (std::size_t k = 0; k < full.rec.rows.size(); ++k) {
    const auto& f = full.rec.rows[k].states;
    const auto& p = planar.rec.rows[k].states;
    for (std::size_t n = 0; n < f.size(); ++n) {
      worst = std::max(worst, (f[n].position - p[n].position).norm());
      worst = std::max(worst, (f[n].orientation.coeffs() - p[n].orientation.coeffs()).norm());
      out_of_plane = std::max(out_of_plane, std::abs(f[n].position.z()));
      moved = std::max(moved, (f[n].position - f.front().position).norm());
    }
  }
  EXPECT_GT(moved, 1.0);
  EXPECT_LT(out_of_plane, 1e-12);  // the 3D model stays in its plane by symmetry...
  EXPECT_LT(worst, 1e-9);          // ...and the planar one follows it to the Newton tolerance
}

// A pendulum on a hinge whose axis is the plane's normal: the joint's out-of-plane components are
// freed by `planar` (they would repeat the plane's constraints and make the matrix singular).
const std::string pendulum_text = R"yaml(name: pendulum
gravity: [0, 0, -9.81]
nodes:
  - {name: bob, position: [1.5, 0, 0]}
rigid_bodies:
  - {name: body, node: bob, mass: 2, inertia: [1e-3, 1e-3, 1e-3], offset: [0.1, 0, 0.05]}
joints:
  - {name: pin, kind: revolute, node: bob, at: [0, 0, 0], axis: [0, 1, 0]}
analysis: {dt: 0.01, t_end: 2}
)yaml";

TEST(Planar, HingedPendulumGivesTheResultsOfThe3DModel) {
  const PlanarRun full = run_model("", pendulum_text);
  const PlanarRun planar = run_model("planar: zx\n", pendulum_text);
  // The node's translation along y and rotations about x and z, and the hinge's three multipliers
  // of those directions.
  EXPECT_EQ(full.unknowns - planar.unknowns, 6);
  double worst = 0.0;
  for (std::size_t k = 0; k < full.rec.rows.size(); ++k)
    worst = std::max(worst, (full.rec.rows[k].states[0].position - planar.rec.rows[k].states[0].position).norm());
  EXPECT_GT((full.rec.rows.back().states[0].position - full.rec.rows.front().states[0].position).norm(), 1.0);
  EXPECT_LT(worst, 1e-9);
  EXPECT_LT(planar.rec.max_balance_drift(), 1e-9 * 2 * 9.81 * 1.5);
}

// A node turned by 45° about x: a follower force's components in its axes are in the plane when
// local y and z cancel along global z, and out of it otherwise.
std::string tilted_node_model(const std::string& follower) {
  return R"yaml(name: in-plane
parameters: {q: 2}
gravity: [0, -9.81, "0*q"]
nodes:
  - {name: a, position: [0, 0, 0]}
  - {name: b, position: [1, 0, 0], orientation: ["pi/4", 0, 0]}
supports: [{node: a, dofs: all}]
beams:
  - {name: arm, from: a, to: b, elements: 2, section: {EA: 1e7, GJ: 1e3, EIy: 1e3, EIz: 1e3}}
loads:
  - {node: b, force: [1, "sin(t)", 0]}
  - {node: b, moment: [0, 0, "2*t"], semitangential: true}
  - {node: b, force: )yaml" + follower + R"yaml(, follower: true}
beam_loads:
  - {beam: arm, force: [0, "-q", 0]}
planar: xy
analysis: {type: static, dt: 0.5, t_end: 1}
)yaml";
}

std::string read_error(const std::string& text) {
  try {
    static_cast<void>(io::read_model(testing::write_temp("catena_planar_loads", "model.yaml", text)));
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

TEST(Planar, TakesLoadsInItsPlaneAndRefusesAFollowerLoadTurnedOutOfIt) {
  // Local y - local z lies along global y: in the plane, to round-off.
  EXPECT_EQ(read_error(tilted_node_model("[1, 1, -1]")), "");
  // Local y + local z lies along global z.
  const std::string out = read_error(tilted_node_model("[0, 1, 1]"));
  EXPECT_NE(out.find("model.yaml:13:22: loads[2].force: a planar xy model holds every node in that plane: a follower "
                     "force along z would do nothing (the plane's constraint takes it); expected components that give "
                     "none (global z is [0, 0.707107, 0.707107] in the node's axes at t = 0); found a component of "
                     "1.41421"),
            std::string::npos)
      << out;
  EXPECT_NE(read_error(tilted_node_model("[0, t, t]")).find("; found functions of t"), std::string::npos);
}

}  // namespace
}  // namespace catena
