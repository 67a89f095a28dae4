#include "assembly/petsc_session.hpp"

#include "assembly/petsc_handle.hpp"

namespace catena::assembly {

PetscSession::PetscSession(int& argc, char**& argv) {
  check(PetscInitialize(&argc, &argv, nullptr, nullptr), "PetscInitialize");
  // Event logging gives the factorization counts and times reported in summary.json.
  check(PetscLogDefaultBegin(), "PetscLogDefaultBegin");
}

PetscSession::~PetscSession() { PetscFinalize(); }

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
