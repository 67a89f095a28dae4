// The hand-written reverse sweep of the beam's deformation work (elements/beam_deformations.hpp)
// against forward automatic differentiation of the same φ(z), in every branch of the rotation
// maps it passes through: small angles (series), moderate ones (closed forms), and angles above
// 90 degrees, where it must decline rather than answer.
#include "elements/beam_deformations.hpp"

#include "elements/autodiff.hpp"

#include <gtest/gtest.h>

#include <random>

namespace catena::elements::beam_deformations {
namespace {

using fem::Mat3;
using fem::Vec3;

/// z = (d, Q) for a chord d and the relative rotation Q = exp(q̂).
Invariants invariants_of(const Vec3& d, const Vec3& q) {
  const Mat3 Q = fem::exp_map<double>(q);
  Invariants z;
  z.head<3>() = d;
  for (int j = 0; j < 3; ++j) z.segment<3>(3 + 3 * j) = Q.col(j);
  return z;
}

/// ∇(σᵀφ) by forward automatic differentiation along all twelve components of z.
Invariants automatic_gradient(const Invariants& z, const Deformations& sigma, double L) {
  using D = ad::Dual<12>;
  Eigen::Matrix<D, 12, 1> x;
  for (int i = 0; i < 12; ++i) x[i] = D(z[i], Eigen::Matrix<double, 12, 1>::Unit(i));
  const Eigen::Matrix<double, n_strains, 12> B = ad::jacobian(Eigen::Matrix<D, n_strains, 1>(of_invariants<D>(x, L)));
  return B.transpose() * sigma;
}

struct Case {
  const char* what;
  double chord_turn;  ///< size of the chord's turn away from the section axis [rad]
  double relative;    ///< size of the relative rotation Q [rad]
};

TEST(BeamDeformations, WorkGradientIsTheAutomaticOneInEveryBranch) {
  const double L = 1.3;
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const auto direction = [&] { return Vec3(u(rng), u(rng), u(rng)).normalized(); };
  // Series branches (sin²θ < 1e-4 in log_map, θ² < 1e-2 in exp_map), closed forms, and mixed.
  const Case cases[] = {{"tiny", 1e-4, 3e-3},        {"small", 5e-3, 5e-2},  {"moderate", 0.2, 0.6},
                        {"large", 0.6, 1.4},          {"mixed a", 1e-4, 1.2}, {"mixed b", 0.7, 1e-3},
                        {"exactly straight", 0.0, 0.0}};
  for (const Case& c : cases)
    for (int trial = 0; trial < 20; ++trial) {
      const Vec3 d = (1.0 + 0.05 * u(rng)) * L * fem::exp_map<double>(Vec3(c.chord_turn * direction())) * Vec3::UnitX();
      const Vec3 q = c.relative * std::abs(u(rng)) * direction();
      const Invariants z = invariants_of(d, q);
      Deformations sigma;
      for (int i = 0; i < n_strains; ++i) sigma[i] = u(rng) * (i == 0 ? 1e3 : 10.0);
      const std::optional<Invariants> hand = work_gradient(z, sigma, L);
      ASSERT_TRUE(hand.has_value()) << c.what;
      const Invariants expected = automatic_gradient(z, sigma, L);
      const double miss = (*hand - expected).cwiseAbs().maxCoeff();
      EXPECT_LT(miss, 1e-12 * expected.cwiseAbs().maxCoeff()) << c.what << " trial " << trial;
    }
}

TEST(BeamDeformations, WorkGradientDeclinesAboveNinetyDegrees) {
  const double L = 2.0;
  Deformations sigma;
  sigma << 5.0, 1.0, -2.0, 3.0, 0.5, -1.5;
  // A relative rotation of 2 rad: log_map of Q takes its third branch.
  EXPECT_FALSE(work_gradient(invariants_of(Vec3(L, 0, 0), Vec3(0, 2.0, 0)), sigma, L).has_value());
  // And the exceptions of φ itself.
  EXPECT_THROW(work_gradient(invariants_of(Vec3(1e-12, 0, 0), Vec3::Zero()), sigma, L), fem::DomainError);
  EXPECT_THROW(work_gradient(invariants_of(Vec3(-L, 1e-3, 0), Vec3::Zero()), sigma, L), fem::DomainError);
}

}  // namespace
}  // namespace catena::elements::beam_deformations
