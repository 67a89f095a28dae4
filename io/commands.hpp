#pragma once
/// The `catena` subcommands. Exit codes: 0 success, 2 bad input (model file or command line),
/// 3 solver failure after step cutting (results so far kept), 130/143 interrupted by
/// SIGINT/SIGTERM (valid files up to the last completed step).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace catena::io {

inline constexpr int exit_ok = 0;
inline constexpr int exit_bad_input = 2;
inline constexpr int exit_solver_failure = 3;

struct RunOptions {
  std::filesystem::path model;
  std::optional<std::filesystem::path> out;  ///< default out/<model name>/
  std::vector<std::string> overrides;        ///< --set key=value
  std::optional<int> output_every;
  bool quiet = false;
};

/// `catena run`: reads the model, integrates, writes results; returns the exit code.
/// PETSc must be initialized.
int run_command(const RunOptions& options);
/// `catena check`: validates the model and prints a summary (unknowns, non-zeros, elements).
int check_command(const RunOptions& options);
/// `catena info`: version, linear solver packages, MPI size.
int info_command();

}  // namespace catena::io
