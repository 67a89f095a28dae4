#pragma once
/// Whether a static equilibrium is stable, and along which directions it has no stiffness at all:
/// the finite eigenvalues μ of J φ = μ B φ, J the static tangent at the equilibrium (the joints'
/// constraint rows included), B = I on the displacement rows, L² I on the rotation rows (L the
/// model's size) and 0 on the multiplier rows, so that μ [N/m] are the eigenvalues of the
/// stiffness on the constraints' tangent space (the constrained stiffness; the multipliers' rows
/// give the infinite ones). μ < 0: unstable (a pendulum balanced upright); μ ≈ 0: a direction the
/// equilibrium leaves free (a bar's spin between two spherical joints, a hinge about the
/// vertical), named after the unknown with the largest share of its mode.
/// Dense (LAPACK's QZ through Eigen), so only up to `max_unknowns` unknowns on one rank; larger or
/// distributed models are not checked.
#include "assembly/tableau.hpp"

#include <limits>
#include <string>
#include <vector>

namespace catena::solvers {

struct EquilibriumStability {
  bool checked = false;  ///< false: too many unknowns or several ranks
  /// The lowest finite eigenvalue's real part [N/m]; NaN when not checked.
  double lowest = std::numeric_limits<double>::quiet_NaN();
  /// Eigenvalues within this of zero are free directions: 1e-9 of the largest finite |μ| [N/m].
  double zero = 0.0;
  std::vector<std::string> free_directions;  ///< "node 'bar' rotation x", one per zero eigenvalue

  [[nodiscard]] bool unstable() const { return checked && lowest < -zero; }
};

/// The stability of the equilibrium whose static tangent is `J` (tableau's numbering).
EquilibriumStability equilibrium_stability(const assembly::Tableau& tableau, Mat J, double length_scale,
                                           int max_unknowns = 600);

}  // namespace catena::solvers
