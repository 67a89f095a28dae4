#pragma once
/// A joint's relative coordinates E(q) and their gradients, for elements/joint.cpp alone (which
/// stamps, commits and outputs with them): the two frames' carriers, the translation ε and the
/// rotation ρ (a tracked rotation vector or Cardan angles) with the discrete gradients of the
/// midpoint rule, and the held rotations measured by products of joint axes.
#include "elements/joint.hpp"
#include "elements/two_frame_step.hpp"

#include <array>
#include <cmath>
#include <numbers>
#include <span>
#include <tuple>
#include <utility>

namespace catena::elements::joint_kinematics {

using two_frame::Configuration;
constexpr double two_pi = 2.0 * std::numbers::pi;

/// Cardan angles (α, β, γ), R = R_x(α) R_y(β) R_z(γ); α and γ unwrapped near the reference.
template <class T>
ad::Vec3T<T> cardan_angles(const ad::Mat3T<T>& R, const Vec3& reference) {
  using std::sqrt;
  const T c2 = R(0, 0) * R(0, 0) + R(0, 1) * R(0, 1);  // cos² β
  if (!(fem::scalar_value(c2) > 1e-12))
    throw fem::DomainError("universal joint at its gimbal lock (the two forks' axes aligned)");
  ad::Vec3T<T> a;
  a[0] = fem::rotation_detail::atan2_fixed(T(-R(1, 2)), R(2, 2));
  a[1] = fem::rotation_detail::atan2_fixed(R(0, 2), sqrt(c2));
  a[2] = fem::rotation_detail::atan2_fixed(T(-R(0, 1)), R(0, 0));
  for (int i : {0, 2}) a[i] += std::round((reference[i] - fem::scalar_value(a[i])) / two_pi) * two_pi;
  return a;
}

/// E(q): the relative coordinates of a configuration; frame A is (x_a + R_a c_a, R_a Q_a), frame
/// B likewise (a ground frame is given as the configuration x = point, R = axes, c = 0, Q = I).
/// Rotation vector: ρ = ρ_0 + log(R_rel R_rel,0ᵀ), the reference (ρ_0, R_rel,0) a committed state:
/// tracked incrementally, it never wraps, and has no singularity at whole turns (|ρ| = 2πk) as a
/// single rotation vector would. Cardan angles are absolute, α and γ unwrapped near ρ_0.
struct Kinematics {
  Vec3 ca, cb;
  Mat3 Qa, Qb;
  RotationCoordinates coordinates;
  Vec3 reference;                     ///< ρ_0
  Mat3 reference_rotation = Mat3::Identity();  ///< R_rel,0
  /// Rotational components held at zero by an ideal constraint: measured by a product of joint
  /// axes instead (`directors`), whose discrete gradient is exact.
  std::array<bool, 3> held{};

  /// A held rotation about joint axis k, as s (J_a e_i) · (J_b e_j): sin of the angle for a
  /// rotation about that axis alone (ρ_x = −y_a·z_b, ρ_y = x_a·z_b, ρ_z = −x_a·y_b). Products of
  /// axes are bilinear in the two frames' rotations, so their change over a Cayley step is exactly
  ///   Δf = s (ā · (b_b × b̄) + (b_a × ā) · b̄) = b_a · s(ā × b̄) + b_b · s(b̄ × ā)
  /// with ā, b̄ the axes averaged over the step: an exact discrete gradient whose two moments
  /// cancel, so an ideal constraint keeps energy and angular momentum to round-off. For the
  /// universal joint, ρ_z = 0 is then exactly its constraint x_a ⟂ y_b.
  struct Director {
    int i, j;
    double sign;
  };
  static constexpr std::array<Director, 3> directors{{{1, 2, -1.0}, {0, 2, 1.0}, {0, 1, -1.0}}};
  /// Step averages of the frames' axes J = R Q, offsets a = R c and separation d = p_b − p_a over
  /// the Cayley step u from q: each vector v turns along its chord, (C − I) v = b × ½(v + C v).
  template <class T>
  struct Averages {
    ad::Mat3T<T> Ja, Jb;
    ad::Vec3T<T> aa, ab, d;
  };
  template <class T>
  Averages<T> step_averages(const two_frame::Configuration<double>& q, const Eigen::Matrix<T, 12, 1>& u) const {
    using V = ad::Vec3T<T>;
    using M = ad::Mat3T<T>;
    const M Ca = fem::step_rotation(V(u.template segment<3>(3)));
    const M Cb = fem::step_rotation(V(u.template segment<3>(9)));
    const M Ja0 = (q.Ra * Qa).template cast<T>(), Jb0 = (q.Rb * Qb).template cast<T>();
    const V aa0 = (q.Ra * ca).template cast<T>(), ab0 = (q.Rb * cb).template cast<T>();
    const V aa1 = Ca * aa0, ab1 = Cb * ab0;
    const V d0 = (q.xb - q.xa).template cast<T>() + ab0 - aa0;
    const V d1 = d0 + V(u.template segment<3>(6)) - V(u.template segment<3>(0)) + ab1 - ab0 - aa1 + aa0;
    return {0.5 * (Ja0 + Ca * Ja0), 0.5 * (Jb0 + Cb * Jb0), 0.5 * (aa0 + aa1), 0.5 * (ab0 + ab1), 0.5 * (d0 + d1)};
  }

