#pragma once
/// Finite rotation operators: exponential and logarithm of SO(3), their tangent operators, the
/// Cayley map and rotation vector <-> quaternion conversions.
///
/// Conventions
/// - A rotation vector φ = θ n (angle θ = |φ|, unit axis n) has global (spatial) components, and
///   R = exp(φ̂) maps material to spatial components. skew(a) = â is the matrix with â b = a × b.
/// - Tangent operators are *spatial (left)* ones: a small change δ of the parameters rotates the
///   current rotation by a small spatial rotation applied on the left,
///       exp((φ + δ)^) = exp((T(φ) δ)^) exp(φ̂) + O(|δ|²).
///   The material (right) tangent, exp((φ + δ)^) = exp(φ̂) exp((Tᵀ(φ) δ)^) + O(|δ|²), is T(φ)ᵀ.
/// - log_map returns the angle in [0, π]; at exactly π, φ and −φ describe the same rotation and
///   either may be returned.
///
/// Every operator except the quaternion conversions is a template on the scalar type, so it can be
/// differentiated by forward automatic differentiation: the element kernels' dual numbers
/// (elements/dual.hpp, nested for second derivatives).
/// Hence math functions are called unqualified after `using std::...` (ADL finds the dual
/// numbers' overloads), branches test plain values (scalar_value), and sqrt is never taken of a quantity
/// that can be exactly zero: its derivative would be infinite there. Small angles use Taylor
/// series in θ² instead of the closed forms, which would also lose digits by cancellation.
#include "fem/types.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace catena::fem {

template <class T>
using Vec3T = Eigen::Matrix<T, 3, 1>;
template <class T>
using Mat3T = Eigen::Matrix<T, 3, 3>;

/// Plain value of a scalar: the number itself, or the value of an automatic-differentiation
/// scalar (recursively, for nested ones). Used to choose branches, never in the arithmetic.
template <class T>
[[nodiscard]] double scalar_value(const T& x) {
  if constexpr (std::is_arithmetic_v<T>) {
    return static_cast<double>(x);
  } else {
    return scalar_value(x.value());
  }
}

namespace rotation_detail {

/// Below this θ² the exp-family coefficients use their Taylor series, truncated after the θ⁸
/// term: the first neglected term is below 3e-18 relative, and the closed forms, which cancel
/// digits like eps/θ² (more in derivatives), are only used where θ ≥ 0.1.
inline constexpr double series_theta2 = 1e-2;
/// Below this sin²θ (and for θ < π/2) log_map uses the series of asin(s)/s in s² = sin²θ up to
/// s⁸; the first neglected term is below 3e-22.
inline constexpr double log_series_sin2 = 1e-4;

/// p(x) = c0 + c1 x + c2 x² + c3 x³ + c4 x⁴ by Horner's rule.
template <class T>
[[nodiscard]] T poly4(const T& x, double c0, double c1, double c2, double c3, double c4) {
  if constexpr (requires { x.derivatives(); }) {
    // A dual number: the polynomial and its derivative on the value, then the chain rule once
    // (a quarter of the operations of Horner's scheme in dual arithmetic).
    using V = typename T::Scalar;
    const V v = x.value();
    return T(poly4<V>(v, c0, c1, c2, c3, c4), x.derivatives() * poly4<V>(v, c1, 2.0 * c2, 3.0 * c3, 4.0 * c4, 0.0));
  } else {
    return T(c0) + x * (T(c1) + x * (T(c2) + x * (T(c3) + x * T(c4))));
  }
}

/// atan2(y, x) for plain and automatic-differentiation scalars: for a type with derivatives
/// (elements/dual.hpp), dθ = (x dy − y dx)/(x² + y²).
template <class T>
[[nodiscard]] T atan2_fixed(const T& y, const T& x) {
  if constexpr (std::is_arithmetic_v<T>) {
    return std::atan2(y, x);
  } else if constexpr (!requires { y.derivatives(); }) {
    return atan2(y, x);  // a type with its own (elements/reverse.hpp), found by argument-dependent lookup
  } else {
    using V = typename T::Scalar;
    const V yv = y.value();
    const V xv = x.value();
    const V r2 = xv * xv + yv * yv;
    return T(atan2_fixed(yv, xv), y.derivatives() * (xv / r2) - x.derivatives() * (yv / r2));
  }
}

}  // namespace rotation_detail

