#include "solvers/static_equilibrium.hpp"

#include "fem/constraint_rank.hpp"
#include "solvers/equilibrium_stability.hpp"
#include "solvers/pseudo_transient.hpp"
#include "solvers/redundancy.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace catena::solvers {

using assembly::check;

StaticEquilibrium::StaticEquilibrium(fem::Model& model, assembly::Tableau& tableau, Newton& newton,
                                     CommittedState& state, RunCounters& counters)
    : model_(&model), tableau_(&tableau), newton_(&newton), state_(&state), counters_(&counters) {}

void StaticEquilibrium::check_redundancy(Vec u) {
  if (!state_->has_multipliers()) return;
  // On a dynamic step's matrix whatever the analysis (fem/constraint_rank.hpp says why).
  const fem::StepState s =
      state_->describe(fem::TimeElement::dynamic_step(0.0, fem::rank_test_step(*model_), model_->analysis.scheme));
  state_->predict(s.time, u);
  tableau_->assemble_jacobian(s, u, tableau_->jacobian());
  const std::vector<fem::DependentUnknown> dependent = dependent_unknowns(*tableau_, tableau_->jacobian());
  if (dependent.empty()) return;
  throw InconsistentJoints(fem::redundancy_message(dependent, *model_));
}

Vec StaticEquilibrium::pseudo_mass() {
  if (pseudo_mass_) return pseudo_mass_;
  // The diagonal of a dynamic step's matrix at the mechanism's time scale (2m/h² and the
  // stiffness' diagonal) on the node rows, with at least 1 % of the largest of each kind: a
  // slender bar's tiny inertia about its axis must not let the step in that direction run away.
  // Multiplier rows get none.
  pseudo_mass_ = tableau_->create_vector();
  const assembly::VecHandle u = tableau_->create_vector();
  state_->linearization_point(u);
  tableau_->assemble_jacobian(state_->describe(fem::TimeElement::dynamic_step(0.0, fem::mechanism_time_scale(*model_),
                                                                              model_->analysis.scheme)),
                              u, tableau_->jacobian());
  check(MatGetDiagonal(tableau_->jacobian(), pseudo_mass_), "MatGetDiagonal");
  PetscScalar* a = nullptr;
  check(VecGetArray(pseudo_mass_, &a), "VecGetArray");
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
  check(VecRestoreArray(pseudo_mass_, &a), "VecRestoreArray");
  return pseudo_mass_;
}

NewtonReport StaticEquilibrium::solve_mechanism(const fem::TimeElement& time, Vec u, CommittedState::Work work) {
  PseudoTransient solver(*newton_, *state_, model_->analysis.newton_tolerance, max_pseudo_transient_iterations);
  const PseudoTransientReport r = solver.solve(time, u, pseudo_mass(), work);
  counters_->equilibrium_iterations += r.iterations;
  NewtonReport report;
  report.converged = r.converged;
  report.iterations = r.iterations;
  report.reason = r.reason;
  report.last_correction = r.last_correction;
  report.residual_norm = r.residual_norms.empty() ? 0.0 : r.residual_norms.back();
  if (r.converged) assess_stability(time, u);
  return report;
}

void StaticEquilibrium::assess_stability(const fem::TimeElement& time, Vec u) {
  tableau_->assemble_jacobian(state_->describe(time), u, tableau_->jacobian());
  const EquilibriumStability st = equilibrium_stability(*tableau_, tableau_->jacobian(), model_->length_scale);
  counters_->equilibrium_stability = !st.checked ? "unchecked" : st.unstable() ? "unstable" : "stable";
  counters_->equilibrium_lowest_eigenvalue = st.checked ? st.lowest : 0.0;
  counters_->free_directions.clear();
  for (const std::string& d : st.free_directions)
    counters_->free_directions += (counters_->free_directions.empty() ? "" : ", ") + d;
}

NewtonReport StaticEquilibrium::solve_increment(const fem::TimeElement& time, Vec u) {
  NewtonReport report = newton_->solve(state_->describe(time), u);
  if (report.converged || !state_->has_multipliers()) return report;
  // A mechanism: its tangent is singular in the free directions until the multipliers carry the
  // loads, and in the directions without stiffness throughout.
  counters_->newton_iterations += report.iterations;
  state_->predict(time, u);
  return solve_mechanism(time, u, CommittedState::Work::Tally);
}

void StaticEquilibrium::solve(Vec u, double from, double to) {
  if (state_->has_multipliers() && from == 0.0) {
    // A mechanism at rest: one globalised solve at the full loads (solvers/pseudo_transient.hpp);
    // ramping them would not help, its equilibrium often does not depend on their size at all.
    const fem::TimeElement time = fem::TimeElement::equilibrium(0.0, to);
    state_->linearization_point(u);
    const NewtonReport rep = solve_mechanism(time, u, CommittedState::Work::Leave);
    counters_->newton_iterations += rep.iterations;
    if (!rep.converged)
      throw SolverFailure("initial equilibrium: " + rep.reason +
                              "; the loads at t = 0 may have no static equilibrium (a body free to move)",
                          0.0);
    state_->commit(state_->describe(time), u, CommittedState::Work::Leave);
    ++counters_->equilibrium_increments;
    state_->forget_last_increment();
    return;
  }
  // Raise the loads in increments of the load factor: start with all of it, halve on failure,
  // double again after two successes. Work and energy are not tallied: the run starts here.
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
