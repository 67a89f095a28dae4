#include "io/commands.hpp"

#include "assembly/collectives.hpp"
#include "assembly/petsc_session.hpp"
#include "assembly/tableau.hpp"
#include "fem/start_stamp.hpp"
#include "io/checkpoint.hpp"
#include "io/csv_writer.hpp"
#include "io/linearized_command.hpp"
#include "io/model_agreement.hpp"
#include "io/model_reader.hpp"
#include "io/output_directory.hpp"
#include "io/input_error.hpp"
#include "io/progress.hpp"
#include "io/run_directory.hpp"
#include "io/scene_writer.hpp"
#include "io/sensitivity_models.hpp"
#include "io/stop_signals.hpp"
#include "io/summary_writer.hpp"
#include "io/vtk_writer.hpp"
#include "solvers/adjoint_gradient.hpp"
#include "solvers/direct_sensitivity.hpp"
#include "solvers/newton.hpp"
#include "solvers/time_integrator.hpp"

#include <atomic>
#include <cstdio>
#include <iostream>

namespace catena::io {

namespace {

bool is_root() { return assembly::PetscSession::rank() == 0; }

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ",") + n;
  return out;
}

void print_error(const std::string& message) {
  if (is_root()) std::cerr << message << '\n';
}

SummaryData summary_of(const fem::Model& model, const assembly::Tableau& tableau, const solvers::RunStatistics& s) {
  SummaryData d;
  d.model_name = model.name;
  d.n_unknowns = tableau.n_global();
  d.n_nonzeros = tableau.n_nonzeros();
  d.mpi_ranks = assembly::PetscSession::size();
  d.threads = tableau.threads();
  d.rows_per_rank = tableau.rows_per_rank();
  d.counters = s;  // the counters alone
  d.objective = s.objective;
  describe_model(model, d);
  return d;
}

/// Restart into `out`: when it holds the results of the run the checkpoint belongs to, cut them
/// back to the checkpoint (rows, frames, later checkpoints) and report true; a directory without
/// results gets the continuation only (false). Everything is checked before anything is cut.
bool prepare_restart_output(const std::filesystem::path& out, const solvers::IntegratorState& s, VtkWriter& vtk,
                            SceneWriter* scene) {
  namespace fs = std::filesystem;
  const fs::path energy = out / CsvWriter::energy_file_name;
  const fs::path sensors = out / CsvWriter::sensors_file_name;
  std::error_code ec;
  const bool own_directory = fs::exists(energy, ec) || fs::exists(sensors, ec) || fs::exists(out / VtkWriter::index_file_name, ec);
  // The scene's frames are the VTK frames: cut (or continued) like results.pvd.
  auto resume_vtk = [&] {
    vtk.resume(s.written.vtk_frames, s.written.last_vtk_frame_t);
    if (scene) scene->resume(s.written.vtk_frames, s.written.last_vtk_frame_t);
  };
  if (!own_directory) {
    resume_vtk();
    return false;
  }
  const std::uintmax_t energy_size = CsvWriter::size_keeping_rows(energy, s.written.frames, s.written.last_frame_t);
  const std::uintmax_t sensors_size = CsvWriter::size_keeping_rows(sensors, s.written.frames, s.written.last_frame_t);
  const fs::path sensitivities = out / CsvWriter::sensitivities_file_name;
  const bool has_sensitivities = !s.sensitivity_parameters.empty() && fs::exists(sensitivities, ec);
  const std::uintmax_t sensitivities_size =
      has_sensitivities ? CsvWriter::size_keeping_rows(sensitivities, s.written.frames, s.written.last_frame_t) : 0;
  resume_vtk();
  fs::resize_file(energy, energy_size);
  fs::resize_file(sensors, sensors_size);
  if (has_sensitivities) fs::resize_file(sensitivities, sensitivities_size);
  CheckpointWriter::remove_after(out, s.step);
  return true;
}

/// Rank 0 takes the output directory's lock (io/run_directory.hpp) into `lock`; every rank learns
/// whether it got it, so that all refuse together.
bool lock_output_directory(const std::filesystem::path& out, std::optional<RunDirectoryLock>& lock) {
  bool ok = true;
  if (is_root()) {
    try {
      lock.emplace(out);
    } catch (const std::exception& e) {
      print_error(std::string("catena: ") + e.what());
      ok = false;
    }
  }
  return assembly::all_ranks_agree(ok);
}

}  // namespace

