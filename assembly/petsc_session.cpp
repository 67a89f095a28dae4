#include "assembly/petsc_session.hpp"

#include "assembly/petsc_handle.hpp"

#include <slepcsys.h>

namespace catena::assembly {

PetscSession::PetscSession(int& argc, char**& argv) {
  // SLEPc (eigen-analysis) initializes PETSc and registers its own solvers on top.
  check(SlepcInitialize(&argc, &argv, nullptr, nullptr), "SlepcInitialize");
  // Event logging gives the factorization counts and times reported in summary.json.
  check(PetscLogDefaultBegin(), "PetscLogDefaultBegin");
}

PetscSession::~PetscSession() { SlepcFinalize(); }

int PetscSession::rank() {
  int r = 0;
  MPI_Comm_rank(PETSC_COMM_WORLD, &r);
  return r;
}

int PetscSession::size() {
  int s = 1;
  MPI_Comm_size(PETSC_COMM_WORLD, &s);
  return s;
}

}  // namespace catena::assembly
