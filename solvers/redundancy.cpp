#include "solvers/redundancy.hpp"

#include <Eigen/QR>

namespace catena::solvers {

std::vector<std::string> dependent_unknowns(const assembly::Tableau& tableau, Mat J, int max_unknowns) {
  int ranks = 1;
  MPI_Comm_size(tableau.comm(), &ranks);
  const PetscInt n = tableau.n_global();
  if (ranks > 1 || n > max_unknowns || n == 0) return {};
  Mat dense = nullptr;
  if (MatConvert(J, MATSEQDENSE, MAT_INITIAL_MATRIX, &dense) != 0) return {};
  const PetscScalar* a = nullptr;
  MatDenseGetArrayRead(dense, &a);
  Eigen::MatrixXd A = Eigen::Map<const Eigen::MatrixXd>(a, n, n);  // PETSc dense is column-major
  MatDenseRestoreArrayRead(dense, &a);
  MatDestroy(&dense);
  // Rows of inertia (2m/h²), stiffness and kinematics differ by orders of magnitude: equilibrate.
  for (Eigen::Index i = 0; i < n; ++i) {
    const double r = A.row(i).cwiseAbs().maxCoeff();
    if (r > 0.0) A.row(i) /= r;
  }
  for (Eigen::Index j = 0; j < n; ++j) {
    const double c = A.col(j).cwiseAbs().maxCoeff();
    if (c > 0.0) A.col(j) /= c;
  }
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(A);
  qr.setThreshold(1e-10);
  std::vector<std::string> out;
  for (Eigen::Index k = qr.rank(); k < n; ++k) out.push_back(tableau.row_name(qr.colsPermutation().indices()[k]));
  return out;
}

}  // namespace catena::solvers
