#include "assembly/matrix_market.hpp"

#include "assembly/petsc_handle.hpp"

#include <Eigen/Sparse>
#include <unsupported/Eigen/SparseExtra>

#include <stdexcept>
#include <string>
#include <vector>

namespace catena::assembly {

void write_matrix_market(Mat A, const std::filesystem::path& file, MPI_Comm comm) {
  PetscInt first = 0, last = 0, n = 0;
  check(MatGetOwnershipRange(A, &first, &last), "MatGetOwnershipRange");
  check(MatGetSize(A, &n, nullptr), "MatGetSize");
  std::vector<double> local;  // (row, column, value) triples
  for (PetscInt i = first; i < last; ++i) {
    PetscInt count = 0;
    const PetscInt* cols = nullptr;
    const PetscScalar* vals = nullptr;
    check(MatGetRow(A, i, &count, &cols, &vals), "MatGetRow");
    for (PetscInt k = 0; k < count; ++k)
      if (vals[k] != 0.0) local.insert(local.end(), {static_cast<double>(i), static_cast<double>(cols[k]), vals[k]});
    check(MatRestoreRow(A, i, &count, &cols, &vals), "MatRestoreRow");
  }
  int ranks = 1, rank = 0;
  MPI_Comm_size(comm, &ranks);
  MPI_Comm_rank(comm, &rank);
  const int size = static_cast<int>(local.size());
  std::vector<int> sizes(static_cast<std::size_t>(ranks)), offsets(static_cast<std::size_t>(ranks), 0);
  MPI_Gather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, comm);
  for (std::size_t r = 1; r < sizes.size(); ++r) offsets[r] = offsets[r - 1] + sizes[r - 1];
  std::vector<double> all(rank == 0 ? static_cast<std::size_t>(offsets.back() + sizes.back()) : 0);
  MPI_Gatherv(local.data(), size, MPI_DOUBLE, all.data(), sizes.data(), offsets.data(), MPI_DOUBLE, 0, comm);
  if (rank != 0) return;
  std::vector<Eigen::Triplet<double>> triplets;
  for (std::size_t k = 0; k + 2 < all.size(); k += 3)
    triplets.emplace_back(static_cast<int>(all[k]), static_cast<int>(all[k + 1]), all[k + 2]);
  Eigen::SparseMatrix<double> S(static_cast<int>(n), static_cast<int>(n));
  S.setFromTriplets(triplets.begin(), triplets.end());
  if (!Eigen::saveMarket(S, file.string())) throw std::runtime_error(file.string() + ": cannot be written");
}

}  // namespace catena::assembly
