// catena-run: the solver that `catena run` and `catena optimize` hand their arguments to
// (io/main.cpp). Everything after `--` goes to PETSc untouched. It answers `check` and `info` as
// well, for whoever calls it directly.
//
// No exception leaves main (an uncaught one is std::terminate: SIGABRT, exit 134, no summary):
// the commands catch what they expect where they can still write summary.json; what escapes them
// (PETSc refusing its options at start-up, memory running out outside a step) is reported here
// with the exit code its kind has (README, "Exit codes").
#include "app/optimize_command.hpp"
#include "app/run_command.hpp"
#include "assembly/petsc_handle.hpp"
#include "assembly/petsc_session.hpp"
#include "io/command_line.hpp"
#include "io/output_directory.hpp"
#include "io/stop_signals.hpp"

#include <iostream>
#include <new>
#include <optional>

int main(int argc, char** argv) {
  using namespace catena;
  // From the first instant: a SIGTERM while PETSc starts is a request to stop, not a kill.
  io::install_stop_handlers();
  try {
    auto parsed = io::parse_command_line(argc, argv);
    if (const int* code = std::get_if<int>(&parsed)) return *code;
    io::CommandLine& line = std::get<io::CommandLine>(parsed);
    if (line.command == "check") return io::check_command(line.options);
    if (line.command == "info") return io::info_command();
    int petsc_argc = static_cast<int>(line.petsc_argv.size());
    line.petsc_argv.push_back(nullptr);
    char** petsc_args = line.petsc_argv.data();
    std::optional<assembly::PetscSession> petsc;
    try {
      petsc.emplace(petsc_argc, petsc_args);
    } catch (const assembly::PetscFailure& e) {
      // PETSc has printed what it refused (an options file it cannot open, a malformed option).
      std::cerr << "catena: PETSc did not start with the options after '--' (" << e.what()
                << "); nothing was written\n";
      return io::exit_bad_input;
    }
    if (line.command == "optimize") return app::optimize_command(line.options, line.optimize);
    return app::run_command(line.options);
  } catch (const std::bad_alloc&) {
    std::cerr << "catena: out of memory (the model needs more than this machine gives; README, \"Limits\")\n";
    return io::exit_solver_failure;
  } catch (const io::OutputError& e) {
    std::cerr << "catena: output failed: " << e.what() << '\n';
    return io::exit_output_failure;
  } catch (const std::exception& e) {
    std::cerr << "catena: " << e.what() << '\n';
    return io::exit_solver_failure;
  }
}
