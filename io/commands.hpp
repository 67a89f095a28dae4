#pragma once
/// The `catena` subcommands. Exit codes: 0 success, 2 bad input (model file, command line, a
/// checkpoint that cannot be read or belongs to another model or output, an output directory
/// another run holds), 3 solver failure after step cutting (results so far kept), 4 output
/// failure (a file of the output could not be written: results so far kept), 130/143 interrupted
/// by SIGINT/SIGTERM (valid files up to the last completed step, and a checkpoint there when
/// checkpoints are on).
#include "fem/model.hpp"

#include <filesystem>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace catena::io {

inline constexpr int exit_ok = 0;
inline constexpr int exit_bad_input = 2;
inline constexpr int exit_solver_failure = 3;
inline constexpr int exit_output_failure = 4;

struct RunOptions {
  std::filesystem::path model;
  /// The model's YAML text instead of the file `model`, which then only names it in messages
  /// (the Python module's `catena.Model(text=...)`).
  std::optional<std::string> model_text;
  std::optional<std::filesystem::path> out;  ///< default out/<model name>/
  std::vector<std::string> overrides;        ///< --set key=value
  std::optional<int> output_every;
  std::optional<int> checkpoint_every;             ///< --checkpoint-every (overrides output.checkpoint_every)
  std::optional<std::filesystem::path> restart;  ///< --restart FILE: continue from that checkpoint
  /// --sensitivity p1,p2: the model parameters the run is differentiated by (in order, once each).
  std::vector<std::string> sensitivity;
  /// --gradient p1,p2: the parameters the objective's gradient is taken by, with the adjoint.
  std::vector<std::string> gradient;
  bool quiet = false;
  int threads = 0;  ///< --threads: for the elements' stamps (0: as many as OpenMP gives, assembly::Tableau)
};

/// `catena optimize`'s own options (io/optimize_command.hpp); the run's options (model, --out,
/// --set, --threads, --quiet) are RunOptions.
struct OptimizeOptions {
  struct Bounds {
    std::string parameter;
    double lower = 0.0;  ///< -infinity: none (`a0=:5`)
    double upper = 0.0;  ///< +infinity: none (`a0=-5:`)
  };
  std::vector<std::string> parameters;  ///< --parameters a0,a1: in order, once each
  std::vector<Bounds> bounds;           ///< --bounds a0=-10:10 (parameters without: unbounded)
  int max_iterations = 50;              ///< --max-iterations
  double gradient_tolerance = 1e-6;     ///< --gradient-tolerance, on the projected gradient's norm relative to the start's
  /// --gradient-method: each run's gradient as --sensitivity gives it (direct, the default) or as
  /// --gradient does (adjoint: one backward sweep for all parameters, one process only).
  bool adjoint = false;
};

/// A model that cannot be read for a reason other than its content (the file missing, an option's
/// value); `what()` is the whole message, beginning with the file's name.
class ModelLoadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The options' model (its file, or its text) read with `overrides`, and its restart document
/// (io/model_reader.hpp). Throw InputError.
fem::Model read_options_model(const RunOptions& options, std::span<const std::string> overrides);
[[nodiscard]] std::string options_restart_document(const RunOptions& options);

/// Reads the model with the options' overrides (--set, --output-every, --checkpoint-every).
/// Throws InputError (io/input_error.hpp: located) or ModelLoadError.
fem::Model read_run_model(const RunOptions& options);

/// read_run_model, with the error printed (when `report`, on one
/// rank only) as `file:line:column: key: message`, and the result is then empty.
std::optional<fem::Model> load_model(const RunOptions& options, bool report);

/// `catena check`: validates the model and prints a summary (unknowns, non-zeros, elements).
/// `check` and `info` (io/model_commands.cpp) need neither PETSc nor MPI nor VTK: the front end
/// (io/main.cpp) answers them without loading those libraries.
int check_command(const RunOptions& options);
/// `catena info`: version, linear solver packages, MPI size.
int info_command();

}  // namespace catena::io
