// Hou's torque-shaping problem (cases/slider-crank-design, seed 004 Appendix B): the tracking
// functional's derivatives with respect to the torque's coefficients, from the direct method,
// against whole-run differences (1e-6) and Hou's Table B.2 (reference.yaml: his scheme and step,
// and the path's end fitted through dΨ/da0; the case's README).
#include "io/output_directory.hpp"
#include "io/sensitivity_models.hpp"
#include "solvers/time_integrator.hpp"
#include "support/case_reference.hpp"
#include "support/case_runner.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace catena {
namespace {

const std::string model_file = std::string(CATENA_SOURCE_DIR) + "/cases/slider-crank-design/model.yaml";

/// Ψ of a run with the overrides.
double objective_of(const std::vector<std::string>& overrides) {
  fem::Model model = io::read_model(model_file, overrides);
  assembly::Tableau tableau(model, PETSC_COMM_WORLD);
  solvers::TimeIntegrator integrator(model, tableau);
  testing::RecordingObserver rec;
  const solvers::RunStatistics stats = integrator.run(rec);
  EXPECT_EQ(stats.cut_steps, 0);
  return stats.objective.value_or(NAN);
}

TEST(CaseSliderCrankDesign, ObjectiveGradientAgreesWithWholeRunsAndHousTable) {
  io::RunOptions options;
  options.model = model_file;
  options.sensitivity = {"a0", "a1", "a2"};
  fem::Model model = io::read_model(model_file);
  assembly::Tableau tableau(model, PETSC_COMM_WORLD);
  solvers::DirectSensitivity sensitivity(model, tableau, io::read_parameter_models(options, model));
  solvers::TimeIntegrator integrator(model, tableau);
  integrator.set_sensitivity(&sensitivity);
  testing::RecordingObserver rec;
  const solvers::RunStatistics stats = integrator.run(rec);
  ASSERT_TRUE(stats.objective);
  const std::vector<double> gradient = sensitivity.objective_gradient(stats.t_reached);
  ASSERT_EQ(gradient.size(), 3U);
  // The last row's running derivative is the same number.
  EXPECT_EQ(rec.rows.back().sensitivities.back(), gradient[2]);
  const testing::CaseReference reference("slider-crank-design");
  const double hou[3] = {reference.number("dPsi_da0"), reference.number("dPsi_da1"), reference.number("dPsi_da2")};
  const double tolerance = reference.number("tolerance");
  for (int i = 0; i < 3; ++i) {
    const std::string p = "a" + std::to_string(i);
    const double h = 1e-3;
    double f[4];
    const int k[4] = {-2, -1, 1, 2};
    for (int j = 0; j < 4; ++j) f[j] = objective_of({p + "=" + io::format_double(1.0 + k[j] * h)});
    const double whole_runs = (8.0 * (f[2] - f[1]) - (f[3] - f[0])) / (12.0 * h);
    EXPECT_NEAR(gradient[static_cast<std::size_t>(i)], whole_runs, 1e-6 * std::abs(whole_runs)) << p;
    EXPECT_NEAR(gradient[static_cast<std::size_t>(i)], hou[i], tolerance * std::abs(hou[i])) << p << " against Table B.2";
    testing::record("dPsi_d" + p, gradient[static_cast<std::size_t>(i)]);
  }
  // β is fitted through dΨ/da0 (README): it reproduces Table B.2's value to the digits given.
  EXPECT_NEAR(gradient[0], hou[0], reference.number("fit_tolerance"));
  testing::record("Psi", *stats.objective);
}

}  // namespace
}  // namespace catena
