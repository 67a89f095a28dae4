#include "app/simulation.hpp"

#include "app/history_recorder.hpp"
#include "app/run_outputs.hpp"
#include "assembly/collectives.hpp"
#include "assembly/petsc_session.hpp"
#include "assembly/tableau.hpp"
#include "fem/start_stamp.hpp"
#include "io/input_error.hpp"
#include "io/model_agreement.hpp"
#include "io/model_reader.hpp"
#include "io/output_directory.hpp"
#include "io/sensitivity_models.hpp"
#include "io/linearized_command.hpp"
#include "io/stop_signals.hpp"
#include "solvers/adjoint_gradient.hpp"
#include "solvers/direct_sensitivity.hpp"
#include "solvers/newton.hpp"

#include <csignal>
#include <functional>
#include <iostream>

namespace catena::app {

namespace {

bool is_root() { return assembly::PetscSession::rank() == 0; }

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ",") + n;
  return out;
}

/// The model, read and checked as `catena run` reads it before anything is written.
fem::Model read_checked_model(const SimulationOptions& options) {
  fem::Model model = [&] {
    try {
      return io::read_model_on_every_rank(options.run);
    } catch (const std::exception& e) {
      throw RunError(io::exit_bad_input, e.what());
    }
  }();
  // An element that cannot be stamped at the initial state, named where the file writes it, as
  // `check` refuses it (fem/start_stamp.hpp).
  if (const std::optional<std::string> refused = fem::first_unstampable_element(model))
    throw RunError(io::exit_bad_input, *refused);
  // A serial linear solver under MPI: refused before anything is written, not when Newton meets it.
  try {
    static_cast<void>(solvers::solver_package(model.analysis.linear_solver, assembly::PetscSession::size()));
  } catch (const std::invalid_argument& e) {
    throw RunError(io::exit_bad_input, options.run.model.string() + ": analysis.linear_solver: " + e.what());
  }
  return model;
}

}  // namespace

/// What a run holds between its steps.
struct Simulation::Setup {
  std::optional<io::RunDirectoryLock> lock;  ///< rank 0's, for the whole run (files written only)
  std::unique_ptr<assembly::Tableau> tableau;
  io::ModelFingerprint print;  ///< what a checkpoint of this run must match
  /// --sensitivity: the model read again at perturbed parameter values (every rank evaluates its
  /// elements of each), checked before anything is written.
  std::unique_ptr<solvers::DirectSensitivity> sensitivity;
  /// --gradient: the same models, for the adjoint's partials; the run is stored for its sweep.
  std::unique_ptr<solvers::AdjointGradient> adjoint;
  std::optional<io::Checkpoint> restart;
  std::unique_ptr<RunOutputs> outputs;  ///< none for an in-memory run
  std::unique_ptr<HistoryRecorder> history;
  std::unique_ptr<io::ProgressReporter> progress;
  io::ObserverFanOut observers;
  std::unique_ptr<solvers::TimeIntegrator> integrator;
};

Simulation::Simulation(SimulationOptions options)
    : options_(std::move(options)), setup_(std::make_unique<Setup>()) {
  try {
    set_up();
  } catch (const RunError& e) {
    // Every rank refuses together; rank 0 holds the message (a reader's, a file's), every rank
    // reports it (a program on every rank raises it).
    if (assembly::PetscSession::size() == 1) throw;
    std::string message = e.what();
    assembly::broadcast_text_from_root(message);
    throw RunError(e.exit_code(), message);
  }
}

