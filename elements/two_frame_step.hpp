#pragma once
/// The step of an element between two frame nodes a and b, and the discrete gradient that makes
/// its forces conserve energy (and momenta) exactly: used by the joint (elements/joint.hpp), whose
/// function is its six relative coordinates, for the rotations it does not measure bilinearly;
/// the beam uses the configuration helpers (along_step, value_and_gradient) and builds its own
/// discrete gradient from bilinear invariants (elements/beam.hpp).
///
/// Unknowns u = (Δx_a, b_a, Δx_b, b_b): position increments and Cayley vectors of the step
/// (fem/step_rotation.hpp). For a function f(x_a, R_a, x_b, R_b), the discrete gradient over the step
///   G = B_m + (Δf − B_m u) dᵀ / (dᵀ u)
/// (Gonzalez's form) satisfies G u = Δf exactly, so forces Gᵀσ do work σ · Δf over the step. B_m is
/// the spatial gradient (x → x + δx, R → exp(δθ̂) R) at the middle configuration: positions on the
/// chords, triads turned by half the step's angle. The direction d:
/// - `Symmetry::Rigid`, for an f unchanged by rigid motions of both frames: d = M u_d, with u_d the
///   part of u M-orthogonal to the six rigid modes of the middle configuration (translations, and
///   rotations θ with δx = θ × x_m, δθ = θ), M = diag(I/L², I, I/L², I). Then G w = 0 for every
///   rigid mode w, so Gᵀσ has no resultant and no moment about the midpoint positions: linear and
///   angular momentum are kept exactly. Because a finite rigid Cayley step is itself a rigid mode
///   of the middle configuration, Δf − B_m u vanishes with u_d and the correction stays small.
/// - `Symmetry::None` (one frame is the ground): d = M u.
/// The correction is dropped when dᵀu < 1e-14 (dimensionless): it divides Δf − B_m u, whose
/// round-off is ~1e-16 |f|, by |u_d|, and what is dropped, |Δf − B_m u| ≲ |u_d| |u|², is tiny.
#include "elements/autodiff.hpp"
#include "fem/step_rotation.hpp"

#include <utility>

