#pragma once
/// Forward automatic differentiation for element residuals (dual numbers, elements/dual.hpp): elements
/// with rotations write their residual once, as a template on the scalar type, and get the exact
/// Jacobian from it. `Dual<N>` carries N derivatives; nesting `Dual` over `Dual` gives second
/// derivatives (used by the beam's discrete gradient, whose residual contains a gradient).
#include "elements/dual.hpp"

namespace catena::elements::ad {

template <class T>
using Vec3T = Eigen::Matrix<T, 3, 1>;
template <class T>
using Mat3T = Eigen::Matrix<T, 3, 3>;

/// The independent variables x: value x_i, derivative e_i.
template <int N, class S>
Eigen::Matrix<Dual<N, S>, N, 1> variables(const Eigen::Matrix<S, N, 1>& x) {
  Eigen::Matrix<Dual<N, S>, N, 1> v;
  for (int i = 0; i < N; ++i) {
    v[i].value() = x[i];
    v[i].derivatives() = Eigen::Matrix<S, N, 1>::Unit(i);
  }
  return v;
}

/// A constant (zero derivatives) of a dual type from a fixed-size matrix of its value type.
template <class D, int R, int C, class S>
Eigen::Matrix<D, R, C> constant(const Eigen::Matrix<S, R, C>& m) {
  Eigen::Matrix<D, R, C> out;
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; ++j) out(i, j) = D(m(i, j));
  return out;
}

/// A constant matrix of doubles as a factor in products with scalars T: as it is where Eigen
/// multiplies a T by a double directly (a dual times a number costs about half a dual times a
/// dual: the Jacobians' Dual<12> algebra multiplies many rotations by constant ones), cast where
/// it does not (long double).
template <class T, class Derived>
decltype(auto) constant_factor(const Eigen::MatrixBase<Derived>& m) {
  if constexpr (std::is_same_v<T, long double>) {
    return m.template cast<T>();
  } else {
    return m.derived();
  }
}

/// Values and derivatives of a vector of duals: v and ∂v/∂x (rows: entries of v).
template <int N, class S, int M>
Eigen::Matrix<S, M, 1> values(const Eigen::Matrix<Dual<N, S>, M, 1>& v) {
  Eigen::Matrix<S, M, 1> out;
  for (int i = 0; i < M; ++i) out[i] = v[i].value();
  return out;
}
template <int N, class S, int M>
Eigen::Matrix<S, M, N> jacobian(const Eigen::Matrix<Dual<N, S>, M, 1>& v) {
  Eigen::Matrix<S, M, N> out;
  for (int i = 0; i < M; ++i) out.row(i) = v[i].derivatives().transpose();
  return out;
}

}  // namespace catena::elements::ad
