#include "solvers/newton.hpp"

#include "solvers/saddle_point_ordering.hpp"
#include "solvers/solver_failure.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <string_view>

namespace catena::solvers {

using assembly::check;
using assembly::quietly;

const char* solver_package(const std::string& name, int ranks) {
  // Of the pivoting packages, on one rank SuperLU beats the others at every size measured
  // (bench/README.md, falling chains at 135 / 9 000 / 90 000 / 900 000 unknowns: 0.30 / 21.6 /
  // 281 / 3 992 ms per step against MUMPS's 1.06 / 33.6 / 392 / 5 212 and KLU's, whose fill grows
  // fast on tableaux with multiplier rows); MUMPS has a fixed cost per call and its scaling is
  // redone at every factorization. MUMPS is the parallel one.
  if (name == "auto") return ranks == 1 ? MATSOLVERSUPERLU : MATSOLVERMUMPS;
  static const std::map<std::string, const char*> packages{{"mumps", MATSOLVERMUMPS},     {"klu", MATSOLVERKLU},
                                                           {"umfpack", MATSOLVERUMFPACK}, {"superlu", MATSOLVERSUPERLU},
                                                           {"petsc", MATSOLVERPETSC}};
  const auto it = packages.find(name);
  if (it == packages.end())
    throw std::invalid_argument("linear solver '" + name + "' unknown (auto, mumps, klu, umfpack, superlu, petsc)");
  if (ranks > 1 && name != "mumps")
    throw std::invalid_argument("linear solver '" + name + "' is serial; use mumps with MPI");
  return it->second;
}

void check_chosen_solver_package(Mat jacobian) {
  char chosen[256] = "";
  PetscBool given = PETSC_FALSE;
  check(PetscOptionsGetString(nullptr, nullptr, "-pc_factor_mat_solver_type", chosen, sizeof chosen, &given),
        "PetscOptionsGetString");
  if (!given) return;
  PetscBool available = PETSC_FALSE;
  check(MatGetFactorAvailable(jacobian, chosen, MAT_FACTOR_LU, &available), "MatGetFactorAvailable");
  if (!available)
    throw std::invalid_argument(std::string("-pc_factor_mat_solver_type ") + chosen +
                                ": no LU factorization of that name in this PETSc for this matrix (superlu, mumps, "
                                "klu, umfpack, petsc; or analysis.linear_solver)");
}

void configure_direct_solve(KSP ksp, const char* package) {
  check(KSPSetType(ksp, KSPPREONLY), "KSPSetType");
  PC pc = nullptr;
  check(KSPGetPC(ksp, &pc), "KSPGetPC");
  check(PCSetType(pc, PCLU), "PCSetType");
  check(PCFactorSetMatSolverType(pc, package), "PCFactorSetMatSolverType");
  // For PETSc's own LU the tableau is ordered with METIS_NodeND (Tableau): keep that order; the
  // other packages order for fill themselves.
  check(PCFactorSetMatOrderingType(pc, MATORDERINGNATURAL), "PCFactorSetMatOrderingType");
  // The multiplier rows have zero diagonals, so MUMPS delays pivots beyond its estimate: at 9 000
  // unknowns (a chain of 1 000 bars) the default 20 % of extra workspace ends in INFO(1) = -9.
  // 100 % more unless the user says otherwise (-mat_mumps_icntl_14 after `--`).
  if (std::string_view(package) == MATSOLVERMUMPS) {
    PetscBool given = PETSC_FALSE;
    check(PetscOptionsHasName(nullptr, nullptr, "-mat_mumps_icntl_14", &given), "PetscOptionsHasName");
    if (!given) check(PetscOptionsSetValue(nullptr, "-mat_mumps_icntl_14", "100"), "PetscOptionsSetValue");
  }
}

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

Newton::Newton(assembly::Tableau& tableau, double length_scale, const NewtonSettings& settings, RunCounters& counters)
    : tableau_(&tableau), settings_(settings), transport_(tableau), counters_(&counters) {
  int ranks = 1;
  MPI_Comm_size(tableau.comm(), &ranks);
  // On one rank `auto` is PETSc's own LU without pivoting in the saddle-point order
  // (solvers/saddle_point_ordering.hpp), SuperLU once that fails: chain1000's factorizations
  // 5.5 → 0.9 ms, its solves 0.31 → 0.09 ms (bench/README.md). Other users of solver_package
  // (shift-and-invert of indefinite pencils) keep SuperLU.
  const char* package = settings.linear_solver == "auto" && ranks == 1 ? MATSOLVERPETSC
                                                                       : solver_package(settings.linear_solver, ranks);
  residual_ = tableau.create_vector();
  correction_ = tableau.create_vector();
  inverse_scale_ = tableau.create_vector();
  scratch_ = tableau.create_vector();
  predictor_ = tableau.create_vector();
  turned_ = tableau.create_vector();
  multiplier_scale_ = tableau.create_vector();
  {
    // Lengths are measured against the model's length scale, rotations in radians. Multipliers
    // have no scale of their own: their round-off floor is ~ε m L/h² times the conditioning of the
    // constraint system (it grows like N² along a chain of N bodies), far above any fixed
    // tolerance. Static solves leave them out; time steps test them apart, weighed by the work
    // their error does (multiplier_scale_, Newton::scale_multipliers).
    PetscScalar* s = nullptr;
    check(VecGetArray(inverse_scale_, &s), "VecGetArray");
    int local = 0;
    for (PetscInt i = 0; i < tableau.n_owned(); ++i) {
      const fem::UnknownKind kind = tableau.row_kind(tableau.first_owned() + i);
      local += tableau.row_driven(tableau.first_owned() + i) ? 1 : 0;
      s[i] = kind == fem::UnknownKind::Multiplier     ? 0.0
             : kind == fem::UnknownKind::Displacement ? 1.0 / length_scale
                                                      : 1.0;
    }
    check(VecRestoreArray(inverse_scale_, &s), "VecRestoreArray");
    int total = 0;
    MPI_Allreduce(&local, &total, 1, MPI_INT, MPI_SUM, tableau.comm());
    has_drives_ = total > 0;
    check(VecSet(multiplier_scale_, 0.0), "VecSet");
  }
  check(KSPCreate(tableau.comm(), ksp_.out()), "KSPCreate");
  check(KSPSetOperators(ksp_, tableau.jacobian(), tableau.jacobian()), "KSPSetOperators");
  configure_direct_solve(ksp_, package);
  PC pc = nullptr;
  check(KSPGetPC(ksp_, &pc), "KSPGetPC");
  if (package == std::string_view(MATSOLVERPETSC)) {
    attach_saddle_point_order(tableau.jacobian(), saddle_point_order(tableau));
    // PETSc 3.18's LU on i-nodes (rows of equal pattern, taken together) ends in a segmentation
    // fault inside MatLUFactorNumeric with this order (chain15); row by row it does not.
    check(MatSetOption(tableau.jacobian(), MAT_USE_INODES, PETSC_FALSE), "MatSetOption");
    check(PCFactorSetMatOrderingType(pc, saddle_point_ordering_name()), "PCFactorSetMatOrderingType");
  }
  check(KSPSetFromOptions(ksp_), "KSPSetFromOptions");
  {
    // Options after `--` may have chosen another package or ordering.
    MatSolverType chosen = nullptr;
    check(PCFactorGetMatSolverType(pc, &chosen), "PCFactorGetMatSolverType");
    PetscBool ordering_given = PETSC_FALSE;
    check(PetscOptionsHasName(nullptr, nullptr, "-pc_factor_mat_ordering_type", &ordering_given), "PetscOptionsHasName");
    pivot_free_ = chosen && std::string_view(chosen) == MATSOLVERPETSC && !ordering_given;
    pivot_free_configured_ = pivot_free_;
    counters_->linear_solver = chosen ? chosen : package;
    // Several ranks, and no package or preconditioner asked for after `--`: each rank's interior
    // without pivoting, where the cut between ranks is narrow (solvers/interface_schur_lu.hpp).
    PetscBool package_given = PETSC_FALSE, pc_given = PETSC_FALSE;
    check(PetscOptionsHasName(nullptr, nullptr, "-pc_factor_mat_solver_type", &package_given), "PetscOptionsHasName");
    check(PetscOptionsHasName(nullptr, nullptr, "-pc_type", &pc_given), "PetscOptionsHasName");
    if (ranks > 1 && settings.linear_solver == "auto" && !package_given && !pc_given && !ordering_given) {
      auto lu = std::make_unique<InterfaceSchurLU>(tableau, saddle_point_order(tableau));
      if (lu->suits()) {
        interface_lu_ = std::move(lu);
        select_lu(true);
        pivot_free_configured_ = true;
      }
    }
  }
  PetscBool monitor = PETSC_FALSE;
  check(PetscOptionsHasName(nullptr, nullptr, "-newton_monitor", &monitor), "PetscOptionsHasName");
  monitor_ = monitor == PETSC_TRUE;
  // Every rank holds every element: the answer is the same on all of them.
  const auto& elements = tableau.model().elements;
  precise_residuals_ =
      std::any_of(elements.begin(), elements.end(), [](const auto& e) { return e->has_precise_residual(); });
}

bool Newton::kept_jacobian_fits(const fem::StepState& context) const {
  // Steps that land on the output grid differ from dt by an ulp or so: the same Jacobian.
  const fem::TimeElement& time = context.time;
  if (!kept_ || std::abs(kept_h_ - time.h) > 1e-9 * time.h || kept_scheme_ != time.scheme) return false;
  return tableau_->matrix_assemblies() == kept_assembly_;  // nobody else assembled into the matrix since
}

KeptJacobian Newton::kept_jacobian() const {
  KeptJacobian k;
  k.valid = kept_ && tableau_->matrix_assemblies() == kept_assembly_;
  k.fresh_starts = fresh_starts_;
  k.baseline = baseline_;
  k.excess = excess_;
  k.backoff = backoff_;
  k.h = kept_h_;
  k.scheme = kept_scheme_;
  k.pivoting_lu = switched_to_pivoting_;
  MPI_Comm_size(tableau_->comm(), &k.ranks);
  if (k.valid) {
    k.values = tableau_->jacobian_values();
    k.axes = transport_.saved();
  }
  return k;
}

void Newton::restore_kept_jacobian(const KeptJacobian& state) {
  int ranks = 1;
  MPI_Comm_size(tableau_->comm(), &ranks);
  kept_ = false;
  fresh_starts_ = state.fresh_starts;
  baseline_ = state.baseline;
  excess_ = state.excess;
  backoff_ = state.backoff;
  switched_to_pivoting_ = switched_to_pivoting_ || state.pivoting_lu;
  select_lu(pivot_free_configured_ && !switched_to_pivoting_);  // what the time steps that follow use
  if (!state.valid || state.ranks != ranks) return;
  // Factored again at the next solve: the same matrix gives the same factors.
  tableau_->set_jacobian_values(state.values);
  transport_.restore(state.axes);
  kept_ = true;
  kept_h_ = state.h;
  kept_scheme_ = state.scheme;
  kept_assembly_ = tableau_->matrix_assemblies();
}

void Newton::evaluate(const fem::StepState& context, Vec u, bool with_jacobian) {
  const auto start = std::chrono::steady_clock::now();
  ++counters_->residual_evaluations;
  if (with_jacobian) {
    kept_ = false;  // the matrix is being overwritten; kept again once assembled
    ++counters_->jacobian_evaluations;
    const Mat J = tableau_->jacobian();
    tableau_->assemble(context, u, residual_, J);
    if (!context.time.is_static()) scale_multipliers(u);
    kept_assembly_ = tableau_->matrix_assemblies();
    kept_ = true;
    kept_h_ = context.time.h;
    kept_scheme_ = context.time.scheme;
    transport_.record(context, u);
  } else {
    tableau_->assemble_residual(context, u, residual_);
    transport_.update(context, u);
  }
  counters_->assembly_seconds += seconds_since(start);
}

void Newton::scale_multipliers(Vec u) {
  // A time step's multiplier error δλ_r that moves no position (a node whose motion a joint
  // prescribes wholly: a driven revolute to the ground) escapes the test on the positions, yet
  // it is an error in the joint's force, whose work over the step enters the energy balance (the
  // rotating shaft's drive torque 0.1 N m off in a step at tolerance 1e-10: 6e-3 J). That work
  // is δλ_r Σ_j J_jr Δq_j over the node unknowns j it acts on (node rows are forces, their
  // unknowns the step's increments Δq = u). A position error at the tolerance, tol L_j, leaves a
  // residual J_jj tol L_j that works over Δq_j as well; the multiplier is held to the same work:
  //   s_r = |Σ_j J_jr Δq_j| / Σ_j |J_jj| L_j |Δq_j|.
  // Only drives are measured (fem::BlockInfo::driven): a constraint without a prescribed motion
  // does next to no work (its nodes move along it only as far as its curvature over the step),
  // and the chains' multipliers must stay out of the test, as their round-off floor (ε times the
  // constraints' conditioning) asks. Their rows are found once, by a sweep of the pattern, which
  // never changes: a model without drives pays nothing, one with drives a row per driven node.
  if (!has_drives_) return;
  const Mat J = tableau_->jacobian();
  if (!driven_node_rows_found_) {
    for (PetscInt row = tableau_->first_owned(); row < tableau_->first_owned() + tableau_->n_owned(); ++row) {
      if (tableau_->row_kind(row) == fem::UnknownKind::Multiplier) continue;
      PetscInt n = 0;
      const PetscInt* columns = nullptr;
      check(MatGetRow(J, row, &n, &columns, nullptr), "MatGetRow");
      if (std::any_of(columns, columns + n, [&](PetscInt c) { return tableau_->row_driven(c); }))
        driven_node_rows_.push_back(row);
      check(MatRestoreRow(J, row, &n, &columns, nullptr), "MatRestoreRow");
    }
    driven_node_rows_found_ = true;
  }
  std::vector<PetscInt> columns_of;
  std::vector<PetscScalar> work, tolerated;
  const PetscScalar *inverse = nullptr, *du = nullptr;
  check(VecGetArrayRead(inverse_scale_, &inverse), "VecGetArrayRead");
  check(VecGetArrayRead(u, &du), "VecGetArrayRead");
  for (const PetscInt row : driven_node_rows_) {
    const PetscInt i = row - tableau_->first_owned();
    PetscInt n = 0;
    const PetscInt* columns = nullptr;
    const PetscScalar* values = nullptr;
    check(MatGetRow(J, row, &n, &columns, &values), "MatGetRow");
    const auto diagonal = std::find(columns, columns + n, row);
    const double pivot = diagonal == columns + n ? 0.0 : std::abs(values[diagonal - columns]);
    for (PetscInt k = 0; k < n; ++k)
      if (tableau_->row_driven(columns[k])) {
        columns_of.push_back(columns[k]);
        work.push_back(values[k] * du[i]);
        tolerated.push_back(pivot / inverse[i] * std::abs(du[i]));
      }
    check(MatRestoreRow(J, row, &n, &columns, &values), "MatRestoreRow");
  }
  check(VecRestoreArrayRead(u, &du), "VecRestoreArrayRead");
  check(VecRestoreArrayRead(inverse_scale_, &inverse), "VecRestoreArrayRead");
  const auto n_values = static_cast<PetscInt>(columns_of.size());
  check(VecSet(multiplier_scale_, 0.0), "VecSet");
  check(VecSet(scratch_, 0.0), "VecSet");
  check(VecSetValues(multiplier_scale_, n_values, columns_of.data(), work.data(), ADD_VALUES), "VecSetValues");
  check(VecSetValues(scratch_, n_values, columns_of.data(), tolerated.data(), ADD_VALUES), "VecSetValues");
  for (Vec v : {multiplier_scale_.get(), scratch_.get()}) {
    check(VecAssemblyBegin(v), "VecAssemblyBegin");
    check(VecAssemblyEnd(v), "VecAssemblyEnd");
  }
  PetscScalar* s = nullptr;
  const PetscScalar* t = nullptr;
  check(VecGetArray(multiplier_scale_, &s), "VecGetArray");
  check(VecGetArrayRead(scratch_, &t), "VecGetArrayRead");
  for (PetscInt i = 0; i < tableau_->n_owned(); ++i) s[i] = t[i] > 0.0 ? std::abs(s[i]) / t[i] : 0.0;
  check(VecRestoreArrayRead(scratch_, &t), "VecRestoreArrayRead");
  check(VecRestoreArray(multiplier_scale_, &s), "VecRestoreArray");
}

bool Newton::solve_linear() {
  ++counters_->linear_solves;
  // The factorization happens inside the first solve after the matrix changed (PCSetUp).
  // A kept Jacobian is applied as T J Tᵀ, turned with the nodes (solvers/jacobian_transport.hpp).
  Vec rhs = residual_;
  if (transport_.active()) {
    check(VecCopy(residual_, turned_), "VecCopy");
    transport_.to_jacobian_axes(turned_);
    rhs = turned_;
  }
  const PetscErrorCode code = quietly([&] { return KSPSolve(ksp_, rhs, correction_); });
  KSPConvergedReason reason = KSP_CONVERGED_ITERATING;
  if (code == 0) check(KSPGetConvergedReason(ksp_, &reason), "KSPGetConvergedReason");
  if (code == 0 && reason >= 0 && transport_.active()) transport_.from_jacobian_axes(correction_);
  if ((code != 0 || reason < 0) && pivot_free_) {
    // A zero pivot without pivoting: the same matrix again, factored with partial pivoting.
    switched_to_pivoting_ = true;
    select_lu(false);
    kept_ = true;
    return solve_linear();
  }
  if (code != 0 || reason < 0) {
    kept_ = false;  // a failed factorization is no Jacobian to keep
    // A failed factorization can leave the package unusable (MUMPS answers every later call with
    // an error): the next solve starts over from the symbolic analysis.
    PC pc = nullptr;
    check(KSPGetPC(ksp_, &pc), "KSPGetPC");
    check(PCReset(pc), "PCReset");
    check(KSPSetOperators(ksp_, tableau_->jacobian(), tableau_->jacobian()), "KSPSetOperators");
    return false;
  }
  return true;
}

void Newton::describe_residual(NewtonReport& report) {
  check(VecNorm(residual_, NORM_2, &report.residual_norm), "VecNorm");
  check(VecCopy(residual_, scratch_), "VecCopy");
  check(VecAbs(scratch_), "VecAbs");
  PetscInt row = -1;
  check(VecMax(scratch_, &row, &report.largest_residual), "VecMax");
  report.largest_owner = tableau_->row_name(row);
}

NewtonReport Newton::solve(const fem::StepState& context, Vec u, JacobianPolicy policy) {
  // LU without pivoting for time steps only: static and equilibrium solves (Fresh) meet
  // mechanisms, whose node blocks alone are singular.
  select_lu(pivot_free_configured_ && !switched_to_pivoting_ && policy == JacobianPolicy::Reuse);
  check(VecCopy(u, predictor_), "VecCopy");
  NewtonReport report = solve_from(context, u, policy);
  if (report.converged || !pivot_free_) return report;
  // LU without pivoting can meet a pivot small enough to spoil the solves without failing (a
  // stiffness that vanishes in one direction): the step is solved again from its predictor with
  // partial pivoting, which serves from then on.
  switched_to_pivoting_ = true;
  select_lu(false);
  check(VecCopy(predictor_, u), "VecCopy");
  const int before = report.iterations;
  report = solve_from(context, u, policy);
  report.iterations += before;
  return report;
}

ShiftedCorrection Newton::correct(const fem::StepState& context, Vec u, Vec D,
                                  const std::function<double(double)>& shift_for) {
  select_lu(false);
  ShiftedCorrection c;
  try {
    evaluate(context, u, true);
  } catch (const fem::DomainError& e) {
    kept_ = false;
    c.failure = e.what();
    return c;
  }
  kept_ = false;  // a shifted matrix serves no later step
  check(VecNorm(residual_, NORM_2, &c.residual_norm), "VecNorm");
  if (!std::isfinite(c.residual_norm)) {
    c.failure = "the residual is not finite";
    return c;
  }
  c.shift = shift_for(c.residual_norm);
  check(VecAXPBY(scratch_, c.shift, 0.0, D), "VecAXPBY");
  check(MatDiagonalSet(tableau_->jacobian(), scratch_, ADD_VALUES), "MatDiagonalSet");
  if (!solve_linear()) {
    c.singular = true;
    c.failure = "the linear solver failed: singular Jacobian";
    return c;
  }
  check(VecPointwiseMult(scratch_, correction_, inverse_scale_), "VecPointwiseMult");
  check(VecNorm(scratch_, NORM_INFINITY, &c.size), "VecNorm");
  if (!std::isfinite(c.size)) {
    c.failure = "the correction is not finite";
    return c;
  }
  {
    const PetscScalar *d = nullptr, *f = nullptr, *x = nullptr;
    check(VecGetArrayRead(D, &d), "VecGetArrayRead");
    check(VecGetArrayRead(residual_, &f), "VecGetArrayRead");
    check(VecGetArrayRead(correction_, &x), "VecGetArrayRead");
    double local = 0.0;
    for (PetscInt i = 0; i < tableau_->n_owned(); ++i)
      if (d[i] > 0.0) local += x[i] * f[i];
    check(VecRestoreArrayRead(correction_, &x), "VecRestoreArrayRead");
    check(VecRestoreArrayRead(residual_, &f), "VecRestoreArrayRead");
    check(VecRestoreArrayRead(D, &d), "VecRestoreArrayRead");
    MPI_Allreduce(&local, &c.descent, 1, MPI_DOUBLE, MPI_SUM, tableau_->comm());
  }
  check(VecAXPY(u, -1.0, correction_), "VecAXPY");
  c.applied = true;
  return c;
}

void Newton::select_lu(bool pivot_free) {
  if (pivot_free == pivot_free_) return;
  pivot_free_ = pivot_free;
  kept_ = false;  // factored again by the other package
  PC pc = nullptr;
  check(KSPGetPC(ksp_, &pc), "KSPGetPC");
  check(PCReset(pc), "PCReset");
  if (interface_lu_ && pivot_free) {
    interface_lu_->install(pc);
    counters_->linear_solver = InterfaceSchurLU::name;
  } else {
    const char* package = pivot_free ? MATSOLVERPETSC : interface_lu_ ? MATSOLVERMUMPS : MATSOLVERSUPERLU;
    counters_->linear_solver = package;
    check(PCSetType(pc, PCLU), "PCSetType");
    check(PCFactorSetMatSolverType(pc, package), "PCFactorSetMatSolverType");
    check(PCFactorSetMatOrderingType(pc, pivot_free ? saddle_point_ordering_name() : MATORDERINGNATURAL),
          "PCFactorSetMatOrderingType");
  }
  check(KSPSetOperators(ksp_, tableau_->jacobian(), tableau_->jacobian()), "KSPSetOperators");
}

NewtonReport Newton::solve_from(const fem::StepState& context, Vec u, JacobianPolicy policy) {
  if (policy == JacobianPolicy::Fresh) return iterate(context, u, Start::FullNewton);
  // A recent step found its kept Jacobian wanting: this one starts with a fresh one.
  const bool old_fits = kept_jacobian_fits(context) && fresh_starts_ == 0;
  fresh_starts_ = std::max(fresh_starts_ - 1, 0);
  // The kept Jacobian measures this step's multipliers by this step's motion (a restored one
  // too, so that a continued run tests as the uninterrupted one).
  if (old_fits) scale_multipliers(u);
  NewtonReport report = iterate(context, u, old_fits ? Start::KeptJacobian : Start::FreshJacobian);
  if (old_fits && !report.old_jacobian_failed) backoff_ = 1;
  if (report.converged) {
    const bool kept_throughout =
        old_fits && !report.old_jacobian_failed && report.kept_corrections == report.iterations;
    age_kept_jacobian(kept_throughout, report.iterations);
  }
  if (report.converged || report.kept_corrections == 0) return report;
  // The chord corrections may have led where full Newton cannot recover (a stiff member that
  // turned much within the step): before the step is reported as failed, it is solved again from
  // its predictor by full Newton alone, the method without kept Jacobians.
  fresh_starts_ = std::max(fresh_starts_, 1);
  check(VecCopy(predictor_, u), "VecCopy");
  const int before = report.iterations;
  report = iterate(context, u, Start::FullNewton);
  report.iterations += before;
  return report;
}

void Newton::age_kept_jacobian(bool kept_throughout, int corrections) {
  if (!kept_throughout) {  // a Jacobian of this step: it starts aging with the next
    baseline_ = -1;
    excess_ = 0;
  } else if (baseline_ < 0) {
    baseline_ = corrections;
  } else {
    excess_ += std::max(0, corrections - baseline_);
    if (excess_ >= aging_budget) {
      fresh_starts_ = std::max(fresh_starts_, 1);
      baseline_ = -1;
      excess_ = 0;
    }
  }
}

NewtonReport Newton::iterate(const fem::StepState& step, Vec u, Start start) {
  NewtonReport report;
  fem::StepState context = step;  // asks for precise residuals once the corrections stall (below)
  // Time steps test the drives' multipliers too (scale_multipliers), static solves the positions alone.
  const bool test_multipliers = has_drives_ && !step.time.is_static();
  bool full_newton = start == Start::FullNewton;  // a fresh Jacobian at every iteration
  bool fresh = start != Start::KeptJacobian;
  int kept_corrections = 0;   // corrections of this start made with a Jacobian from an earlier iterate
  int fresh_corrections = 0;  // corrections with a Jacobian evaluated at the iterate they correct
  double previous = std::numeric_limits<double>::infinity();
  // A Jacobian from an earlier time element that fails (its corrections grow or contract slowly,
  // or lead to a state without meaning) is dropped, and the step starts again from its predictor
  // with a fresh one.
  auto old_jacobian_failed = [&] {
    if (start != Start::KeptJacobian || !std::isfinite(previous) || fresh_corrections > 0) return false;
    report.old_jacobian_failed = true;
    fresh_starts_ = backoff_;
    backoff_ = std::min(2 * backoff_, max_backoff);
    report.kept_corrections += kept_corrections;
    kept_corrections = 0;
    check(VecCopy(predictor_, u), "VecCopy");
    fresh = true;
    previous = std::numeric_limits<double>::infinity();
    return true;
  };
  auto finish = [&](bool converged, std::string reason) {
    report.converged = converged;
    report.reason = std::move(reason);
    report.kept_corrections += kept_corrections;
    return report;
  };
  while (true) {
    try {
      evaluate(context, u, fresh);
    } catch (const fem::DomainError& e) {
      kept_ = false;
      if (old_jacobian_failed()) continue;
      return finish(false, e.what());
    }
    PetscReal norm = 0.0;
    check(VecNorm(residual_, NORM_2, &norm), "VecNorm");
    if (!std::isfinite(norm)) {
      if (old_jacobian_failed()) continue;
      describe_residual(report);
      return finish(false, "the residual is not finite");
    }
    if (report.iterations == 0 && norm == 0.0) return finish(true, "the residual is exactly zero");
    if (!solve_linear()) {
      report.singular = true;
      return finish(false, "the linear solver failed: singular Jacobian (a mechanism, a body without support or "
                           "inertia, or redundant constraints)");
    }
    check(VecAXPY(u, -1.0, correction_), "VecAXPY");
    ++report.iterations;
    (fresh ? fresh_corrections : kept_corrections) += 1;
    // The multipliers' work (scale_multipliers) is a test of its own beside the positions': their
    // corrections contract at their own rate (a drive's at once from a predictor far off, or
    // slowly while the positions have converged), and mixed into d they would hide the
    // positions' contraction, which decides the Jacobians and the stalls below.
    PetscReal d_multipliers = 0.0;
    if (test_multipliers) {
      check(VecPointwiseMult(scratch_, correction_, multiplier_scale_), "VecPointwiseMult");
      check(VecNorm(scratch_, NORM_INFINITY, &d_multipliers), "VecNorm");
    }
    check(VecPointwiseMult(scratch_, correction_, inverse_scale_), "VecPointwiseMult");
    PetscReal d = 0.0;
    check(VecNorm(scratch_, NORM_INFINITY, &d), "VecNorm");
    report.last_correction = d;
    // The contraction of this correction against the last; unknown for the first of a start.
    const bool measured = std::isfinite(previous);
    const double theta = measured ? d / previous : 0.0;
    if (monitor_) {
      // Where the largest scaled correction is: the unknown that decides convergence.
      check(VecAbs(scratch_), "VecAbs");
      PetscInt row = -1;
      PetscReal largest = 0.0;
      check(VecMax(scratch_, &row, &largest), "VecMax");
      PetscPrintf(tableau_->comm(),
                  "newton t %.9g h %.3g iteration %d %s%s |f| %.3e correction %.3e contraction %.3e at %s "
                  "multipliers %.3e\n",
                  context.time.t_n, context.time.h, report.iterations, fresh ? "fresh" : "kept ",
                  context.precise ? " precise" : "", norm, d, theta, tableau_->row_name(row).c_str(), d_multipliers);
    }
    if (fresh && d <= settings_.tolerance && d_multipliers <= settings_.tolerance)
      return finish(true, "full Newton correction below the tolerance");
    // A full Newton correction of a thousand model sizes (or radians) is no step toward a
    // solution: stopped here rather than after max_iterations corrections growing to 1e154 (a
    // four-bar's static increment far from its equilibrium, which continuation then solves).
    if (fresh && !(d <= diverged_correction)) {
      describe_residual(report);
      return finish(false, format_numbers("the Newton corrections diverge (%.3g model sizes)", d));
    }
    // A kept Jacobian can hide a slowly converging component under fast ones (a stiff member
    // turned since it was evaluated: its contraction looks small until the fast part is gone), so
    // its corrections must also be a margin below the tolerance themselves.
    if (!fresh && measured && theta < 1.0 && theta / (1.0 - theta) * d <= settings_.tolerance &&
        std::max(d, d_multipliers) <= kept_correction_margin * settings_.tolerance) {
      // The residual left at the accepted iterate does work over the step: that is the step's
      // energy error. One more chord correction, from the residual there and the kept factors,
      // shrinks it by the contraction again; it is kept only when it is smaller than the last
      // (the bound just verified holds either way). Without it, the heavy top drifted by 5.6e-7 J
      // (1e-10 of its kinetic energy) once its predictor had become good enough to stop earlier.
      evaluate(context, u, false);
      if (solve_linear()) {
        check(VecPointwiseMult(scratch_, correction_, inverse_scale_), "VecPointwiseMult");
        PetscReal last = 0.0;
        check(VecNorm(scratch_, NORM_INFINITY, &last), "VecNorm");
        if (monitor_)
          PetscPrintf(tableau_->comm(), "newton t %.9g h %.3g final chord correction %.3e\n", context.time.t_n,
                      context.time.h, last);
        if (last <= d) {
          check(VecAXPY(u, -1.0, correction_), "VecAXPY");
          ++report.iterations;
          ++kept_corrections;
          report.last_correction = last;
        }
      }
      return finish(true, "chord corrections contract below the tolerance");
    }
    // Chord corrections that stall below the tolerance, above the margin its test needs, are at
    // the residual's rounding noise (a spinning beam's: fem::StepState::precise): the elements
    // are asked for precise residuals from here on, and the chord goes on from this iterate
    // with its contraction measured afresh, instead of a fresh Jacobian only to certify the noise
    // (the spin-up beam of 20 elements: 5 090 Jacobians → 4 153).
    if (precise_residuals_ && !context.precise && !fresh && measured && theta > stalled_contraction &&
        d <= settings_.tolerance) {
      context.precise = true;
      report.kept_corrections += kept_corrections;
      kept_corrections = 0;
      previous = std::numeric_limits<double>::infinity();
      continue;
    }
    // The limit counts full Newton iterations; chord corrections between them are bounded by
    // max_kept_iterations each.
    if (fresh_corrections >= settings_.max_iterations) {
      describe_residual(report);
      return finish(false, "no convergence within " + std::to_string(fresh_corrections) + " Newton iterations");
    }
    // A kept Jacobian that contracts too slowly is replaced: one from an earlier time element by
    // starting the step again, one of this step by full Newton from here on (the step is too
    // nonlinear for a chord), and a diverging chord correction is undone first.
    const bool slow = measured && theta > kept_jacobian_contraction;
    // A Jacobian from an earlier step, none evaluated in this one yet.
    const bool old_jacobian = start == Start::KeptJacobian && fresh_corrections == 0;
    // Unless one or two more chord corrections, at this contraction, land a margin below the
    // test's: cheaper than a fresh Jacobian (chain1000 evaluated one at every other step for a
    // fourth correction of 9e-12 contracting by 1e-2; the 1e5-bar chain, whose predictor error
    // near the pin grows with its tension, took 19 Jacobians in 20 steps for a fifth correction
    // contracting by 0.03–0.08, 14 with two allowed).
    const int extra_left = max_kept_iterations + 2 - kept_corrections;
    const bool one_more_suffices = measured && kept_corrections >= max_kept_iterations && extra_left > 0 &&
                                   theta < 0.1 &&
                                   std::pow(theta, extra_left) * d <= 0.5 * kept_correction_margin * settings_.tolerance;
    if (!fresh && kept_corrections >= max_kept_iterations && !one_more_suffices &&
        (!slow || (old_jacobian && theta < 1.0))) {
      // Still contracting, only not yet below the margin: the iterate is good, the next
      // correction comes from a Jacobian evaluated here (where a restart from the predictor took
      // three more), and that Jacobian serves the next step; up to max_kept_iterations chord
      // corrections may follow it.
      report.kept_corrections += kept_corrections;
      kept_corrections = 0;
      fresh = true;
      previous = d;
      continue;
    }
    if (!fresh && slow) {
      // A Jacobian from an earlier step whose corrections grow may have led away from the
      // solution from its first correction on: the step starts again from its predictor. One that
      // still contracts, only slowly, goes on, up to max_kept_iterations corrections (above), and
      // may serve the next step too: chords often contract slowly for one correction and fast
      // again after it (marking it short cost the flexible pendulum 550 Jacobians instead of 411,
      // and replacing it at once 1 382 instead of 744 with the second session's mesh).
      if (old_jacobian && theta >= 1.0 && old_jacobian_failed()) continue;
      if (!old_jacobian) {
        // A Jacobian of this step that contracts slowly: the step is too nonlinear for a chord.
        full_newton = true;
        fresh_starts_ = std::max(fresh_starts_, 1);
      }
      if (theta >= 1.0) {
        check(VecAXPY(u, 1.0, correction_), "VecAXPY");
        fresh = true;
        continue;
      }
    }
    // After a fresh Jacobian, chord corrections follow once Newton contracts well.
    fresh = full_newton || (fresh && measured && theta > kept_jacobian_contraction) || !kept_;
    previous = d;
  }
}

}  // namespace catena::solvers
