// catena: the command line's front end. `check` and `info` are answered here, in a program that
// links neither PETSc nor MPI nor VTK: loading those (134 shared libraries, 73 000 symbol
// bindings) took 0.06 s before anything ran, five times MBDyn's whole one-step run. `run` is
// handed, with the same arguments, to the solver next to this program (catena-run, io/run_main.cpp)
// by exec: the same process, so signals, exit codes and MPI launchers see no difference.
#include "io/command_line.hpp"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <new>
#include <system_error>

namespace {

/// SIGINT and SIGTERM, blocked (a blocked signal stays pending, and the mask survives exec) or not.
void block_stop_signals(bool block) {
  sigset_t stops;
  sigemptyset(&stops);
  sigaddset(&stops, SIGINT);
  sigaddset(&stops, SIGTERM);
  sigprocmask(block ? SIG_BLOCK : SIG_UNBLOCK, &stops, nullptr);
}

/// Replaces this process by the solver with the same arguments; returns only when that fails.
/// SIGINT and SIGTERM stay blocked across the exec (main blocks them first thing): the solver
/// installs its handlers first thing and unblocks them (io/stop_signals.hpp), so a stop asked for
/// at any instant reaches it.
int exec_solver(char** argv) {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  const std::filesystem::path solver = (ec ? std::filesystem::path(argv[0]) : self).parent_path() / "catena-run";
  execv(solver.c_str(), argv);
  block_stop_signals(false);
  std::cerr << "catena run: cannot start the solver " << solver.string() << ": " << std::strerror(errno)
            << " (it is built and installed next to catena)\n";
  return catena::io::exit_solver_failure;
}

}  // namespace

int main(int argc, char** argv) {
  // A stop asked for while the command line is read waits for the solver's handlers (a run), or
  // ends the process once the command is known (`check`, `info`: they write nothing).
  block_stop_signals(true);
  // No exception leaves main (std::terminate would abort: exit 134); as in io/run_main.cpp.
  try {
    const auto parsed = catena::io::parse_command_line(argc, argv);
    const catena::io::CommandLine* line = std::get_if<catena::io::CommandLine>(&parsed);
    if (line == nullptr || line->command == "check" || line->command == "info") block_stop_signals(false);
    if (line == nullptr) return std::get<int>(parsed);
    if (line->command == "check") return catena::io::check_command(line->options);
    if (line->command == "info") return catena::io::info_command();
    return exec_solver(argv);
  } catch (const std::bad_alloc&) {
    std::cerr << "catena: out of memory (the model needs more than this machine gives; README, \"Limits\")\n";
    return catena::io::exit_solver_failure;
  } catch (const std::exception& e) {
    std::cerr << "catena: " << e.what() << '\n';
    return catena::io::exit_solver_failure;
  }
}
