#pragma once
/// The model's committed state between time elements (node states, the elements' histories, the
/// work done so far, the last increments) and what is done with it: describing the next time
/// element, predicting its unknowns, and committing it once Newton converged. Every solve commits
/// here: time steps, static increments, the corrections of a mechanism's equilibrium.
#include "assembly/tableau.hpp"
#include "fem/model.hpp"
#include "solvers/observer.hpp"

#include <petscvec.h>

#include <span>
#include <vector>

namespace catena::solvers {

struct IntegratorState;

class CommittedState {
 public:
  /// The model's initial state; `model` and `tableau` must outlive it.
  CommittedState(fem::Model& model, assembly::Tableau& tableau);

  [[nodiscard]] std::span<const fem::NodeState> states() const { return states_; }
  [[nodiscard]] std::span<fem::NodeState> states() { return states_; }
  /// The model has joints (multiplier unknowns).
  [[nodiscard]] bool has_multipliers() const { return has_multipliers_; }

  /// The time element [t, t + h] of the analysis: a dynamic step in its scheme, or a load
  /// increment of a static analysis.
  [[nodiscard]] fem::TimeElement time_element(double t, double h) const;
  /// `time` from the committed state under the model's gravity (fem::StepState::gravity), under a
  /// new start name (fem::StepState::start_id).
  [[nodiscard]] fem::StepState describe(const fem::TimeElement& time) const;
  [[nodiscard]] fem::StepState describe(double t, double h) const { return describe(time_element(t, h)); }
  /// The starting values of the unknowns of `time`. `extrapolate`: dynamic steps after the first
  /// take the last step's acceleration into account (committed_state.cpp); false: constant velocity.
  void predict(const fem::TimeElement& time, Vec u, bool extrapolate = true) const;
  /// Whether predict(…, extrapolate) uses the last step's acceleration: a dynamic step after one.
  [[nodiscard]] bool extrapolates(bool extrapolate) const {
    return extrapolate && model_->analysis.type != fem::AnalysisType::Static && last_increment_h_ > 0.0;
  }
  /// The state as a static linearization point in `u`: node increments zero, the elements' own
  /// unknowns (joints' relative coordinates and multipliers) at their last values.
  void linearization_point(Vec u) const { predict(fem::TimeElement::equilibrium(0.0, 1.0), u); }

  /// What a commit does with the work of the loads and dampers over the time element.
  enum class Work : bool {
    Tally,  ///< a time step: added to the work done so far
    Leave,  ///< an equilibrium's increment or correction, before the run starts
  };
  /// Takes the time element `s` to its end with the unknowns `u`: the elements' histories
  /// (fem::Element::commit), then the node states (fem::advance); remembers the increments for
  /// the predictor.
  void commit(fem::StepState s, Vec u, Work work = Work::Tally);
  /// The time steps after a static equilibrium start their predictor afresh.
  void forget_last_increment() { last_increment_h_ = 0.0; }

  /// The gravity the steps are stamped under at t: the model's, scaled by t / t_end in a static
  /// analysis with `ramp_gravity`.
  [[nodiscard]] fem::Vec3 gravity_at(double t) const;
  /// Energies and momenta of the states at t, and the work accumulated so far (collective:
  /// every rank sums its elements).
  [[nodiscard]] EnergyRecord energy(double t) const;

  /// The work of the loads and dampers accumulated from t = 0.
  [[nodiscard]] const fem::StepWork& work() const { return work_; }
  /// Sets it (the states of a model read with a parameter changed, solvers/direct_sensitivity.hpp).
  void set_work(const fem::StepWork& work) { work_ = work; }

  /// Writes its part of a run's state (node states, work, increments) into `out`.
  void save(IntegratorState& out) const;
  /// Takes over its part of `saved`, a state of this model (TimeIntegrator::restore checks).
  void restore(const IntegratorState& saved);

 private:
  fem::Model* model_;
  assembly::Tableau* tableau_;
  std::vector<fem::NodeState> states_;
  std::vector<double> full_solution_;
  /// The last converged increment per node (Δx, φ) and its size in t: the dynamic predictor's
  /// acceleration, the static one's secant.
  std::vector<Eigen::Matrix<double, 6, 1>> last_increment_;
  double last_increment_h_ = 0.0;
  fem::StepWork work_;
  int rank_ = 0, ranks_ = 1;
  bool has_multipliers_ = false;
  /// Under MPI, the elements whose histories this rank keeps (commit) and whose own unknowns it
  /// predicts: those it evaluates, those with a block it owns, on rank 0 those a sensor reads, and
  /// on every rank those whose field a law reads (fem/law_sensors.hpp).
  /// Checkpoints gather the others' histories from the ranks that evaluate them
  /// (solvers/element_histories.hpp).
  std::vector<std::size_t> kept_elements_;
};

}  // namespace catena::solvers
