#include "solvers/redundancy.hpp"

#include "fem/constraint_rank.hpp"

#include <Eigen/Core>

#include <algorithm>
#include <cmath>

extern "C" {
/// LAPACK: QR factorization with column pivoting, A P = Q R (Fortran interface).
void dgeqp3_(const int* m, const int* n, double* a, const int* lda, int* jpvt, double* tau, double* work,
             const int* lwork, int* info);
}

namespace catena::solvers {

std::optional<Eigen::MatrixXd> dense_copy(const assembly::Tableau& tableau, Mat J, int max_unknowns) {
  int ranks = 1;
  MPI_Comm_size(tableau.comm(), &ranks);
  const PetscInt n = tableau.n_global();
  if (ranks > 1 || n > max_unknowns || n == 0) return std::nullopt;
  Mat dense = nullptr;
  if (MatConvert(J, MATSEQDENSE, MAT_INITIAL_MATRIX, &dense) != 0) return std::nullopt;
  const PetscScalar* a = nullptr;
  MatDenseGetArrayRead(dense, &a);
  Eigen::MatrixXd A = Eigen::Map<const Eigen::MatrixXd>(a, n, n);  // PETSc dense is column-major
  MatDenseRestoreArrayRead(dense, &a);
  MatDestroy(&dense);
  return A;
}

std::vector<fem::DependentUnknown> dependent_unknowns(const assembly::Tableau& tableau, Mat J, int max_unknowns) {
  std::optional<Eigen::MatrixXd> copy = dense_copy(tableau, J, max_unknowns);
  if (!copy) return {};
  Eigen::MatrixXd& A = *copy;
  const Eigen::Index n = A.rows();
  fem::equilibrate(A);
  // Rank-revealing QR with column pivoting, LAPACK's blocked dgeqp3 (Eigen's unblocked one took
  // 0.5 s of a one-step run at 1 440 unknowns); columns whose pivots fall below
  // fem::dependent_pivot of the largest depend on the others.
  const int size = static_cast<int>(n);
  std::vector<int> pivots(static_cast<std::size_t>(n), 0);  // 0: every column free to move
  std::vector<double> tau(static_cast<std::size_t>(n));
  int lwork = -1, info = 0;
  double optimal = 0.0;
  dgeqp3_(&size, &size, A.data(), &size, pivots.data(), tau.data(), &optimal, &lwork, &info);
  lwork = static_cast<int>(optimal);
  std::vector<double> work(static_cast<std::size_t>(std::max(lwork, 1)));
  dgeqp3_(&size, &size, A.data(), &size, pivots.data(), tau.data(), work.data(), &lwork, &info);
  if (info != 0) return {};
  const double largest = A.diagonal().cwiseAbs().maxCoeff();
  Eigen::Index rank = 0;
  for (Eigen::Index k = 0; k < n; ++k) rank += std::abs(A(k, k)) > fem::dependent_pivot * largest ? 1 : 0;
  std::vector<fem::DependentUnknown> out;  // the columns pivoted last (dgeqp3's indices count from 1)
  for (Eigen::Index k = rank; k < n; ++k) {
    const PetscInt row = pivots[static_cast<std::size_t>(k)] - 1;
    out.push_back({tableau.row_name(row), tableau.row_owner(row)});
  }
  return out;
}

}  // namespace catena::solvers