int run_command(const RunOptions& options) {
  std::optional<fem::Model> model = load_model_on_every_rank(options);
  if (!model) return exit_bad_input;
  // An element that cannot be stamped at the initial state, named where the file writes it, as
  // `check` refuses it (fem/start_stamp.hpp).
  if (const std::optional<std::string> refused = fem::first_unstampable_element(*model)) {
    print_error(*refused);
    return exit_bad_input;
  }
  // A serial linear solver under MPI: refused before anything is written, not when Newton meets it.
  try {
    static_cast<void>(solvers::solver_package(model->analysis.linear_solver, assembly::PetscSession::size()));
  } catch (const std::invalid_argument& e) {
    print_error(options.model.string() + ": analysis.linear_solver: " + e.what());
    return exit_bad_input;
  }
  // Nothing is written before the model is known to be valid: bad input never clobbers results.
  const std::filesystem::path out = options.out.value_or(std::filesystem::path("out") / model->name);
  // One run per directory; a fresh run clears an earlier run's frames (a restart cuts them itself).
  std::optional<RunDirectoryLock> lock;
  if (!lock_output_directory(out, lock)) return exit_bad_input;
  if (model->analysis.type == fem::AnalysisType::Eigen || model->analysis.type == fem::AnalysisType::Buckling) {
    if (!options.gradient.empty()) {
      print_error(options.model.string() + ": --gradient: the objective of dynamic and static runs only (eigen and "
                  "buckling analyses: --sensitivity gives every mode's derivative)");
      return exit_bad_input;
    }
    if (is_root()) remove_earlier_run_outputs(out);
    return run_linearized_command(options, *model, out);
  }
  std::unique_ptr<assembly::Tableau> tableau;
  try {
    tableau = std::make_unique<assembly::Tableau>(*model, PETSC_COMM_WORLD);
    tableau->set_threads(options.threads);
  } catch (const std::exception& e) {
    print_error(options.model.string() + ": cannot set up the tableau: " + e.what());
    return exit_bad_input;
  }
  try {
    solvers::check_chosen_solver_package(tableau->jacobian());
  } catch (const std::invalid_argument& e) {
    print_error(std::string("catena: the PETSc options after '--': ") + e.what() + "; nothing was written");
    return exit_bad_input;
  }
  // --sensitivity: the model read again at perturbed parameter values (every rank evaluates its
  // elements of each), checked before anything is written.
  std::unique_ptr<solvers::DirectSensitivity> sensitivity;
  // --gradient: the same models, for the adjoint's partials; the run is stored for its sweep.
  std::unique_ptr<solvers::AdjointGradient> adjoint;
  try {
    std::vector<solvers::ParameterModels> parameters = read_parameter_models(options, *model);
    if (!parameters.empty())
      sensitivity = std::make_unique<solvers::DirectSensitivity>(*model, *tableau, std::move(parameters));
    if (!options.gradient.empty()) {
      if (sensitivity)
        throw SensitivityInputError("--gradient and --sensitivity: one at a time (both give summary.json's "
                                    "objective_gradient; --sensitivity also every sensor's derivative)");
      if (!model->objective)
        throw SensitivityInputError("--gradient: the model has no analysis.objective to take the gradient of");
      adjoint = std::make_unique<solvers::AdjointGradient>(
          *model, *tableau, read_parameter_models(options, *model, options.gradient, "--gradient"));
      // A continued run replays the time elements before its checkpoint from the same file.
      adjoint->set_model_source([&options] {
        std::optional<fem::Model> again = load_model(options, false);
        if (!again)
          throw std::runtime_error(options.model.string() + ": cannot be read again to replay the run before its "
                                   "checkpoint (--gradient)");
        return std::move(*again);
      });
    }
  } catch (const InputError& e) {
    print_error(e.what());
    return exit_bad_input;
  } catch (const std::exception& e) {
    print_error(options.model.string() + ": " + e.what());
    return exit_bad_input;
  }
  const ModelFingerprint model_print =
      fingerprint(*model, tableau->n_global(), restart_document(options.model, options.overrides));
  std::optional<Checkpoint> restart;
  if (options.restart) {
    // Every rank reads it: each keeps all node states and element histories.
    try {
      restart = read_checkpoint(*options.restart);
      check_same_model(*restart, model_print, *options.restart);
      if (restart->state.sensitivity_parameters != options.sensitivity)
        throw std::runtime_error(options.restart->string() + ": the checkpoint was written with --sensitivity '" +
                                 join(restart->state.sensitivity_parameters) + "', this run asks for '" +
                                 join(options.sensitivity) + "'; continue with the same parameters");
      // A checkpoint at or beyond t_end leaves no step to take: never "completed" having done nothing.
      if (restart->state.step >= solvers::nominal_steps(model->analysis))
        throw std::runtime_error(options.restart->string() + ": the checkpoint is at t = " +
                                 solvers::format_numbers("%.6g", restart->state.t) + " s (step " +
                                 std::to_string(restart->state.step) + "), at or beyond this run's analysis.t_end = " +
                                 solvers::format_numbers("%.6g", model->analysis.t_end) +
                                 " s: nothing to continue; give a later t_end (--set analysis.t_end=...)");
    } catch (const std::exception& e) {
      print_error(std::string("catena: ") + e.what());
      return exit_bad_input;
    }
  }
  std::unique_ptr<VtkWriter> vtk;
  std::unique_ptr<SceneWriter> scene;
  std::unique_ptr<CsvWriter> csv;
  std::unique_ptr<CheckpointWriter> checkpoints;
  ProgressReporter progress(options.quiet);
  ObserverFanOut observers;
  bool continued_in_place = false;
  bool setup_ok = true;
  // Every rank writes its piece of the VTK output (one .vtu on one rank, a .pvtu of pieces on
  // several; the constructor is collective); rank 0 alone writes the other files.
  try {
    if (is_root() && !restart) remove_earlier_run_outputs(out);  // before any rank writes
    vtk = std::make_unique<VtkWriter>(out, *model, tableau->comm(), tableau->local_elements());
  } catch (const std::exception& e) {
    // Every rank fails together; a rank other than 0 may hold the cause, so it speaks too.
    if (is_root())
      print_error(out.string() + ": " + e.what());
    else
      std::cerr << "catena: rank " << assembly::PetscSession::rank() << ": " << out.string() << ": " << e.what() << '\n';
    setup_ok = false;
  }
  if (setup_ok && is_root()) {
    try {
      // Rank 0 alone writes the whole scene: it needs every node's state, which every rank keeps,
      // and the model's geometry (io/scene_writer.hpp).
      if (model->analysis.scene) scene = std::make_unique<SceneWriter>(out, *model);
      if (restart) continued_in_place = prepare_restart_output(out, restart->state, *vtk, scene.get());
      csv = std::make_unique<CsvWriter>(out, *model, continued_in_place,
                                        sensitivity ? sensitivity->column_names() : std::vector<std::string>());
      observers.add(*vtk);
      if (scene) observers.add(*scene);
      observers.add(*csv);
      if (model->analysis.checkpoint_every > 0) {
        checkpoints = std::make_unique<CheckpointWriter>(out, model_print);
        observers.add(*checkpoints);
      }
      observers.add(progress);
    } catch (const std::exception& e) {
      print_error(out.string() + ": " + e.what());
      setup_ok = false;
    }
  } else if (setup_ok) {
    // Other ranks continue the frame numbering only; rank 0 checks and cuts the files.
    if (restart) vtk->resume(restart->state.written.vtk_frames, restart->state.written.last_vtk_frame_t);
    observers.add(*vtk);
  }
  // Rank 0 sets up all files, the others their VTK pieces.
  if (!assembly::all_ranks_agree(setup_ok)) return exit_bad_input;
  // From here on summary.json is this run's: "running" at once (never an earlier run's summary
  // beside this run's files), with room kept for the final one on a disk that fills.
  bool running_written = true;
  if (is_root()) {
    SummaryData running = summary_of(*model, *tableau, {});
    if (options.restart) running.restarted_from = options.restart->string();
    try {
      write_running_summary(out / "summary.json", running, this_process());
    } catch (const std::exception& e) {
      print_error("catena: output failed: " + std::string(e.what()));
      running_written = false;
    }
  }
  if (!assembly::all_ranks_agree(running_written)) return exit_output_failure;
  if (is_root() && !options.quiet) {
    std::cerr << "catena: " << model->name << ": " << tableau->n_global() << " unknowns, " << tableau->n_nonzeros()
              << " non-zeros, " << assembly::PetscSession::size() << " rank(s); output in " << out.string() << '\n';
    if (restart)
      std::cerr << "catena: continuing from " << options.restart->string() << " at t = " << restart->state.t
                << " s (step " << restart->state.step << ")"
                << (continued_in_place ? "; later rows and frames removed" : "; continuation only") << '\n';
  }

  install_stop_handlers();  // already since main; again for callers that did not (tests)
  int code = exit_ok;
  SummaryData summary;
  try {
    solvers::TimeIntegrator integrator(*model, *tableau);
    integrator.set_sensitivity(sensitivity.get());
    integrator.set_adjoint(adjoint.get());
    try {
      const solvers::RunStatistics stats =
          integrator.run(observers, &stop_requested(), restart ? &restart->state : nullptr);
      summary = summary_of(*model, *tableau, stats);
      summary.status = stats.interrupted ? "interrupted" : "completed";
      if (sensitivity) {
        const std::vector<double> gradient = sensitivity->objective_gradient(stats.t_reached);
        for (std::size_t j = 0; j < gradient.size(); ++j)
          summary.objective_gradient.emplace_back(sensitivity->parameters()[j].name, gradient[j]);
      }
      if (adjoint && !stats.interrupted) {
        if (!options.quiet && is_root())
          std::cerr << "catena: adjoint: sweeping back over " << adjoint->steps_recorded() << " time elements ("
                    << solvers::format_numbers("%.3g", static_cast<double>(adjoint->bytes_stored()) / 1e6)
                    << " MB stored)\n";
        const std::vector<double> gradient = adjoint->gradient(integrator.states());
        for (std::size_t j = 0; j < gradient.size(); ++j)
          summary.objective_gradient.emplace_back(adjoint->parameters()[j].name, gradient[j]);
      }
      if (stats.interrupted) {
        // Under mpirun the signal may reach some ranks only (mpirun forwards SIGINT as SIGTERM):
        // every rank reports the same one.
        const int sig = agreed_stop_signal(tableau->comm());
        summary.message = std::string("stopped by ") + signal_name(sig) + " at t = " +
                          std::to_string(stats.t_reached) + " s";
        if (checkpoints && checkpoints->last_written())
          summary.message += "; continue with --restart " + checkpoints->last_written()->string();
        else
          summary.message += "; no checkpoint (set output.checkpoint_every to be able to continue)";
        code = 128 + sig;
      }
    } catch (const solvers::InconsistentJoints& e) {
      // Found as the run starts, before any step: the model file's fault.
      progress.finish();
      summary = summary_of(*model, *tableau, integrator.statistics());
      summary.status = "failed";
      summary.message = e.what();
      print_error("catena: " + options.model.string() + ": " + e.what());
      code = exit_bad_input;
    } catch (const solvers::SolverFailure& e) {
      progress.finish();
      summary = summary_of(*model, *tableau, integrator.statistics());
      summary.status = "failed";
      summary.message = e.what();
      print_error(std::string("catena: ") + e.what() + "; results up to t = " + std::to_string(e.time()) +
                  " s kept in " + out.string());
      code = exit_solver_failure;
    } catch (const OutputError& e) {
      // The results so far stay; the counters say how far the run got, the last frame when.
      progress.finish();
      summary = summary_of(*model, *tableau, integrator.statistics());
      if (observers.latest_t()) summary.counters.t_reached = *observers.latest_t();
      summary.status = "failed";
      summary.message = std::string("output failed: ") + e.what();
      print_error("catena: " + summary.message + "; results written before it kept in " + out.string());
      code = exit_output_failure;
    }
  } catch (const std::exception& e) {
    progress.finish();
    summary.model_name = model->name;
    summary.status = "failed";
    summary.message = e.what();
    print_error(std::string("catena: ") + e.what());
    code = exit_solver_failure;
  }
  progress.finish();
  if (is_root()) {
    if (checkpoints && checkpoints->last_written()) summary.checkpoint = checkpoints->last_written()->string();
    if (options.restart) summary.restarted_from = options.restart->string();
    if (sensitivity || adjoint)
      for (const solvers::ParameterModels& p : sensitivity ? sensitivity->parameters() : adjoint->parameters())
        summary.sensitivity_parameters.push_back({p.name, p.value, p.step});
    // A summary that cannot be written turns a success into an output failure.
    if (!write_summary_json_or_report(out / "summary.json", summary) && code == exit_ok) code = exit_output_failure;
    if (!options.quiet && code != exit_solver_failure && code != exit_bad_input && code != exit_output_failure) {
      const solvers::RunCounters& c = summary.counters;
      std::cerr << "catena: " << summary.status << ": " << c.steps << " steps, " << c.newton_iterations
                << " Newton iterations, " << c.wall_seconds << " s; ParaView: " << (out / "results.pvd").string() << '\n';
      if (code != exit_ok) std::cerr << "catena: " << summary.message << '\n';
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
  }
  return code;
}

}  // namespace catena::io
