#pragma once
/// MPI agreements the commands need, kept with the other MPI and PETSc calls in assembly/.
#include <petscsys.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace catena::assembly {

/// Every rank learns whether all of them succeeded (`ok_here` on each): a rank that failed must
/// not leave the others waiting in a later collective. Collective over PETSC_COMM_WORLD.
inline bool all_ranks_agree(bool ok_here) {
  int ok = ok_here ? 1 : 0, all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, PETSC_COMM_WORLD);
  return all_ok != 0;
}

/// A failure that one rank met (`failure_here`: its message, or none), on every rank: the message
/// of the lowest rank that met one, or none when no rank did. For what one rank meets while the
/// others go on to a collective call (a domain error in an element only one rank stamps).
/// Collective over `comm`; no communication on one rank.
inline std::optional<std::string> failure_on_any_rank(const std::optional<std::string>& failure_here, MPI_Comm comm) {
  int rank = 0, ranks = 1;
  MPI_Comm_size(comm, &ranks);
  if (ranks == 1) return failure_here;
  MPI_Comm_rank(comm, &rank);
  const int mine = failure_here ? rank : ranks;
  int first = ranks;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == ranks) return std::nullopt;
  std::string text = rank == first ? *failure_here : std::string();
  unsigned long long size = text.size();
  MPI_Bcast(&size, 1, MPI_UNSIGNED_LONG_LONG, first, comm);
  text.resize(static_cast<std::size_t>(size));
  MPI_Bcast(text.data(), static_cast<int>(size), MPI_CHAR, first, comm);
  return text;
}

/// Every rank gets rank 0's `values` (same length on every rank): for numbers only rank 0 computes
/// (an objective from element sensors), so that all ranks take the same decisions with them.
/// Collective over PETSC_COMM_WORLD.
inline void broadcast_from_root(std::span<double> values) {
  MPI_Bcast(values.data(), static_cast<int>(values.size()), MPI_DOUBLE, 0, PETSC_COMM_WORLD);
}

/// Every rank gets rank 0's `text` (a message only rank 0 holds, so that each rank can report it).
/// Collective over PETSC_COMM_WORLD.
inline void broadcast_text_from_root(std::string& text) {
  unsigned long long size = text.size();
  MPI_Bcast(&size, 1, MPI_UNSIGNED_LONG_LONG, 0, PETSC_COMM_WORLD);
  text.resize(static_cast<std::size_t>(size));
  MPI_Bcast(text.data(), static_cast<int>(size), MPI_CHAR, 0, PETSC_COMM_WORLD);
}

/// Every rank's `values` (the same count on every rank), rank after rank, on every rank: for what
/// every rank must have alike, so that each learns which ranks differ. Collective over
/// PETSC_COMM_WORLD.
inline std::vector<std::uint64_t> gather_on_every_rank(std::span<const std::uint64_t> values) {
  int ranks = 1;
  MPI_Comm_size(PETSC_COMM_WORLD, &ranks);
  std::vector<std::uint64_t> all(values.size() * static_cast<std::size_t>(ranks));
  const int count = static_cast<int>(values.size());
  MPI_Allgather(values.data(), count, MPI_UINT64_T, all.data(), count, MPI_UINT64_T, PETSC_COMM_WORLD);
  return all;
}

}  // namespace catena::assembly
