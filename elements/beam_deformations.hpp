#pragma once
/// The co-rotational beam's local deformations as a function of its invariants (elements/beam.hpp
/// for the kinematics, beam.cpp for the invariants), and the gradient of their work by a
/// hand-written reverse sweep.
///
/// z = (d, Q): the chord between the end points in section frame a, and the relative rotation of
/// the section frames Q = S_aᵀ S_b (column-major). φ(z) = (ε_ax, θ_t, θ_a,y, θ_b,y, θ_a,z, θ_b,z).
#include "fem/element.hpp"
#include "fem/rotation.hpp"

#include <optional>

namespace catena::elements::beam_deformations {

inline constexpr int n_strains = 6;
using Invariants = Eigen::Matrix<double, 12, 1>;
using Deformations = Eigen::Matrix<double, n_strains, 1>;

/// φ(z) for any scalar type (automatic differentiation); L is the reference length [m]. Throws
/// fem::DomainError where the beam has collapsed or its chord has turned more than 170 degrees
/// from its section frames.
template <class T>
Eigen::Matrix<T, n_strains, 1> of_invariants(const Eigen::Matrix<T, 12, 1>& z, double L) {
  using std::sqrt;
  using V = fem::Vec3T<T>;
  using M = fem::Mat3T<T>;
  const V d = z.template head<3>();
  M Q;
  for (int j = 0; j < 3; ++j) Q.col(j) = z.template segment<3>(3 + 3 * j);
  const M mean = fem::exp_map(V(0.5 * fem::log_map(Q)));
  const T l = sqrt(d.squaredNorm());
  if (!(fem::scalar_value(l) > 1e-9 * L)) throw fem::DomainError("beam collapsed to zero length");
  const V e1 = d / l;
  // The smallest rotation that turns the mean frame's first axis onto the chord.
  const V s1 = mean.col(0);
  const V v = s1.cross(e1);
  const T c = s1.dot(e1);
  if (!(fem::scalar_value(c) > -0.99))
    throw fem::DomainError("beam chord turned more than 170 degrees from its section frames");
  const M E = fem::identity_plus(v, T(v.squaredNorm()), T(1.0), T(T(1.0) / (T(1.0) + c))) * mean;
  const V ta = fem::log_map(M(E.transpose()));
  const V tb = fem::log_map(M(E.transpose() * Q));
  Eigen::Matrix<T, n_strains, 1> eps;
  const T bow = (2.0 * ta[1] * ta[1] - ta[1] * tb[1] + 2.0 * tb[1] * tb[1] + 2.0 * ta[2] * ta[2] - ta[2] * tb[2] +
                 2.0 * tb[2] * tb[2]) /
                30.0;
  eps << (l - L) / L + bow, tb[0] - ta[0], ta[1], tb[1], ta[2], tb[2];
  return eps;
}

/// ∇_z (σᵀ φ(z)), the work of the generalized forces σ on a change of the invariants, by one
/// reverse sweep through φ's operations with their adjoints written out: the beam's residual needs
/// it (range_force in beam.cpp), and forward automatic differentiation along six directions took
/// half of that residual's time (element_stamp_bench: 2.10 → 1.41 µs with this sweep; the test
/// compares the two). Empty where one of φ's rotations exceeds 90 degrees (fem::log_map then takes the
/// axis from the symmetric part, whose adjoint is not written out): the caller differentiates
/// automatically there. The same exceptions as of_invariants.
std::optional<Invariants> work_gradient(const Invariants& z, const Deformations& sigma, double L);

}  // namespace catena::elements::beam_deformations