/// skew(v) b = v × b.
template <class T>
[[nodiscard]] Mat3T<T> skew(const Vec3T<T>& v) {
  Mat3T<T> m;
  m << T(0), -v.z(), v.y(),  //
      v.z(), T(0), -v.x(),   //
      -v.y(), v.x(), T(0);
  return m;
}

/// Axial vector of the skew-symmetric part ½(M − Mᵀ): axial(skew(v)) = v.
template <class T>
[[nodiscard]] Vec3T<T> axial(const Mat3T<T>& m) {
  return Vec3T<T>(T(0.5) * (m(2, 1) - m(1, 2)), T(0.5) * (m(0, 2) - m(2, 0)),
                  T(0.5) * (m(1, 0) - m(0, 1)));
}

/// I + a v̂ + b v̂² for v with |v|² = `v2`, entry by entry (v̂² = v vᵀ − |v|² I): in dual
/// arithmetic the products of a skew matrix's zeros and the sums of whole matrices cost most of
/// the time of the matrix expression.
template <class T>
[[nodiscard]] Mat3T<T> identity_plus(const Vec3T<T>& v, const T& v2, const T& a, const T& b) {
  Mat3T<T> r;
  for (int j = 0; j < 3; ++j) {
    r(j, j) = T(1) + b * (v[j] * v[j] - v2);
    const int k = (j + 1) % 3, l = (j + 2) % 3;  // (j, k, l) cyclic
    const T bjk = b * (v[j] * v[k]), al = a * v[l];
    r(k, j) = bjk + al;
    r(j, k) = bjk - al;
  }
  return r;
}

/// exp_map's coefficients as functions of x = θ²: a = sin θ / θ, b = (1 − cos θ) / θ². Any scalar
/// type, so that a hand-written adjoint can take their derivatives with a dual number
/// (elements/beam_deformations.cpp).
template <class T>
struct ExpCoefficients {
  T a, b;
};
template <class T>
[[nodiscard]] ExpCoefficients<T> exp_coefficients(const T& x) {
  using std::sin;
  using std::sqrt;
  if (scalar_value(x) < rotation_detail::series_theta2)
    return {rotation_detail::poly4(x, 1.0, -1.0 / 6, 1.0 / 120, -1.0 / 5040, 1.0 / 362880),
            rotation_detail::poly4(x, 1.0 / 2, -1.0 / 24, 1.0 / 720, -1.0 / 40320, 1.0 / 3628800)};
  const T theta = sqrt(x);
  const T s = sin(T(0.5) * theta);
  return {sin(theta) / theta, T(2) * s * s / x};  // 1 − cos θ = 2 sin²(θ/2), without cancellation
}

/// Rotation matrix of the rotation vector φ (Rodrigues):
///     exp(φ̂) = I + (sin θ/θ) φ̂ + ((1 − cos θ)/θ²) φ̂².
template <class T>
[[nodiscard]] Mat3T<T> exp_map(const Vec3T<T>& phi) {
  const T x = phi.squaredNorm();  // θ²
  const ExpCoefficients<T> c = exp_coefficients(x);
  return identity_plus(phi, x, c.a, c.b);
}

/// log_map's small-angle factor asin(s)/s as a series in s² (used where s² < log_series_sin2 and
/// cos θ > 0); any scalar type, like exp_coefficients.
template <class T>
[[nodiscard]] T log_series_factor(const T& s2) {
  return rotation_detail::poly4(s2, 1.0, 1.0 / 6, 3.0 / 40, 5.0 / 112, 35.0 / 1152);
}