void Simulation::set_up() {
  model_ = std::make_unique<fem::Model>(read_checked_model(options_));
  // Nothing is written before the model is known to be valid: bad input never clobbers results.
  if (options_.write_files) {
    out_ = options_.run.out.value_or(std::filesystem::path("out") / model_->name);
    lock_output_directory(out_, setup_->lock);
  }
  if (is_linearized()) {
    if (!options_.run.gradient.empty())
      throw RunError(io::exit_bad_input,
                     options_.run.model.string() + ": --gradient: the objective of dynamic and static runs only "
                                                   "(eigen and buckling analyses: --sensitivity gives every mode's "
                                                   "derivative)");
    if (!options_.write_files)
      throw RunError(io::exit_bad_input, options_.run.model.string() +
                                             ": an eigen or buckling analysis writes its modes: give an output "
                                             "directory");
    return;
  }
  set_up_tableau();
  set_up_derivatives();
  set_up_restart();
  set_up_outputs();
}

Simulation::~Simulation() = default;

bool Simulation::is_linearized() const {
  return model_->analysis.type == fem::AnalysisType::Eigen || model_->analysis.type == fem::AnalysisType::Buckling;
}

void Simulation::set_up_tableau() {
  try {
    setup_->tableau = std::make_unique<assembly::Tableau>(*model_, PETSC_COMM_WORLD);
    setup_->tableau->set_threads(options_.run.threads);
  } catch (const std::exception& e) {
    throw RunError(io::exit_bad_input, options_.run.model.string() + ": cannot set up the tableau: " + e.what());
  }
  try {
    solvers::check_chosen_solver_package(setup_->tableau->jacobian());
  } catch (const std::invalid_argument& e) {
    throw RunError(io::exit_bad_input,
                   std::string("catena: the PETSc options after '--': ") + e.what() + "; nothing was written");
  }
}

void Simulation::set_up_derivatives() {
  const io::RunOptions& o = options_.run;
  try {
    std::vector<solvers::ParameterModels> parameters = io::read_parameter_models(o, *model_);
    if (!parameters.empty())
      setup_->sensitivity = std::make_unique<solvers::DirectSensitivity>(*model_, *setup_->tableau, std::move(parameters));
    if (o.gradient.empty()) return;
    if (setup_->sensitivity)
      throw io::SensitivityInputError("--gradient and --sensitivity: one at a time (both give summary.json's "
                                      "objective_gradient; --sensitivity also every sensor's derivative)");
    if (!model_->objective)
      throw io::SensitivityInputError("--gradient: the model has no analysis.objective to take the gradient of");
    setup_->adjoint = std::make_unique<solvers::AdjointGradient>(
        *model_, *setup_->tableau, io::read_parameter_models(o, *model_, o.gradient, "--gradient"));
    // A continued run replays the time elements before its checkpoint from the same file.
    setup_->adjoint->set_model_source([o] {
      std::optional<fem::Model> again = io::load_model(o, false);
      if (!again)
        throw std::runtime_error(o.model.string() + ": cannot be read again to replay the run before its "
                                                    "checkpoint (--gradient)");
      return std::move(*again);
    });
  } catch (const io::InputError& e) {
    throw RunError(io::exit_bad_input, e.what());
  } catch (const std::exception& e) {
    throw RunError(io::exit_bad_input, o.model.string() + ": " + e.what());
  }
}

