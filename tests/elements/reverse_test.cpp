// Reverse-mode automatic differentiation (elements/reverse.hpp) against closed-form derivatives:
// the gradient of a weighted sum of outputs, and with forward duals as values (forward over
// reverse) the Hessian along given directions; and through the rotation templates, against
// forward duals.
#include "elements/autodiff.hpp"
#include "elements/reverse.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

namespace catena::elements {
namespace {

using ad::Dual;
using ad::Reverse;
using ad::ReverseScope;

/// f(x) = (x0 x1 / x2 + sin x0, sqrt(x1) cos x2 − 3 x0 + atan2(x1, x2)).
template <class T>
Eigen::Matrix<T, 2, 1> test_function(const Eigen::Matrix<T, 3, 1>& x) {
  using std::cos;
  using std::sin;
  using std::sqrt;
  Eigen::Matrix<T, 2, 1> f;
  f[0] = x[0] * x[1] / x[2] + sin(x[0]);
  f[1] = sqrt(x[1]) * cos(x[2]) - 3.0 * x[0] + fem::rotation_detail::atan2_fixed(x[1], x[2]);
  return f;
}

TEST(Reverse, GradientOfAWeightedSumIsExact) {
  const Eigen::Vector3d x0(0.7, 1.3, -0.4);
  const Eigen::Vector2d w(2.0, -0.5);
  ReverseScope<double> scope;
  Eigen::Matrix<Reverse<double>, 3, 1> x;
  for (int i = 0; i < 3; ++i) x[i] = scope.variable(x0[i]);
  const Eigen::Vector3d g = scope.gradient(test_function(x), w, x);
  const double a = x0[0], b = x0[1], c = x0[2];
  const double r2 = b * b + c * c;
  const Eigen::Vector3d df0(b / c + std::cos(a), a / c, -a * b / (c * c));
  const Eigen::Vector3d df1(-3.0, 0.5 / std::sqrt(b) * std::cos(c) + c / r2, -std::sqrt(b) * std::sin(c) - b / r2);
  EXPECT_LT((g - (w[0] * df0 + w[1] * df1)).cwiseAbs().maxCoeff(), 1e-14);
}

TEST(Reverse, ForwardOverReverseGivesTheHessianAlongDirections) {
  // ψ = wᵀ f; its Hessian along two directions V, by forward over reverse and by nested forward
  // duals (Dual<3, Dual<2>>): equal to round-off.
  const Eigen::Vector3d x0(0.7, 1.3, -0.4);
  const Eigen::Vector2d w(2.0, -0.5);
  Eigen::Matrix<double, 3, 2> V;
  V << 1.0, 0.3, -0.2, 1.0, 0.5, -0.7;
  using D = Dual<2>;
  Eigen::Matrix<D, 3, 1> psi_gradient;
  {
    ReverseScope<D> scope;
    Eigen::Matrix<Reverse<D>, 3, 1> x;
    for (int i = 0; i < 3; ++i) x[i] = scope.variable(D(x0[i], V.row(i).transpose()));
    psi_gradient = scope.gradient(test_function(x), w, x);
  }
  using N = Dual<3, D>;
  Eigen::Matrix<N, 3, 1> y;
  for (int i = 0; i < 3; ++i) {
    y[i].value() = D(x0[i], V.row(i).transpose());
    for (int k = 0; k < 3; ++k) y[i].d(k) = D(i == k ? 1.0 : 0.0);
  }
  const Eigen::Matrix<N, 2, 1> f = test_function(y);
  for (int k = 0; k < 3; ++k)
    for (int b = 0; b < 2; ++b) {
      const double nested = w[0] * f[0].d(k).d(b) + w[1] * f[1].d(k).d(b);
      EXPECT_NEAR(psi_gradient[k].d(b), nested, 1e-13) << k << ", " << b;
      EXPECT_NEAR(psi_gradient[k].value(), w[0] * f[0].d(k).value() + w[1] * f[1].d(k).value(), 1e-14);
    }
}

TEST(Reverse, ThroughTheRotationMapsEqualsForwardDuals) {
  // The logarithm of exp(a) exp(b): its gradient along a weight, reverse against forward.
  const Eigen::Matrix<double, 6, 1> x0 = (Eigen::Matrix<double, 6, 1>() << 0.4, -1.1, 0.9, 2.0, 0.3, -0.6).finished();
  const Eigen::Vector3d w(1.0, -2.0, 0.5);
  const auto f = [](const auto& x) {
    using T = std::decay_t<decltype(x[0])>;
    const ad::Vec3T<T> a = x.template head<3>(), b = x.template tail<3>();
    return ad::Vec3T<T>(fem::log_map(ad::Mat3T<T>(fem::exp_map(a) * fem::exp_map(b))));
  };
  ReverseScope<double> scope;
  Eigen::Matrix<Reverse<double>, 6, 1> x;
  for (int i = 0; i < 6; ++i) x[i] = scope.variable(x0[i]);
  const Eigen::Matrix<double, 6, 1> g = scope.gradient(f(x), w, x);
  const Eigen::Matrix<double, 3, 6> J = ad::jacobian(f(ad::variables<6>(x0)));
  EXPECT_LT((g - J.transpose() * w).cwiseAbs().maxCoeff(), 1e-13);
}

TEST(Reverse, ASecondScopeOnTheSameTapeIsRefused) {
  ReverseScope<double> outer;
  EXPECT_THROW(ReverseScope<double> inner, std::logic_error);
  const Reverse<double> x = outer.variable(2.0);
  const Eigen::Matrix<Reverse<double>, 1, 1> y(x * x);
  const Eigen::Matrix<Reverse<double>, 1, 1> xs(x);
  EXPECT_EQ(outer.gradient(y, Eigen::Matrix<double, 1, 1>(1.0), xs)[0], 4.0);
}

}  // namespace
}  // namespace catena::elements