/// Rotation vector of the rotation matrix R, with angle θ ∈ [0, π].
///
/// With c = cos θ = (tr R − 1)/2 and the axial vector of the skew part, axial(R) = sin θ n:
/// - small angles (sin²θ < 1e-4, c > 0): φ = (asin s / s) axial(R), series in s² = |axial(R)|²;
/// - θ ≤ π/2: θ = atan2(s, c), φ = (θ/s) axial(R);
/// - θ > π/2: the skew part vanishes as θ → π and loses relative accuracy, so the axis comes from
///   the symmetric part ½(R + Rᵀ) − c I = (1 − c) n nᵀ (its largest diagonal entry's column),
///   with the sign that makes n · axial(R) = sin θ ≥ 0.
template <class T>
[[nodiscard]] Vec3T<T> log_map(const Mat3T<T>& r) {
  using std::sqrt;
  const T c = T(0.5) * (r.trace() - T(1));
  const Vec3T<T> w = axial(r);  // sin θ n
  const T s2 = w.squaredNorm();
  if (scalar_value(c) > 0.0 && scalar_value(s2) < rotation_detail::log_series_sin2) {
    return log_series_factor(s2) * w;
  }
  if (scalar_value(c) >= 0.0) {
    const T s = sqrt(s2);
    return (rotation_detail::atan2_fixed(s, c) / s) * w;
  }
  Mat3T<T> b = T(0.5) * (r + r.transpose());
  b.diagonal().array() -= c;
  int k = 0;
  for (int i = 1; i < 3; ++i) {
    if (scalar_value(b(i, i)) > scalar_value(b(k, k))) k = i;
  }
  Vec3T<T> n = b.col(k) / sqrt(b.col(k).squaredNorm());  // |b.col(k)| ≥ (1 − c)/√3 ≥ 1/√3
  T s = n.dot(w);
  if (scalar_value(s) < 0.0) {
    n = -n;
    s = -s;
  }
  return rotation_detail::atan2_fixed(s, c) * n;
}

/// Spatial (left) tangent of the exponential map,
///     T(φ) = I + ((1 − cos θ)/θ²) φ̂ + ((θ − sin θ)/θ³) φ̂²,
/// such that exp((φ + δ)^) = exp((T(φ) δ)^) exp(φ̂) to first order in δ; the spatial angular
/// velocity of R(t) = exp(φ̂(t)) is T(φ) φ̇. T(φ) φ = φ. The material (right) tangent is T(φ)ᵀ.
template <class T>
[[nodiscard]] Mat3T<T> tangent_exp(const Vec3T<T>& phi) {
  using std::sin;
  using std::sqrt;
  const T x = phi.squaredNorm();
  T b;  // (1 − cos θ) / θ²
  T c;  // (θ − sin θ) / θ³
  if (scalar_value(x) < rotation_detail::series_theta2) {
    b = rotation_detail::poly4(x, 1.0 / 2, -1.0 / 24, 1.0 / 720, -1.0 / 40320, 1.0 / 3628800);
    c = rotation_detail::poly4(x, 1.0 / 6, -1.0 / 120, 1.0 / 5040, -1.0 / 362880, 1.0 / 39916800);
  } else {
    const T theta = sqrt(x);
    const T s = sin(T(0.5) * theta);
    b = T(2) * s * s / x;
    c = (theta - sin(theta)) / (theta * x);
  }
  return identity_plus(phi, x, b, c);
}

/// Inverse of tangent_exp (defined for θ < 2π):
///     T(φ)⁻¹ = I − ½ φ̂ + (1/θ²)(1 − (θ/2) cot(θ/2)) φ̂².
template <class T>
[[nodiscard]] Mat3T<T> tangent_exp_inverse(const Vec3T<T>& phi) {
  using std::cos;
  using std::sin;
  using std::sqrt;
  const T x = phi.squaredNorm();
  T d;  // (1 − (θ/2) cot(θ/2)) / θ²
  if (scalar_value(x) < rotation_detail::series_theta2) {
    d = rotation_detail::poly4(x, 1.0 / 12, 1.0 / 720, 1.0 / 30240, 1.0 / 1209600, 1.0 / 47900160);
  } else {
    const T half = T(0.5) * sqrt(x);
    d = (T(1) - half * cos(half) / sin(half)) / x;
  }
  return identity_plus(phi, x, T(-0.5), d);
}

