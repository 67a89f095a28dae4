#include "solvers/eigen_sensitivity.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <utility>

namespace catena::solvers {

using assembly::check;

namespace {

using Complex = std::complex<double>;
constexpr double nan = std::numeric_limits<double>::quiet_NaN();

bool same_numbering(const assembly::Tableau& a, const assembly::Tableau& b) {
  if (a.n_global() != b.n_global() || a.first_owned() != b.first_owned() || a.n_owned() != b.n_owned()) return false;
  const fem::DofMap& x = a.global_map();
  const fem::DofMap& y = b.global_map();
  if (x.n_blocks() != y.n_blocks()) return false;
  for (std::size_t k = 0; k < x.n_blocks(); ++k) {
    const fem::BlockId block{static_cast<std::int32_t>(k)};
    const auto dx = x.dofs(block), dy = y.dofs(block);
    if (!std::equal(dx.begin(), dx.end(), dy.begin(), dy.end())) return false;
  }
  return true;
}

bool close(Complex a, Complex b) { return std::abs(a - b) <= repeated_gap * std::max(std::abs(a), std::abs(b)); }

/// The modes' clusters of repeated eigenvalues (connected by `close`), by increasing first
/// member; rigid modes are left out, and clusters with a partner among the other converged
/// eigenvalues or a member without its left eigenvector are empty.
std::vector<std::vector<std::size_t>> clusters(const EigenResult& r) {
  const std::size_t n = r.modes.size();
  std::vector<std::size_t> label(n, n);
  std::vector<std::vector<std::size_t>> out;
  for (std::size_t i = 0; i < n; ++i) {
    if (r.modes[i].kind == ModeKind::Rigid || label[i] != n) continue;
    std::vector<std::size_t> members{i};
    label[i] = out.size();
    for (std::size_t m = 0; m < members.size(); ++m)
      for (std::size_t j = 0; j < n; ++j)
        if (label[j] == n && r.modes[j].kind != ModeKind::Rigid && close(r.modes[members[m]].mu, r.modes[j].mu)) {
          label[j] = out.size();
          members.push_back(j);
        }
    std::sort(members.begin(), members.end());
    const bool complete = std::none_of(members.begin(), members.end(), [&](std::size_t j) {
      return r.modes[j].left.empty() || std::any_of(r.other_values.begin(), r.other_values.end(),
                                                    [&](Complex v) { return close(r.modes[j].mu, v); });
    });
    out.push_back(complete ? std::move(members) : std::vector<std::size_t>{});
  }
  return out;
}

/// A whole (gathered) complex vector's owned rows as two vectors of the tableau's layout.
struct OwnedComplex {
  assembly::VecHandle re, im;
  OwnedComplex(const assembly::Tableau& t, std::span<const Complex> whole) : re(t.create_vector()), im(t.create_vector()) {
    PetscScalar *r = nullptr, *i = nullptr;
    check(VecGetArray(re, &r), "VecGetArray");
    check(VecGetArray(im, &i), "VecGetArray");
    for (PetscInt k = 0; k < t.n_owned(); ++k) {
      const Complex x = whole[static_cast<std::size_t>(t.first_owned() + k)];
      r[k] = x.real();
      i[k] = x.imag();
    }
    check(VecRestoreArray(re, &r), "VecRestoreArray");
    check(VecRestoreArray(im, &i), "VecRestoreArray");
  }
};

/// ψᵢᴴ A φⱼ for every pair (i, j) of each cluster: [cluster][i][j] (collective).
std::vector<Eigen::MatrixXcd> projections(const assembly::Tableau& t, Mat A, const EigenResult& r,
                                          const std::vector<std::vector<std::size_t>>& groups) {
  std::vector<Eigen::MatrixXcd> out;
  std::vector<double> local;
  const assembly::VecHandle yr = t.create_vector(), yi = t.create_vector();
  for (const auto& members : groups) {
    out.emplace_back(Eigen::MatrixXcd::Zero(static_cast<Eigen::Index>(members.size()),
                                            static_cast<Eigen::Index>(members.size())));
    for (std::size_t j = 0; j < members.size(); ++j) {
      const OwnedComplex phi(t, r.modes[members[j]].right);
      check(MatMult(A, phi.re, yr), "MatMult");
      check(MatMult(A, phi.im, yi), "MatMult");
      const PetscScalar *a = nullptr, *b = nullptr;
      check(VecGetArrayRead(yr, &a), "VecGetArrayRead");
      check(VecGetArrayRead(yi, &b), "VecGetArrayRead");
      for (std::size_t i = 0; i < members.size(); ++i) {
        const std::vector<Complex>& psi = r.modes[members[i]].left;
        Complex sum = 0.0;
        for (PetscInt k = 0; k < t.n_owned(); ++k)
          sum += std::conj(psi[static_cast<std::size_t>(t.first_owned() + k)]) * Complex(a[k], b[k]);
        local.push_back(sum.real());
        local.push_back(sum.imag());
      }
      check(VecRestoreArrayRead(yr, &a), "VecRestoreArrayRead");
      check(VecRestoreArrayRead(yi, &b), "VecRestoreArrayRead");
    }
  }
  std::vector<double> total(local.size());
  MPI_Allreduce(local.data(), total.data(), static_cast<int>(local.size()), MPI_DOUBLE, MPI_SUM, t.comm());
  std::size_t at = 0;
  for (Eigen::MatrixXcd& m : out)
    for (Eigen::Index j = 0; j < m.cols(); ++j)
      for (Eigen::Index i = 0; i < m.rows(); ++i, at += 2) m(i, j) = {total[at], total[at + 1]};
  return out;
}

/// dλ/dp, [pair][parameter], of the pencil A φ = λ B φ whose eigenpairs (λ = Mode::mu, right and
/// left eigenvectors) are `pairs` and whose B at the base point is `B`: ψᴴ (dA − λ dB) φ / ψᴴ B φ,
/// clusters by their reduced pencil. `pencil_of` brings a perturbed model's analysis to its
/// linearization point and gives its (A, B).
std::vector<std::vector<Complex>> pencil_derivatives(
    const assembly::Tableau& base, Mat B, const EigenResult& pairs, std::span<ParameterModels> parameters,
    const std::function<std::pair<Mat, Mat>(LinearizedAnalysis&)>& pencil_of) {
  std::vector<std::vector<Complex>> out(pairs.modes.size(), std::vector<Complex>(parameters.size(), Complex(nan, nan)));
  for (const Mode& m : pairs.modes)
    if (m.right.empty()) throw std::logic_error("eigenvalue derivatives: the eigenpairs of a two-sided solve");
  const auto groups = clusters(pairs);
  const std::vector<Eigen::MatrixXcd> metric = projections(base, B, pairs, groups);

  for (std::size_t p = 0; p < parameters.size(); ++p) {
    ParameterModels& parameter = parameters[p];
    // Per multiple k: ψᴴ A_k φ and ψᴴ B_k φ of each cluster.
    std::array<std::vector<Eigen::MatrixXcd>, difference_multiples.size()> A_k, B_k;
    for (std::size_t k = 0; k < difference_multiples.size(); ++k) {
      LinearizedAnalysis perturbed(*parameter.models[k], base.comm());
      if (!same_numbering(base, perturbed.tableau()))
        throw std::runtime_error("--sensitivity: parameter '" + parameter.name +
                                 "' changes the numbering of the unknowns; it cannot be differentiated by");
      const auto [A, B_perturbed] = pencil_of(perturbed);
      A_k[k] = projections(perturbed.tableau(), A, pairs, groups);
      B_k[k] = projections(perturbed.tableau(), B_perturbed, pairs, groups);
    }
    const auto difference = [&](const auto& f, std::size_t c) {
      return fourth_order_difference(f[0][c], f[1][c], f[2][c], f[3][c], parameter.step);
    };
    for (std::size_t c = 0; c < groups.size(); ++c) {
      const std::vector<std::size_t>& members = groups[c];
      if (members.empty()) continue;
      const Eigen::MatrixXcd dA = difference(A_k, c), dB = difference(B_k, c);
      // (dA − λ dB) Φ column by column: each column's own λ (equal within the cluster's gap).
      Eigen::MatrixXcd R(dA.rows(), dA.cols());
      for (Eigen::Index j = 0; j < R.cols(); ++j)
        R.col(j) = dA.col(j) - pairs.modes[members[static_cast<std::size_t>(j)]].mu * dB.col(j);
      if (members.size() == 1) {
        out[members[0]][p] = R(0, 0) / metric[c](0, 0);
        continue;
      }
      const Eigen::MatrixXcd pencil = metric[c].partialPivLu().solve(R);  // (Ψᴴ B Φ)⁻¹ Ψᴴ (dA − λ dB) Φ
      const Eigen::ComplexEigenSolver<Eigen::MatrixXcd> reduced(pencil, false);
      std::vector<Complex> slopes;
      for (Eigen::Index j = 0; j < reduced.eigenvalues().size(); ++j) slopes.push_back(reduced.eigenvalues()[j]);
      std::sort(slopes.begin(), slopes.end(), [](Complex a, Complex b) { return a.real() < b.real(); });
      for (std::size_t j = 0; j < members.size(); ++j) out[members[j]][p] = slopes[j];
    }
  }
  return out;
}

}  // namespace

std::vector<std::vector<Complex>> eigenvalue_derivatives(const LinearizedAnalysis& analysis, const EigenResult& result,
                                                          std::span<ParameterModels> parameters) {
  return pencil_derivatives(analysis.tableau(), analysis.mass(), result, parameters, [](LinearizedAnalysis& a) {
    a.establish_state();
    a.linearize();
    return std::pair{a.stiffness(), a.mass()};
  });
}

std::vector<double> critical_factor_derivatives(const LinearizedAnalysis& analysis, const BucklingResult& result,
                                                std::span<ParameterModels> parameters) {
  const EigenResult& pairs = result.linear_pairs;
  std::vector<double> out(parameters.size(), nan);
  if (result.linear_index >= pairs.modes.size()) return out;  // no critical factor
  const auto slopes = pencil_derivatives(analysis.tableau(), analysis.buckling_stiffness_rate(), pairs, parameters,
                                         [](LinearizedAnalysis& a) {
                                           a.establish_state();
                                           a.form_buckling_pencil();
                                           return std::pair{a.buckling_stiffness(), a.buckling_stiffness_rate()};
                                         });
  // The reported factor is the lowest of its cluster: as p increases, the branch of the smallest
  // slope. A slope off the real axis (a non-symmetric pencil's cluster turning complex) is none.
  const Complex critical = pairs.modes[result.linear_index].mu;
  for (std::size_t p = 0; p < parameters.size(); ++p) {
    Complex lowest(std::numeric_limits<double>::infinity(), 0.0);
    for (std::size_t j = 0; j < pairs.modes.size(); ++j)
      if (j == result.linear_index || close(pairs.modes[j].mu, critical)) {
        const Complex slope = slopes[j][p];
        if (std::isnan(slope.real()) || slope.real() < lowest.real()) lowest = slope;
      }
    const double scale = std::max(std::abs(lowest), result.linear_factor / std::max(std::abs(parameters[p].value), parameters[p].step));
    out[p] = std::abs(lowest.imag()) <= 1e-6 * scale ? lowest.real() : nan;
  }
  return out;
}

ModeDerivative mode_derivative(const Mode& mode, Complex dmu) {
  const Complex s = mode.s;
  const double r = std::abs(s);
  ModeDerivative d;
  d.s = -dmu / (2.0 * s);  // s² = −μ
  d.natural_frequency = (std::conj(s) * d.s).real() / r;
  d.damped_frequency = s.imag() < 0.0 ? -d.s.imag() : d.s.imag();
  d.damping_ratio = -d.s.real() / r + s.real() * d.natural_frequency / (r * r);
  if (d.damping_ratio == 0.0) d.damping_ratio = 0.0;  // not −0 (Re s = 0, d|s|/dp < 0), printed "-0"
  return d;
}

}  // namespace catena::solvers