  /// The exact discrete gradient rows of the held rotations (others zero).
  template <class T>
  Eigen::Matrix<T, 3, 12> director_discrete_gradient(const Averages<T>& m) const {
    Eigen::Matrix<T, 3, 12> G = Eigen::Matrix<T, 3, 12>::Zero();
    for (int k = 0; k < 3; ++k) {
      if (!held[static_cast<std::size_t>(k)]) continue;
      const Director& d = directors[static_cast<std::size_t>(k)];
      const ad::Vec3T<T> w = d.sign * ad::Vec3T<T>(m.Ja.col(d.i)).cross(ad::Vec3T<T>(m.Jb.col(d.j)));
      G.template block<1, 3>(k, 3) = w.transpose();
      G.template block<1, 3>(k, 9) = -w.transpose();
    }
    return G;
  }

  /// δε = J_aᵀ (−δx_a + arm × δθ_a + δx_b − a_b × δθ_b) as a 3 × 12 matrix.
  template <class T>
  static Eigen::Matrix<T, 3, 12> translation_rows(const ad::Mat3T<T>& Ja, const ad::Vec3T<T>& arm,
                                                  const ad::Vec3T<T>& ab) {
    const ad::Mat3T<T> JaT = Ja.transpose();
    Eigen::Matrix<T, 3, 12> G;
    G << -JaT, JaT * fem::skew(arm), JaT, -(JaT * fem::skew(ab));
    return G;
  }

