#pragma once
/// Static equilibrium at t = 0: the initial equilibrium of a dynamic run (`analysis.
/// initial_equilibrium`) and the linearization point of eigen and buckling analyses
/// (solvers/linearized_analysis.hpp). Models with joints are first relaxed toward it, which
/// establishes their multipliers (static_equilibrium.cpp says why); the loads are then raised in
/// adaptive increments of their factor.
#include "assembly/tableau.hpp"
#include "fem/model.hpp"
#include "solvers/committed_state.hpp"
#include "solvers/newton.hpp"
#include "solvers/run_counters.hpp"
#include "solvers/solver_failure.hpp"

#include <petscvec.h>

namespace catena::solvers {

class StaticEquilibrium {
 public:
  /// Solves with `newton`, commits into `state` and counts into `counters` (Newton iterations,
  /// cut and converged increments); all must outlive it.
  StaticEquilibrium(fem::Model& model, assembly::Tableau& tableau, Newton& newton, CommittedState& state,
                    RunCounters& counters)
      : model_(&model), tableau_(&tableau), newton_(&newton), state_(&state), counters_(&counters) {}

  /// Models with joints: refuses redundant constraints at t = 0, naming the undetermined
  /// unknowns (solvers/redundancy.hpp). Throws SolverFailure.
  void check_redundancy(Vec u);
  /// Static equilibrium at t = 0 under the loads times `to`, raised from `from` (the factor of
  /// the current state) in adaptive increments; moves the states there, keeps their velocities.
  /// Work and energy are not tallied. Throws SolverFailure when an increment cannot be halved
  /// further.
  void solve(Vec u, double from, double to);

 private:
  /// Models with joints: brings a mechanism near its static equilibrium with its multipliers
  /// established, before the exact static solve. Returns whether the last round converged (an
  /// equilibrium at load factor 1).
  bool relax_mechanism(Vec u);
  /// A tenth of √(L/g), the time scale of a mechanism of the model's length L swinging under
  /// gravity (the analysis' dt without gravity) [s].
  [[nodiscard]] double mechanism_time_scale() const;

  fem::Model* model_;
  assembly::Tableau* tableau_;
  Newton* newton_;
  CommittedState* state_;
  RunCounters* counters_;
};

}  // namespace catena::solvers
