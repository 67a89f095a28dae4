#pragma once
/// catena's command line: `catena <command> [options] [-- petsc-options]`, parsed once for both
/// executables (io/main.cpp, the front end that answers `check` and `info` without loading PETSc,
/// MPI or VTK; io/run_main.cpp, the solver it hands `run` and `optimize` to).
#include "io/commands.hpp"

#include <string>
#include <variant>
#include <vector>

namespace catena::io {

struct CommandLine {
  std::string command;  ///< run | optimize | check | info
  RunOptions options;
  OptimizeOptions optimize;  ///< optimize only
  /// argv[0] and the arguments after `--` (pointers into the process's argv), for PETSc.
  std::vector<char*> petsc_argv;
};

/// The parsed command line, or the exit code when there is nothing to run: after --help (0, the
/// usage printed) or an error (exit_bad_input, the message on stderr).
std::variant<CommandLine, int> parse_command_line(int argc, char** argv);

}  // namespace catena::io