void Simulation::set_up_restart() {
  const io::RunOptions& o = options_.run;
  setup_->print = io::fingerprint(*model_, setup_->tableau->n_global(), io::options_restart_document(o));
  if (!o.restart && !options_.resume) return;
  // Every rank reads it: each keeps all node states and element histories.
  try {
    if (o.restart && options_.resume) throw std::invalid_argument("a checkpoint file and a checkpoint: one at a time");
    const std::filesystem::path origin = o.restart ? *o.restart : std::filesystem::path("the checkpoint given");
    io::Checkpoint restart = o.restart ? io::read_checkpoint(*o.restart) : *options_.resume;
    io::check_same_model(restart, setup_->print, origin);
    if (restart.state.sensitivity_parameters != o.sensitivity)
      throw std::runtime_error(origin.string() + ": the checkpoint was written with --sensitivity '" +
                               join(restart.state.sensitivity_parameters) + "', this run asks for '" +
                               join(o.sensitivity) + "'; continue with the same parameters");
    // A checkpoint at or beyond t_end leaves no step to take: never "completed" having done nothing.
    if (restart.state.step >= solvers::nominal_steps(model_->analysis))
      throw std::runtime_error(origin.string() + ": the checkpoint is at t = " +
                               solvers::format_numbers("%.6g", restart.state.t) + " s (step " +
                               std::to_string(restart.state.step) + "), at or beyond this run's analysis.t_end = " +
                               solvers::format_numbers("%.6g", model_->analysis.t_end) +
                               " s: nothing to continue; give a later t_end (--set analysis.t_end=...)");
    // The integrator puts the inputs back into the model (TimeIntegrator::restore); the perturbed
    // models get them here.
    if (!restart.state.inputs.empty())
      for_each_perturbed_model([&](fem::Model& m) { m.inputs->set_values(restart.state.inputs); });
    setup_->restart = std::move(restart);
  } catch (const std::exception& e) {
    throw RunError(io::exit_bad_input, std::string("catena: ") + e.what());
  }
}

void Simulation::set_up_outputs() {
  setup_->history = std::make_unique<HistoryRecorder>(*model_, history_);
  setup_->observers.add(*setup_->history);
  setup_->progress = std::make_unique<io::ProgressReporter>(options_.run.quiet);
  if (options_.write_files) {
    const solvers::IntegratorState* restart = setup_->restart ? &setup_->restart->state : nullptr;
    setup_->outputs = std::make_unique<RunOutputs>(
        out_, *model_, *setup_->tableau, restart, setup_->print,
        setup_->sensitivity ? setup_->sensitivity->column_names() : std::vector<std::string>());
    setup_->outputs->add_to(setup_->observers);
    io::SummaryData running = summary_of({});
    if (options_.run.restart) running.restarted_from = options_.run.restart->string();
    setup_->outputs->write_running_summary(running);
  }
  setup_->observers.add(*setup_->progress);
  setup_->integrator = std::make_unique<solvers::TimeIntegrator>(*model_, *setup_->tableau);
  setup_->integrator->set_sensitivity(setup_->sensitivity.get());
  setup_->integrator->set_adjoint(setup_->adjoint.get());
}


io::SummaryData Simulation::summary_of(const solvers::RunStatistics& s) const {
  io::SummaryData d;
  d.model_name = model_->name;
  d.n_unknowns = setup_->tableau->n_global();
  d.n_nonzeros = setup_->tableau->n_nonzeros();
  d.mpi_ranks = assembly::PetscSession::size();
  d.threads = setup_->tableau->threads();
  d.rows_per_rank = setup_->tableau->rows_per_rank();
  d.counters = s;  // the counters alone
  d.objective = s.objective;
  io::describe_model(*model_, d);
  return d;
}

void Simulation::print_banner() const {
  if (!is_root() || options_.run.quiet) return;
  std::cerr << "catena: " << model_->name << ": " << setup_->tableau->n_global() << " unknowns, "
            << setup_->tableau->n_nonzeros() << " non-zeros, " << assembly::PetscSession::size() << " rank(s); "
            << (options_.write_files ? "output in " + out_.string() : std::string("no files written")) << '\n';
  if (setup_->restart)
    std::cerr << "catena: continuing from "
              << (options_.run.restart ? options_.run.restart->string() : std::string("the checkpoint given")) << " at t = " << setup_->restart->state.t
              << " s (step " << setup_->restart->state.step << ")"
              << (setup_->outputs && setup_->outputs->continued_in_place() ? "; later rows and frames removed"
                                                                           : "; continuation only")
              << '\n';
}

void Simulation::start() {
  if (is_linearized())
    throw RunError(io::exit_bad_input, "an eigen or buckling analysis is not stepped: run() does it");
  if (started_ || failure_) return;
  print_banner();
  started_ = true;
  try {
    setup_->integrator->begin(setup_->observers, options_.stop, setup_->restart ? &setup_->restart->state : nullptr);
  } catch (...) {
    fail(std::current_exception());
  }
}

