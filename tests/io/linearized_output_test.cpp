// `catena run` for eigen and buckling analyses: the files users script against (modes.csv, the
// mode series, the Matrix Market export, buckling.csv, the sensitivities, summary.json), read back and checked
// against the physics they carry.
#include "support/csv_table.hpp"
#include "support/matrix_market.hpp"
#include "support/test_files.hpp"

#include <gtest/gtest.h>

#include <vtkDataArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridReader.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using catena::testing::csv_column;
using catena::testing::read_csv;
using catena::testing::read_market;

int run_catena(const std::string& args) { return catena::testing::run_cli(args).code; }

const fs::path source_dir = CATENA_SOURCE_DIR;

TEST(EigenOutput, ModesCsvMatrixMarketAndModeSeries) {
  const catena::testing::ScratchDirectory scratch;
  const fs::path out = scratch.path() / "out";
  const std::string model = (source_dir / "tests" / "solvers" / "models" / "cantilever_modes.yaml").string();
  ASSERT_EQ(run_catena("run " + model + " --out " + out.string() +
                       " --set analysis.export_matrices=true --set analysis.mode_amplitude=0.05 --set n=10"),
            0);

  // modes.csv: header, 8 modes, in increasing frequency, the first pair at the Euler-Bernoulli
  // value within the 10-element discretization error (0.5 %).
  const auto rows = read_csv(out / "modes.csv");
  ASSERT_EQ(rows.size(), 9U);
  EXPECT_EQ(rows[0].size(), 7U);
  EXPECT_EQ(rows[0][1], "frequency_hz");
  const double E = 2.1e11, rho = 7850, d = 0.02;
  const double unit = std::sqrt(E * std::pow(d, 2) / 16 / rho) / (2 * std::numbers::pi);
  EXPECT_NEAR(std::stod(rows[1][1]) / (1.8751040687 * 1.8751040687 * unit), 1.0, 5e-3);
  for (std::size_t k = 2; k < rows.size(); ++k) EXPECT_GE(std::stod(rows[k][1]), std::stod(rows[k - 1][1]));
  EXPECT_EQ(rows[1][6], "elastic");

  // M.mtx: every translation direction carries the rod's mass but the clamped root's share
  // (its lumped half element, and the coupling entry c = ρA L_e/12 of the mixed mass that its
  // free neighbour keeps), and the rotations the torsional inertia ρJ L likewise; K.mtx symmetric.
  int n = 0;
  const auto M = read_market(out / "M.mtx", n);
  const auto K = read_market(out / "K.mtx", n);
  double total = 0.0;
  for (const auto& [ij, v] : M) total += v;
  const double elements = 10, rod_mass = rho * std::numbers::pi * d * d / 4 * 1.0;
  const double rho_J_L = rho * std::numbers::pi * std::pow(d, 4) / 32;
  const double expected = 3 * rod_mass * (1 - 1 / (2 * elements) - 1 / (12 * elements)) + rho_J_L * (1 - 1 / (2 * elements));
  EXPECT_NEAR(total / expected, 1.0, 1e-12);
  double asym = 0.0, largest = 0.0;
  for (const auto& [ij, v] : K) {
    const auto t = K.find({ij.second, ij.first});
    asym = std::max(asym, std::abs(v - (t == K.end() ? 0.0 : t->second)));
    largest = std::max(largest, std::abs(v));
  }
  EXPECT_LT(asym, 1e-9 * largest);

  // The first mode's series: one period in mode_frames + 1 frames; a quarter period in, the
  // largest displacement is the amplitude asked for.
  const fs::path series = out / "modes" / "mode_01";
  ASSERT_TRUE(fs::exists(series / "results.pvd"));
  vtkNew<vtkXMLUnstructuredGridReader> reader;
  reader->SetFileName((series / "results_00006.vtu").string().c_str());  // 6 of 24 frames
  reader->Update();
  vtkDataArray* u = reader->GetOutput()->GetPointData()->GetArray("displacement");
  ASSERT_NE(u, nullptr);
  double umax = 0.0;
  for (vtkIdType i = 0; i < u->GetNumberOfTuples(); ++i) {
    double v[3];
    u->GetTuple(i, v);
    umax = std::max(umax, std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]));
  }
  EXPECT_NEAR(umax, 0.05, 1e-9);
}

