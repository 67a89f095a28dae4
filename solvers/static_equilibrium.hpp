#pragma once
/// Static equilibria: the initial equilibrium of a dynamic run (`analysis.initial_equilibrium`),
/// the linearization point of eigen and buckling analyses (solvers/linearized_analysis.hpp), and
/// the increments of a static analysis. Models with joints (mechanisms: a tangent singular in
/// their free directions until the multipliers carry the loads) are solved by pseudo-transient
/// continuation at the full loads (solvers/pseudo_transient.hpp); structures by Newton, the loads
/// raised in adaptive increments of their factor.
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
                    RunCounters& counters);

  /// Models with joints: refuses redundant constraints at t = 0, naming the undetermined
  /// unknowns (solvers/redundancy.hpp). Throws InconsistentJoints.
  void check_redundancy(Vec u);
  /// Static equilibrium at t = 0 under the loads times `to`: from `from` = 0 for a model with
  /// joints in one pseudo-transient solve, otherwise raised from `from` (the factor of the current
  /// state) in adaptive increments; moves the states there, keeps their velocities. Work and
  /// energy are not tallied. Throws SolverFailure when it finds no equilibrium.
  void solve(Vec u, double from, double to);
  /// One increment of a static analysis from u (its predictor): Newton, and for a mechanism whose
  /// Newton fails, pseudo-transient continuation from the predictor again. Counts the iterations
  /// of a failed Newton; the caller counts those of the report and commits u.
  NewtonReport solve_increment(const fem::TimeElement& time, Vec u);
  /// The pseudo-mass of pseudo-transient continuation (solvers/pseudo_transient.hpp), built at the
  /// first call from the state then: the diagonal of a dynamic step's matrix at the mechanism's
  /// time scale on the node rows, at least 1 % of the largest of each kind; zero on multipliers.
  Vec pseudo_mass();
  /// Most corrections of a pseudo-transient solve.
  static constexpr int max_pseudo_transient_iterations = 200;

 private:
  /// A mechanism's static equilibrium under `time`'s loads from u (its predictor), by
  /// pseudo-transient continuation; intermediate corrections committed with `work`, the last left
  /// in u.
  NewtonReport solve_mechanism(const fem::TimeElement& time, Vec u, CommittedState::Work work);
  /// Records in the counters whether the equilibrium u of `time` is stable and which directions
  /// it leaves free (solvers/equilibrium_stability.hpp).
  void assess_stability(const fem::TimeElement& time, Vec u);

  fem::Model* model_;
  assembly::Tableau* tableau_;
  Newton* newton_;
  CommittedState* state_;
  RunCounters* counters_;
  assembly::VecHandle pseudo_mass_;
};

}  // namespace catena::solvers
