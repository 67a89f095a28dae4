#pragma once
/// Newton iteration over one time element: analytic Jacobian from the tableau, a sparse direct
/// solve (KSPPREONLY; by default PETSc's own LU without pivoting in the saddle-point order, on
/// several ranks for each rank's interior with the cut between them solved through its Schur
/// complement (solvers/interface_schur_lu.hpp); SuperLU, or MUMPS on several ranks, when that
/// fails or does not suit), and an
/// error estimate checked within every step (docs/architecture.md, "Newton and its convergence
/// test").
///
/// Corrections are measured as d_k = max_i |δu_i| / s_i, with s_i the scale of unknown i: the
/// model's length scale L for displacements [m], 1 rad for rotations; multipliers are left out.
/// Time steps also measure the corrections of the drives' multipliers apart, as d^λ_k, by the work their error
/// does over the step against that of a position error at the tolerance
/// (Newton::scale_multipliers says why), and require d^λ_k ≤ tol in (a), ≤
/// `kept_correction_margin` · tol in (b). After correction k a step is accepted when
///
///   (a) δu_k came from a Jacobian evaluated at the iterate it corrected (a full Newton step)
///       and d_k ≤ tol: Newton converges quadratically, so an error of order (tol·L)²/L remains;
///       or
///   (b) δu_k came from a kept Jacobian, k ≥ 2, the contraction θ_k = d_k / d_{k−1} is below 1,
///       θ_k/(1 − θ_k) d_k ≤ tol (the distance to the solution left by a contraction θ), and
///       d_k ≤ `kept_correction_margin` · tol (a kept Jacobian can hide a slow component); one
///       more chord correction from the residual at the accepted iterate then follows, kept when
///       it is smaller than d_k: the residual left does work over the step (the step's energy
///       error), and this shrinks it once more for one residual evaluation. Chord corrections
///       that stall below tol (contraction above `stalled_contraction`) are at the residual's
///       rounding noise: from there on the step's residuals are evaluated precisely
///       (fem::StepState::precise) and the chord goes on, instead of a fresh Jacobian whose only
///       use would be to certify the noise.
///
/// Either way the bound is verified within the step, on that step's own corrections; a residual
/// that is exactly zero converges at once. A residual tolerance would not work for stiff models:
/// with EA = 1e10 N the residual cannot fall below about EA·1e-16.
///
/// Jacobians: each iteration stamps the elements once, for the residual alone or for the residual
/// and the Jacobian together. With `JacobianPolicy::Reuse` the factored Jacobian is kept across
/// iterations and time elements (a chord, or simplified, Newton method) as long as it contracts
/// well: a fresh one is evaluated and factored when the contraction of a kept one exceeds
/// `kept_jacobian_contraction` (one from an earlier step: at the iterate after
/// `max_kept_iterations` corrections, or from the predictor again when its corrections grow; one
/// of this step: full Newton follows), at the iterate after `max_kept_iterations` chord
/// corrections that still contract fast (unless one or two more land a margin below the test), and
/// whenever h, the scheme or the matrix changed. Chord corrections apply the kept Jacobian turned
/// with the nodes since it was evaluated (solvers/jacobian_transport.hpp: the spin-up beam 3 265 →
/// 871 Jacobians, the flexible pendulum 387 → 12), and a kept Jacobian is replaced once the
/// extra corrections it costs as it ages add up to about what a fresh one costs (aging_budget).
/// `Fresh` evaluates it at every iteration (static and equilibrium solves). PETSc options on the
/// command line (after `--`) configure the linear solver (`-pc_factor_mat_solver_type`,
/// `-mat_mumps_icntl_*`, ...).
#include "assembly/tableau.hpp"
#include "solvers/interface_schur_lu.hpp"
#include "solvers/jacobian_transport.hpp"
#include "solvers/run_counters.hpp"

#include <petscksp.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace catena::solvers {

/// PETSc's name of a sparse direct solver (auto | mumps | klu | umfpack | superlu | petsc) on
/// `ranks`; throws std::invalid_argument for an unknown one, or a serial one on several ranks.
/// `auto` is SuperLU on one rank, MUMPS on several (newton.cpp); Newton itself takes PETSc's own
/// LU in the saddle-point order for `auto` on one rank.
const char* solver_package(const std::string& name, int ranks);

