// Eigenvalue sensitivities (solvers/eigen_sensitivity.hpp) against central differences of whole
// eigen-analyses at p ± h, p ± 2h (fourth order, h = 1e-3 |p|) and against exact derivatives: a
// rectangular cantilever (dω/dE = ω/2E), the same under a follower load (K not symmetric: left and
// right eigenvectors differ), a pendulum whose only stiffness is its preload, through the computed
// equilibrium (dω/dg = ω/2g, dω/dL), and the pendulum's repeated pair.
#include "elements/node_inertia.hpp"
#include "io/model_reader.hpp"
#include "io/sensitivity_models.hpp"
#include "solvers/eigen_sensitivity.hpp"
#include "support/eigen_modes.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace catena::solvers {
namespace {

using testing::solver_model_path;

std::string assignment(const std::string& name, double value) {
  std::ostringstream s;
  s.precision(17);
  s << name << '=' << value;
  return s.str();
}

using testing::modes_of;

/// A two-sided eigen-analysis and d|s|/dp of its modes, [mode][parameter], as `catena run
/// --sensitivity` computes them.
struct Sensitivities {
  EigenResult result;
  std::vector<std::vector<double>> omega;  ///< d|s|/dp [rad/s per unit of p]
  std::vector<double> values;              ///< the parameters' values
};

Sensitivities sensitivities_of(const std::string& name, const std::vector<std::string>& overrides,
                               const std::vector<std::string>& parameters) {
  testing::SensitivityModels models = testing::sensitivity_models(solver_model_path(name), overrides, parameters);
  std::vector<ParameterModels>& perturbed = models.perturbed;
  LinearizedAnalysis analysis(models.model, PETSC_COMM_WORLD);
  analysis.establish_state();
  analysis.linearize();
  Sensitivities s{analysis.modes(true), {}, {}};
  const auto dmu = eigenvalue_derivatives(analysis, s.result, perturbed);
  for (std::size_t k = 0; k < s.result.modes.size(); ++k) {
    s.omega.emplace_back();
    for (std::size_t p = 0; p < perturbed.size(); ++p)
      s.omega.back().push_back(mode_derivative(s.result.modes[k], dmu[k][p]).natural_frequency);
  }
  for (const ParameterModels& p : perturbed) s.values.push_back(p.value);
  return s;
}

/// d|s|/dp of every mode by whole eigen-analyses at p ± h, p ± 2h, h = `relative_step` |p|: the
/// fourth-order difference, whose truncation is O(h⁴) and rounding the whole runs' error over h
/// (the beam's frequencies come out to ~1e-12, the pendulum's, about a computed equilibrium with
/// constraints, to ~3e-10: 1e-7 of the derivative at h = 1e-3 |p|, hence 1e-2 |p| there).
std::vector<double> differenced(const std::string& name, std::vector<std::string> overrides,
                                const std::string& parameter, double value, double relative_step) {
  const double h = relative_step * std::abs(value);
  std::array<EigenResult, 4> r;
  const int multiples[4] = {-2, -1, 1, 2};
  overrides.emplace_back();
  for (std::size_t k = 0; k < 4; ++k) {
    overrides.back() = assignment(parameter, value + multiples[k] * h);
    r[k] = modes_of(name, overrides);
  }
  std::vector<double> out;
  for (std::size_t m = 0; m < r[0].modes.size(); ++m) {
    auto w = [&](std::size_t k) { return r[k].modes.at(m).natural_frequency(); };
    out.push_back((8.0 * (w(2) - w(1)) - (w(3) - w(0))) / (12.0 * h));
  }
  return out;
}

/// The least |cos| of the angle between a mode's left and right eigenvectors (1: K symmetric).
double least_cosine(const EigenResult& r) {
  double least = 1.0;
  for (const Mode& m : r.modes) {
    std::complex<double> dot = 0.0;
    double a = 0.0, b = 0.0;
    for (std::size_t i = 0; i < m.right.size(); ++i) {
      dot += std::conj(m.left[i]) * m.right[i];
      a += std::norm(m.left[i]);
      b += std::norm(m.right[i]);
    }
    least = std::min(least, std::abs(dot) / std::sqrt(a * b));
  }
  return least;
}

/// Every elastic mode's d|s|/dp agrees with whole-run differences to `tolerance` relative (of the
/// larger of the derivative and |s|/|p|, the scale of a derivative that happens to be small).
void expect_differences_agree(const std::string& name, const std::vector<std::string>& overrides,
                              const std::vector<std::string>& parameters, double relative_step = 1e-3) {
  constexpr double tolerance = 1e-6;
  const Sensitivities s = sensitivities_of(name, overrides, parameters);
  for (std::size_t p = 0; p < parameters.size(); ++p) {
    const std::vector<double> fd = differenced(name, overrides, parameters[p], s.values[p], relative_step);
    double worst = 0.0;
    for (std::size_t m = 0; m < s.result.modes.size(); ++m) {
      if (s.result.modes[m].kind == ModeKind::Rigid) continue;
      const double scale = std::max(std::abs(fd[m]), s.result.modes[m].natural_frequency() / std::abs(s.values[p]));
      EXPECT_NEAR(s.omega[m][p] / scale, fd[m] / scale, tolerance) << name << ", mode " << m + 1 << ", d/d" << parameters[p];
      worst = std::max(worst, std::abs(s.omega[m][p] - fd[m]) / scale);
      if (std::getenv("CATENA_PRINT_SENSITIVITIES"))
        std::printf("%s d/d%s mode %zu: %.12e vs %.12e (scale %.3e)\n", name.c_str(), parameters[p].c_str(), m + 1,
                    s.omega[m][p], fd[m], scale);
    }
    std::ostringstream text;
    text << worst;
    ::testing::Test::RecordProperty("worst_relative_difference_" + parameters[p], text.str());
  }
}

TEST(EigenSensitivity, RectangularCantileverFrequenciesGoAsRootOfE) {
  const Sensitivities s = sensitivities_of("sensitivity_cantilever", {}, {"E"});
  ASSERT_EQ(s.result.modes.size(), 6U);
  for (std::size_t m = 0; m < s.result.modes.size(); ++m) {
    const double omega = s.result.modes[m].natural_frequency();
    EXPECT_NEAR(s.omega[m][0] / (omega / (2.0 * s.values[0])), 1.0, 1e-8) << "mode " << m + 1;
  }
}

TEST(EigenSensitivity, RectangularCantileverAgreesWithWholeRunDifferences) {
  // E, the section's height h (stiffness and mass), the axial preload f (geometric stiffness
  // through the equilibrium).
  expect_differences_agree("sensitivity_cantilever", {}, {"E", "h", "f"});
}

TEST(EigenSensitivity, FollowerLoadNeedsTheLeftEigenvectors) {
  const std::vector<std::string> follower{"loads.0.follower=true", "f=0.5"};
  const Sensitivities s = sensitivities_of("sensitivity_cantilever", follower, {"E", "f"});
  // K is not symmetric: ψ and φ of the bending modes differ (the symmetric formula would be wrong;
  // under the dead load they are parallel).
  const double least = least_cosine(s.result);
  EXPECT_LT(least, 0.999);
  EXPECT_GT(least_cosine(sensitivities_of("sensitivity_cantilever", {}, {"E"}).result), 1.0 - 1e-9);
  RecordProperty("least_cosine_left_right", std::to_string(least));
  for (std::size_t m = 0; m < s.result.modes.size(); ++m) {
    const double omega = s.result.modes[m].natural_frequency();
    EXPECT_NEAR(s.omega[m][0] / (omega / (2.0 * s.values[0])), 1.0, 1e-8) << "mode " << m + 1;
  }
  expect_differences_agree("sensitivity_cantilever", follower, {"f", "h"});
}

TEST(EigenSensitivity, PendulumThroughItsComputedEquilibrium) {
  const Sensitivities s = sensitivities_of("sensitivity_pendulum", {}, {"g", "L", "m", "x0"});
  ASSERT_EQ(s.result.modes.size(), 3U);
  EXPECT_EQ(s.result.modes[0].kind, ModeKind::Rigid);
  EXPECT_TRUE(std::isnan(s.omega[0][0]));  // the spin: ω = √μ has no derivative at μ = 0
  const double m = 3, L = 2, g = 9.81;
  const double inertia[2] = {1.0 + m * L * L, 0.5 + m * L * L};  // about y (Jy), about x (J)
  for (std::size_t k = 0; k < 2; ++k) {
    const double omega = std::sqrt(m * g * L / inertia[k]);
    ASSERT_NEAR(s.result.modes[k + 1].natural_frequency() / omega, 1.0, 1e-9);
    EXPECT_NEAR(s.omega[k + 1][0] / (omega / (2 * g)), 1.0, 1e-7) << "d/dg, mode " << k + 2;
    const double dL = omega / 2 * (1 / L - 2 * m * L / inertia[k]);
    EXPECT_NEAR(s.omega[k + 1][1] / dL, 1.0, 1e-7) << "d/dL, mode " << k + 2;
    const double dm = omega / 2 * (1 / m - L * L / inertia[k]);
    EXPECT_NEAR(s.omega[k + 1][2] / dm, 1.0, 1e-6) << "d/dm, mode " << k + 2;
    // The start does not change the equilibrium.
    EXPECT_LT(std::abs(s.omega[k + 1][3]) / omega, 1e-9) << "d/dx0, mode " << k + 2;
  }
  expect_differences_agree("sensitivity_pendulum", {}, {"g", "L", "m", "x0"}, 1e-2);
}

TEST(EigenSensitivity, RepeatedPairGetsTheSlopesOfItsBranches) {
  // Jy = J: the swings about x and y are one eigenvalue. Along g both branches scale alike; along
  // Jy they split, the swing about y falling (dω/dJy = −ω / 2(Jy + m L²)) and the other staying:
  // the slopes for increasing Jy, in increasing order.
  const Sensitivities s = sensitivities_of("sensitivity_pendulum", {"Jy=0.5"}, {"g", "Jy"});
  const double m = 3, L = 2, g = 9.81, Jp = 0.5 + m * L * L;
  const double omega = std::sqrt(m * g * L / Jp);
  ASSERT_NEAR(s.result.modes[2].natural_frequency() / s.result.modes[1].natural_frequency(), 1.0, 1e-8);
  for (std::size_t k : {1U, 2U}) EXPECT_NEAR(s.omega[k][0] / (omega / (2 * g)), 1.0, 1e-7) << k;
  EXPECT_NEAR(s.omega[1][1] / (-omega / (2 * Jp)), 1.0, 1e-6);
  EXPECT_NEAR(s.omega[2][1] / (omega / Jp), 0.0, 1e-6);
}

}  // namespace
}  // namespace catena::solvers