namespace catena::elements::two_frame {

template <class S>
struct Configuration {
  ad::Vec3T<S> xa, xb;
  ad::Mat3T<S> Ra, Rb;
};

enum class Instant { Middle, End };
enum class Symmetry { Rigid, None };

/// The configuration in the middle or at the end of the step u from `start`.
template <class S>
Configuration<S> along_step(const Configuration<double>& start, const Eigen::Matrix<S, 12, 1>& u, Instant at) {
  using V = ad::Vec3T<S>;
  const double c = at == Instant::Middle ? 0.5 : 1.0;
  auto turn = [at](const V& b) { return at == Instant::Middle ? fem::half_step_rotation(b) : fem::step_rotation(b); };
  Configuration<S> q;
  q.xa = start.xa.cast<S>() + c * V(u.template segment<3>(0));
  q.xb = start.xb.cast<S>() + c * V(u.template segment<3>(6));
  q.Ra = turn(V(u.template segment<3>(3))) * ad::constant_factor<S>(start.Ra);
  q.Rb = turn(V(u.template segment<3>(9))) * ad::constant_factor<S>(start.Rb);
  return q;
}

/// f(q) and its spatial gradient with respect to (δx_a, δθ_a, δx_b, δθ_b). Forward AD over the 12
/// perturbations on top of whatever S carries (S = Dual<12> when the caller wants ∂B/∂u too).
/// `f(xa, Ra, xb, Rb)` is a generic callable returning an N-vector of its argument's scalar type.
template <int N, class S, class F>
std::pair<Eigen::Matrix<S, N, 1>, Eigen::Matrix<S, N, 12>> value_and_gradient(const Configuration<S>& q, const F& f) {
  using I = ad::Dual<12, S>;
  using V = ad::Vec3T<I>;
  const Eigen::Matrix<I, 12, 1> d = ad::variables<12>(Eigen::Matrix<S, 12, 1>(Eigen::Matrix<S, 12, 1>::Zero()));
  const V xa = ad::constant<I>(q.xa) + d.template segment<3>(0);
  const V xb = ad::constant<I>(q.xb) + d.template segment<3>(6);
  // Only first derivatives at δ = 0 are taken, and there exp(δ̂) = I + δ̂ to first order.
  const ad::Mat3T<I> Ra = (ad::Mat3T<I>::Identity() + fem::skew(V(d.template segment<3>(3)))) * ad::constant<I>(q.Ra);
  const ad::Mat3T<I> Rb = (ad::Mat3T<I>::Identity() + fem::skew(V(d.template segment<3>(9)))) * ad::constant<I>(q.Rb);
  const Eigen::Matrix<I, N, 1> v = f(xa, Ra, xb, Rb);
  return {ad::values(v), ad::jacobian(v)};
}

/// The part of u that is not an infinitesimal rigid motion of the middle configuration, in the
/// metric M = diag(I/L², I, I/L², I): u minus its M-orthogonal projection on the translations
/// (t, 0, t, 0) and the rotations (θ × r_a, θ, θ × r_b, θ) about the middle of the midpoint chord
/// (r_a = −r_b). The two families are M-orthogonal, and the rotations' Gram matrix
/// 2I + (2/L²)(|r|² I − r rᵀ) has the inverse (I + r rᵀ/L²)/(2 + 2|r|²/L²).
template <class S>
Eigen::Matrix<S, 12, 1> deformational_part(const Configuration<double>& start, const Eigen::Matrix<S, 12, 1>& u,
                                           double L) {
  using V = ad::Vec3T<S>;
  const V dxa = u.template segment<3>(0), ba = u.template segment<3>(3);
  const V dxb = u.template segment<3>(6), bb = u.template segment<3>(9);
  const V ra = 0.5 * (start.xa.cast<S>() - start.xb.cast<S>() + 0.5 * (dxa - dxb));
  const double iL2 = 1.0 / (L * L);
  const V t = 0.5 * (dxa + dxb);
  const V moment = iL2 * ra.cross(V(dxa - dxb)) + ba + bb;
  const V theta = (moment + iL2 * ra * ra.dot(moment)) / (2.0 + 2.0 * iL2 * ra.squaredNorm());
  Eigen::Matrix<S, 12, 1> p;
  p << dxa - t - theta.cross(ra), ba - theta, dxb - t + theta.cross(ra), bb - theta;
  return p;
}

inline constexpr double correction_threshold = 1e-14;

/// The discrete gradient G of f over the step u (header comment): G u = Δf, with Δf = f_{n+1} − f_n
/// given by the caller. `gradient(q)` is f's spatial gradient at a configuration (value_and_gradient
/// of f, or a closed form). L: the length that makes translations and rotations comparable in M.
template <int N, class S, class Gradient>
Eigen::Matrix<S, N, 12> discrete_gradient(const Configuration<double>& start, const Eigen::Matrix<S, 12, 1>& u,
                                          const Eigen::Matrix<S, N, 1>& delta, const Gradient& gradient, double L,
                                          Symmetry symmetry) {
  Eigen::Matrix<S, N, 12> G = gradient(along_step(start, u, Instant::Middle));
  Eigen::Matrix<S, 12, 1> d = symmetry == Symmetry::Rigid ? deformational_part(start, u, L) : u;
  for (int k : {0, 6})
    for (int i = 0; i < 3; ++i) d[k + i] /= L * L;
  const S du = d.dot(u);
  if (fem::scalar_value(du) > correction_threshold) {
    const Eigen::Matrix<S, N, 1> miss = delta - G * u;
    G += (miss / du) * d.transpose();
  }
  return G;
}

}  // namespace catena::elements::two_frame
