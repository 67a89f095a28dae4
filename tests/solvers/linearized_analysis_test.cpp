// Eigen-analysis (solvers/linearized_analysis.hpp) against exact and classical values: cantilever
// bending frequencies, free-free rigid modes, pendulums (with and without a damper), and the
// rotating cantilever (flapwise and in-plane frequencies, Southwell coefficient).
#include "elements/node_inertia.hpp"
#include "io/model_reader.hpp"
#include "solvers/linearized_analysis.hpp"
#include "support/eigen_modes.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace catena::solvers {
namespace {

constexpr double two_pi = 2.0 * std::numbers::pi;

using testing::modes_of;

/// √(EI/ρA L⁴) of the steel rods of the beam models [rad/s].
double rod_frequency_unit() {
  const double E = 2.1e11, rho = 7850, d = 0.02, L = 1.0;
  const double A = std::numbers::pi * d * d / 4, I = std::numbers::pi * std::pow(d, 4) / 64;
  return std::sqrt(E * I / (rho * A * std::pow(L, 4)));
}

TEST(EigenAnalysis, CantileverBendingFrequenciesMatchEulerBernoulli) {
  const EigenResult r = modes_of("cantilever_modes");
  ASSERT_EQ(r.modes.size(), 8U);
  EXPECT_FALSE(r.quadratic);
  // Each bending frequency twice (two planes, round section): modes 1-2, 3-4, 5-6.
  const double beta[3] = {1.8751040687, 4.6940911330, 7.8547574382};
  for (int k = 0; k < 3; ++k) {
    const Mode& a = r.modes[static_cast<std::size_t>(2 * k)];
    const Mode& b = r.modes[static_cast<std::size_t>(2 * k + 1)];
    const double exact = beta[k] * beta[k] * rod_frequency_unit();
    EXPECT_EQ(a.kind, ModeKind::Elastic);
    EXPECT_NEAR(a.natural_frequency() / exact, 1.0, 5e-3) << "mode " << 2 * k + 1;
    EXPECT_NEAR(b.natural_frequency() / a.natural_frequency(), 1.0, 1e-9);
    EXPECT_LT(std::abs(a.damping_ratio()), 1e-9);
    RecordProperty("error_mode_" + std::to_string(k + 1), std::to_string(a.natural_frequency() / exact - 1.0));
  }
}

TEST(EigenAnalysis, FreeFreeBeamHasSixRigidModes) {
  const EigenResult r = modes_of("free_free_modes");
  ASSERT_EQ(r.modes.size(), 8U);
  for (std::size_t k = 0; k < 6; ++k) EXPECT_EQ(r.modes[k].kind, ModeKind::Rigid) << k;
  EXPECT_EQ(r.modes[6].kind, ModeKind::Elastic);
  // First free-free bending pair, β L = 4.7300 (rotary inertia lowers it slightly).
  const double exact = 4.7300407449 * 4.7300407449 * rod_frequency_unit();
  EXPECT_NEAR(r.modes[6].natural_frequency() / exact, 1.0, 1e-2);
  EXPECT_NEAR(r.modes[7].natural_frequency() / r.modes[6].natural_frequency(), 1.0, 1e-9);
}

TEST(EigenAnalysis, PendulumAboutItsHangingEquilibrium) {
  const EigenResult r = modes_of("pendulum_modes");
  // Spin about the vertical (free in a spherical joint), then the swing in two planes.
  ASSERT_GE(r.modes.size(), 3U);
  EXPECT_EQ(r.modes[0].kind, ModeKind::Rigid);
  const double m = 3, L = 2, g = 9.81, J = 0.01;
  const double exact = std::sqrt(m * g * L / (J + m * L * L));
  for (std::size_t k : {1U, 2U}) EXPECT_NEAR(r.modes[k].natural_frequency() / exact, 1.0, 1e-6) << k;
  // The equilibrium was computed, not given: the same model started 0.3 m aside gives the same.
  const EigenResult shifted = modes_of("pendulum_modes", {"x0=0.3"});
  EXPECT_NEAR(shifted.modes[1].natural_frequency() / exact, 1.0, 1e-6);
}

TEST(EigenAnalysis, DampedPendulumIsAQuadraticProblem) {
  const EigenResult r = modes_of("damped_pendulum_modes");
  EXPECT_TRUE(r.quadratic);
  ASSERT_GE(r.modes.size(), 1U);
  const double m = 3, L = 2, g = 9.81, J = 0.01, c = 1.5, Jp = J + m * L * L;
  const double omega = std::sqrt(m * g * L / Jp), zeta = c / (2 * std::sqrt(Jp * m * g * L));
  EXPECT_NEAR(r.modes[0].natural_frequency() / omega, 1.0, 1e-8);
  EXPECT_NEAR(r.modes[0].damping_ratio() / zeta, 1.0, 1e-8);
  EXPECT_NEAR(r.modes[0].damped_frequency() / (omega * std::sqrt(1 - zeta * zeta)), 1.0, 1e-8);
}

TEST(EigenAnalysis, AboutTheEquilibriumOrTheConfigurationAsGiven) {
  // An axial compression of half Euler's load: about the equilibrium the first bending frequency
  // drops (ω²/ω0² ≈ 1 − P/P_cr for the first mode: about 0.5 here); about the straight,
  // unstressed configuration as given it is the unloaded one.
  const double unloaded = modes_of("loaded_cantilever_modes", {"f=0"}).modes.at(0).natural_frequency();
  const double loaded = modes_of("loaded_cantilever_modes").modes.at(0).natural_frequency();
  const double as_given =
      modes_of("loaded_cantilever_modes", {"analysis.about=configuration"}).modes.at(0).natural_frequency();
  const double ratio2 = loaded * loaded / (unloaded * unloaded);
  EXPECT_GT(ratio2, 0.45);
  EXPECT_LT(ratio2, 0.55);
  EXPECT_NEAR(as_given / unloaded, 1.0, 1e-9);
  RecordProperty("frequency_ratio_squared", std::to_string(ratio2));
}

/// Flapwise (out of the plane of rotation) and in-plane first frequencies of the rotating
/// cantilever, in units of √(EI/ρA L⁴), at Ω̄ = Ω √(ρA L⁴/EI).
struct RotatingFrequencies {
  double flap = 0.0, in_plane = 0.0;
};
RotatingFrequencies rotating(double omega_bar) {
  const EigenResult r = modes_of("rotating_cantilever", {"Wbar=" + std::to_string(omega_bar)});
  // The first two modes are the first bending pair: the in-plane one is softened by Ω².
  const double a = r.modes.at(0).natural_frequency() / rod_frequency_unit();
  const double b = r.modes.at(1).natural_frequency() / rod_frequency_unit();
  return {std::max(a, b), std::min(a, b)};
}

TEST(EigenAnalysis, RotatingCantileverFlapwiseAndInPlaneFrequencies) {
  const double reference[3] = {3.6816, 4.1373, 4.7973};
  for (int k = 0; k < 3; ++k) {
    const double W = k + 1.0;
    const RotatingFrequencies f = rotating(W);
    EXPECT_NEAR(f.flap / reference[k], 1.0, 1e-2) << "Omega bar " << W;
    EXPECT_NEAR(f.in_plane * f.in_plane / (f.flap * f.flap - W * W), 1.0, 1e-2) << "Omega bar " << W;
    RecordProperty("flap_" + std::to_string(k + 1), std::to_string(f.flap));
  }
}

TEST(EigenAnalysis, SouthwellCoefficientOfTheRotatingCantilever) {
  const double w0 = rotating(0.0).flap;
  EXPECT_NEAR(w0 / (1.8751040687 * 1.8751040687), 1.0, 5e-3);
  for (const double W : {0.5, 1.0}) {  // Ω ≤ 0.3 ω0
    const double w = rotating(W).flap;
    const double K = (w * w - w0 * w0) / (W * W);
    EXPECT_NEAR(K / 1.193, 1.0, 2e-2) << "Omega bar " << W;
  }
}

}  // namespace
}  // namespace catena::solvers
