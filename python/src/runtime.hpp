#pragma once
/// PETSc (and with it MPI) in a Python process: one session, started at the first simulation (or
/// by `catena.start(petsc_options)`) and finished when the interpreter exits. Simulations still
/// alive then (a global of the script) give their PETSc objects back first: their Python objects
/// are destroyed only after the exit handlers, when PETSc is gone.
#include <string>
#include <vector>

namespace catena::python {

/// What holds PETSc objects: released before PETSc finishes.
class PetscUser {
 public:
  virtual ~PetscUser() = default;
  /// Destroys every PETSc object held; afterwards the object only refuses to work.
  virtual void release() noexcept = 0;
  /// The same without destroying them: in a forked child, where they are the parent's.
  virtual void abandon() noexcept = 0;
};

/// Starts PETSc with `options` (PETSc's own, e.g. "-snes_monitor") unless it runs; options given
/// once it runs are refused (Error), as is a start after the finish or in a forked child.
void start(const std::vector<std::string>& options);
/// Starts PETSc without options unless it runs (Error as `start`).
void ensure_started();
[[nodiscard]] bool started();

/// Users are registered while they live.
void add_user(PetscUser& user);
void remove_user(PetscUser& user);

/// In a child process forked after PETSc started (os.fork, multiprocessing's "fork"): PETSc and
/// MPI are the parent's, so the child leaves them alone and refuses to start them.
void forget_after_fork() noexcept;

/// Releases every user, then finishes PETSc (the interpreter's exit handler; idempotent).
void finish() noexcept;

}  // namespace catena::python
