#include "solvers/equilibrium_stability.hpp"

#include "solvers/redundancy.hpp"

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>

namespace catena::solvers {

EquilibriumStability equilibrium_stability(const assembly::Tableau& tableau, Mat J, double length_scale,
                                           int max_unknowns) {
  EquilibriumStability out;
  std::optional<Eigen::MatrixXd> copy = dense_copy(tableau, J, max_unknowns);
  if (!copy) return out;
  Eigen::MatrixXd& A = *copy;
  const Eigen::Index n = A.rows();
  Eigen::MatrixXd B = Eigen::MatrixXd::Zero(n, n);
  Eigen::VectorXd weight = Eigen::VectorXd::Zero(n);  // the metric's √B, to name a mode's largest share
  for (Eigen::Index i = 0; i < n; ++i) {
    const fem::UnknownKind kind = tableau.row_kind(static_cast<PetscInt>(i));
    if (kind == fem::UnknownKind::Displacement) B(i, i) = 1.0, weight(i) = 1.0;
    if (kind == fem::UnknownKind::Rotation) B(i, i) = length_scale * length_scale, weight(i) = length_scale;
  }
  // Rows of stiffness and of kinematics differ by orders of magnitude: each row of the pencil is
  // scaled alike, which leaves its eigenvalues as they are.
  for (Eigen::Index i = 0; i < n; ++i) {
    const double r = A.row(i).cwiseAbs().maxCoeff();
    if (r > 0.0) {
      A.row(i) /= r;
      B.row(i) /= r;
    }
  }
  Eigen::GeneralizedEigenSolver<Eigen::MatrixXd> qz(A, B, /*computeEigenvectors=*/true);
  if (qz.info() != Eigen::Success) return out;
  const Eigen::VectorXd beta = qz.betas();

  std::vector<Eigen::Index> finite;
  double largest = 0.0;
  for (Eigen::Index k = 0; k < n; ++k) {
    // A multiplier row's infinite eigenvalue: β vanishes against α (QZ scales each pair its own way).
    if (std::abs(beta(k)) <= 1e-10 * std::abs(qz.alphas()(k))) continue;
    finite.push_back(k);
    largest = std::max(largest, std::abs(qz.alphas()(k) / beta(k)));
  }
  out.checked = true;
  out.zero = 1e-9 * largest;
  std::vector<Eigen::Index> free;
  for (const Eigen::Index k : finite) {
    const double mu = (qz.alphas()(k) / beta(k)).real();
    if (std::abs(mu) <= out.zero) {
      free.push_back(k);
    } else if (std::isnan(out.lowest) || mu < out.lowest) {
      out.lowest = mu;
    }
  }
  if (std::isnan(out.lowest)) out.lowest = 0.0;
  if (free.empty()) return out;
  // QZ's vectors for a multiple zero eigenvalue (a chain's bars' spins) need not span its space:
  // the free directions are taken from the null space of J itself (J φ = 0 is μ = 0), columns
  // equilibrated too, by a full-pivoting LU; the unknowns named are those a column-pivoted QR of
  // that basis picks, one per direction, each the most independent of the ones before (in B's
  // metric).
  Eigen::VectorXd column_scale = Eigen::VectorXd::Ones(n);
  for (Eigen::Index j = 0; j < n; ++j) {
    const double c = A.col(j).cwiseAbs().maxCoeff();
    if (c > 0.0) {
      column_scale(j) = 1.0 / c;
      A.col(j) *= column_scale(j);
    }
  }
  Eigen::FullPivLU<Eigen::MatrixXd> lu(A);
  lu.setThreshold(1e-10);
  const Eigen::MatrixXd kernel = lu.kernel();
  if (lu.rank() == n) return out;
  Eigen::MatrixXd basis = column_scale.cwiseProduct(weight).asDiagonal() * kernel;
  const Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(basis.transpose());
  for (Eigen::Index j = 0; j < qr.rank(); ++j) {
    const auto row = static_cast<PetscInt>(qr.colsPermutation().indices()(j));
    const char* along = tableau.row_kind(row) == fem::UnknownKind::Rotation ? "rotation about" : "displacement along";
    const std::string axis = std::string(1, "xyz"[tableau.row_component(row) % 3]);
    out.free_directions.push_back(tableau.row_owner(row) + " " + along + " " + axis);
  }
  return out;
}

}  // namespace catena::solvers