/// One sparse LU solve per application (KSPPREONLY + PCLU) with `package`, in the tableau's own
/// (METIS) order.
void configure_direct_solve(KSP ksp, const char* package);

/// Throws std::invalid_argument when the LU package the options after `--` choose
/// (-pc_factor_mat_solver_type) is not one this PETSc has for the tableau's matrix: bad input,
/// found before a run writes anything (it used to fail as a "singular Jacobian" in the first step).
void check_chosen_solver_package(Mat jacobian);

struct NewtonSettings {
  int max_iterations = 25;
  double tolerance = 1e-10;
  std::string linear_solver = "auto";  ///< auto | mumps | klu | umfpack | superlu | petsc
};

/// The analysis' Newton settings (max_newton_iterations, newton_tolerance, linear_solver).
[[nodiscard]] inline NewtonSettings newton_settings(const fem::AnalysisSettings& a) {
  return NewtonSettings{a.max_newton_iterations, a.newton_tolerance, a.linear_solver};
}

/// The Jacobian a solver keeps across time elements, as run state: a checkpoint holds it, so that
/// a continued run takes the iterations of the uninterrupted one (bit for bit).
struct KeptJacobian {
  bool valid = false;       ///< a factored Jacobian is kept
  int fresh_starts = 0;  ///< steps that start with a fresh Jacobian before the kept one is tried again
  int backoff = 1;       ///< fresh starts after the next failure of a kept Jacobian (Newton::max_backoff)
  int baseline = -1;     ///< corrections of the first step that kept it (-1: none yet)
  int excess = 0;        ///< corrections beyond `baseline` in the steps since (Newton::aging_budget)
  double h = 0.0;           ///< the step it was evaluated for [s]
  fem::TimeScheme scheme = fem::TimeScheme::Midpoint;
  int ranks = 1;               ///< the numbering it belongs to (another rank count: not used)
  std::vector<double> values;  ///< Tableau::jacobian_values (rank 0; empty when not valid)
  std::vector<double> axes;    ///< JacobianTransport::saved: the nodes' axes at its iterate (rank 0)
  /// LU without pivoting failed once in the run: SuperLU since (Newton::select_lu).
  bool pivoting_lu = false;
};

/// What Newton::correct did.
struct ShiftedCorrection {
  bool applied = false;      ///< false: a domain error, a residual not finite or a failed solve (u unchanged)
  bool singular = false;     ///< the linear solve failed
  std::string failure;       ///< why it was not applied
  double residual_norm = 0;  ///< ‖f(u)‖₂ before the correction
  double size = 0;           ///< its scaled ∞-norm (as NewtonReport::last_correction)
  double shift = 0;          ///< σ
  /// δuᵀ f(u) over the rows where D > 0 (the node rows): with the constraints met, δqᵀ (J + σ D) δq,
  /// negative where the shifted tangent is not positive along the step (an uphill step).
  double descent = 0;
};

/// When a solve evaluates and factors a new Jacobian.
enum class JacobianPolicy {
  Fresh,  ///< at every iteration (full Newton)
  Reuse,  ///< keep the last factored one while it contracts well (across time elements too)
};

struct NewtonReport {
  bool converged = false;
  int iterations = 0;         ///< corrections applied
  std::string reason;         ///< why it stopped: converged, diverged, a domain error, a failed solve
  double residual_norm = 0;   ///< 2-norm of the last residual
  double largest_residual = 0;
  std::string largest_owner;  ///< "node 'tip' force y"
  double last_correction = 0; ///< scaled inf-norm of the last correction
  int kept_corrections = 0;   ///< corrections made with a Jacobian from an earlier iterate
  bool old_jacobian_failed = false;  ///< the Jacobian from an earlier step failed: started afresh
  bool singular = false;             ///< it stopped because the linear solve failed (a singular Jacobian)
};

