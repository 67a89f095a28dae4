#pragma once
/// A run of a dynamic or static analysis as an object a program drives: `catena run` (app/run_command.cpp)
/// and the Python module (python/) both use it. The life of a simulation:
///
///   Simulation sim(options);   read the model (every rank), check it, set up the tableau,
///                              sensitivities, restart and outputs — or throw RunError
///   sim.start();               the state at t = 0 (consistent start, initial equilibrium) and its
///                              row and frame, or the checkpoint's state on a restart
///   sim.step();                one nominal step (Newton's step cuts inside it); false when t_end is
///                              reached already
///   sim.advance_to(t);         steps until the nominal step that reaches t
///   sim.finish();              the final row and frame are written by the last step; the adjoint's
///                              sweep, summary.json and the closing messages; returns the outcome
///
/// Between steps a program reads the state (time, nodes, energies, sensors, counters, the rows so
/// far in `history`) and sets the model's named inputs (`set_input`). Every call is collective
/// under MPI: every rank makes the same calls in the same order.
///
/// Outputs: with `SimulationOptions::write_files` the run writes what `catena run` writes (the
/// directory's lock, results.pvd, scene.pvd, energy.csv, sensors.csv, checkpoints, summary.json);
/// without, nothing at all (an in-memory run): the rows are kept in `history` either way.
/// A step that fails (Newton below dt_min, output that cannot be written, a signal) throws; the
/// simulation keeps what it reached and `finish` then reports the failure as `catena run` does.
#include "fem/model.hpp"
#include "io/checkpoint.hpp"
#include "io/commands.hpp"
#include "io/summary_writer.hpp"
#include "solvers/integrator_state.hpp"
#include "solvers/observer.hpp"
#include "solvers/time_integrator.hpp"

#include <array>
#include <atomic>
#include <exception>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace catena::app {

/// Setting up or continuing a run failed; `exit_code` is what `catena run` returns for it
/// (io::exit_bad_input, io::exit_solver_failure, io::exit_output_failure, 128 + signal) and
/// `what()` the message it prints (model input errors located as FILE:LINE:COLUMN: KEY: MESSAGE).
class RunError : public std::runtime_error {
 public:
  RunError(int exit_code, const std::string& message) : std::runtime_error(message), exit_code_(exit_code) {}
  [[nodiscard]] int exit_code() const { return exit_code_; }

 private:
  int exit_code_;
};

struct SimulationOptions {
  /// The command line's options: model file, --out, --set, --output-every, --checkpoint-every,
  /// --restart, --sensitivity, --gradient, --quiet, --threads.
  io::RunOptions run;
  /// false: an in-memory run, no file written (no directory, lock, checkpoint or summary.json).
  bool write_files = true;
  /// Continue from this checkpoint (Simulation::checkpoint of a run of the same model) instead of
  /// t = 0, as --restart continues from a file; `run.restart` must then be empty.
  std::shared_ptr<const io::Checkpoint> resume;
  /// Polled between steps (may be null): when set, the run stops after the current step as on
  /// SIGINT (`catena run` passes io::stop_requested()).
  const std::atomic<bool>* stop = nullptr;
};

/// The rows of energy.csv and sensors.csv so far, in memory (the same numbers the files get).
struct History {
  std::vector<double> t;
  std::vector<std::array<double, 12>> energy;  ///< solvers::energy_columns' order
  std::vector<std::vector<double>> sensors;    ///< one row per t, the model's sensors in order
  /// With --sensitivity: one row per t, sensitivities.csv's columns (Simulation::sensitivity_columns).
  std::vector<std::vector<double>> sensitivities;
};

/// How a run ended: `catena run`'s exit code and summary.json's content.
struct Outcome {
  int exit_code = io::exit_ok;
  io::SummaryData summary;
};

