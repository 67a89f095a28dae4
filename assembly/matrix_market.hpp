#pragma once
/// A distributed PETSc matrix written as one Matrix Market file (the linearized analyses' K, D
/// and M, for users who check them in other tools).
#include <petscmat.h>

#include <filesystem>

namespace catena::assembly {

/// Rank 0 gathers every rank's rows and writes the non-zero entries of `A` to `file` in the
/// coordinate format (Eigen's saveMarket). Collective over `comm`.
void write_matrix_market(Mat A, const std::filesystem::path& file, MPI_Comm comm);

}  // namespace catena::assembly
