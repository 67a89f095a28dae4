#pragma once
/// The sparse factorizations and solves of a run, counted and timed from PETSc's event log.
#include "solvers/run_counters.hpp"

#include <mpi.h>

namespace catena::solvers {

/// Counts and times of PETSc's factorization and solve events, on the rank with the most.
struct LinearAlgebraLog {
  long symbolic = 0;
  long numeric = 0;
  double factor_seconds = 0.0;  ///< symbolic + numeric
  double symbolic_seconds = 0.0;
  double solve_seconds = 0.0;
};

/// PETSc's log is per process and counts from its start: this reports what happened since the
/// object was made, plus the numeric factorizations of the run a continued one carries on.
class FactorizationLog {
 public:
  /// Reads the log as it stands (collective).
  explicit FactorizationLog(MPI_Comm comm);

  /// A continued run: its numeric factorizations add to those of `carried` (a checkpoint's).
  void carry_on(const RunCounters& carried) { carried_numeric_ = carried.numeric_factorizations; }
  /// Writes the symbolic and numeric factorizations and their and the solves' times into
  /// `counters` (collective).
  void count(RunCounters& counters) const;

 private:
  MPI_Comm comm_;
  LinearAlgebraLog at_start_;
  long carried_numeric_ = 0;
};

}  // namespace catena::solvers
