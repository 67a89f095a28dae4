// The start-up a one-step `catena run` is measured against (issue 14: ≤ 1.3×): a program that
// starts and stops PETSc exactly as catena-run does (assembly::PetscSession: the same Open MPI
// settings for a singleton, PETSc's event log; SLEPc starts only for linearized analyses) and
// nothing else.
// bench/compare-startup times the two alternately.
// Usage: bare_petsc [-- petsc options]
#include "assembly/petsc_session.hpp"

int main(int argc, char** argv) {
  const catena::assembly::PetscSession session(argc, argv);
  return 0;
}
