#pragma once
/// SIGINT and SIGTERM as requests to stop (README, "Exit codes"): from the first instant of a
/// `catena run` or `catena optimize` (installed before PETSc starts; PETSc's own handlers are
/// turned off, assembly/petsc_session.cpp), each analysis polls the flag where it can stop with
/// its results complete: a dynamic or static run after the current step (a last frame, a
/// checkpoint, summary.json "interrupted"), an eigen or buckling analysis between its phases and
/// inside the eigensolver's iterations, an optimization between its runs. The exit code is then
/// 128 + the signal (130, 143).
#include <mpi.h>

#include <atomic>

namespace catena::io {

/// Installs the handlers (idempotent).
void install_stop_handlers();
/// Set by the handlers; analyses poll it (the integrator's `stop`).
[[nodiscard]] const std::atomic<bool>& stop_requested();
/// The signal that asked to stop (SIGINT, SIGTERM), 0 if none.
[[nodiscard]] int stop_signal();
/// The stop signal every rank of `comm` reports (the largest any received; SIGTERM when a rank
/// was told to stop by another: mpirun forwards SIGINT as SIGTERM). Collective.
[[nodiscard]] int agreed_stop_signal(MPI_Comm comm);
/// "SIGINT", "SIGTERM".
[[nodiscard]] const char* signal_name(int sig);

}  // namespace catena::io