bool Simulation::step() {
  if (!started_) start();
  if (failure_) throw RunError(failure_->exit_code, failure_->summary.message);
  try {
    return setup_->integrator->step();
  } catch (...) {
    fail(std::current_exception());
  }
}

long Simulation::advance_to(double t) {
  long steps = 0;
  while (!complete() && time() < t - 1e-9 * model_->analysis.dt && step()) ++steps;
  return steps;
}

bool Simulation::complete() const { return setup_->integrator && started_ && setup_->integrator->done(); }
double Simulation::time() const { return setup_->integrator ? setup_->integrator->time() : 0.0; }
long Simulation::step_index() const { return setup_->integrator ? setup_->integrator->nominal_step() : 0; }
long Simulation::nominal_steps() const { return solvers::nominal_steps(model_->analysis); }

std::span<const fem::NodeState> Simulation::nodes() const {
  if (!setup_->integrator) return {};
  return static_cast<const solvers::TimeIntegrator&>(*setup_->integrator).states();
}

solvers::EnergyRecord Simulation::energy() const { return setup_->integrator->energy(time()); }

std::vector<double> Simulation::sensor_values() const { return app::sensor_values(*model_, nodes()); }

std::vector<std::string> Simulation::sensitivity_columns() const {
  return setup_->sensitivity ? setup_->sensitivity->column_names() : std::vector<std::string>();
}

solvers::RunStatistics Simulation::statistics() const { return setup_->integrator->statistics(); }

io::Checkpoint Simulation::checkpoint() const {
  if (!started_) throw std::logic_error("Simulation::checkpoint: the run has not started");
  return io::Checkpoint{setup_->print, setup_->integrator->checkpoint()};
}

void Simulation::save_checkpoint(const std::filesystem::path& file) const {
  const io::Checkpoint c = checkpoint();  // collective
  std::string error;
  if (is_root()) {
    try {
      io::write_checkpoint(file, c);
    } catch (const std::exception& e) {
      error = std::string("catena: ") + e.what();
    }
  }
  if (!assembly::all_ranks_agree(error.empty())) throw RunError(io::exit_output_failure, error);
}

void Simulation::fail(std::exception_ptr error) {
  setup_->progress->finish();
  Outcome o;
  o.summary = summary_of(setup_->integrator->statistics());
  o.summary.status = "failed";
  std::string printed;
  try {
    std::rethrow_exception(error);
  } catch (const solvers::InconsistentJoints& e) {
    // Found as the run starts, before any step: the model file's fault.
    o.summary.message = e.what();
    printed = "catena: " + options_.run.model.string() + ": " + e.what();
    o.exit_code = io::exit_bad_input;
  } catch (const solvers::SolverFailure& e) {
    o.summary.message = e.what();
    printed = std::string("catena: ") + e.what() + "; results up to t = " + std::to_string(e.time()) + " s kept" +
              (options_.write_files ? " in " + out_.string() : std::string());
    o.exit_code = io::exit_solver_failure;
  } catch (const io::OutputError& e) {
    // The results so far stay; the counters say how far the run got, the last frame when.
    if (setup_->observers.latest_t()) o.summary.counters.t_reached = *setup_->observers.latest_t();
    o.summary.message = std::string("output failed: ") + e.what();
    printed = "catena: " + o.summary.message + "; results written before it kept in " + out_.string();
    o.exit_code = io::exit_output_failure;
  } catch (const std::exception& e) {
    o.summary = io::SummaryData{};
    o.summary.model_name = model_->name;
    o.summary.status = "failed";
    o.summary.message = e.what();
    printed = std::string("catena: ") + e.what();
    o.exit_code = io::exit_solver_failure;
  }
  failure_ = std::move(o);
  throw RunError(failure_->exit_code, printed);
}

