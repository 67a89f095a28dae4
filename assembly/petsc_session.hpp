#pragma once
/// RAII for PetscInitialize/PetscFinalize (which also start and stop MPI). One per process, and
/// only for commands that solve: `catena check` and `catena info` never start MPI.
#include <string>

namespace catena::assembly {

class PetscSession {
 public:
  /// `argv` may carry PETSc options (the command line after `--`). A process started without an
  /// MPI launcher (no mpirun) is an MPI singleton: Open MPI is then told so (no daemon, the
  /// in-process and shared-memory transports only), which cuts its start from about 0.4 s to
  /// 0.06 s here; settings the user has made in the environment (OMPI_MCA_*) are kept, and runs
  /// under mpirun keep Open MPI's own choice. Each singleton has its own session directory.
  PetscSession(int& argc, char**& argv);
  ~PetscSession();
  PetscSession(const PetscSession&) = delete;
  PetscSession& operator=(const PetscSession&) = delete;
  /// Rank and size in PETSC_COMM_WORLD once a session runs; before, or without one, what the
  /// launcher says (0 and 1 without a launcher).
  [[nodiscard]] static int rank();
  [[nodiscard]] static int size();
  /// Whether an MPI launcher (mpirun, mpiexec, srun) started this process.
  [[nodiscard]] static bool launched();

 private:
  std::string private_tmpdir_;  ///< a singleton's own Open MPI session directory (removed at the end)
};

}  // namespace catena::assembly
