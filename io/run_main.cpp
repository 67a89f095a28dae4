// catena-run: the solver that `catena run` and `catena optimize` hand their arguments to
// (io/main.cpp). Everything after `--` goes to PETSc untouched. It answers `check` and `info` as
// well, for whoever calls it directly.
#include "assembly/petsc_session.hpp"
#include "io/command_line.hpp"
#include "io/optimize_command.hpp"

int main(int argc, char** argv) {
  auto parsed = catena::io::parse_command_line(argc, argv);
  if (const int* code = std::get_if<int>(&parsed)) return *code;
  catena::io::CommandLine& line = std::get<catena::io::CommandLine>(parsed);
  if (line.command == "check") return catena::io::check_command(line.options);
  if (line.command == "info") return catena::io::info_command();
  int petsc_argc = static_cast<int>(line.petsc_argv.size());
  line.petsc_argv.push_back(nullptr);
  char** petsc_args = line.petsc_argv.data();
  const catena::assembly::PetscSession petsc(petsc_argc, petsc_args);
  if (line.command == "optimize") return catena::io::optimize_command(line.options, line.optimize);
  return catena::io::run_command(line.options);
}