// Modes of K φ = ω² M φ whose ω² comes out real have s = (0, ω) exactly: their damping ratio,
// −Re s / |s|, and its derivative are written and printed as 0, not "-0".
TEST(EigenOutput, UndampedModesHaveDampingRatioZeroNotMinusZero) {
  const catena::testing::ScratchDirectory scratch;
  const fs::path out = scratch.path() / "out";
  const std::string model = (source_dir / "tests" / "solvers" / "models" / "cantilever_modes.yaml").string();
  const catena::testing::CliResult run = catena::testing::run_cli({"run", model, "--out", out.string(), "--sensitivity", "L"});
  ASSERT_EQ(run.code, 0) << run.output;
  const auto rows = read_csv(out / "modes.csv");
  ASSERT_EQ(rows.size(), 9U);
  ASSERT_EQ(rows[0][3], "damping_ratio");
  EXPECT_EQ(rows[1][4], "0");  // s_real: the first bending pair's ω² is real
  for (std::size_t r = 1; r < rows.size(); ++r) EXPECT_NE(rows[r][3], "-0") << "mode " << r;
  const auto derivatives = read_csv(out / "mode_sensitivities.csv");
  ASSERT_EQ(derivatives.size(), 9U);
  ASSERT_EQ(derivatives[0][3], "damping_ratio:L");
  for (std::size_t r = 1; r < derivatives.size(); ++r) EXPECT_NE(derivatives[r][3], "-0") << "mode " << r;
  // The table on the terminal: mode, frequency, damping ratio, kind.
  std::istringstream lines(run.output);
  int table_rows = 0;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream cells(line);
    std::string mode, frequency, damping;
    if (!(cells >> mode >> frequency >> damping) || mode.find_first_not_of("0123456789") != std::string::npos) continue;
    ++table_rows;
    EXPECT_NE(damping, "-0") << line;
  }
  EXPECT_EQ(table_rows, 8);
}

TEST(BucklingOutput, SummaryAndTrackedPath) {
  const catena::testing::ScratchDirectory scratch;
  const fs::path out = scratch.path() / "out";
  ASSERT_EQ(run_catena("run " + (source_dir / "cases" / "buckling-lateral" / "model.yaml").string() + " --out " +
                       out.string() + " --quiet"),
            0);
  std::ifstream in(out / "summary.json");
  const std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto value = [&](const std::string& key) {
    const auto at = json.find("\"" + key + "\":");
    EXPECT_NE(at, std::string::npos) << key;
    return std::stod(json.substr(json.find(':', at) + 1));
  };
  EXPECT_NEAR(value("critical_load_factor_linear"), 1.04095, 1e-4);
  EXPECT_NEAR(value("critical_load_factor_tracked"), 1.0400, 1e-3);
  // buckling.csv: the lowest stiffness eigenvalue falls from positive to negative along the path.
  const auto rows = read_csv(out / "buckling.csv");
  ASSERT_GE(rows.size(), 3U);
  EXPECT_EQ(rows[0][1], "lowest_stiffness_eigenvalue");
  EXPECT_GT(std::stod(rows[1][1]), 0.0);
  EXPECT_LT(std::stod(rows.back()[1]), 0.0);
  EXPECT_TRUE(fs::exists(out / "modes" / "buckling_mode" / "results.pvd"));
}

}  // namespace

TEST(EigenOutput, ModeSensitivitiesAgreeWithWholeRunDifferences) {
  // The pendulum about its computed equilibrium, differentiated by its length: mode_sensitivities.csv
  // against fourth-order differences of whole `catena run`s at L ± h, L ± 2h (modes.csv), and the
  // exact dω/dL = ω/2 (1/L − 2 m L / (Jy + m L²)) of the swing about y.
  const catena::testing::ScratchDirectory scratch;
  const std::string model = (source_dir / "tests" / "solvers" / "models" / "sensitivity_pendulum.yaml").string();
  const fs::path out = scratch.path() / "out";
  ASSERT_EQ(run_catena("run " + model + " --out " + out.string() + " --quiet --sensitivity L,g"), 0);
  const auto rows = read_csv(out / "mode_sensitivities.csv");
  ASSERT_EQ(rows.size(), 4U);
  ASSERT_EQ(rows[0].size(), 11U);
  EXPECT_EQ(rows[0][0], "mode");
  EXPECT_EQ(rows[0][1], "frequency_hz:L");
  EXPECT_EQ(rows[0][10], "s_imag:g");
  const std::vector<double> dL = csv_column(rows, "natural_frequency_hz:L");
  EXPECT_TRUE(std::isnan(dL.at(0)));  // the rigid spin
  EXPECT_EQ(csv_column(read_csv(out / "modes.csv"), "natural_frequency_hz").size(), 3U);

  // h = 1e-2 L: the whole runs' frequencies about the computed equilibrium carry ~3e-10 of
  // error, 1e-7 of the derivative at h = 1e-3 L (tests/solvers/eigen_sensitivity_test.cpp).
  const double L = 2, h = 1e-2 * L;
  std::vector<std::vector<double>> f;
  for (const int k : {-2, -1, 1, 2}) {
    const fs::path run = scratch.path() / ("L" + std::to_string(k));
    std::ostringstream value;
    value.precision(17);
    value << L + k * h;
    ASSERT_EQ(run_catena("run " + model + " --out " + run.string() + " --quiet --set L=" + value.str()), 0);
    f.push_back(csv_column(read_csv(run / "modes.csv"), "natural_frequency_hz"));
  }
  const double omega = std::sqrt(3 * 9.81 * 2 / 13.0);
  EXPECT_NEAR(2 * std::numbers::pi * dL.at(1) / (omega / 2 * (1 / L - 2 * 3 * L / 13.0)), 1.0, 1e-7);
  for (std::size_t m = 1; m < 3; ++m) {
    const double fd = (8 * (f[2][m] - f[1][m]) - (f[3][m] - f[0][m])) / (12 * h);
    EXPECT_NEAR(dL[m] / fd, 1.0, 1e-6) << "mode " << m + 1;
    // Undamped: the damped frequency moves with the natural one, s stays imaginary.
    EXPECT_NEAR(csv_column(rows, "frequency_hz:L")[m] / dL[m], 1.0, 1e-12);
    EXPECT_NEAR(csv_column(rows, "s_real:L")[m], 0.0, 1e-12 * std::abs(dL[m]));
  }
}