/// Cayley map of the parameters c = 2 tan(θ/2) n:
///     cay(c) = (I − ĉ/2)⁻¹ (I + ĉ/2) = I + 4/(4 + |c|²) (ĉ + ĉ²/2).
/// It agrees with exp_map to second order in c and is rational (no trigonometric functions).
template <class T>
[[nodiscard]] Mat3T<T> cayley(const Vec3T<T>& c) {
  const T c2 = c.squaredNorm();
  const T k = T(4) / (T(4) + c2);
  return identity_plus(c, c2, k, T(0.5 * k));
}

/// Cayley parameters of R: c = 4 axial(R) / (1 + tr R). Since 1 + tr R = 4 cos²(θ/2), c grows
/// without bound as θ → π; throws std::domain_error for 1 + tr R ≤ 1e-8, i.e. for rotations
/// within about 1e-4 rad of a half turn (|c| ≳ 4e4), and for non-finite input.
template <class T>
[[nodiscard]] Vec3T<T> cayley_inverse(const Mat3T<T>& r) {
  const T q = T(1) + r.trace();
  if (!(scalar_value(q) > 1e-8)) {
    throw std::domain_error("cayley_inverse: rotation by (nearly) a half turn, 1 + tr R = " +
                            std::to_string(scalar_value(q)) +
                            "; Cayley parameters exist only for angles below pi");
  }
  return (T(4) / q) * axial(r);
}

/// Spatial (left) tangent of the Cayley map,
///     Tc(c) = 4/(4 + |c|²) (I + ĉ/2),
/// such that cay(c + δ) = exp((Tc(c) δ)^) cay(c) to first order in δ, i.e.
/// d/dε cay(c + ε δ) cay(c)ᵀ |ε=0 = skew(Tc(c) δ). The material (right) tangent is Tc(c)ᵀ.
template <class T>
[[nodiscard]] Mat3T<T> tangent_cayley(const Vec3T<T>& c) {
  const T k = T(4) / (T(4) + c.squaredNorm());
  return k * (Mat3T<T>::Identity() + T(0.5) * skew(c));
}

/// Unit quaternion (cos(θ/2), sin(θ/2) n) of the rotation vector φ = θ n.
[[nodiscard]] inline Quaternion quaternion_from_rotation_vector(const Vec3& phi) {
  const double x = phi.squaredNorm();
  const double theta = std::sqrt(x);
  // sin(θ/2)/θ, by its series for small θ (exact 0/0 at θ = 0).
  const double h = x < rotation_detail::series_theta2
                       ? rotation_detail::poly4(x, 1.0 / 2, -1.0 / 48, 1.0 / 3840, -1.0 / 645120,
                                                1.0 / 185794560)
                       : std::sin(0.5 * theta) / theta;
  const Vec3 v = h * phi;
  return {std::cos(0.5 * theta), v.x(), v.y(), v.z()};
}

/// Unit quaternion of cay(c): (1, c/2)/√(1 + |c|²/4), since c = 2 tan(θ/2) n.
[[nodiscard]] inline Quaternion quaternion_from_cayley(const Vec3& c) {
  const double k = 1.0 / std::sqrt(1.0 + 0.25 * c.squaredNorm());
  const Vec3 v = 0.5 * k * c;
  return {k, v.x(), v.y(), v.z()};
}

/// Rotation vector, angle in [0, π], of the (nonzero, not necessarily unit) quaternion q; q and −q
/// give the same result, except at exactly a half turn, where ±φ describe the same rotation.
[[nodiscard]] inline Vec3 rotation_vector(const Quaternion& q) {
  // Work with the representative of non-negative scalar part: θ/2 = atan2(|v|, w) ∈ [0, π/2].
  const double sign = q.w() < 0.0 ? -1.0 : 1.0;
  const double w = sign * q.w();
  const Vec3 v = sign * q.vec();
  const double s2 = v.squaredNorm();
  if (s2 < 1e-4 * w * w) {
    // 2 atan(t)/t · v / w with t = |v|/w, series in t² up to t⁸ (first neglected term < 1e-21).
    const double t2 = s2 / (w * w);
    return (2.0 / w) * rotation_detail::poly4(t2, 1.0, -1.0 / 3, 1.0 / 5, -1.0 / 7, 1.0 / 9) * v;
  }
  const double s = std::sqrt(s2);
  return (2.0 * std::atan2(s, w) / s) * v;
}

}  // namespace catena::fem
