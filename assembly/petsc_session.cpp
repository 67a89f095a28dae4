#include "assembly/petsc_session.hpp"

#include "assembly/petsc_handle.hpp"

#include <slepcsys.h>

#include <cstdlib>

namespace catena::assembly {

namespace {

/// The first of the launchers' environment variables that is set, as a number.
int launcher_value(std::initializer_list<const char*> names, int fallback) {
  for (const char* name : names)
    if (const char* v = std::getenv(name)) return std::atoi(v);
  return fallback;
}

bool session_running() {
  PetscBool up = PETSC_FALSE;
  PetscInitialized(&up);
  return up == PETSC_TRUE;
}

}  // namespace

bool PetscSession::launched() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE", "SLURM_STEP_ID"})
    if (std::getenv(name)) return true;
  return false;
}

PetscSession::PetscSession(int& argc, char**& argv) {
  if (!launched()) {
    // Without overwriting (last argument 0): the user's own settings win.
    setenv("OMPI_MCA_ess_singleton_isolated", "1", 0);
    setenv("OMPI_MCA_pml", "ob1", 0);
    setenv("OMPI_MCA_btl", "self,vader", 0);
  }
  // SLEPc (eigen-analysis) initializes PETSc and registers its own solvers on top.
  check(SlepcInitialize(&argc, &argv, nullptr, nullptr), "SlepcInitialize");
  // Event logging gives the factorization counts and times reported in summary.json.
  check(PetscLogDefaultBegin(), "PetscLogDefaultBegin");
}

PetscSession::~PetscSession() { SlepcFinalize(); }

int PetscSession::rank() {
  if (!session_running()) return launcher_value({"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"}, 0);
  int r = 0;
  MPI_Comm_rank(PETSC_COMM_WORLD, &r);
  return r;
}

int PetscSession::size() {
  if (!session_running()) return launcher_value({"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"}, 1);
  int s = 1;
  MPI_Comm_size(PETSC_COMM_WORLD, &s);
  return s;
}

}  // namespace catena::assembly