class Simulation {
 public:
  /// Reads and checks the model and sets up everything before the first step (collective).
  /// Throws RunError (nothing written, except when the output directory itself fails).
  /// Eigen and buckling analyses are not time runs: `is_linearized()` says so, and `run()` (or
  /// `run_linearized()`) does them.
  explicit Simulation(SimulationOptions options);
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  /// start(), every step and finish(), messages and files as `catena run` (its exit code); an
  /// eigen or buckling analysis by run_linearized(), its failure printed.
  Outcome run();
  /// An eigen or buckling analysis (is_linearized()), whole: its files and summary.json; the banner
  /// and the modes' table unless quiet. A failure prints nothing: it throws RunError with the exit
  /// code and the message `catena run` prints (a program's quiet run raises it and prints nothing).
  Outcome run_linearized();

  void start();
  /// One nominal step; false when the run was complete already (nothing done). Throws RunError
  /// on a failure (then `finish()` reports it).
  bool step();
  /// Steps until the first nominal step at or after `t` (or t_end); returns the steps taken.
  long advance_to(double t);
  /// Ends the run (after a failure too): the adjoint's sweep, summary.json, closing messages.
  Outcome finish();

  [[nodiscard]] bool is_linearized() const;
  [[nodiscard]] bool started() const { return started_; }
  [[nodiscard]] bool complete() const;
  [[nodiscard]] double time() const;
  [[nodiscard]] long step_index() const;  ///< nominal steps completed
  [[nodiscard]] long nominal_steps() const;
  [[nodiscard]] const fem::Model& model() const { return *model_; }
  /// Every node's state (global frame, SI), in the model's node order.
  [[nodiscard]] std::span<const fem::NodeState> nodes() const;
  /// Energies and momenta now, and the work accumulated (collective).
  [[nodiscard]] solvers::EnergyRecord energy() const;
  /// Each sensor's value now, in the model's order (collective: rank 0's, broadcast).
  [[nodiscard]] std::vector<double> sensor_values() const;
  [[nodiscard]] const History& history() const { return history_; }
  /// The columns of History::sensitivities (sensitivities.csv's after t): each sensor's and energy
  /// column's derivative by each --sensitivity parameter, "name:parameter"; empty without.
  [[nodiscard]] std::vector<std::string> sensitivity_columns() const;
  [[nodiscard]] solvers::RunStatistics statistics() const;
  /// Sets a named input of the model (`inputs:` with `value:`), held from the next step on.
  /// Throws std::invalid_argument for an unknown name or an input that follows a table.
  void set_input(const std::string& name, double value);
  /// The state to continue from after the current step, with the model's fingerprint, as a
  /// checkpoint file holds it (collective): for SimulationOptions::resume.
  [[nodiscard]] io::Checkpoint checkpoint() const;
  /// Writes checkpoint() to `file` (rank 0), a file `catena run --restart` continues from.
  /// Throws RunError (exit code 4) when it cannot be written.
  void save_checkpoint(const std::filesystem::path& file) const;
  /// The output directory (empty for an in-memory run).
  [[nodiscard]] const std::filesystem::path& out() const { return out_; }

 private:
  struct Setup;
  void set_up();
  void set_up_tableau();
  void set_up_derivatives();
  void set_up_restart();
  void set_up_outputs();
  void print_banner() const;
  /// Calls `f` on every model read at a perturbed parameter value (--sensitivity, --gradient).
  void for_each_perturbed_model(const std::function<void(fem::Model&)>& f) const;
  /// The exception `start` or `step` caught, kept as the outcome `finish` reports; rethrown as
  /// RunError.
  [[noreturn]] void fail(std::exception_ptr error);
  [[nodiscard]] io::SummaryData summary_of(const solvers::RunStatistics& s) const;
  /// The summary of a run that ended (completed or stopped), with its gradients.
  [[nodiscard]] Outcome ended_outcome();
  /// summary.json and the closing messages (rank 0), then the directory's lock released.
  void close(Outcome& outcome);
  void write_closing(Outcome& outcome);

  SimulationOptions options_;
  std::unique_ptr<fem::Model> model_;
  std::filesystem::path out_;
  std::unique_ptr<Setup> setup_;  ///< tableau, integrator, sensitivities, writers (app/simulation.cpp)
  History history_;
  bool started_ = false;
  bool finished_ = false;
  std::optional<Outcome> failure_;  ///< set when a step failed: what finish() reports
};

}  // namespace catena::app
