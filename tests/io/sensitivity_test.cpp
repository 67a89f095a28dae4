// Direct sensitivities (catena run --sensitivity, solvers/direct_sensitivity.hpp) against central
// differences of whole runs: the derivative of the converged discrete solution must agree with
// (8 (f(p+h) − f(p−h)) − (f(p+2h) − f(p−2h))) / 12h of runs at perturbed parameter values, the
// same steps without cuts and a Newton tolerance of 1e-13, to 1e-6 relative. The difference step
// is checked by Richardson: the estimates at h and 2h must agree first (else the reference itself
// is not converged and the comparison would prove nothing).
#include "io/checkpoint.hpp"
#include "io/output_directory.hpp"
#include "io/sensitivity_models.hpp"
#include "support/case_runner.hpp"
#include "support/test_files.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace catena {
namespace {

using testing::RecordingObserver;

std::string case_file(const std::string& name) { return std::string(CATENA_SOURCE_DIR) + "/cases/" + name + "/model.yaml"; }

struct SensitivityRun {
  fem::Model model;
  RecordingObserver rec;
  std::vector<std::string> columns;
  solvers::RunStatistics stats;
};

/// The case run with --sensitivity `parameters`, every row kept.
SensitivityRun run_with_sensitivity(const std::string& name, const std::vector<std::string>& overrides,
                                    const std::vector<std::string>& parameters) {
  io::RunOptions options;
  options.model = case_file(name);
  options.overrides = overrides;
  options.sensitivity = parameters;
  SensitivityRun r{io::read_model(options.model, overrides), {}, {}, {}};
  assembly::Tableau tableau(r.model, PETSC_COMM_WORLD);
  solvers::DirectSensitivity sensitivity(r.model, tableau, io::read_parameter_models(options, r.model));
  r.columns = sensitivity.column_names();
  solvers::TimeIntegrator integrator(r.model, tableau);
  integrator.set_sensitivity(&sensitivity);
  r.stats = integrator.run(r.rec);
  EXPECT_EQ(r.stats.cut_steps, 0) << "the differences of whole runs need the same steps";
  return r;
}

/// The last row's sensors and energy columns of the case run with `parameter` = value.
std::vector<double> final_values(const std::string& name, std::vector<std::string> overrides,
                                 const std::string& parameter, double value) {
  overrides.push_back(parameter + "=" + io::format_double(value));
  testing::CaseRun c = testing::run_case(name, overrides);
  EXPECT_EQ(c.stats.cut_steps, 0);
  const RecordingObserver::Row& last = c.rec.rows.back();
  std::vector<double> v = last.sensors;
  for (const double e : solvers::energy_columns(last.energy)) v.push_back(e);
  return v;
}

/// Every sensor's and energy column's derivative at the end of the run against whole-run
/// differences, for each parameter; `skip` names columns left out (with the reason in the caller).
void expect_whole_run_differences_agree(const std::string& name, const std::vector<std::string>& overrides,
                                        const std::vector<std::string>& parameters, double relative_h,
                                        const std::vector<std::string>& skip = {}) {
  const SensitivityRun run = run_with_sensitivity(name, overrides, parameters);
  const std::vector<double>& derivative = run.rec.rows.back().sensitivities;
  ASSERT_EQ(derivative.size(), run.columns.size());
  const std::size_t per_parameter = run.columns.size() / parameters.size();
  for (std::size_t j = 0; j < parameters.size(); ++j) {
    const double p = [&] {
      for (const auto& [n, v] : run.model.parameters)
        if (n == parameters[j]) return v;
      return 0.0;
    }();
    const double h = relative_h * std::abs(p);
    std::vector<std::vector<double>> f;
    for (const int k : {-4, -2, -1, 1, 2, 4}) f.push_back(final_values(name, overrides, parameters[j], p + k * h));
    // A sensor's natural scale is |f| / |p|, the energy columns' the largest of their derivatives
    // (the balance is a difference of the others): a derivative far below it (a momentum that
    // stays zero by symmetry, a conserved balance) is compared with 1e-3 of that scale.
    const std::vector<double>& at_p = f[2];  // p − h: a run's own values, for the scales only
    const std::size_t n_sensors = per_parameter - solvers::energy_column_names.size();
    double energy_scale = 0.0;
    for (std::size_t c = n_sensors; c < per_parameter; ++c)
      energy_scale = std::max(energy_scale, std::abs(f[3][c] - f[2][c]) / (2.0 * h));
    int compared = 0, converged = 0;
    for (std::size_t c = 0; c < per_parameter; ++c) {
      const std::string& column = run.columns[j * per_parameter + c];
      if (std::find(skip.begin(), skip.end(), column.substr(0, column.find(':'))) != skip.end()) continue;
      const auto at = [&](int i) { return f[static_cast<std::size_t>(i)][c]; };
      const double d_h = (8.0 * (at(3) - at(2)) - (at(4) - at(1))) / (12.0 * h);
      const double d_2h = (8.0 * (at(4) - at(1)) - (at(5) - at(0))) / (24.0 * h);
      const double natural = c < n_sensors ? std::abs(at_p[c]) / std::abs(p) : 1e3 * energy_scale;
      const double scale = std::max({std::abs(d_h), 1e-3 * natural, 1e-12});
      // The reference's own error, from the estimate at 2h, widens the bound where rounding in
      // the whole runs dominates (a derivative that is zero by symmetry); where the reference is
      // converged the bound is 1e-6 of the derivative, and most columns must be such.
      const double reference_error = std::abs(d_h - d_2h);
      if (reference_error < 1e-7 * scale) ++converged;
      EXPECT_LT(std::abs(derivative[j * per_parameter + c] - d_h), 1e-6 * scale + 2.0 * reference_error)
          << column << ": direct " << derivative[j * per_parameter + c] << ", whole runs " << d_h << " (at 2h "
          << d_2h << ")";
      ++compared;
    }
    EXPECT_GT(compared, 5);
    EXPECT_GT(converged, compared / 2) << parameters[j] << ": too few columns whose reference is converged";
  }
}

TEST(DirectSensitivity, BeamDerivativesAgreeWithWholeRunDifferences) {
  // A flexible beam spun up by its hub (Simo & Vu-Quoc): bending stiffness and mass per length.
  expect_whole_run_differences_agree("spin-up-simo", {"analysis.t_end=1", "analysis.newton_tolerance=1e-13"},
                                     {"EI", "rhoA"}, 1e-3);
}

TEST(DirectSensitivity, ClosedLoopJointDerivativesAgreeWithWholeRunDifferences) {
  // The flexible four-bar: a closed loop of beams and hinges driven at the crank, its start made to
  // meet the joints (the projection is differentiated too). The stiff coupler's section forces
  // are left out: they are EA times strains of 1e-8, so both the derivative and the reference
  // lose digits to rounding there (docs/sensitivity.md, accuracy).
  expect_whole_run_differences_agree("four-bar", {"analysis.t_end=0.2", "analysis.newton_tolerance=1e-13"},
                                     {"L2", "alpha"}, 1e-3, {"N_mid", "Vy_mid", "Vz_mid", "T_mid", "My_mid", "Mz_mid"});
}

TEST(DirectSensitivity, RigidBodyDerivativesAgreeWithWholeRunDifferences) {
  // The heavy top: one rigid body on a spherical joint, fast spin, gyroscopic precession.
  expect_whole_run_differences_agree("heavy-top", {"analysis.t_end=0.02", "analysis.newton_tolerance=1e-13"},
                                     {"c", "wy"}, 1e-3);
}

TEST(DirectSensitivity, RigidClosedLoopWithALoadAgreesWithWholeRunDifferences) {
  // Hou's slider-crank (seed 004): rigid bodies in a closed loop, a torque, a prescribed slider.
  expect_whole_run_differences_agree("slider-crank-rigid", {"analysis.t_end=0.2", "analysis.newton_tolerance=1e-13"},
                                     {"T", "l1", "m2"}, 1e-3);
}

TEST(DirectSensitivity, InitialEquilibriumIsDifferentiated) {
  // The rotating shaft starts from its static sag under gravity (analysis.initial_equilibrium):
  // the start's derivative comes through that equilibrium.
  expect_whole_run_differences_agree("rotating-shaft", {"analysis.t_end=0.02", "analysis.newton_tolerance=1e-13"},
                                     {"mD"}, 1e-3, {"end2_ux", "disk_ux"});
}

// docs/sensitivity.md promises the run itself unchanged by --sensitivity, bit for bit. Issue 39:
// the sensitivities' assemblies into their own matrix counted as writes into the run's Jacobian,
// so every step began with a fresh one (slider-crank-rigid: 1 933 Newton iterations became
// 1 318, results moved by 2e-10 relative).
TEST(DirectSensitivity, TheRunItselfIsUnchangedBitForBit) {
  const std::vector<std::string> overrides{"analysis.t_end=0.2"};
  const testing::CaseRun plain = testing::run_case("slider-crank-rigid", overrides);
  const SensitivityRun with = run_with_sensitivity("slider-crank-rigid", overrides, {"T", "l1", "m2"});
  EXPECT_EQ(with.stats.newton_iterations, plain.stats.newton_iterations);
  EXPECT_EQ(with.stats.jacobian_evaluations, plain.stats.jacobian_evaluations);
  ASSERT_EQ(with.rec.rows.size(), plain.rec.rows.size());
  for (std::size_t r = 0; r < plain.rec.rows.size(); ++r) {
    EXPECT_EQ(with.rec.rows[r].sensors, plain.rec.rows[r].sensors) << "t = " << plain.rec.rows[r].t;
    EXPECT_EQ(solvers::energy_columns(with.rec.rows[r].energy), solvers::energy_columns(plain.rec.rows[r].energy))
        << "t = " << plain.rec.rows[r].t;
  }
}

TEST(DirectSensitivity, ARestartedRunCarriesOnTheSameDerivatives) {
  const std::vector<std::string> overrides{"analysis.t_end=0.1", "analysis.newton_tolerance=1e-13",
                                           "output.checkpoint_every=10"};
  const SensitivityRun whole = run_with_sensitivity("slider-crank-rigid", overrides, {"T", "l1"});
  // The state at step 50 as a checkpoint would hold it, then a second model, tableau and
  // sensitivity continued from it.
  io::RunOptions options;
  options.model = case_file("slider-crank-rigid");
  options.overrides = overrides;
  options.sensitivity = {"T", "l1"};
  struct Checkpoints final : solvers::Observer {
    std::vector<solvers::IntegratorState> states;
    void on_checkpoint(const solvers::IntegratorState& s) override { states.push_back(s); }
  } checkpoints;
  {
    fem::Model model = io::read_model(options.model, overrides);
    assembly::Tableau tableau(model, PETSC_COMM_WORLD);
    solvers::DirectSensitivity sensitivity(model, tableau, io::read_parameter_models(options, model));
    solvers::TimeIntegrator integrator(model, tableau);
    integrator.set_sensitivity(&sensitivity);
    integrator.run(checkpoints);
  }
  ASSERT_GE(checkpoints.states.size(), 5U);
  // Through the checkpoint file's text, as a restart reads it.
  const std::filesystem::path file = testing::write_temp("sensitivity_restart", "checkpoint.ckpt", "");
  const fem::Model for_print = io::read_model(options.model, overrides);
  io::write_checkpoint(file, io::Checkpoint{io::fingerprint(for_print, 0, ""), checkpoints.states[4]});
  const io::Checkpoint read = io::read_checkpoint(file);
  EXPECT_EQ(read.state.sensitivity_parameters, (std::vector<std::string>{"T", "l1"}));
  fem::Model model = io::read_model(options.model, overrides);
  assembly::Tableau tableau(model, PETSC_COMM_WORLD);
  solvers::DirectSensitivity sensitivity(model, tableau, io::read_parameter_models(options, model));
  solvers::TimeIntegrator integrator(model, tableau);
  integrator.set_sensitivity(&sensitivity);
  RecordingObserver continued;
  integrator.run(continued, nullptr, &read.state);
  ASSERT_FALSE(continued.rows.empty());
  const auto& a = whole.rec.rows.back();
  const auto& b = continued.rows.back();
  ASSERT_EQ(a.t, b.t);
  ASSERT_EQ(a.sensitivities.size(), b.sensitivities.size());
  for (std::size_t i = 0; i < a.sensitivities.size(); ++i)
    EXPECT_EQ(a.sensitivities[i], b.sensitivities[i]) << whole.columns[i] << ": not bit for bit";
}

TEST(DirectSensitivity, ParametersThatCannotBeDifferentiatedByAreRefusedWithTheReason) {
  io::RunOptions options;
  options.model = case_file("spin-up-simo");
  const fem::Model model = io::read_model(options.model);
  const auto refused = [&](std::vector<std::string> names, const std::string& expected) {
    options.sensitivity = std::move(names);
    try {
      static_cast<void>(io::read_parameter_models(options, model));
      ADD_FAILURE() << "accepted " << options.sensitivity.front();
    } catch (const io::SensitivityInputError& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  };
  refused({"EJ"}, "'EJ' is not a parameter of the model (did you mean");
  // The element count: the model's shape, not a value.
  refused({"n"}, "parameter 'n' cannot be changed to 9.9");
}

}  // namespace
}  // namespace catena
