#pragma once
/// What an MPI launcher (mpirun, mpiexec, srun) tells a process through its environment, read
/// without starting MPI: `catena check` and `catena info` answer from it, and PetscSession before
/// its session runs. Header only, so that the commands that never start MPI need not link it.
#include <cstdlib>
#include <initializer_list>

namespace catena::assembly::launcher {

/// The first of the launchers' environment variables that is set, as a number.
inline int value(std::initializer_list<const char*> names, int fallback) {
  for (const char* name : names)
    if (const char* v = std::getenv(name)) return std::atoi(v);
  return fallback;
}

/// Whether a launcher started this process.
inline bool launched() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE", "SLURM_STEP_ID"})
    if (std::getenv(name)) return true;
  return false;
}

/// This process's rank and the job's size as the launcher gives them (0 and 1 without one).
inline int rank() { return value({"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"}, 0); }
inline int size() { return value({"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"}, 1); }

}  // namespace catena::assembly::launcher
