#pragma once
/// Eigenvalue sensitivities of an eigen-analysis (docs/sensitivity.md, "Eigen-analyses") and of a
/// buckling analysis's critical load factor (below): the derivative of each mode's eigenvalue
/// μ = −s² (ω² for an undamped mode) of K φ = μ M φ with respect to named model parameters,
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
///
/// Critical load factors of a buckling analysis (docs/sensitivity.md, "Buckling analyses"): the
/// linear problem about the preload p₀ is (K(p₀) + Λ K₁) φ = 0 with K₁ = (K(p₀ + δ) − K(p₀ − δ)) / 2δ,
/// K(λ) the stiffness at the equilibrium under λ times the loads (LinearizedAnalysis::
/// form_buckling_pencil), written A φ = Λ B φ, A = K(p₀), B = −K₁, and the reported factor is
/// λ_cr = p₀ + Λ for the smallest real Λ > 0. Differentiating A φ = Λ B φ and multiplying by ψᴴ
/// (ψᴴ A = Λ ψᴴ B) leaves the same formula as above,
///
///   dλ_cr/dp = dΛ/dp = ψᴴ (dA/dp − Λ dB/dp) φ / (ψᴴ B φ) = −ψᴴ (dK(p₀)/dp + Λ dK₁/dp) φ / (ψᴴ K₁ φ),
///
/// the preload fixed (a parameter that changes it is refused). dA/dp and dB/dp are total: each
/// perturbed model solves its own equilibria at p₀, p₀ − δ and p₀ + δ and forms its own pencil, so
/// the pre-buckling state's change with p (its prestress) is included, and the derivative is that
/// of the computed λ_cr, K₁'s O(δ²) difference error and all. A repeated critical factor (a round
/// shaft's two planes) is the lowest of its cluster: its derivative for increasing p is the
/// smallest slope of the cluster's reduced pencil (the derivative where the cluster does not
/// split), NaN where that slope is not real or the cluster is incomplete. The tracked factor (a
/// root of the lowest stiffness eigenvalue along the path) is not differentiated.
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

/// dλ_cr/dp per parameter of `result.linear_factor` (analysis.buckling(true), the analysis's
/// pencil still the one of that call), NaN where there is none (see above). Collective. Throws as
/// eigenvalue_derivatives.
[[nodiscard]] std::vector<double> critical_factor_derivatives(const LinearizedAnalysis& analysis,
                                                              const BucklingResult& result,
                                                              std::span<ParameterModels> parameters);

/// The derivatives of a mode's modes.csv quantities from dμ/dp (per unit of p): ds = −dμ / 2s.
struct ModeDerivative {
  std::complex<double> s;        ///< ds/dp [1/s]
  double natural_frequency = 0;  ///< d|s|/dp [rad/s]
  double damped_frequency = 0;   ///< d|Im s|/dp [rad/s]
  double damping_ratio = 0;      ///< d(−Re s/|s|)/dp
};
[[nodiscard]] ModeDerivative mode_derivative(const Mode& mode, std::complex<double> dmu);

}  // namespace catena::solvers