class Newton {
 public:
  /// A kept Jacobian whose corrections shrink by less than this factor per iteration is replaced.
  /// With the extrapolating predictor (errors ~1e-7 L) chords often contract by 1e-3 and then, for
  /// one correction, by 0.1–0.3 (a second, slower component); 0.1 replaced those Jacobians, 0.3
  /// keeps them: the flexible pendulum 727 → 607 Jacobians (2.15 → 1.96 s), the others unchanged
  /// within noise.
  static constexpr double kept_jacobian_contraction = 0.3;
  /// A full Newton correction larger than this (scaled: model sizes, radians) has diverged.
  static constexpr double diverged_correction = 1e3;
  /// Chord corrections before a Jacobian is replaced; up to two more when, at the measured
  /// contraction (below 0.1), they land a margin below the acceptance test's (newton.cpp).
  static constexpr int max_kept_iterations = 4;
  /// Chord corrections are accepted only when they are themselves this far below the tolerance
  /// (newton.cpp says why). With 1 the free-flying chain (stiff trusses turning 0.3 rad per step)
  /// lost energy at 3.5e-8 of its kinetic energy; with 1e-2 it kept it to 1e-10 like full Newton.
  /// Since an accepted step takes one more chord correction (header comment), 3e-2 keeps the
  /// energy errors below what 1e-2 gave without it (chain15 8.4e-9 → 2.6e-10 J, the heavy top
  /// 2.4e-8 J against its 5.4e-7 J bound) with a quarter fewer Jacobians (chain1000 715 → 493);
  /// 1e-1 halves them but the heavy top then drifts past its bound.
  static constexpr double kept_correction_margin = 3e-2;
  /// Chord corrections below the tolerance that shrink by less than this factor have stalled at
  /// the residual's rounding noise: the step asks for precise residuals (fem::StepState::precise).
  static constexpr double stalled_contraction = 0.5;
  /// A Jacobian from an earlier step that fails is not tried again for `backoff` steps, doubled
  /// at each consecutive failure up to this (and back to 1 when one serves): on a beam spinning
  /// steadily (the spin-up after 2 s) a one-step-old Jacobian always fails, where trying it every
  /// other step cost two wasted corrections each time (10 % of the spin-up's iterations); where
  /// it fails now and then (the flexible pendulum) nothing changes.
  static constexpr int max_backoff = 16;
  /// A kept Jacobian ages: the model deforms away from where it was evaluated (turns are
  /// transported, solvers/jacobian_transport.hpp; bending is not), and each step takes more
  /// corrections than the first step that kept it. Once those extra corrections add up to this
  /// many, the next step starts with a fresh Jacobian: about what one costs in residual
  /// evaluations (a beam's Jacobian 24 µs against its residual's 1.4 µs and the solve; a chain's
  /// factorization 5 ms against a solve's 0.3). The flexible pendulum took 4.0 residuals per step
  /// with a Jacobian under 10 steps old and 5.0 past 30 steps; with this rule 7 048 → 6 196
  /// residuals for 12 → 63 Jacobians, the others within 2 %.
  static constexpr int aging_budget = 10;

  /// Counts its work into `counters` (this rank's residual and Jacobian evaluations, linear solves,
  /// assembly time, the package in use), which must outlive it.
  Newton(assembly::Tableau& tableau, double length_scale, const NewtonSettings& settings, RunCounters& counters);
  Newton(const Newton&) = delete;
  Newton& operator=(const Newton&) = delete;

  /// Solves f(u) = 0 for the time element `context`; `u` holds the predictor on entry.
  NewtonReport solve(const fem::StepState& context, Vec u, JacobianPolicy policy = JacobianPolicy::Fresh);
  /// The kept Jacobian and what decides its reuse (collective: the values are gathered on rank 0).
  [[nodiscard]] KeptJacobian kept_jacobian() const;
  /// Takes over a kept Jacobian saved by `kept_jacobian` (collective; `state.values` on every
  /// rank). One saved under another rank count is not used: the next solve starts afresh.
  void restore_kept_jacobian(const KeptJacobian& state);
  /// One full Newton correction of u with the Jacobian shifted on its diagonal by σ D, factored
  /// by LU with partial pivoting: u ← u − (J + σ D)⁻¹ f(u), σ = `shift_for(‖f(u)‖₂)`. The steps of
  /// a globalised solve that chooses its shift by the residual (solvers/pseudo_transient.hpp).
  [[nodiscard]] ShiftedCorrection correct(const fem::StepState& context, Vec u, Vec D,
                                          const std::function<double(double)>& shift_for);

