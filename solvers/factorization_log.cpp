#include "solvers/factorization_log.hpp"

#include <petscsys.h>

namespace catena::solvers {

namespace {

/// Counts and times of PETSc's logged events since the processes started, on the rank with the
/// most (under MPI a rank whose share is all on the cut between ranks factors nothing itself).
/// Collective.
LinearAlgebraLog read_petsc_log(MPI_Comm comm) {
  auto event = [](const char* name) {
    PetscLogEvent id = -1;
    PetscEventPerfInfo info{};
    if (PetscLogEventGetId(name, &id) == 0 && PetscLogEventGetPerfInfo(PETSC_DETERMINE, id, &info) == 0) return info;
    return PetscEventPerfInfo{};
  };
  const PetscEventPerfInfo symbolic = event("MatLUFactorSym");
  const PetscEventPerfInfo numeric = event("MatLUFactorNum");
  // SuperLU's interface logs its factorizations as one MatLUFactor event each (it analyses the
  // pattern once and keeps it, as the others do).
  const PetscEventPerfInfo whole = event("MatLUFactor");
  const PetscEventPerfInfo solve = event("MatSolve");
  double most[5] = {static_cast<double>(symbolic.count), static_cast<double>(numeric.count + whole.count),
                    symbolic.time + numeric.time + whole.time, symbolic.time, solve.time};
  MPI_Allreduce(MPI_IN_PLACE, most, 5, MPI_DOUBLE, MPI_MAX, comm);
  return {static_cast<long>(most[0]), static_cast<long>(most[1]), most[2], most[3], most[4]};
}

}  // namespace

FactorizationLog::FactorizationLog(MPI_Comm comm) : comm_(comm), at_start_(read_petsc_log(comm)) {}

void FactorizationLog::count(RunCounters& counters) const {
  const LinearAlgebraLog now = read_petsc_log(comm_);
  counters.symbolic_factorizations = now.symbolic - at_start_.symbolic;
  counters.numeric_factorizations = carried_numeric_ + (now.numeric - at_start_.numeric);
  counters.factorization_seconds = now.factor_seconds - at_start_.factor_seconds;
  counters.symbolic_factorization_seconds = now.symbolic_seconds - at_start_.symbolic_seconds;
  counters.solve_seconds = now.solve_seconds - at_start_.solve_seconds;
}

}  // namespace catena::solvers
