#pragma once
/// Eigenvalue sensitivities of an eigen-analysis (docs/sensitivity.md, "Eigen-analyses"): the
/// derivative of each mode's eigenvalue μ = −s² (ω² for an undamped mode) of K φ = μ M φ with
/// respect to named model parameters,
///
///   dμ/dp = ψᴴ (dK/dp − μ dM/dp) φ / (ψᴴ M φ),
///
/// φ and ψ the right and left eigenvectors (K φ = μ M φ, ψᴴ K = μ ψᴴ M; LinearizedAnalysis::
/// modes(true): ψ from the transposed pencil), so K need not be symmetric (follower loads; for a symmetric pencil ψ = φ and this
/// is φᵀ(dK − μ dM)φ / φᵀMφ). dK/dp and dM/dp are total derivatives: the linearization point moves
/// with p. Each parameter's model read again at p + kε (k = −2, −1, 1, 2; io/sensitivity_models.hpp)
/// establishes its own equilibrium and is linearized there, and the scalars ψᴴ K_k φ and ψᴴ M_k φ
/// (φ, ψ the base model's; the numbering is the same, checked) are differenced with the
/// fourth-order central formula (8 (f₁ − f₋₁) − (f₂ − f₋₂)) / 12ε. No eigenproblem is solved at the
/// perturbed values: the derivative is that of the computed eigenvalue, to the eigensolver's
/// tolerance (relative residual 1e-12) divided by the relative gap to the next eigenvalue, and
/// the O(ε⁴) truncation and ~1e-16/ε rounding of the differences (ε = 3e-3 |p|,
/// io::sensitivity_relative_step).
///
/// Repeated eigenvalues (closer than `repeated_gap` relative: the two bending planes of a round
/// rod) have no derivative in general (the branches split as p changes). Their cluster's
/// derivatives are the eigenvalues of the reduced pencil (Ψᴴ (dK − μ dM) Φ, Ψᴴ M Φ), the slopes of
/// the branches leaving μ as p increases, given to the cluster's modes in increasing order of
/// their real parts. A cluster with a partner among the converged eigenvalues not kept or without
/// a left eigenvector, and rigid modes (μ = 0: ω = √μ has no derivative there), get NaN.
///
/// Quadratic problems (D ≠ 0: dampers, Coriolis and gyroscopic terms) are not differentiated.
#include "solvers/direct_sensitivity.hpp"
#include "solvers/linearized_analysis.hpp"

#include <complex>
#include <span>
#include <vector>

namespace catena::solvers {

/// Relative distance |μᵢ − μⱼ| / max(|μᵢ|, |μⱼ|) below which two eigenvalues are one cluster: the
/// eigenvectors of distinct ones are then exact to ~1e-12 / 1e-6, the derivatives to about 1e-6.
inline constexpr double repeated_gap = 1e-6;

/// dμ/dp, [mode][parameter], for the modes of `result` (analysis.modes(true)). Each parameter's
/// models must have their inertia in NodeInertia elements (elements::add_node_inertia), as the
/// analysis's model. Collective. Throws std::runtime_error when a perturbed model's numbering
/// differs, SolverFailure when its equilibrium is not found.
[[nodiscard]] std::vector<std::vector<std::complex<double>>> eigenvalue_derivatives(
    const LinearizedAnalysis& analysis, const EigenResult& result, std::span<ParameterModels> parameters);

/// The derivatives of a mode's modes.csv quantities from dμ/dp (per unit of p): ds = −dμ / 2s.
struct ModeDerivative {
  std::complex<double> s;        ///< ds/dp [1/s]
  double natural_frequency = 0;  ///< d|s|/dp [rad/s]
  double damped_frequency = 0;   ///< d|Im s|/dp [rad/s]
  double damping_ratio = 0;      ///< d(−Re s/|s|)/dp
};
[[nodiscard]] ModeDerivative mode_derivative(const Mode& mode, std::complex<double> dmu);

}  // namespace catena::solvers
