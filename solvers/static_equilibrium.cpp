#include "solvers/static_equilibrium.hpp"

#include "solvers/redundancy.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace catena::solvers {

using assembly::check;

double StaticEquilibrium::mechanism_time_scale() const {
  const double g = model_->gravity.norm();
  return 0.1 * (g > 0.0 ? std::sqrt(model_->length_scale / g) : model_->analysis.dt);
}

void StaticEquilibrium::check_redundancy(Vec u) {
  if (!state_->has_multipliers()) return;
  // On a dynamic step's matrix whatever the analysis: with inertia on the node rows, only the
  // constraints' multipliers can leave it singular. A static tangent is also singular along a
  // mechanism's free directions (a pendulum started horizontal), which are not redundant
  // constraints: a static analysis of a pendulum was refused as an over-constrained loop.
  const double h = model_->analysis.type == fem::AnalysisType::Dynamic ? model_->analysis.dt : mechanism_time_scale();
  const fem::StepState s = state_->describe(fem::TimeElement::dynamic_step(0.0, h, model_->analysis.scheme));
  state_->predict(s.time, u);
  tableau_->assemble_jacobian(s, u, tableau_->jacobian());
  const std::vector<std::string> dependent = dependent_unknowns(*tableau_, tableau_->jacobian());
  if (dependent.empty()) return;
  std::string msg = "the Newton matrix is singular at t = 0: " + std::to_string(dependent.size()) +
                    " unknown(s) cannot be determined (";
  for (std::size_t k = 0; k < dependent.size(); ++k) msg += (k ? ", " : "") + dependent[k];
  msg += "); these joints' constraints are redundant (an over-constrained loop): free those components, "
         "e.g. use a spherical or cylindrical joint for one joint of a planar loop, or run the model with planar";
  throw SolverFailure(msg, 0.0);
}

bool StaticEquilibrium::relax_mechanism(Vec u) {
  // A mechanism held by joints (a hanging chain) has no static stiffness in its free directions
  // until its multipliers carry the loads: its static tangent is singular while they are zero.
  // Newton on the static residual with a mass-like shift 2m/h² on the node rows (the dynamic
  // tangent's diagonal at rest) takes bounded steps toward the equilibrium and establishes the
  // multipliers; the solution is the static one, only the path differs. Rounds of it, with h
  // starting at a tenth of √(L/g) (the mechanism's own time scale), doubling after a round that
  // stays finite and quartered after one that does not, leave the exact static solve a good start.
  double h = mechanism_time_scale();
  const assembly::VecHandle shift = tableau_->create_vector();
  for (int round = 0; round < 16; ++round) {
    check(VecZeroEntries(u), "VecZeroEntries");
    tableau_->assemble_jacobian(state_->describe(0.0, h), u, tableau_->jacobian());
    check(MatGetDiagonal(tableau_->jacobian(), shift), "MatGetDiagonal");
    // Rows of each kind get at least 1 % of the kind's largest shift: a slender bar's tiny
    // inertia about its axis must not let the step in that direction run away. Other rows
    // (relative coordinates, multipliers) get none.
    PetscScalar* a = nullptr;
    check(VecGetArray(shift, &a), "VecGetArray");
    auto node_kind = [&](PetscInt i) {  // 0: displacement, 1: rotation, -1: not a node row
      const fem::UnknownKind kind = tableau_->row_kind(tableau_->first_owned() + i);
      return kind == fem::UnknownKind::Displacement ? 0 : kind == fem::UnknownKind::Rotation ? 1 : -1;
    };
    double floor_local[2] = {0.0, 0.0}, floor[2] = {0.0, 0.0};
    for (PetscInt i = 0; i < tableau_->n_owned(); ++i)
      if (const int k = node_kind(i); k >= 0) floor_local[k] = std::max(floor_local[k], 1e-2 * std::abs(a[i]));
    MPI_Allreduce(floor_local, floor, 2, MPI_DOUBLE, MPI_MAX, tableau_->comm());
    for (PetscInt i = 0; i < tableau_->n_owned(); ++i) {
      const int k = node_kind(i);
      a[i] = k >= 0 ? std::max(std::abs(a[i]), floor[k]) : 0.0;
    }
    check(VecRestoreArray(shift, &a), "VecRestoreArray");
    const fem::StepState s = state_->describe(fem::TimeElement::equilibrium(0.0, 1.0));
    state_->predict(s.time, u);
    newton_->set_jacobian_shift(shift);
    const NewtonReport rep = newton_->solve(s, u);
    newton_->set_jacobian_shift(nullptr);
    counters_->newton_iterations += rep.iterations;
    PetscReal norm = 0.0;
    check(VecNorm(u, NORM_INFINITY, &norm), "VecNorm");
    if (!std::isfinite(norm) || !std::isfinite(rep.residual_norm)) {
      h *= 0.25;  // too bold: a larger shift, from the same state
      continue;
    }
    state_->commit(s, u, CommittedState::Work::Leave);  // even unconverged: a step toward the equilibrium
    if (rep.converged) return true;
    h *= 2.0;
  }
  return false;
}

void StaticEquilibrium::solve(Vec u, double from, double to) {
  // Raise the loads in increments of the load factor: start with all of it, halve on failure,
  // double again after two successes. Work and energy are not tallied: the run starts here.
  // The relaxation works at load factor 1. When it converged there, its state is an equilibrium
  // that a singular static tangent (a body free to spin about its joint's axis) cannot improve on.
  const bool relaxed = state_->has_multipliers() && from == 0.0 && relax_mechanism(u) && to == 1.0;
  const double span = to - from;  // either sign: a buckling search also steps back
  const double min_increment = std::abs(span) / 4096;
  double lambda = from, increment = span;
  int successes = 0;
  while (lambda != to) {
    const double load_factor = std::abs(to - lambda) <= std::abs(increment) ? to : lambda + increment;
    const fem::StepState s = state_->describe(fem::TimeElement::equilibrium(0.0, load_factor));
    state_->predict(s.time, u);  // no node increments; the joints' last multipliers
    const NewtonReport rep = newton_->solve(s, u);
    counters_->newton_iterations += rep.iterations;
    if (!rep.converged) {
      ++counters_->cut_steps;
      increment *= 0.5;
      successes = 0;
      if (relaxed && rep.singular) return;
      if (std::abs(increment) < min_increment) {
        std::string msg = format_numbers("initial equilibrium: Newton failed at load factor %.6g (", load_factor);
        msg += rep.reason + ")";
        if (!rep.largest_owner.empty()) msg += "; largest residual in " + rep.largest_owner;
        msg += "; the loads at t = 0 may have no static equilibrium (a mechanism, a free body)";
        throw SolverFailure(msg, 0.0);
      }
      continue;
    }
    state_->commit(s, u, CommittedState::Work::Leave);
    lambda = load_factor;
    ++counters_->equilibrium_increments;
    if (++successes >= 2) {
      increment = std::abs(2.0 * increment) < std::abs(span) ? 2.0 * increment : span;
      successes = 0;
    }
  }
  state_->forget_last_increment();  // the time steps start their predictor afresh
}

}  // namespace catena::solvers
