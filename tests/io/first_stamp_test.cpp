// `catena check` refuses what the first Newton iterate of `catena run` would meet, and nothing
// else (fem/start_stamp.hpp): a law of a joint's rate with a kink at rest, Coulomb friction, is
// stamped at the first step's predictor (Δx = h v0, b = h ω0), so that a hinge that starts turning
// is valid and runs, and one that starts at rest, whose every step cut starts on the kink again, is
// refused by both at the law's place.
#include "support/csv_table.hpp"
#include "support/test_files.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

namespace fs = std::filesystem;
using catena::testing::CliResult;
using catena::testing::run_cli;
using catena::testing::ScratchDirectory;

constexpr double omega0 = 2.0;                   // initial angular velocity about the hinge [rad/s]
constexpr double friction = 0.5, damping = 0.1;  // Fc [N m], c [N m s]
constexpr double inertia = 0.1 + 1.0 * 1.0;      // about the hinge: I_zz + m r² [kg m²]

/// A rigid body on a revolute joint about z at 1 m from its axis, under Coulomb friction and a
/// viscous damper in the hinge, turning at `omega` rad/s at t = 0 (its velocity consistent).
fs::path coulomb_hinge(const fs::path& file, double omega) {
  const std::string w = std::to_string(omega);
  std::ofstream(file) << "name: coulomb-hinge\n"
                         "parameters: {Fc: " + std::to_string(friction) + ", c: " + std::to_string(damping) + "}\n"
                         "nodes: [{name: arm, position: [1, 0, 0], velocity: [0, " + w +
                             ", 0], angular_velocity: [0, 0, " + w + "]}]\n"
                         "rigid_bodies: [{name: body, node: arm, mass: 1, inertia: [0.1, 0.1, 0.1]}]\n"
                         "joints:\n"
                         "  - {name: hub, kind: revolute, node: arm, at: [0, 0, 0],\n"
                         "     laws: {rz: {force: \"-Fc*sign(e_rate) - c*e_rate\"}}}\n"
                         "sensors: [{name: w, node: arm, quantity: angular_velocity, component: z}]\n"
                         "analysis: {dt: 0.01, t_end: 0.5}\n";
  return file;
}

TEST(FirstStamp, ACoulombHingeThatStartsTurningIsValidAndRuns) {
  const ScratchDirectory dir;
  const fs::path model = coulomb_hinge(dir.path() / "turning.yaml", omega0);
  const CliResult check = run_cli({"check", model.string()});
  EXPECT_EQ(check.code, 0) << check.output;
  EXPECT_NE(check.output.find("is valid"), std::string::npos) << check.output;
  const fs::path out = dir.path() / "out";
  const CliResult run = run_cli({"run", model.string(), "--out", out.string(), "--quiet"});
  ASSERT_EQ(run.code, 0) << run.output;
  // I ω' = −Fc − c ω while ω > 0: ω(t) = (ω0 + Fc/c) e^(−c t/I) − Fc/c; the midpoint rule's
  // error at h = 0.01 is ~4e-5 rad/s. A sign taken wrongly, or the friction left out, is off by
  // 0.1 rad/s or more.
  const auto rows = catena::testing::read_csv(out / "sensors.csv");
  const std::vector<double> t = catena::testing::csv_column(rows, "t");
  const std::vector<double> w = catena::testing::csv_column(rows, "w");
  ASSERT_FALSE(t.empty());
  EXPECT_DOUBLE_EQ(t.back(), 0.5);
  const double exact = (omega0 + friction / damping) * std::exp(-damping * t.back() / inertia) - friction / damping;
  EXPECT_NEAR(w.back(), exact, 2e-4);
}

TEST(FirstStamp, ACoulombHingeAtRestIsRefusedByCheckAndRunAtTheLawsPlace) {
  // At rest the first iterate sits on the kink, and so does every cut step's (Δx = h v0 = 0): the
  // run could only fail; both refuse it as bad input, naming the joint and the law.
  const ScratchDirectory dir;
  const fs::path model = coulomb_hinge(dir.path() / "rest.yaml", 0.0);
  const std::string expected = model.string() + ":6: joint element 'hub': " + model.string() +
                               ":7:25: joints[0].laws.rz.force: the law '-Fc*sign(e_rate) - c*e_rate' has no "
                               "derivative at e_rate = 0";
  for (const char* command : {"check", "run"}) {
    const CliResult r = run_cli({command, model.string(), "--out", (dir.path() / "out").string()});
    EXPECT_EQ(r.code, 2) << command << ": " << r.output;
    EXPECT_EQ(r.output.rfind(expected, 0), 0U) << command << ": " << r.output;
    EXPECT_FALSE(fs::exists(dir.path() / "out")) << command;
  }
}

}  // namespace
