#pragma once
/// Time integration over time elements (docs/formulation.md §2): for each element [t_n, t_n + h]
/// Newton solves the momentum balance for the increments, then the state is committed
/// (x_{n+1} = x_n + Δx, v_{n+1} = 2Δx/h − v_n; frame nodes R_{n+1} = cay(b) R_n,
/// ω_{n+1} = 2b/h − cay(b) ω_n: fem::advance), energies are tallied and observers are told.
/// A static analysis (`AnalysisType::Static`) runs the same loop with the `Static` stamping: t is
/// the load parameter, each increment is an equilibrium solve, velocities stay as given, and the
/// predictor extrapolates the previous increment.
///
/// Step control: the nominal step `dt` lands on the grid k·dt. When Newton fails the step is
/// halved and retried down to `dt_min`; after four successful steps a cut step is doubled again.
/// Below `dt_min` the run stops with a SolverFailure naming the time, the iteration, the largest
/// residual and its owner; everything written so far stays valid.
#include "solvers/factorization_log.hpp"
#include "solvers/newton.hpp"
#include "solvers/observer.hpp"

#include <atomic>
#include <vector>
#include <stdexcept>

namespace catena::solvers {

class SolverFailure : public std::runtime_error {
 public:
  SolverFailure(const std::string& message, double t) : std::runtime_error(message), t_(t) {}
  [[nodiscard]] double time() const { return t_; }

 private:
  double t_;
};

/// What a run counted, and how it ended.
struct RunStatistics : RunCounters {
  bool interrupted = false;  ///< stopped by a signal (TimeIntegrator::run's `stop`)
};

/// A run between two nominal steps, complete enough to continue it bit for bit in another process
/// (a checkpoint, io/checkpoint.hpp): the integrator's own state, every node state, every
/// element's history (`fem::Element::save_history`) and the counters that an uninterrupted run
/// would carry on.
struct IntegratorState {
  double t = 0.0;
  long step = 0;        ///< nominal steps completed
  double h = 0.0;       ///< step size control: the current (possibly cut) step [s]
  int successes = 0;    ///< step size control: converged sub-steps since the last cut or doubling
  /// CSV rows an uninterrupted run has written up to here (t = 0, the output grid; not the extra
  /// row of an interruption), the step and time of the last of them; the same for VTK frames.
  long frames = 0;
  long last_frame_step = 0;
  double last_frame_t = 0.0;
  long vtk_frames = 0;
  long last_vtk_frame_step = 0;
  double last_vtk_frame_t = 0.0;
  double balance0 = 0.0;  ///< energy balance at t = 0, the reference of max_energy_drift
  std::vector<fem::NodeState> states;
  fem::StepWork work;  ///< accumulated from t = 0
  /// Static analyses: the secant predictor's last increment per node (Δx, φ) and its size.
  std::vector<Eigen::Matrix<double, 6, 1>> last_increment;
  double last_increment_h = 0.0;
  std::vector<std::vector<double>> element_history;  ///< one entry per model element
  /// The run's counters up to here; a continued run carries on those marked Carry::Across.
  RunCounters counters;
  KeptJacobian kept_jacobian;  ///< Newton's Jacobian kept across steps (run state)
};

class TimeIntegrator {
 public:
  TimeIntegrator(fem::Model& model, assembly::Tableau& tableau);

  /// Runs from the model's initial state to t_end. `on_frame` is called on every rank with the
  /// same frame (all node states); `on_progress` and `on_checkpoint` on rank 0 only.
  /// `stop` (may be null) is polled between steps: when set, the run ends after the current
  /// step with a last frame and `interrupted = true` (and a checkpoint when
  /// `analysis.checkpoint_every` is set). `resume` (may be null): continue from that state
  /// (a checkpoint of this model) instead of t = 0; no frame is emitted for its time, which the
  /// interrupted run wrote already. Throws std::invalid_argument when `resume` does not fit the
  /// model (node or element count, an element's history).
  RunStatistics run(Observer& observer, const std::atomic<bool>* stop = nullptr,
                    const IntegratorState* resume = nullptr);