 private:
  enum class Start {
    FullNewton,     ///< a fresh Jacobian at every iteration
    FreshJacobian,  ///< a fresh one first, then chord corrections while they contract well
    KeptJacobian,   ///< chord corrections with the Jacobian kept from an earlier time element
  };
  /// The iterations of one start from the predictor in u.
  NewtonReport iterate(const fem::StepState& context, Vec u, Start start);
  /// Stamps the elements at u: the residual, and the Jacobian too when `with_jacobian`, which is
  /// then factored. Throws fem::DomainError.
  void evaluate(const fem::StepState& context, Vec u, bool with_jacobian);
  /// multiplier_scale_ from the Jacobian in the tableau's matrix and the step's increments in u
  /// (newton.cpp says why).
  void scale_multipliers(Vec u);
  /// δ = J⁻¹ f with the current factorization; false when the factorization failed.
  bool solve_linear();
  /// The solve of one start from `u` (the predictor), by `policy`.
  NewtonReport solve_from(const fem::StepState& context, Vec u, JacobianPolicy policy);
  /// PETSc's LU without pivoting in the saddle-point order (true; on several ranks with the cut's
  /// Schur complement) or partial pivoting (false: SuperLU on one rank, MUMPS on several).
  void select_lu(bool pivot_free);
  /// After a converged step: ages the kept Jacobian (aging_budget) by the step's corrections, or
  /// starts its aging afresh when the step did not keep one throughout.
  void age_kept_jacobian(bool kept_throughout, int corrections);
  /// Fills the report's residual figures (norm, largest entry and its owner).
  void describe_residual(NewtonReport& report);
  /// Whether the tableau's matrix still holds the factored Jacobian of a step like `context`.
  [[nodiscard]] bool kept_jacobian_fits(const fem::StepState& context) const;

  assembly::Tableau* tableau_;
  NewtonSettings settings_;
  assembly::Handle<KSP, KSPDestroy> ksp_;
  assembly::VecHandle residual_, correction_, inverse_scale_, scratch_, predictor_;
  /// Time steps' scale of the multiplier rows (0 on node rows): the work their error does
  /// (scale_multipliers), for the Jacobian in use and the step's motion.
  assembly::VecHandle multiplier_scale_;
  bool has_drives_ = false;  ///< the model has driven multiplier rows (on any rank)
  /// This rank's node rows coupled to a driven multiplier (found at the first step: the pattern
  /// is fixed), the only rows scale_multipliers reads.
  std::vector<PetscInt> driven_node_rows_;
  bool driven_node_rows_found_ = false;
  JacobianTransport transport_;       ///< co-rotates the kept Jacobian for chord corrections
  assembly::VecHandle turned_;        ///< the residual in the kept Jacobian's axes
  RunCounters* counters_;
  bool monitor_ = false;  ///< -newton_monitor: one line per correction on stdout
  /// Several ranks with a narrow cut: the pivot-free solve (absent: MUMPS throughout).
  std::unique_ptr<InterfaceSchurLU> interface_lu_;
  /// The KSP factors with PETSc's LU without pivoting in the saddle-point order
  /// (solvers/saddle_point_ordering.hpp) now; false: SuperLU or MUMPS (Newton::select_lu).
  bool pivot_free_ = false;
  bool pivot_free_configured_ = false;  ///< for time steps, unless it failed once
  bool switched_to_pivoting_ = false;   ///< KeptJacobian::pivoting_lu
  bool precise_residuals_ = false;  ///< some element evaluates precisely when asked (fem::Element)
  // The kept Jacobian: valid flag, the step it was evaluated for, the tableau's assembly count.
  bool kept_ = false;
  int fresh_starts_ = 0;  ///< coming steps that start with a fresh Jacobian (KeptJacobian)
  int backoff_ = 1;       ///< fresh starts after the next failure of a Jacobian from an earlier step
  int baseline_ = -1;     ///< KeptJacobian::baseline
  int excess_ = 0;        ///< KeptJacobian::excess
  double kept_h_ = 0.0;
  fem::TimeScheme kept_scheme_ = fem::TimeScheme::Midpoint;
  long kept_assembly_ = 0;
};

}  // namespace catena::solvers
