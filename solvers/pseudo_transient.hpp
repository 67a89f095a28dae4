#pragma once
/// The static equilibrium of a mechanism by pseudo-transient continuation (ΨTC: Kelley & Keyes,
/// SIAM J. Numer. Anal. 35 (1998) 508–523; Coffey, Kelley & Keyes, SIAM J. Sci. Comput. 25 (2003)
/// 553–569 for differential-algebraic systems): Newton corrections of the static residual with
/// the tangent shifted by σ_k D on the node rows,
///
///   u_{k+1} = u_k − (J(u_k) + σ_k D)⁻¹ f(u_k),   σ_k = σ_{k−1} min(‖f(u_k)‖ / ‖f(u_{k−1})‖, ½),
///
/// D a pseudo-mass (the diagonal of a dynamic step's matrix at the mechanism's time scale,
/// StaticEquilibrium::pseudo_mass), σ_0 = 1. Why this one of the globalisations issue 16 named:
/// - A mechanism's static tangent is singular in its free directions until the multipliers carry
///   the loads. With the shift every correction is a step of damped motion toward the equilibrium
///   whose constraint rows are not shifted: the joints hold at every iterate, and the first
///   correction, nearly a pure multiplier solve while σ D dominates J, is the multipliers'
///   estimate: the D⁻¹-weighted least-squares balance of the loads by the joints.
/// - σ follows the residual (switched evolution relaxation), so the shift vanishes as the residual
///   does and the last corrections are Newton's: quadratic. The shift at least halves after each
///   accepted correction (far from the equilibrium the residual may hardly change), a correction
///   longer than `max_correction` is cut to it, one that goes uphill (the shifted tangent not
///   positive along it: a pendulum near the top, whose Newton step would climb to the unstable
///   equilibrium) is tried again from the same iterate with four times the shift, a failed one
///   (a state without meaning, a singular matrix) with ten times.
/// - An energy descent needs a potential, which follower loads and dampers do not have; a trust
///   region's dogleg steps leave the constraints. The damped path stops where motion would: from
///   a generic start at a stable equilibrium (StaticEquilibrium checks the stability).
/// - Directions without stiffness even at the solution (a bar's spin between two spherical
///   joints, a hinge about the vertical): σ stays above `floor`, so a correction is the minimum-
///   norm one in D's metric, (J + σ D)⁻¹ f, whose component along them is the residual's there:
///   zero at the solution, rounding noise divided by σ D near it.
///
/// Each correction is committed (CommittedState::commit) before the next, so a large turn is taken
/// in steps, each a small incremental rotation; the last one is left in `u` for the caller to
/// commit, as Newton leaves its solution.
#include "assembly/tableau.hpp"
#include "solvers/committed_state.hpp"
#include "solvers/newton.hpp"

#include <petscvec.h>

#include <string>
#include <vector>

namespace catena::solvers {

struct PseudoTransientReport {
  bool converged = false;
  int iterations = 0;  ///< corrections applied
  std::string reason;
  double last_correction = 0.0;       ///< scaled ∞-norm, as NewtonReport::last_correction
  std::vector<double> residual_norms;  ///< ‖f‖₂ before each correction (the convergence history)
};

class PseudoTransient {
 public:
  /// The shift never falls below floor · D (class comment).
  static constexpr double floor = 1e-9;
  /// A failed correction is tried again with ten times the shift (four times for one too long)
  /// this many times in a row.
  static constexpr int max_retries = 12;
  /// The shift falls by at least this factor per accepted correction.
  static constexpr double max_shift_ratio = 0.5;
  /// Corrections longer than this (scaled: rad, or the model's length) are cut to it along their
  /// direction, and the next shift doubles: the tangent of a pendulum near the horizontal would
  /// throw it far past the bottom.
  static constexpr double max_correction = 0.25;

  /// Corrects with `newton`, commits into `state`; both must outlive it. `tolerance` is Newton's
  /// (scaled corrections), `max_iterations` bounds the corrections.
  PseudoTransient(Newton& newton, CommittedState& state, double tolerance, int max_iterations)
      : newton_(&newton), state_(&state), tolerance_(tolerance), max_iterations_(max_iterations) {}

  /// Solves the static residual of `time` from u (its predictor) with the pseudo-mass `D` (one
  /// value per row, zero on multiplier rows). Intermediate corrections are committed with `work`;
  /// on success u holds the last one, not yet committed. Accepted when a correction is below the
  /// tolerance and, at the contraction θ measured against the one before, the distance it leaves,
  /// θ/(1 − θ) times it, is too.
  PseudoTransientReport solve(const fem::TimeElement& time, Vec u, Vec D, CommittedState::Work work);

 private:
  Newton* newton_;
  CommittedState* state_;
  double tolerance_;
  int max_iterations_;
};

}  // namespace catena::solvers
