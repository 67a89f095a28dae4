#pragma once
/// Newton iteration over one time element with PETSc SNES: analytic Jacobian from the tableau,
/// a pivoting sparse direct solve (MUMPS by default), and Catena's convergence test:
///
///     converged when  max_i |δu_i| / s_i ≤ tol   after a full Newton correction δu,
///
/// with s_i the scale of unknown i: the model's length scale L for displacements [m], 1 rad for
/// rotations; multipliers are left out (newton.cpp says why). Newton converges quadratically, so a correction of
/// tol·L leaves an error of order (tol·L)²/L: the solution is at round-off when the test passes,
/// even for stiff models (EA = 1e10 N) whose residual cannot fall below EA·1e-16 — a residual
/// tolerance could never be met there. A residual that is exactly zero converges at once.
/// PETSc options on the command line (after `--`) override every default set here.
#include "assembly/tableau.hpp"

#include <petscsnes.h>

#include <exception>
#include <string>

namespace catena::solvers {

/// PETSc's name of a sparse direct solver (mumps | klu | umfpack | superlu | petsc); throws
/// std::invalid_argument for an unknown one, or a serial one on several ranks.
const char* solver_package(const std::string& name, int ranks);

/// One sparse LU solve per application (KSPPREONLY + PCLU) with `package`, in the tableau's own
/// (METIS) order.
void configure_direct_solve(KSP ksp, const char* package);

struct NewtonSettings {
  int max_iterations = 25;
  double tolerance = 1e-10;
  std::string linear_solver = "mumps";  ///< mumps | klu | umfpack | superlu | petsc
};

struct NewtonReport {
  bool converged = false;
  int iterations = 0;
  std::string reason;         ///< SNES's converged/diverged reason, or the domain error
  double residual_norm = 0;   ///< 2-norm of the last residual
  double largest_residual = 0;
  std::string largest_owner;  ///< "node 'tip' force y"
  double last_correction = 0; ///< scaled inf-norm of the last correction
};

/// Counters and times over the whole run (this rank), for summary.json.
struct NewtonCounters {
  long residual_evaluations = 0;
  long jacobian_evaluations = 0;
  double assembly_seconds = 0.0;
};

class Newton {
 public:
  Newton(assembly::Tableau& tableau, double length_scale, const NewtonSettings& settings);
  ~Newton();
  Newton(const Newton&) = delete;
  Newton& operator=(const Newton&) = delete;

  /// Solves f(u) = 0 for the time element `context`; `u` holds the predictor on entry.
  NewtonReport solve(const fem::StepState& context, Vec u);
  /// Adds `shift` (one value per row; null: none) to the Jacobian's diagonal from now on. The
  /// residual, hence the solution, is unchanged: only the path to it (see
  /// TimeIntegrator::solve_equilibrium).
  void set_jacobian_shift(Vec shift) { shift_ = shift; }
  [[nodiscard]] const NewtonCounters& counters() const { return counters_; }

 private:
  static PetscErrorCode residual_callback(SNES, Vec x, Vec f, void* self);
  static PetscErrorCode jacobian_callback(SNES, Vec x, Mat J, Mat P, void* self);
  static PetscErrorCode convergence_callback(SNES, PetscInt it, PetscReal xnorm, PetscReal snorm, PetscReal fnorm,
                                             SNESConvergedReason* reason, void* self);

  assembly::Tableau* tableau_;
  NewtonSettings settings_;
  SNES snes_ = nullptr;
  assembly::VecHandle residual_, inverse_scale_, scratch_;
  fem::StepState context_;
  NewtonCounters counters_;
  double last_correction_ = 0.0;
  Vec shift_ = nullptr;
  std::exception_ptr failure_;      // a non-domain exception thrown inside a callback
  std::string domain_message_;
};

}  // namespace catena::solvers