TEST(EigenOutput, SensitivityRefusals) {
  const catena::testing::ScratchDirectory scratch;
  const fs::path models = source_dir / "tests" / "solvers" / "models";
  const auto refused = [&](const fs::path& model, const std::string& args, const std::string& says) {
    const fs::path out = scratch.path() / model.stem();
    const catena::testing::CliResult r = catena::testing::run_cli("run " + model.string() + " --out " + out.string() +
                                                                  " --quiet " + args);
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_NE(r.output.find(says), std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(out / "modes.csv"));
    EXPECT_FALSE(fs::exists(out / "results.pvd"));
  };
  // A parameter that changes the number of elements; a damper (quadratic problem); a buckling
  // analysis's preload.
  refused(models / "sensitivity_cantilever.yaml", "--set n=1000 --sensitivity n", "changes the model's structure");
  refused(models / "damped_pendulum_modes.yaml", "--sensitivity c", "quadratic");
  refused(models / "buckling_column.yaml", "--set analysis.preload=P/4000 --sensitivity P", "analysis.preload");
}

TEST(BucklingOutput, CriticalLoadSensitivities) {
  // The Euler column, whose discrete critical factor is proportional to EI / L²
  // (tests/solvers/models/buckling_column.yaml; tests/solvers/buckling_sensitivity_test.cpp
  // checks it against whole-run differences).
  const catena::testing::ScratchDirectory scratch;
  const fs::path out = scratch.path() / "out";
  const std::string model = (source_dir / "tests" / "solvers" / "models" / "buckling_column.yaml").string();
  ASSERT_EQ(run_catena("run " + model + " --out " + out.string() + " --quiet --sensitivity EI,L"), 0);
  const auto rows = read_csv(out / "buckling_sensitivities.csv");
  ASSERT_EQ(rows.size(), 2U);
  ASSERT_EQ(rows[0].size(), 2U);
  EXPECT_EQ(rows[0][0], "critical_load_factor_linear:EI");
  EXPECT_EQ(rows[0][1], "critical_load_factor_linear:L");
  std::ifstream in(out / "summary.json");
  const std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto at = json.find("\"critical_load_factor_linear\":");
  ASSERT_NE(at, std::string::npos);
  const double lambda = std::stod(json.substr(json.find(':', at) + 1));
  EXPECT_NEAR(std::stod(rows[1][0]) / (lambda / 1000), 1.0, 1e-7);
  EXPECT_NEAR(std::stod(rows[1][1]) / (-2 * lambda / 1), 1.0, 1e-6);
  // A run without --sensitivity in the same folder leaves no stale derivatives.
  ASSERT_EQ(run_catena("run " + model + " --out " + out.string() + " --quiet"), 0);
  EXPECT_FALSE(fs::exists(out / "buckling_sensitivities.csv"));
}

namespace {

TEST(LinearizedOutput, TwoFreeBodiesOnASpringHingeAreNotSaidToHaveNoInertia) {
  // Issue 20: two rigid bodies on a spring hinge, free in space, got "the model has no inertia".
  // They have inertia; the spring acts only through the hinge's own unknowns, so no node row
  // carries stiffness and the spectrum's scale is unknown: said so, with what to do.
  const catena::testing::ScratchDirectory dir;
  const fs::path model = dir.path() / "two_bodies.yaml";
  std::ofstream(model) << "name: two-bodies\n"
                          "nodes: [{name: a, position: [0, 0, 0]}, {name: b, position: [1, 0, 0]}]\n"
                          "rigid_bodies:\n"
                          "  - {name: A, node: a, mass: 1, inertia: [0.1, 0.1, 0.1]}\n"
                          "  - {name: B, node: b, mass: 1, inertia: [0.1, 0.1, 0.1]}\n"
                          "joints:\n"
                          "  - {name: hinge, kind: revolute, nodes: [a, b], at: [0.5, 0, 0], axis: [0, 0, 1],\n"
                          "     laws: {rz: {stiffness: 100}}}\n"
                          "analysis: {type: eigen, modes: 8}\n";
  const catena::testing::CliResult r =
      catena::testing::run_cli({"run", model.string(), "--out", (dir.path() / "out").string(), "--quiet"});
  EXPECT_EQ(r.code, 3) << r.output;
  EXPECT_EQ(r.output.find("has no inertia"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("no stiffness acts on the nodes that carry inertia"), std::string::npos) << r.output;
}

}  // namespace
