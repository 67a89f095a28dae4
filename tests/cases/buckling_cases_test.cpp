// Buckling cases (docs/benchmarks.md): buckling-lateral and buckling-torsion. Meijaard's element is a
// cubic one with second-order strain terms; Catena's co-rotational element differs, so each case
// checks its own convergence to the theory (cases/<name>/README.md), with Meijaard's figures for
// comparison there.
#include "io/model_reader.hpp"
#include "solvers/linearized_analysis.hpp"
#include "support/case_reference.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <string>

namespace catena {
namespace {

solvers::BucklingResult buckle(const std::string& name, int elements) {
  const std::vector<std::string> overrides{"n=" + std::to_string(elements)};
  fem::Model model = io::read_model(std::string(CATENA_SOURCE_DIR) + "/cases/" + name + "/model.yaml", overrides);
  solvers::LinearizedAnalysis analysis(model, PETSC_COMM_WORLD);
  analysis.establish_state();
  return analysis.buckling();
}

/// Relative errors of the linear critical factor against reference.yaml's reference (the theory's:
/// the model's load is the theory's critical load).
std::vector<double> errors(const std::string& name, std::initializer_list<int> meshes) {
  const double reference = testing::CaseReference(name).number("reference");
  std::vector<double> e;
  for (const int n : meshes) e.push_back(buckle(name, n).linear_factor / reference - 1.0);
  return e;
}

TEST(CaseBucklingLateral, ConvergesToTheTheoryAtOrderTwo) {
  const std::vector<double> e = errors("buckling-lateral", {2, 4, 8});
  for (double x : e) EXPECT_GT(x, 0.0);  // from above, as Meijaard's
  EXPECT_NEAR(e[1], 0.0410, 0.002);      // measured 1.04095 with 4 elements
  EXPECT_LT(std::abs(e[2]), testing::CaseReference("buckling-lateral").number("tolerance"));  // 8 elements: 1.5 %
  EXPECT_GT(e[1] / e[2], 3.3);           // order two: the error quarters
  EXPECT_GT(e[0] / e[1], 3.3);
}

TEST(CaseBucklingLateral, TrackedLowestEigenvalueCrossesZeroAtTheLinearLoad) {
  const solvers::BucklingResult r = buckle("buckling-lateral", 4);
  ASSERT_TRUE(std::isfinite(r.tracked_factor));
  // The in-plane pre-buckling bending (tip deflection 2e-3 l) moves it by about 0.1 %.
  EXPECT_NEAR(r.tracked_factor / r.linear_factor, 1.0, 5e-3);
  ASSERT_GE(r.path.size(), 3U);
  EXPECT_GT(r.path.front().lowest, 0.0);
}

TEST(CaseBucklingTorsion, SemitangentialTorqueConvergesToPiEIOverL) {
  const std::vector<double> e = errors("buckling-torsion", {4, 8, 16});
  for (double x : e) EXPECT_LT(x, 0.0);  // from below
  EXPECT_NEAR(e[0], -0.0905, 0.003);     // measured 0.909478 with 4 elements
  EXPECT_LT(std::abs(e[2]), testing::CaseReference("buckling-torsion").number("tolerance"));  // 16 elements: 1 %
  EXPECT_GT(e[0] / e[1], 3.0);
  EXPECT_GT(e[1] / e[2], 3.0);
}

TEST(CaseBucklingTorsion, ADeadTorqueDoesNotBuckle) {
  // Without `semitangential`, the end torque keeps its direction (an axial torque): no static
  // buckling (Ziegler); the linear problem has no real positive eigenvalue.
  std::ifstream in(std::string(CATENA_SOURCE_DIR) + "/cases/buckling-torsion/model.yaml");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string key = ", semitangential: true";
  ASSERT_NE(text.find(key), std::string::npos);
  text.erase(text.find(key), key.size());
  const std::string file = ::testing::TempDir() + "dead_torque.yaml";
  std::ofstream(file) << text;
  const std::vector<std::string> overrides{"n=4"};
  fem::Model model = io::read_model(file, overrides);
  solvers::LinearizedAnalysis analysis(model, PETSC_COMM_WORLD);
  analysis.establish_state();
  EXPECT_TRUE(std::isnan(analysis.buckling().linear_factor));
}

}  // namespace
}  // namespace catena
