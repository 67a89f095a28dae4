#include "solvers/newton.hpp"

#include <chrono>
#include <cmath>
#include <map>

namespace catena::solvers {

using assembly::check;

const char* solver_package(const std::string& name, int ranks) {
  static const std::map<std::string, const char*> packages{{"mumps", MATSOLVERMUMPS},     {"klu", MATSOLVERKLU},
                                                           {"umfpack", MATSOLVERUMFPACK}, {"superlu", MATSOLVERSUPERLU},
                                                           {"petsc", MATSOLVERPETSC}};
  const auto it = packages.find(name);
  if (it == packages.end())
    throw std::invalid_argument("linear solver '" + name + "' unknown (mumps, klu, umfpack, superlu, petsc)");
  if (ranks > 1 && name != "mumps")
    throw std::invalid_argument("linear solver '" + name + "' is serial; use mumps with MPI");
  return it->second;
}

void configure_direct_solve(KSP ksp, const char* package) {
  check(KSPSetType(ksp, KSPPREONLY), "KSPSetType");
  PC pc = nullptr;
  check(KSPGetPC(ksp, &pc), "KSPGetPC");
  check(PCSetType(pc, PCLU), "PCSetType");
  check(PCFactorSetMatSolverType(pc, package), "PCFactorSetMatSolverType");
  // The tableau is already ordered with METIS_NodeND: keep that order where the package allows.
  check(PCFactorSetMatOrderingType(pc, MATORDERINGNATURAL), "PCFactorSetMatOrderingType");
}

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

Newton::Newton(assembly::Tableau& tableau, double length_scale, const NewtonSettings& settings)
    : tableau_(&tableau), settings_(settings) {
  int ranks = 1;
  MPI_Comm_size(tableau.comm(), &ranks);
  const char* package = solver_package(settings.linear_solver, ranks);
  residual_ = tableau.create_vector();
  inverse_scale_ = tableau.create_vector();
  scratch_ = tableau.create_vector();
  {
    // Lengths are measured against the model's length scale, rotations in radians. Multipliers
    // are left out: their round-off floor is ~ε m L/h² times the conditioning of the constraint
    // system (it grows like N² along a chain of N bodies), far above any fixed tolerance, and an
    // error δλ moves the positions by ~h² δλ/m, which the test does see: once the positions have
    // converged, the multipliers are as accurate as the inertia they balance allows.
    PetscScalar* s = nullptr;
    check(VecGetArray(inverse_scale_, &s), "VecGetArray");
    for (PetscInt i = 0; i < tableau.n_owned(); ++i) {
      const fem::UnknownKind kind = tableau.row_kind(tableau.first_owned() + i);
      const bool length = kind == fem::UnknownKind::Displacement || kind == fem::UnknownKind::RelativeCoordinate;
      s[i] = kind == fem::UnknownKind::Multiplier ? 0.0 : length ? 1.0 / length_scale : 1.0;
    }
    check(VecRestoreArray(inverse_scale_, &s), "VecRestoreArray");
  }
  check(SNESCreate(tableau.comm(), &snes_), "SNESCreate");
  check(SNESSetType(snes_, SNESNEWTONLS), "SNESSetType");
  check(SNESSetFunction(snes_, residual_, &Newton::residual_callback, this), "SNESSetFunction");
  check(SNESSetJacobian(snes_, tableau.jacobian(), tableau.jacobian(), &Newton::jacobian_callback, this),
        "SNESSetJacobian");
  check(SNESSetConvergenceTest(snes_, &Newton::convergence_callback, this, nullptr), "SNESSetConvergenceTest");
  check(SNESSetTolerances(snes_, 0.0, 0.0, 0.0, settings.max_iterations, PETSC_DEFAULT), "SNESSetTolerances");
  SNESLineSearch ls = nullptr;
  check(SNESGetLineSearch(snes_, &ls), "SNESGetLineSearch");
  check(SNESLineSearchSetType(ls, SNESLINESEARCHBASIC), "SNESLineSearchSetType");
  KSP ksp = nullptr;
  check(SNESGetKSP(snes_, &ksp), "SNESGetKSP");
  configure_direct_solve(ksp, package);
  check(SNESSetFromOptions(snes_), "SNESSetFromOptions");
}

Newton::~Newton() {
  if (snes_) SNESDestroy(&snes_);
}

PetscErrorCode Newton::residual_callback(SNES snes, Vec x, Vec f, void* ctx) {
  auto* self = static_cast<Newton*>(ctx);
  const auto start = std::chrono::steady_clock::now();
  try {
    self->tableau_->assemble_residual(self->context_, x, f);
  } catch (const fem::DomainError& e) {
    self->domain_message_ = e.what();
    SNESSetFunctionDomainError(snes);
  } catch (...) {
    self->failure_ = std::current_exception();
    SNESSetFunctionDomainError(snes);
  }
  ++self->counters_.residual_evaluations;
  self->counters_.assembly_seconds += seconds_since(start);
  return 0;
}

PetscErrorCode Newton::jacobian_callback(SNES snes, Vec x, Mat J, Mat, void* ctx) {
  auto* self = static_cast<Newton*>(ctx);
  const auto start = std::chrono::steady_clock::now();
  try {
    self->tableau_->assemble_jacobian(self->context_, x, J);
    if (self->shift_) PetscCall(MatDiagonalSet(J, self->shift_, ADD_VALUES));
  } catch (const fem::DomainError& e) {
    self->domain_message_ = e.what();
    SNESSetJacobianDomainError(snes);
  } catch (...) {
    self->failure_ = std::current_exception();
    SNESSetJacobianDomainError(snes);
  }
  ++self->counters_.jacobian_evaluations;
  self->counters_.assembly_seconds += seconds_since(start);
  return 0;
}

PetscErrorCode Newton::convergence_callback(SNES snes, PetscInt it, PetscReal, PetscReal, PetscReal fnorm,
                                            SNESConvergedReason* reason, void* ctx) {
  auto* self = static_cast<Newton*>(ctx);
  *reason = SNES_CONVERGED_ITERATING;
  if (std::isnan(fnorm) || std::isinf(fnorm)) {
    *reason = SNES_DIVERGED_FNORM_NAN;
    return 0;
  }
  if (it == 0) {
    if (fnorm == 0.0) *reason = SNES_CONVERGED_FNORM_ABS;
    return 0;
  }
  Vec update = nullptr;
  PetscCall(SNESGetSolutionUpdate(snes, &update));
  PetscCall(VecPointwiseMult(self->scratch_, update, self->inverse_scale_));
  PetscReal scaled = 0.0;
  PetscCall(VecNorm(self->scratch_, NORM_INFINITY, &scaled));
  self->last_correction_ = scaled;
  if (scaled <= self->settings_.tolerance)
    *reason = SNES_CONVERGED_SNORM_RELATIVE;
  else if (it >= self->settings_.max_iterations)
    *reason = SNES_DIVERGED_MAX_IT;
  return 0;
}

NewtonReport Newton::solve(const fem::StepState& context, Vec u) {
  context_ = context;
  failure_ = nullptr;
  domain_message_.clear();
  last_correction_ = 0.0;
  // A failed factorization (MUMPS on a singular Jacobian) comes back as an error code, not as a
  // divergence reason: report it as a failed iteration, so the step is cut and, if it keeps
  // failing, the run ends with a message, instead of a PETSc traceback.
  check(PetscPushErrorHandler(PetscReturnErrorHandler, nullptr), "PetscPushErrorHandler");
  const PetscErrorCode solved = SNESSolve(snes_, nullptr, u);
  check(PetscPopErrorHandler(), "PetscPopErrorHandler");
  if (failure_) std::rethrow_exception(failure_);
  if (solved != 0) {
    NewtonReport failed;
    failed.converged = false;
    failed.reason = "the linear solver failed: singular Jacobian (a mechanism, a body without support or "
                    "inertia, or redundant constraints)";
    return failed;
  }
  SNESConvergedReason reason{};
  check(SNESGetConvergedReason(snes_, &reason), "SNESGetConvergedReason");
  NewtonReport report;
  PetscInt its = 0;
  check(SNESGetIterationNumber(snes_, &its), "SNESGetIterationNumber");
  report.iterations = static_cast<int>(its);
  report.converged = reason > 0;
  report.reason = domain_message_.empty() ? SNESConvergedReasons[reason] : domain_message_;
  report.last_correction = last_correction_;
  if (!report.converged && domain_message_.empty()) {
    check(VecNorm(residual_, NORM_2, &report.residual_norm), "VecNorm");
    check(VecCopy(residual_, scratch_), "VecCopy");
    check(VecAbs(scratch_), "VecAbs");
    PetscInt row = -1;
    check(VecMax(scratch_, &row, &report.largest_residual), "VecMax");
    report.largest_owner = tableau_->row_name(row);
  }
  return report;
}

}  // namespace catena::solvers