Outcome Simulation::ended_outcome() {
  Outcome o;
  const solvers::RunStatistics stats = setup_->integrator->end();
  o.summary = summary_of(stats);
  o.summary.status = stats.interrupted || !complete() ? "interrupted" : "completed";
  if (setup_->sensitivity) {
    const std::vector<double> gradient = setup_->sensitivity->objective_gradient(stats.t_reached);
    for (std::size_t j = 0; j < gradient.size(); ++j)
      o.summary.objective_gradient.emplace_back(setup_->sensitivity->parameters()[j].name, gradient[j]);
  }
  if (setup_->adjoint && complete() && !stats.interrupted) {
    if (!options_.run.quiet && is_root())
      std::cerr << "catena: adjoint: sweeping back over " << setup_->adjoint->steps_recorded()
                << " time elements ("
                << solvers::format_numbers("%.3g", static_cast<double>(setup_->adjoint->bytes_stored()) / 1e6)
                << " MB stored)\n";
    const std::vector<double> gradient = setup_->adjoint->gradient(setup_->integrator->states());
    for (std::size_t j = 0; j < gradient.size(); ++j)
      o.summary.objective_gradient.emplace_back(setup_->adjoint->parameters()[j].name, gradient[j]);
  }
  if (stats.interrupted) {
    // Under mpirun the signal may reach some ranks only (mpirun forwards SIGINT as SIGTERM):
    // every rank reports the same one. A program's own stop flag (the Python module's, set on
    // Ctrl-C) counts as SIGINT.
    const bool by_signal = options_.stop == &io::stop_requested();
    const int sig = by_signal ? io::agreed_stop_signal(setup_->tableau->comm()) : SIGINT;
    o.summary.message = (by_signal ? std::string("stopped by ") + io::signal_name(sig) : std::string("stopped")) +
                        " at t = " + std::to_string(stats.t_reached) + " s";
    const std::optional<std::filesystem::path> checkpoint =
        setup_->outputs ? setup_->outputs->last_checkpoint() : std::nullopt;
    if (checkpoint)
      o.summary.message += "; continue with --restart " + checkpoint->string();
    else
      o.summary.message += "; no checkpoint (set output.checkpoint_every to be able to continue)";
    o.exit_code = 128 + sig;
  } else if (!complete()) {
    o.summary.message = "finished by the program at t = " + std::to_string(stats.t_reached) + " s, before t_end";
  }
  return o;
}

Outcome Simulation::finish() {
  if (is_linearized()) throw RunError(io::exit_bad_input, "an eigen or buckling analysis is not stepped: run() does it");
  if (finished_) throw std::logic_error("Simulation::finish: called twice");
  finished_ = true;
  Outcome outcome;
  if (failure_) {
    outcome = *failure_;
  } else {
    try {
      if (!started_) start();
      outcome = ended_outcome();
    } catch (const RunError&) {
      outcome = *failure_;
    } catch (const std::exception& e) {
      // The adjoint's sweep failing after a complete run.
      setup_->progress->finish();
      outcome.summary.model_name = model_->name;
      outcome.summary.status = "failed";
      outcome.summary.message = e.what();
      if (is_root()) std::cerr << "catena: " << e.what() << '\n';
      outcome.exit_code = io::exit_solver_failure;
    }
  }
  close(outcome);
  return outcome;
}

void Simulation::close(Outcome& outcome) {
  setup_->progress->finish();
  write_closing(outcome);
  // The directory is free for the next run (a restart into it) once the summary is written.
  setup_->lock.reset();
}

