#include "assembly/petsc_session.hpp"

#include "assembly/launcher.hpp"
#include "assembly/petsc_handle.hpp"

#include <petscsys.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace catena::assembly {

namespace {

bool session_running() {
  PetscBool up = PETSC_FALSE;
  PetscInitialized(&up);
  return up == PETSC_TRUE;
}

/// hwloc, which Open MPI asks for the machine's topology as MPI starts, has a GL component that
/// connects to X displays :0, :1, ... to list GPUs: a solver must not touch X (a run ended with
/// exit 1, "X connection to :0 broken", when another program's X server went away). The
/// component is excluded for this process and what it starts, after any the user excluded.
void keep_hwloc_off_displays() {
  const char* set = std::getenv("HWLOC_COMPONENTS");
  const std::string components = set && *set ? std::string(set) + ",-gl" : std::string("-gl");
  setenv("HWLOC_COMPONENTS", components.c_str(), 1);
}

}  // namespace

bool PetscSession::launched() { return launcher::launched(); }

PetscSession::PetscSession(int& argc, char**& argv) {
  if (!launched()) {
    // Without overwriting (last argument 0): the user's own settings win.
    setenv("OMPI_MCA_ess_singleton_isolated", "1", 0);
    setenv("OMPI_MCA_pml", "ob1", 0);
    setenv("OMPI_MCA_btl", "self,vader", 0);
    // Isolated singletons all take job family 0, hence the same session directory under /tmp:
    // one finishing removes it while another creates it (seen as an orte_init failure when runs
    // start together, ctest -j2). Each process gets a directory of its own, removed at the end.
    if (!std::getenv("OMPI_MCA_orte_tmpdir_base")) {
      std::error_code ec;
      std::string pattern = (std::filesystem::temp_directory_path(ec) / "catena-mpi-XXXXXX").string();
      if (!ec && mkdtemp(pattern.data())) {
        private_tmpdir_ = pattern;
        setenv("OMPI_MCA_orte_tmpdir_base", pattern.c_str(), 1);
      }
    }
  }
  keep_hwloc_off_displays();
  // Catena's own SIGINT and SIGTERM handlers stop a run cleanly (io/stop_signals.hpp); PETSc's
  // would print a traceback and abort instead. (Its handlers for faults only print before the
  // abort the signal gives anyway.)
  check(PetscOptionsSetValue(nullptr, "-no_signal_handler", nullptr), "PetscOptionsSetValue");
  // SLEPc starts on top of it only where a linearized analysis needs it (solvers/).
  check(PetscInitialize(&argc, &argv, nullptr, nullptr), "PetscInitialize");
  // Event logging gives the factorization counts and times reported in summary.json.
  check(PetscLogDefaultBegin(), "PetscLogDefaultBegin");
}

PetscSession::~PetscSession() {
  PetscFinalize();
  if (!private_tmpdir_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(private_tmpdir_, ec);
  }
}

int PetscSession::rank() {
  if (!session_running()) return launcher::rank();
  int r = 0;
  MPI_Comm_rank(PETSC_COMM_WORLD, &r);
  return r;
}

int PetscSession::size() {
  if (!session_running()) return launcher::size();
  int s = 1;
  MPI_Comm_size(PETSC_COMM_WORLD, &s);
  return s;
}

}  // namespace catena::assembly