  /// The spatial gradient of ε at a configuration: arm = p_b − x_a, a_b = R_b c_b.
  template <class T>
  Eigen::Matrix<T, 3, 12> translation_gradient(const two_frame::Configuration<T>& q) const {
    const ad::Vec3T<T> ab = q.Rb * cb.cast<T>();
    return translation_rows(ad::Mat3T<T>(q.Ra * Qa.cast<T>()), ad::Vec3T<T>(q.xb + ab - q.xa), ab);
  }
  /// The exact discrete gradient of ε over the step, in closed form. ε = J_aᵀ d is bilinear in
  /// (J_a, d), so Δε = J̄_aᵀ Δd + ΔJ_aᵀ d̄ with bars for step averages; with the chord identity,
  ///   Δε = J̄_aᵀ (−Δx_a + (ā_a + d̄) × b_a + Δx_b − ā_b × b_b).
  /// It needs no Gonzalez correction, annihilates the rigid modes of the averaged configuration
  /// (ā_a + d̄ − ā_b = x̄_b − x̄_a), and for a frame on the ground puts the force at p̄_b, the joint
  /// point itself when it holds at both ends: the reaction has no moment about the point, and a
  /// spherical joint to the ground keeps the angular momentum about it exactly.
  template <class T>
  Eigen::Matrix<T, 3, 12> translation_discrete_gradient(const Averages<T>& m) const {
    return translation_rows(m.Ja, ad::Vec3T<T>(m.aa + m.d), m.ab);
  }
  /// ε, the translational part.
  template <class T>
  ad::Vec3T<T> translation(const ad::Vec3T<T>& xa, const ad::Mat3T<T>& Ra, const ad::Vec3T<T>& xb,
                           const ad::Mat3T<T>& Rb) const {
    const ad::Vec3T<T> d = xb + Rb * cb.cast<T>() - xa - Ra * ca.cast<T>();
    return (Ra * Qa.cast<T>()).transpose() * d;
  }
  /// ρ as a function of the relative rotation R_rel = J_aᵀ J_b (a held component: s R_rel(i, j)).
  template <class T>
  ad::Vec3T<T> rotation_of_relative(const ad::Mat3T<T>& Rrel) const {
    using M = ad::Mat3T<T>;
    ad::Vec3T<T> rho;
    if (!(held[0] && held[1] && held[2]))
      rho = coordinates == RotationCoordinates::Cardan
                ? cardan_angles(Rrel, reference)
                : ad::Vec3T<T>(reference.cast<T>() + fem::log_map(M(Rrel * reference_rotation.transpose().cast<T>())));
    for (std::size_t k = 0; k < 3; ++k)
      if (held[k]) rho[static_cast<int>(k)] = directors[k].sign * Rrel(directors[k].i, directors[k].j);
    return rho;
  }
  /// ρ, the rotational part.
  template <class T>
  ad::Vec3T<T> rotation(const ad::Vec3T<T>&, const ad::Mat3T<T>& Ra, const ad::Vec3T<T>&,
                        const ad::Mat3T<T>& Rb) const {
    return rotation_of_relative(
        ad::Mat3T<T>((Ra * ad::constant_factor<T>(Qa)).transpose() * (Rb * ad::constant_factor<T>(Qb))));
  }
  /// The spatial gradient of ρ at a configuration, in closed form: ρ depends on R_rel alone, and
  /// a spatial perturbation (δθ_a, δθ_b) turns R_rel into R_rel (I + ω̂) to first order, with
  /// ω = J_bᵀ (δθ_b − δθ_a); so the gradient is [0, −Γ J_bᵀ, 0, Γ J_bᵀ] with
  /// Γ = ∂ρ(R_rel (I + ω̂))/∂ω at 0. Forward AD over these three directions instead of the twelve
  /// spatial ones: for the Jacobian (T = Dual<12>) Dual<3, Dual<12>> instead of Dual<12, Dual<12>>,
  /// a quarter of the numbers per operation (a driven revolute joint cost 41 µs per Jacobian).
  template <class T>
  Eigen::Matrix<T, 3, 12> rotation_gradient(const two_frame::Configuration<T>& q) const {
    using M = ad::Mat3T<T>;
    using D = ad::Dual<3, T>;
    const M Jb = q.Rb * ad::constant_factor<T>(Qb);
    const M Rrel = (q.Ra * ad::constant_factor<T>(Qa)).transpose() * Jb;
    const Eigen::Matrix<D, 3, 1> omega = ad::variables<3>(Eigen::Matrix<T, 3, 1>(Eigen::Matrix<T, 3, 1>::Zero()));
    const ad::Mat3T<D> turned = ad::constant<D>(Rrel) * (ad::Mat3T<D>::Identity() + fem::skew(ad::Vec3T<D>(omega)));
    const M JbT_Gamma = ad::jacobian(rotation_of_relative(turned)) * Jb.transpose();
    Eigen::Matrix<T, 3, 12> G = Eigen::Matrix<T, 3, 12>::Zero();
    G.template block<3, 3>(0, 3) = -JbT_Gamma;
    G.template block<3, 3>(0, 9) = JbT_Gamma;
    return G;
  }
  template <class T>
  Eigen::Matrix<T, 6, 1> operator()(const ad::Vec3T<T>& xa, const ad::Mat3T<T>& Ra, const ad::Vec3T<T>& xb,
                                    const ad::Mat3T<T>& Rb) const {
    Eigen::Matrix<T, 6, 1> e;
    e << translation(xa, Ra, xb, Rb), rotation(xa, Ra, xb, Rb);
    return e;
  }
};

/// A frame's carrier configuration: the state of its node (`node`, unused for the ground), or the
/// ground's point and axes.
inline std::pair<Vec3, Mat3> carrier(const JointFrame& f, const fem::NodeState* node) {
  if (!f.node) return {f.offset, f.axes};
  return {node->position, node->orientation.toRotationMatrix()};
}

/// A frame's carrier configuration in the given states (one per node).
inline std::pair<Vec3, Mat3> carrier(const JointFrame& f, std::span<const fem::NodeState> states) {
  return carrier(f, f.node ? &states[f.node->index] : nullptr);
}

inline Kinematics kinematics_of(const std::array<JointFrame, 2>& frames, const JointDefinition& def, const Vec3& reference,
                         const Mat3& reference_rotation) {
  Kinematics k;
  for (std::size_t c = 0; c < 3; ++c) {
    const JointLaw& law = def.laws[3 + c];
    k.held[c] = law.kind == JointLawKind::Prescribed && !law.function;
  }
  const RotationCoordinates c = def.rotation;
  k.ca = frames[0].node ? frames[0].offset : Vec3::Zero();
  k.Qa = frames[0].node ? frames[0].axes : Mat3::Identity();
  k.cb = frames[1].offset;
  k.Qb = frames[1].axes;
  k.coordinates = c;
  k.reference = reference;
  k.reference_rotation = reference_rotation;
  return k;
}

/// The carriers of both frames in the given states.
inline Configuration<double> configuration_of(const std::array<JointFrame, 2>& frames, std::span<const fem::NodeState> states) {
  Configuration<double> q;
  std::tie(q.xa, q.Ra) = carrier(frames[0], states);
  std::tie(q.xb, q.Rb) = carrier(frames[1], states);
  return q;
}

/// R_rel = J_aᵀ J_b of a configuration.
inline Mat3 relative_rotation(const Kinematics& k, const Configuration<double>& q) {
  return (q.Ra * k.Qa).transpose() * (q.Rb * k.Qb);
}

}  // namespace catena::elements::joint_kinematics
