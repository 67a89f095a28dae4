// The adjoint gradient of a run's objective (catena run --gradient, solvers/adjoint_gradient.hpp):
//  - its coloured partial matrices ∂(R, A)/∂S and ∂A/∂u equal those of one difference per column
//    over every row (so the pattern the colouring trusts holds: an entry outside it is zero);
//  - its gradient equals the direct method's (solvers/direct_sensitivity.hpp, itself checked
//    against whole runs in tests/io/sensitivity_test.cpp) on a beam, a closed loop of beams and
//    hinges, a rigid body and Hou's rigid slider-crank, and whole-run differences on the last.
#include "io/output_directory.hpp"
#include "io/sensitivity_models.hpp"
#include "solvers/adjoint_gradient.hpp"
#include "solvers/time_integrator.hpp"
#include "support/case_runner.hpp"
#include "support/test_files.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace catena {
namespace {

std::string case_file(const std::string& name) { return std::string(CATENA_SOURCE_DIR) + "/cases/" + name + "/model.yaml"; }

/// The case's model file with `objective` (YAML lines under `analysis:`, indented by four) added,
/// written into `dir`.
std::string with_objective(const std::string& name, const std::string& objective, const testing::ScratchDirectory& dir) {
  std::ifstream in(case_file(name));
  std::ostringstream out;
  std::string line;
  while (std::getline(in, line)) {
    out << line << '\n';
    if (line == "analysis:") out << "  objective:\n" << objective;
  }
  const std::string path = (dir.path() / (name + ".yaml")).string();
  std::ofstream(path) << out.str();
  return path;
}

struct Gradients {
  std::vector<double> direct, adjoint;
};

/// The objective's gradient by both methods, and the adjoint's checks of its own partials at
/// `check_step` (negative: none).
Gradients both_gradients(const std::string& file, const std::vector<std::string>& overrides,
                         const std::vector<std::string>& parameters, long check_step = -1) {
  io::RunOptions options;
  options.model = file;
  options.overrides = overrides;
  options.sensitivity = parameters;
  Gradients g;
  {
    fem::Model model = io::read_model(file, overrides);
    assembly::Tableau tableau(model, PETSC_COMM_WORLD);
    solvers::DirectSensitivity direct(model, tableau, io::read_parameter_models(options, model));
    solvers::TimeIntegrator integrator(model, tableau);
    integrator.set_sensitivity(&direct);
    testing::RecordingObserver rec;
    const solvers::RunStatistics stats = integrator.run(rec);
    g.direct = direct.objective_gradient(stats.t_reached);
  }
  fem::Model model = io::read_model(file, overrides);
  assembly::Tableau tableau(model, PETSC_COMM_WORLD);
  solvers::AdjointGradient adjoint(model, tableau, io::read_parameter_models(options, model, parameters, "--gradient"));
  solvers::TimeIntegrator integrator(model, tableau);
  integrator.set_adjoint(&adjoint);
  testing::RecordingObserver rec;
  const solvers::RunStatistics stats = integrator.run(rec);
  EXPECT_EQ(stats.cut_steps, 0);
  EXPECT_EQ(adjoint.steps_recorded(), static_cast<std::size_t>(stats.steps));
  if (check_step >= 0) {
    // The pattern: coloured columns against one difference per column over every row.
    for (const bool of_state : {true, false}) {
      const auto coloured = adjoint.partial_matrix(static_cast<std::size_t>(check_step), of_state, true);
      const auto dense = adjoint.partial_matrix(static_cast<std::size_t>(check_step), of_state, false);
      const std::size_t n_columns = dense.front().size();
      int nonzero_columns = 0;
      for (std::size_t j = 0; j < n_columns; ++j) {
        double scale = 0.0;
        for (const auto& row : dense) scale = std::max(scale, std::abs(row[j]));
        if (scale > 0.0) ++nonzero_columns;
        int wrong = 0;
        for (std::size_t r = 0; r < dense.size(); ++r)
          if (wrong < 5 && std::abs(coloured[r][j] - dense[r][j]) > 1e-8 * scale + 1e-12) {
            ADD_FAILURE() << (of_state ? "state" : "unknown") << " column " << j << ", row " << r << ": coloured "
                          << coloured[r][j] << ", by itself " << dense[r][j];
            ++wrong;
          }
      }
      EXPECT_GT(nonzero_columns, 0);
    }
    std::printf("[ adjoint  ] %zu state entries in %zu colours, %ld unknowns in %zu colours\n", adjoint.state_size(),
                adjoint.state_colours(), static_cast<long>(tableau.n_global()), adjoint.unknown_colours());
  }
  g.adjoint = adjoint.gradient(integrator.states());
  return g;
}

void expect_same_gradient(const Gradients& g, const std::vector<std::string>& parameters, double relative) {
  ASSERT_EQ(g.direct.size(), parameters.size());
  ASSERT_EQ(g.adjoint.size(), parameters.size());
  double scale = 0.0;
  for (const double d : g.direct) scale = std::max(scale, std::abs(d));
  for (std::size_t j = 0; j < parameters.size(); ++j)
    EXPECT_NEAR(g.adjoint[j], g.direct[j], relative * std::max(std::abs(g.direct[j]), 1e-3 * scale))
        << parameters[j] << ": adjoint " << g.adjoint[j] << ", direct " << g.direct[j];
}

const std::vector<std::string> precise = {"analysis.newton_tolerance=1e-13"};

std::vector<std::string> with(std::vector<std::string> a, const std::string& b) {
  a.push_back(b);
  return a;
}

TEST(AdjointGradient, BeamAgreesWithTheDirectMethod) {
  // A flexible beam spun up by its hub: the tip deflection in the hub frame, integrated, and the
  // hub angle (a joint's history, an element sensor) at the end.
  const testing::ScratchDirectory dir;
  const std::string file =
      with_objective("spin-up-simo", "    integrand: \"tip_deflection^2\"\n    final: \"hub_angle + tip_deflection\"\n", dir);
  const std::vector<std::string> p = {"EI", "rhoA", "EA"};
  expect_same_gradient(both_gradients(file, with(precise, "analysis.t_end=0.5"), p, 2), p, 1e-6);
}

TEST(AdjointGradient, ClosedLoopOfBeamsAndHingesAgreesWithTheDirectMethod) {
  // The flexible four-bar, its start projected onto the joints (the start's derivative enters as
  // μ_0ᵀ dS_0/dp): the out-of-plane motion at C and the rocker's rotation.
  const testing::ScratchDirectory dir;
  const std::string file =
      with_objective("four-bar", "    integrand: \"1e6*uy_C^2 + rotation_D^2\"\n    final: \"uy_C\"\n", dir);
  const std::vector<std::string> p = {"L2", "alpha", "Omega", "EI1", "m1"};
  expect_same_gradient(both_gradients(file, with(precise, "analysis.t_end=0.06"), p, 3), p, 1e-6);
}

TEST(AdjointGradient, RigidBodyAgreesWithTheDirectMethod) {
  // The heavy top on its spherical joint: orientation and spin.
  const testing::ScratchDirectory dir;
  const std::string file = with_objective("heavy-top", "    integrand: \"q1^2 + omega_x\"\n    final: \"q2\"\n", dir);
  const std::vector<std::string> p = {"c", "wy"};
  expect_same_gradient(both_gradients(file, with(precise, "analysis.t_end=0.01"), p, 5), p, 1e-6);
}

TEST(AdjointGradient, HousSliderCrankAgreesWithTheDirectMethodAndWholeRuns) {
  // Hou's tracking functional (cases/slider-crank-design): the torque's coefficients, a length
  // (the start moves with it) and the path's end (in the objective only).
  const std::string file = case_file("slider-crank-design");
  const std::vector<std::string> p = {"a0", "a1", "a2", "l1", "beta"};
  const Gradients g = both_gradients(file, {"analysis.t_end=0.5"}, p, 7);
  expect_same_gradient(g, p, 1e-7);
  // And whole runs: (8 (Ψ(p+h) − Ψ(p−h)) − (Ψ(p+2h) − Ψ(p−2h))) / 12h.
  const auto objective_at = [&](const std::string& parameter, double value) {
    const std::vector<std::string> overrides = {"analysis.t_end=0.5", parameter + "=" + io::format_double(value)};
    fem::Model model = io::read_model(file, overrides);
    assembly::Tableau tableau(model, PETSC_COMM_WORLD);
    solvers::TimeIntegrator integrator(model, tableau);
    testing::RecordingObserver rec;
    return integrator.run(rec).objective.value_or(NAN);
  };
  for (const std::size_t j : {std::size_t{1}, std::size_t{3}}) {
    const double value = 1.0;  // a1 and l1 are both 1 in the case
    const double h = 1e-3;
    const double f[4] = {objective_at(p[j], value - 2 * h), objective_at(p[j], value - h), objective_at(p[j], value + h),
                         objective_at(p[j], value + 2 * h)};
    const double whole_runs = (8.0 * (f[2] - f[1]) - (f[3] - f[0])) / (12.0 * h);
    EXPECT_NEAR(g.adjoint[j], whole_runs, 1e-6 * std::abs(whole_runs)) << p[j];
  }
}

TEST(AdjointGradient, CommandLineWritesTheGradientAndRefusesWhatItCannotDo) {
  const testing::ScratchDirectory dir;
  const std::string model = case_file("slider-crank-design");
  const auto out = [&](const char* name) { return (dir.path() / name).string(); };
  const testing::CliResult adjoint =
      testing::run_cli({"run", model, "--out", out("adjoint"), "--set", "analysis.t_end=0.2", "--gradient", "a0,a1"});
  ASSERT_EQ(adjoint.code, 0) << adjoint.output;
  EXPECT_NE(adjoint.output.find("adjoint: sweeping back over 40 time elements"), std::string::npos) << adjoint.output;
  const testing::CliResult direct =
      testing::run_cli({"run", model, "--out", out("direct"), "--set", "analysis.t_end=0.2", "--sensitivity", "a0,a1"});
  ASSERT_EQ(direct.code, 0) << direct.output;
  // summary.json's objective_gradient, the same numbers to the digits the two methods share.
  const auto gradient = [&](const char* name) {
    std::ifstream in(dir.path() / name / "summary.json");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::size_t at = text.find("\"objective_gradient\"");
    EXPECT_NE(at, std::string::npos) << text;
    std::vector<double> g;
    for (const char* p : {"\"a0\": ", "\"a1\": "}) {
      const std::size_t v = text.find(p, at);
      g.push_back(v == std::string::npos ? NAN : std::stod(text.substr(v + std::string(p).size())));
    }
    return g;
  };
  const std::vector<double> a = gradient("adjoint"), d = gradient("direct");
  for (std::size_t j = 0; j < 2; ++j) EXPECT_NEAR(a[j], d[j], 1e-7 * std::abs(d[j]));
  // Continued from a checkpoint: the time elements before it are replayed from t = 0, and the
  // gradient is the uninterrupted run's, bit for bit.
  const testing::CliResult checkpointed =
      testing::run_cli({"run", model, "--out", out("restart"), "--set", "analysis.t_end=0.2", "--checkpoint-every",
                        "15", "--gradient", "a0,a1"});
  ASSERT_EQ(checkpointed.code, 0) << checkpointed.output;
  const testing::CliResult continued =
      testing::run_cli({"run", model, "--out", out("restart"), "--set", "analysis.t_end=0.2", "--checkpoint-every",
                        "15", "--gradient", "a0,a1", "--restart", out("restart") + "/checkpoint_000015.ckpt"});
  ASSERT_EQ(continued.code, 0) << continued.output;
  EXPECT_EQ(gradient("restart"), a);
  // Refused with exit 2 before anything is written: no objective, both methods at once, a name
  // the model does not declare.
  const struct {
    std::vector<std::string> args;
    std::string message;
  } refused[] = {
      {{"run", case_file("heavy-top"), "--out", out("none"), "--gradient", "c"}, "no analysis.objective"},
      {{"run", model, "--out", out("both"), "--gradient", "a0", "--sensitivity", "a1"}, "one at a time"},
      {{"run", model, "--out", out("name"), "--gradient", "a9"}, "--gradient: 'a9' is not a parameter"},
  };
  for (const auto& r : refused) {
    const testing::CliResult c = testing::run_cli(r.args);
    EXPECT_EQ(c.code, 2) << c.output;
    EXPECT_NE(c.output.find(r.message), std::string::npos) << c.output;
    EXPECT_FALSE(std::filesystem::exists(r.args[3] + "/summary.json")) << r.args[3];
  }
}

}  // namespace
}  // namespace catena