  /// The counters so far (Newton's and the PETSc log's are brought up to date by `run`'s end).
  [[nodiscard]] RunStatistics statistics() const { return {counters_, interrupted_}; }
  [[nodiscard]] std::span<const fem::NodeState> states() const { return states_; }
  [[nodiscard]] std::span<fem::NodeState> states() { return states_; }

  /// Static equilibrium at t = 0 under the loads times `to`, raised from `from` (the factor of
  /// the current state) in adaptive increments; moves the states there, keeps their velocities.
  /// Throws SolverFailure when an increment cannot be halved further.
  void solve_equilibrium(Vec u, double from, double to);
  /// The committed state as a static linearization point in `u`: node increments zero, the
  /// elements' own unknowns (joints' relative coordinates and multipliers) at their last values.
  void linearization_point(Vec u) const { predict(0.0, 0.0, u); }
  /// Models with joints: refuses redundant constraints at t = 0, naming the undetermined
  /// unknowns (solvers/redundancy.hpp).
  void check_redundancy(Vec u);

  /// Energies and momenta of the current states at t, and the work accumulated so far (collective:
  /// every rank sums its elements).
  [[nodiscard]] EnergyRecord energy(double t) const;

 private:
  [[nodiscard]] fem::StepState context(double t, double h) const;
  /// The starting values of a step's unknowns. `extrapolate`: dynamic steps after the first take
  /// the last step's acceleration into account (time_integrator.cpp); false: constant velocity.
  void predict(double t, double h, Vec u, bool extrapolate = true) const;
  /// Whether predict(…, extrapolate) uses the last step's acceleration: a dynamic step after one.
  [[nodiscard]] bool extrapolates(bool extrapolate) const {
    return extrapolate && model_->analysis.type != fem::AnalysisType::Static && last_increment_h_ > 0.0;
  }
  void commit(double t, double h, Vec u);
  void commit(fem::StepState s, Vec u);
  /// Models with joints: brings a mechanism near its static equilibrium with its multipliers
  /// established, before the exact static solve (time_integrator.cpp).
  /// Returns whether the last round converged (an equilibrium at load factor 1).
  bool relax_mechanism(Vec u);
  /// The state after nominal step `step` at t (io writes it as a checkpoint).
  [[nodiscard]] IntegratorState snapshot(double t, long step, double h, int successes) const;
  /// MPI: every element's history on rank 0, from the rank that evaluates it (collective; the
  /// other ranks' `out` is left as it is).
  void gather_histories(std::vector<std::vector<double>>& out) const;
  /// Takes over the node states, element histories and counters of `state`.
  void restore(const IntegratorState& state);

  fem::Model* model_;
  assembly::Tableau* tableau_;
  RunCounters counters_;  ///< the run's, with those a continued run carries on
  bool interrupted_ = false;
  Newton newton_;
  std::vector<fem::NodeState> states_;
  std::vector<double> full_solution_;
  /// Static analyses: the last converged increment per node (Δx, φ) and its size in t, for the
  /// secant predictor.
  std::vector<Eigen::Matrix<double, 6, 1>> last_increment_;
  double last_increment_h_ = 0.0;
  fem::StepWork work_;
  /// Rows and VTK frames of the output grids written so far (IntegratorState::frames,
  /// vtk_frames), the last one's step and t.
  long frames_ = 0;
  long last_frame_step_ = 0;
  double last_frame_t_ = 0.0;
  long vtk_frames_ = 0;
  long last_vtk_frame_step_ = 0;
  double last_vtk_frame_t_ = 0.0;
  double balance0_ = 0.0;
  FactorizationLog factorization_log_;
  int rank_ = 0, ranks_ = 1;
  bool has_multipliers_ = false;  ///< the model has joints (multiplier unknowns)
  /// Under MPI, the elements whose histories this rank keeps (commit) and whose own unknowns it
  /// predicts: those it evaluates, those with a block it owns, and on rank 0 those a sensor reads.
  /// Checkpoints gather the others' histories from the ranks that evaluate them (snapshot).
  std::vector<std::size_t> kept_elements_;
};

}  // namespace catena::solvers
