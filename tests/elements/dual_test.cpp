// Our forward-mode dual numbers (elements/dual.hpp), which every automatically differentiated
// tangent relies on: first derivatives against the analytic gradient, nested duals' second
// derivatives against central differences of that gradient, and the operations with constants.
#include "elements/dual.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace catena::elements::ad {
namespace {

/// Exercises every arithmetic operation and function of dual.hpp, with constants on both sides.
template <class T>
T f(const T& x, const T& y) {
  using std::abs, std::cos, std::sin, std::sqrt;
  T s = sin(x * y) / sqrt(x) + cos(y) - x / y;
  s += 3.0;
  s -= 0.5 * x;
  s *= 2.0;
  s /= 4.0;
  return (1.0 - s) * (s + 2.0) + 1.0 / (x + y) + abs(x - y) - 2.0 / y;
}

/// ∂f/∂x and ∂f/∂y written by hand.
Eigen::Vector2d gradient(double x, double y) {
  const double s = (std::sin(x * y) / std::sqrt(x) + std::cos(y) - x / y + 3.0 - 0.5 * x) / 2.0;
  const double sx =
      (y * std::cos(x * y) / std::sqrt(x) - 0.5 * std::sin(x * y) / (x * std::sqrt(x)) - 1.0 / y - 0.5) / 2.0;
  const double sy = (x * std::cos(x * y) / std::sqrt(x) - std::sin(y) + x / (y * y)) / 2.0;
  const double outer = (1.0 - s) - (s + 2.0);  // d/ds of (1 − s)(s + 2)
  const double inverse = -1.0 / ((x + y) * (x + y));
  const double sign = x > y ? 1.0 : -1.0;
  return {outer * sx + inverse + sign, outer * sy + inverse - sign + 2.0 / (y * y)};
}

TEST(Dual, FirstDerivativesMatchTheAnalyticGradient) {
  for (const auto& [x, y] : {std::pair{0.7, 1.3}, std::pair{2.1, 0.4}}) {
    const Dual<2> dx(x, Eigen::Vector2d(1, 0)), dy(y, Eigen::Vector2d(0, 1));
    const Dual<2> r = f(dx, dy);
    EXPECT_DOUBLE_EQ(r.value(), f(x, y));
    const Eigen::Vector2d g = gradient(x, y);
    EXPECT_NEAR(r.d(0), g(0), 1e-13 * (1 + std::abs(g(0))));
    EXPECT_NEAR(r.d(1), g(1), 1e-13 * (1 + std::abs(g(1))));
  }
}

TEST(Dual, NestedDualsGiveTheHessian) {
  const double x = 0.7, y = 1.3, h = 1e-5;
  using Inner = Dual<2>;
  using Outer = Dual<2, Inner>;
  Outer dx(Inner(x, Eigen::Vector2d(1, 0))), dy(Inner(y, Eigen::Vector2d(0, 1)));
  dx.d(0) = Inner(1.0);
  dy.d(1) = Inner(1.0);
  const Outer r = f(dx, dy);
  EXPECT_DOUBLE_EQ(r.value().value(), f(x, y));
  for (int j = 0; j < 2; ++j) EXPECT_NEAR(r.d(j).value(), gradient(x, y)(j), 1e-13);
  // Row i of the Hessian: central differences of the analytic gradient along unknown i.
  for (int i = 0; i < 2; ++i) {
    const Eigen::Vector2d e = Eigen::Vector2d::Unit(i) * h;
    const Eigen::Vector2d row = (gradient(x + e(0), y + e(1)) - gradient(x - e(0), y - e(1))) / (2 * h);
    for (int j = 0; j < 2; ++j) {
      EXPECT_NEAR(r.d(j).d(i), row(j), 1e-7) << "second derivative " << i << ", " << j;
    }
  }
  EXPECT_NEAR(r.d(0).d(1), r.d(1).d(0), 1e-12);  // symmetric
}

}  // namespace
}  // namespace catena::elements::ad
