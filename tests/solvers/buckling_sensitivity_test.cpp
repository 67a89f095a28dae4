// Critical-load sensitivities of buckling analyses (solvers/eigen_sensitivity.hpp,
// critical_factor_derivatives) against fourth-order central differences of whole buckling analyses
// at p ± h, p ± 2h (the reference's own error estimated by the same difference at step 2h) and
// against the exact slopes of an Euler column's discrete model; cases/buckling-lateral through its
// prestressed equilibrium, cases/buckling-torsion's repeated critical factor.
#include "elements/node_inertia.hpp"
#include "io/model_reader.hpp"
#include "io/sensitivity_models.hpp"
#include "solvers/eigen_sensitivity.hpp"
#include "support/eigen_modes.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <numbers>
#include <sstream>

namespace catena::solvers {
namespace {

using testing::solver_model_path;

std::string case_path(const std::string& name) {
  return std::string(CATENA_SOURCE_DIR) + "/cases/" + name + "/model.yaml";
}

std::string assignment(const std::string& name, double value) {
  std::ostringstream s;
  s.precision(17);
  s << name << '=' << value;
  return s.str();
}

/// A two-sided buckling analysis and dλ_cr/dp, as `catena run --sensitivity` computes them.
struct Critical {
  BucklingResult result;
  std::vector<double> derivatives;  ///< dλ_cr/dp per parameter
  std::vector<double> values;       ///< the parameters' values
};

Critical critical_of(const std::string& path, const std::vector<std::string>& overrides,
                     const std::vector<std::string>& parameters) {
  testing::SensitivityModels models = testing::sensitivity_models(path, overrides, parameters);
  std::vector<ParameterModels>& perturbed = models.perturbed;
  LinearizedAnalysis analysis(models.model, PETSC_COMM_WORLD);
  analysis.establish_state();
  Critical c{analysis.buckling(true), {}, {}};
  c.derivatives = critical_factor_derivatives(analysis, c.result, perturbed);
  for (const ParameterModels& p : perturbed) c.values.push_back(p.value);
  return c;
}

double linear_factor(const std::string& path, const std::vector<std::string>& overrides) {
  fem::Model model = io::read_model(path, overrides);
  elements::add_node_inertia(model);
  LinearizedAnalysis analysis(model, PETSC_COMM_WORLD);
  analysis.establish_state();
  return analysis.buckling().linear_factor;
}

/// dλ_cr/dp by whole buckling analyses at p + kh: the fourth-order difference at step h and at 2h.
std::pair<double, double> differenced(const std::string& path, std::vector<std::string> overrides,
                                      const std::string& parameter, double value, double h) {
  overrides.emplace_back();
  std::map<int, double> f;
  for (const int k : {-4, -2, -1, 1, 2, 4}) {
    overrides.back() = assignment(parameter, value + k * h);
    f[k] = linear_factor(path, overrides);
  }
  return {(8.0 * (f[1] - f[-1]) - (f[2] - f[-2])) / (12.0 * h), (8.0 * (f[2] - f[-2]) - (f[4] - f[-4])) / (24.0 * h)};
}

/// Every parameter's dλ_cr/dp agrees with whole-run differences at h = `relative_step` |p| to
/// `tolerance` relative (of the larger of the derivative and λ_cr/|p|, the scale of a derivative
/// that happens to be small), widened by the reference's own error |d(h) − d(2h)|, which must
/// itself be below `tolerance`.
void expect_differences_agree(const std::string& path, const std::vector<std::string>& overrides,
                              const std::vector<std::string>& parameters, double relative_step, double tolerance) {
  const Critical c = critical_of(path, overrides, parameters);
  ASSERT_TRUE(std::isfinite(c.result.linear_factor));
  double worst = 0.0;
  for (std::size_t p = 0; p < parameters.size(); ++p) {
    const auto [d_h, d_2h] = differenced(path, overrides, parameters[p], c.values[p], relative_step * std::abs(c.values[p]));
    const double scale = std::max(std::abs(d_h), c.result.linear_factor / std::abs(c.values[p]));
    const double reference_error = std::abs(d_h - d_2h);
    EXPECT_LT(reference_error / scale, tolerance) << "the reference itself, d/d" << parameters[p];
    EXPECT_NEAR(c.derivatives[p], d_h, tolerance * scale + reference_error) << path << ", d/d" << parameters[p];
    worst = std::max(worst, std::abs(c.derivatives[p] - d_h) / scale);
    if (std::getenv("CATENA_PRINT_SENSITIVITIES"))
      std::printf("%s d/d%s: %.12e vs %.12e (2h: %.12e, scale %.3e)\n", path.c_str(), parameters[p].c_str(),
                  c.derivatives[p], d_h, d_2h, scale);
  }
  std::ostringstream text;
  text << worst;
  ::testing::Test::RecordProperty("worst_relative_difference", text.str());
}

TEST(BucklingSensitivity, EulerColumnSlopesAreThoseOfItsDiscreteModel) {
  // λ_cr = π² EI / (4 L² P) to the mesh's error, and for the discrete model exactly proportional
  // to EI / (L² P) (tests/solvers/models/buckling_column.yaml).
  const Critical c = critical_of(solver_model_path("buckling_column"), {}, {"EI", "L", "P"});
  const double EI = 1000, L = 1, P = 2000;
  const double lambda = c.result.linear_factor;
  EXPECT_NEAR(lambda / (std::numbers::pi * std::numbers::pi * EI / (4 * L * L * P)), 1.0, 1e-3);
  EXPECT_NEAR(c.derivatives[0] / (lambda / EI), 1.0, 1e-7);  // measured 1e-8
  // The length's differences truncate at O(ε⁴) with a large coefficient: 5e-7 at ε = 3e-3 L
  // (6e-5 at 1e-2 L, 2e-8 at 1e-3 L), the whole runs' differences agreeing with −2λ/L to 2e-8.
  EXPECT_NEAR(c.derivatives[1] / (-2 * lambda / L), 1.0, 1e-6);
  EXPECT_NEAR(c.derivatives[2] / (-lambda / P), 1.0, 1e-7);  // measured 8e-9
}

TEST(BucklingSensitivity, EulerColumnAgreesWithWholeRunDifferences) {
  expect_differences_agree(solver_model_path("buckling_column"), {}, {"EI", "L", "P"}, 1e-3, 1e-6);
  // About a preloaded (shortened) state: no exact slope there, the pencil's A is K at the preload.
  expect_differences_agree(solver_model_path("buckling_column"), {"analysis.preload=0.6"}, {"EI", "L", "P"}, 1e-3,
                           1e-6);
}

TEST(BucklingSensitivity, LateralBucklingThroughItsPrestressedEquilibrium) {
  // The tip force bends the beam in its stiff plane: that bending is the prestress whose geometric
  // stiffness makes the weak plane and the torsion buckle together. Every parameter moves both.
  expect_differences_agree(case_path("buckling-lateral"), {}, {"E", "h", "b", "l"}, 1e-3, 1e-6);
  expect_differences_agree(case_path("buckling-lateral"), {"analysis.preload=0.8"}, {"h", "l"}, 1e-3, 1e-6);
}

TEST(BucklingSensitivity, RepeatedCriticalFactorOfARoundShaft) {
  // The round shaft's two bending planes buckle at one factor: a cluster of two, its slope the
  // derivative where the parameter keeps the section round. The load M_th = π E I / l scales with
  // E as the critical torque does: dλ_cr/dE = 0 up to the axial stiffness's influence.
  const Critical c = critical_of(case_path("buckling-torsion"), {}, {"E"});
  std::size_t partners = 0;
  for (const Mode& m : c.result.linear_pairs.modes)
    if (std::abs(m.mu - c.result.linear_pairs.modes[c.result.linear_index].mu) <= 1e-6 * std::abs(m.mu)) ++partners;
  EXPECT_EQ(partners, 2U);
  EXPECT_LT(std::abs(c.derivatives[0]) * c.values[0] / c.result.linear_factor, 1e-6);
  expect_differences_agree(case_path("buckling-torsion"), {}, {"d", "l"}, 1e-3, 1e-6);
}

}  // namespace
}  // namespace catena::solvers
