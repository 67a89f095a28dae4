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
///
/// The integrator drives the steps; the state it advances and the commit of a converged step
/// are solvers/committed_state.hpp's, the initial equilibrium solvers/static_equilibrium.hpp's,
/// the counters solvers/run_counters.hpp's (the factorizations from solvers/factorization_log.hpp),
/// the elements' histories in a checkpoint solvers/element_histories.hpp's.
#include "solvers/committed_state.hpp"
#include "solvers/factorization_log.hpp"
#include "solvers/integrator_state.hpp"
#include "solvers/newton.hpp"
#include "solvers/objective.hpp"
#include "solvers/observer.hpp"
#include "solvers/run_counters.hpp"
#include "solvers/solver_failure.hpp"
#include "solvers/static_equilibrium.hpp"

#include <atomic>
#include <chrono>
#include <optional>
#include <span>
#include <vector>

namespace catena::solvers {

class DirectSensitivity;  // solvers/direct_sensitivity.hpp
class AdjointGradient;    // solvers/adjoint_gradient.hpp

/// What a run counted, and how it ended.
struct RunStatistics : RunCounters {
  bool interrupted = false;  ///< stopped by a signal (TimeIntegrator::run's `stop`)
  /// The model's objective (`analysis.objective`, solvers/objective.hpp) at the time reached.
  std::optional<double> objective;
};

/// The nominal steps from t = 0 to `a.t_end` (at least one): the run's grid, which a restart
/// continues from its checkpoint's step.
[[nodiscard]] long nominal_steps(const fem::AnalysisSettings& a);

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

  /// `run` in three parts, for a program that steps the run itself (app/simulation.hpp):
  /// `begin` starts it (the start and its frame, or `resume`'s state), each `step` takes one
  /// nominal step (false when the run is done: t_end reached, or stopped), `end` gives the
  /// figures. The observer must outlive the run. `step` throws what `run` throws.
  void begin(Observer& observer, const std::atomic<bool>* stop = nullptr, const IntegratorState* resume = nullptr);
  bool step();
  RunStatistics end();
  /// No step left: t_end reached or stopped by `stop` (or not begun).
  [[nodiscard]] bool done() const;
  /// The time of the committed state [s] and the nominal steps completed.
  [[nodiscard]] double time() const { return t_; }
  [[nodiscard]] long nominal_step() const;
  /// The state to continue from after the current nominal step (collective), as a checkpoint
  /// holds it.
  [[nodiscard]] IntegratorState checkpoint() const;

  /// The start of a run at t = 0 without emitting its frame: the redundancy check, the initial
  /// equilibrium, velocities made to meet the joints and the reactions at t = 0 (collective).
  void prepare_start(Vec u);
  /// Carries `sensitivity` along the run (nullptr: none): its start, a derivative per converged
  /// time element, its row with every CSV row (Frame::sensitivities), its part of checkpoints.
  void set_sensitivity(DirectSensitivity* sensitivity) { sensitivity_ = sensitivity; }
  /// Stores the run for `adjoint`'s backward sweep (nullptr: none): its start's derivative and
  /// every converged time element (the sweep itself is AdjointGradient::gradient, after `run`).
  void set_adjoint(AdjointGradient* adjoint) { adjoint_ = adjoint; }

  /// The counters so far (Newton's and the PETSc log's are brought up to date by `run`'s end).
  [[nodiscard]] RunStatistics statistics() const;
  [[nodiscard]] std::span<const fem::NodeState> states() const { return state_.states(); }
  [[nodiscard]] std::span<fem::NodeState> states() { return state_.states(); }

  /// Energies and momenta of the current states at t, and the work accumulated so far (collective:
  /// every rank sums its elements).
  [[nodiscard]] EnergyRecord energy(double t) const { return state_.energy(t); }

 private:
  /// The state after nominal step `step` at t (io writes it as a checkpoint; collective).
  [[nodiscard]] IntegratorState snapshot(double t, long step, double h, int successes) const;
  /// Takes over the node states, element histories, counters and kept Jacobian of `state`.
  void restore(const IntegratorState& state);
  /// The multipliers at time t of the committed state (the joints' instantaneous reactions): the
  /// limit of the step-averaged reaction of a step from t as its length h goes to zero,
  /// extrapolated from steps of h = dt/2 and dt/4 (λ(t) = 2 λ(h/2) − λ(h), error O(h²), the
  /// scheme's own order). Shorter steps amplify round-off: Newton meets the node rows to the
  /// tolerance, and a multiplier balances 2m/h² times what is left (at dt/2000 the chain15 case's
  /// first row moved by 5e-4 between two orderings of the same sums). The steps are solved by the
  /// run's own scheme and Newton (their work counted in the run's figures) and not committed; u
  /// and Newton's kept Jacobian are overwritten. Empty when a step fails. All unknowns, in the
  /// tableau's global numbering (collective).
  [[nodiscard]] std::vector<double> extrapolated_reactions(double t, Vec u);
  /// Hands the multipliers of `x` (global numbering) to the elements as their reported reactions.
  void report_reactions(std::span<const double> x);
  /// `output.reactions: instantaneous`: hands the elements the reactions at t of the committed
  /// state (velocities projected first, extrapolated_reactions) and returns the step averages
  /// u holds, for after the row; the committed state and Newton's kept Jacobian are left as they
  /// were (collective).
  [[nodiscard]] std::vector<double> report_instantaneous_reactions(double t, Vec u);
  /// The reactions at t = 0 (the first row of reaction sensors), extrapolated_reactions of the
  /// start; a model whose short step fails keeps zero.
  void start_reactions(Vec u);

  /// A run between `begin` and `end`: what `run` kept in its loop.
  struct Loop {
    Observer* observer = nullptr;
    const std::atomic<bool>* stop = nullptr;
    std::chrono::steady_clock::time_point start;
    assembly::VecHandle u;  ///< the step's unknowns (Newton's iterate)
    long n_steps = 0;       ///< nominal steps to t_end
    long step = 0;          ///< nominal steps completed
    double h_cur = 0.0;     ///< the step length Newton tries next (cut when it fails)
    int successes = 0;      ///< steps since the last cut
    double t_start = 0.0;   ///< where this process started
    std::vector<double> derivatives{};  ///< the sensitivities' row, when one is due
  };
  void emit(long frame_step, const EnergyRecord& e, bool row, bool vtk);
  [[nodiscard]] bool vtk_due(long k) const;
  /// Newton over the time elements of nominal step `step + 1` (cut and retried as the header
  /// says); returns the iterations. Throws SolverFailure below dt_min (fail_step).
  int solve_nominal_step();
  [[noreturn]] void fail_step(long k, double h, double dt_min, const NewtonReport& rep);
  /// The row, frame, checkpoint and progress due after a nominal step; the agreement to stop.
  void finish_nominal_step(int iterations);
  void finish_statistics();

  fem::Model* model_;
  assembly::Tableau* tableau_;
  std::optional<Loop> loop_;
  RunCounters counters_;  ///< the run's, with those a continued run carries on
  bool interrupted_ = false;
  Newton newton_;
  CommittedState state_;
  StaticEquilibrium equilibrium_;
  FactorizationLog factorization_log_;
  FramesWritten written_;  ///< rows and VTK frames of the output grids so far
  ObjectiveIntegral objective_;  ///< the objective's integral so far
  double t_ = 0.0;               ///< the time of the committed state (for the objective's final value)
  double balance0_ = 0.0;
  DirectSensitivity* sensitivity_ = nullptr;
  AdjointGradient* adjoint_ = nullptr;
  int rank_ = 0;
};

}  // namespace catena::solvers
