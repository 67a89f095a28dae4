#pragma once
/// RAII for PetscInitialize/PetscFinalize (which also start and stop MPI). One per process.
namespace catena::assembly {

class PetscSession {
 public:
  /// `argv` may carry PETSc options (the command line after `--`).
  PetscSession(int& argc, char**& argv);
  ~PetscSession();
  PetscSession(const PetscSession&) = delete;
  PetscSession& operator=(const PetscSession&) = delete;
  [[nodiscard]] static int rank();
  [[nodiscard]] static int size();
};

}  // namespace catena::assembly