void Simulation::write_closing(Outcome& outcome) {
  if (!is_root()) return;
  io::SummaryData& summary = outcome.summary;
  const std::optional<std::filesystem::path> checkpoint =
      setup_->outputs ? setup_->outputs->last_checkpoint() : std::nullopt;
  if (checkpoint) summary.checkpoint = checkpoint->string();
  if (options_.run.restart) summary.restarted_from = options_.run.restart->string();
  if (setup_->sensitivity || setup_->adjoint)
    for (const solvers::ParameterModels& p :
         setup_->sensitivity ? setup_->sensitivity->parameters() : setup_->adjoint->parameters())
      summary.sensitivity_parameters.push_back({p.name, p.value, p.step});
  if (setup_->outputs) {
    try {
      setup_->outputs->flush_indexes();
    } catch (const std::exception& e) {
      summary.status = "failed";
      summary.message = std::string("output failed: ") + e.what();
      std::cerr << "catena: " << summary.message << '\n';
      if (outcome.exit_code == io::exit_ok) outcome.exit_code = io::exit_output_failure;
    }
  }
  // A summary that cannot be written turns a success into an output failure.
  if (setup_->outputs && !setup_->outputs->write_summary(summary) && outcome.exit_code == io::exit_ok)
    outcome.exit_code = io::exit_output_failure;
  const int code = outcome.exit_code;
  if (options_.run.quiet || code == io::exit_solver_failure || code == io::exit_bad_input ||
      code == io::exit_output_failure)
    return;
  const solvers::RunCounters& c = summary.counters;
  std::cerr << "catena: " << summary.status << ": " << c.steps << " steps, " << c.newton_iterations
            << " Newton iterations, " << c.wall_seconds << " s";
  if (setup_->outputs) std::cerr << "; ParaView: " << (out_ / "results.pvd").string();
  std::cerr << '\n';
  if (code != io::exit_ok) std::cerr << "catena: " << summary.message << '\n';
  if (c.equilibrium_stability == "unstable")
    std::cerr << "catena: warning: the static equilibrium found is unstable (lowest eigenvalue of the "
                 "constrained stiffness "
              << c.equilibrium_lowest_eigenvalue << " N/m): a small disturbance leaves it\n";
  if (c.initial_velocity_change > 1e-9)
    std::cerr << "catena: initial velocities made to meet the joints and drives: largest change "
              << c.initial_velocity_change << " m/s at " << c.initial_velocity_change_at
              << " (angular velocities count times the model's size)\n";
  if (!c.free_directions.empty())
    std::cerr << "catena: the static equilibrium leaves free, without stiffness (held by minimum-norm "
                 "corrections): "
              << c.free_directions << '\n';
}

Outcome Simulation::run() {
  try {
    if (is_linearized()) return run_linearized();
    start();
    while (step()) {
    }
  } catch (const RunError& e) {
    if (is_root() && *e.what() != '\0') std::cerr << e.what() << '\n';
    if (is_linearized()) return Outcome{e.exit_code(), {}};
  }
  return finish();
}

Outcome Simulation::run_linearized() {
  if (!is_linearized()) throw RunError(io::exit_bad_input, "a dynamic or static analysis is stepped: run() does it");
  if (is_root()) io::remove_earlier_run_outputs(out_);
  const io::LinearizedOutcome outcome = io::run_linearized_command(options_.run, *model_, out_);
  if (outcome.exit_code != io::exit_ok) throw RunError(outcome.exit_code, outcome.message);
  return Outcome{};
}

void Simulation::set_input(const std::string& name, double value) {
  model_->inputs->set(name, value);
  for_each_perturbed_model([&](fem::Model& m) { m.inputs->set(name, value); });
}

void Simulation::for_each_perturbed_model(const std::function<void(fem::Model&)>& f) const {
  // The models of the parameters' perturbed values read the same inputs: their derivatives are at
  // the inputs the run has.
  for (const auto* derivatives : {setup_->sensitivity ? &setup_->sensitivity->parameters() : nullptr,
                                  setup_->adjoint ? &setup_->adjoint->parameters() : nullptr})
    if (derivatives)
      for (const solvers::ParameterModels& p : *derivatives)
        for (const std::unique_ptr<fem::Model>& m : p.models) f(*m);
}

}  // namespace catena::app
