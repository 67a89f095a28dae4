#include "elements/beam.hpp"

#include "elements/autodiff.hpp"
#include "elements/beam_deformations.hpp"
#include "elements/reverse.hpp"
#include "elements/rigid_inertia.hpp"
#include "elements/two_frame_step.hpp"
#include "fem/rotation.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

namespace catena::elements {

namespace {

using Strains = Eigen::Matrix<double, Beam::n_strains, 1>;
using StrainMatrix = Eigen::Matrix<double, Beam::n_strains, Beam::n_strains>;
using Vec12 = Eigen::Matrix<double, 12, 1>;
using Mat12 = Eigen::Matrix<double, 12, 12>;

/// The element's constants that the kinematics needs.
struct Geometry {
  double L = 0.0;
  std::array<Mat3, 2> C;  ///< section frame offsets C_a = R_a0ᵀ E0
  std::array<Vec3, 2> o;  ///< end points from the nodes, node axes (rigid eccentric connections)
  int side = 0;           ///< the end whose invariants the midpoint's discrete gradient uses
  /// C_k is exactly the identity (a node's axes are the section's, as in the beams a mesh
  /// generates) and o_k exactly zero (no eccentric end): the products with them are skipped,
  /// which gives the same values (such products are exact) for fewer operations.
  std::array<bool, 2> aligned{false, false}, centred{false, false};
};

/// R C_k, or R itself where C_k is the identity.
template <class T>
ad::Mat3T<T> section_axes(const ad::Mat3T<T>& R, const Geometry& g, int k) {
  if (g.aligned[static_cast<std::size_t>(k)]) return R;
  return R * ad::constant_factor<T>(g.C[static_cast<std::size_t>(k)]);
}

/// The beam's invariants z = (d_a, Q): the chord between its end points in section frame a,
/// d_a = S_aᵀ (x_b + R_b o_b − x_a − R_a o_a), and the relative rotation of the section frames,
/// Q = S_aᵀ S_b (column-major), S = R C. Unchanged by rigid motions, and bilinear in the nodes'
/// positions and triads, so that their change over a Cayley step has an exact closed-form
/// gradient (discrete_gradient_force).
template <class T>
Eigen::Matrix<T, 12, 1> invariants(const ad::Vec3T<T>& xa, const ad::Vec3T<T>& xb, const ad::Mat3T<T>& Ra,
                                   const ad::Mat3T<T>& Rb, const Geometry& g) {
  using M = ad::Mat3T<T>;
  using V = ad::Vec3T<T>;
  const M Sa = section_axes<T>(Ra, g, 0);
  const M Q = Sa.transpose() * section_axes<T>(Rb, g, 1);
  V d = xb;
  if (!g.centred[1]) d += Rb * ad::constant_factor<T>(g.o[1]);
  d -= xa;
  if (!g.centred[0]) d -= Ra * ad::constant_factor<T>(g.o[0]);
  Eigen::Matrix<T, 12, 1> z;
  z.template head<3>() = Sa.transpose() * d;
  for (int j = 0; j < 3; ++j) z.template segment<3>(3 + 3 * j) = Q.col(j);
  return z;
}

/// Local deformations (beam.hpp) as a function of the invariants, all in section frame a.
template <class T>
Eigen::Matrix<T, Beam::n_strains, 1> deformations_of_invariants(const Eigen::Matrix<T, 12, 1>& z, const Geometry& g) {
  return beam_deformations::of_invariants<T>(z, g.L);
}

/// Local deformations (beam.hpp) of a configuration: end positions and nodal triads.
template <class T>
Eigen::Matrix<T, Beam::n_strains, 1> local_deformations(const ad::Vec3T<T>& xa, const ad::Vec3T<T>& xb,
                                                        const ad::Mat3T<T>& Ra, const ad::Mat3T<T>& Rb,
                                                        const Geometry& g) {
  return deformations_of_invariants<T>(invariants<T>(xa, xb, Ra, Rb, g), g);
}

using two_frame::Configuration;
using two_frame::Instant;

/// The local deformations as the function of two_frame::value_and_gradient and discrete_gradient.
auto deformations_of(const Geometry& g) {
  return [&g](const auto& xa, const auto& Ra, const auto& xb, const auto& Rb) {
    return local_deformations(xa, xb, Ra, Rb, g);
  };
}

/// ε and its spatial gradient B at a configuration.
template <class S>
std::pair<Eigen::Matrix<S, Beam::n_strains, 1>, Eigen::Matrix<S, Beam::n_strains, 12>> strains_and_gradient(
    const Configuration<S>& q, const Geometry& g) {
  return two_frame::value_and_gradient<Beam::n_strains>(q, deformations_of(g));
}

/// The start of the step in double precision.
struct Start {
  Configuration<double> q;
  Strains eps;
};

/// The deformations as seen from end b: exactly as the same beam with its nodes in the other
/// order sees them from its first end. Its section frames are S D (D = diag(−1, 1, −1): the axis
/// reversed), so its invariants are (−D e_b, D Q_b D), and its deformations ε' = P ε, P swapping
/// the ends' bending rotations (those about local z changing sign). P is its own inverse.
constexpr double reversed_axis[3] = {-1.0, 1.0, -1.0};                             // D
constexpr int swapped_strain[Beam::n_strains] = {0, 1, 3, 2, 5, 4};                // P's permutation
constexpr double swapped_sign[Beam::n_strains] = {1.0, 1.0, 1.0, 1.0, -1.0, -1.0};  // and its signs

/// The invariants of the reversed beam, (−D e_b, D Q_b D); applied twice, the identity. It is
/// also its own adjoint (a diagonal matrix of signs).
template <class T>
Eigen::Matrix<T, 12, 1> reversed_invariants(const Eigen::Matrix<T, 12, 1>& zk) {
  Eigen::Matrix<T, 12, 1> reversed;
  for (int i = 0; i < 3; ++i) reversed[i] = -reversed_axis[i] * zk[i];
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) reversed[3 + 3 * j + i] = reversed_axis[i] * reversed_axis[j] * zk[3 + 3 * j + i];
  return reversed;
}

/// φ_k, the deformations as seen from end k (g.side) as a function of z_k.
template <class T>
Eigen::Matrix<T, Beam::n_strains, 1> deformations_from_end(const Eigen::Matrix<T, 12, 1>& zk, const Geometry& g) {
  if (g.side == 0) return deformations_of_invariants<T>(zk, g);
  const Eigen::Matrix<T, Beam::n_strains, 1> phi = deformations_of_invariants<T>(reversed_invariants<T>(zk), g);
  Eigen::Matrix<T, Beam::n_strains, 1> out;
  for (int i = 0; i < Beam::n_strains; ++i) out[i] = swapped_sign[i] * phi[swapped_strain[i]];
  return out;
}

/// ∇(σᵀ φ_k)(z_k) by the hand-written reverse sweep (beam_deformations::work_gradient); empty
/// where that has no adjoint written out.
std::optional<Vec12> work_gradient_from_end(const Vec12& zk, const Strains& sigma, const Geometry& g) {
  if (g.side == 0) return beam_deformations::work_gradient(zk, sigma, g.L);
  Strains swapped;  // σᵀ P φ = (P σ)ᵀ φ
  for (int i = 0; i < Beam::n_strains; ++i) swapped[swapped_strain[i]] = swapped_sign[i] * sigma[i];
  const std::optional<Vec12> gradient = beam_deformations::work_gradient(reversed_invariants<double>(zk), swapped, g.L);
  if (!gradient) return std::nullopt;
  return reversed_invariants<double>(*gradient);
}

/// Uᵀ ∇ψ for a gradient ∇ψ in z-space and U = range_directions(turn).
template <class S>
Eigen::Matrix<S, 6, 1> along_range(const Vec12& gradient, const std::array<ad::Mat3T<S>, 3>& turn) {
  Eigen::Matrix<S, 6, 1> p;
  for (int a = 0; a < 3; ++a) p[a] = S(gradient[a]);
  for (int a = 3; a < 6; ++a) {
    S s(0.0);
    for (std::size_t j = 0; j < 3; ++j)
      for (int r = 0; r < 3; ++r) s += gradient[3 + 3 * static_cast<int>(j) + r] * turn[j](r, a - 3);
    p[a] = s;
  }
  return p;
}

/// The z-space directions U α = (α_d, T α_ω) of discrete_gradient_force, T_j = `turn[j]`.
template <class S>
Eigen::Matrix<S, 12, 6> range_directions(const std::array<ad::Mat3T<S>, 3>& turn) {
  Eigen::Matrix<S, 12, 6> U = Eigen::Matrix<S, 12, 6>::Zero();
  for (int i = 0; i < 3; ++i) U(i, i) = S(1.0);
  for (int j = 0; j < 3; ++j) U.template block<3, 3>(3 + 3 * j, 3) = turn[static_cast<std::size_t>(j)];
  return U;
}

/// (∇φ_k(z_k) U)ᵀ σ at the middle configuration (z_k its invariants seen from end k, U from
/// `turn`): the generalized forces σ carried to α's coordinates. For S = double, Uᵀ ∇(σᵀφ_k) by
/// the hand-written reverse sweep (forward AD along U's six columns where it declines). For
/// S = Dual<12> (the Jacobian wants its derivative with respect to the step's
/// unknowns) the chain rule, d(Uᵀ∇φᵀσ) = (∇φ U)ᵀ dσ + dUᵀ ∇φᵀσ̄ + Uᵀ ∇²(σ̄ᵀφ) dz_k, where
/// dz_k = U_m C du lies in the six-dimensional range U_m of the middle configuration's invariants
/// (U_m built like U from T_m,j = S_kᵀ (S_o e_j)^ with the middle triads; T_mᵀ T_m = 2 I, so C's
/// rotation rows are ½ T_mᵀ dQ). Only the Hessian of the scalar ψ = σ̄ᵀφ is needed, along U_m: one
/// reverse sweep over forward duals along U_m's six columns (elements/reverse.hpp) gives ∇ψ and
/// ∇²ψ U_m together, where nested duals (Dual<6, Dual<6>>) carried the second derivatives of all
/// six deformations through every operation (half of the beam's Jacobian time then).
template <class S>
Eigen::Matrix<S, 6, 1> range_force(const Eigen::Matrix<S, 12, 1>& zk, const std::array<ad::Mat3T<S>, 3>& turn,
                                   const Configuration<S>& mid, const Eigen::Matrix<S, Beam::n_strains, 1>& sigma,
                                   const Geometry& g) {
  constexpr int n = Beam::n_strains;
  using D = ad::Dual<6>;
  // ∇φ_k U at the values, by forward AD along U.
  const auto gradient_along = [&g](const Eigen::Matrix<double, 12, 1>& z, const Eigen::Matrix<double, 12, 6>& U) {
    Eigen::Matrix<D, 12, 1> x;
    for (int i = 0; i < 12; ++i) x[i] = D(z[i], U.row(i).transpose());
    return ad::jacobian(Eigen::Matrix<D, n, 1>(deformations_from_end<D>(x, g)));
  };
  if constexpr (std::is_same_v<S, double>) {
    if (const std::optional<Vec12> gradient = work_gradient_from_end(zk, sigma, g)) return along_range(*gradient, turn);
    return gradient_along(zk, range_directions<double>(turn)).transpose() * sigma;
  } else {
    static_assert(std::is_same_v<S, ad::Dual<12>>, "the Jacobian's unknowns are the step's twelve");
    const Eigen::Matrix<double, 12, 1> z = ad::values(zk);
    const Eigen::Matrix<double, 12, 12> dz = ad::jacobian(zk);
    const Eigen::Matrix<double, n, 1> sigma_value = ad::values(sigma);
    std::array<Mat3, 3> turn_value;
    for (std::size_t j = 0; j < 3; ++j)
      for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) turn_value[j](r, c) = turn[j](r, c).value();
    const Eigen::Matrix<double, 12, 6> U = range_directions<double>(turn_value);
    // U_m and C from the middle triads' values.
    Mat3 Sa, Sb;
    for (int c = 0; c < 3; ++c)
      for (int r = 0; r < 3; ++r) {
        Sa(r, c) = mid.Ra(r, c).value();
        Sb(r, c) = mid.Rb(r, c).value();
      }
    Sa = Sa * g.C[0];
    Sb = Sb * g.C[1];
    const Mat3& own = g.side == 0 ? Sa : Sb;
    const Mat3& other = g.side == 0 ? Sb : Sa;
    std::array<Mat3, 3> turn_middle;
    for (std::size_t j = 0; j < 3; ++j)
      turn_middle[j] = own.transpose() * fem::skew(Vec3(other.col(static_cast<Eigen::Index>(j))));
    const Eigen::Matrix<double, 12, 6> Um = range_directions<double>(turn_middle);
    Eigen::Matrix<double, 6, 12> C;
    C.topRows<3>() = dz.topRows<3>();
    C.bottomRows<3>().setZero();
    for (std::size_t j = 0; j < 3; ++j)
      C.bottomRows<3>() += 0.5 * turn_middle[j].transpose() * dz.middleRows<3>(3 + 3 * static_cast<Eigen::Index>(j));

    // ∇ψ (values) and ∇²ψ U_m (their derivatives) by forward over reverse.
    Eigen::Matrix<D, 12, 1> psi_gradient;
    {
      ad::ReverseScope<D> scope;
      Eigen::Matrix<ad::Reverse<D>, 12, 1> x;
      for (int i = 0; i < 12; ++i) x[i] = scope.variable(D(z[i], Um.row(i).transpose()));
      const Eigen::Matrix<ad::Reverse<D>, n, 1> phi = deformations_from_end<ad::Reverse<D>>(x, g);
      psi_gradient = scope.gradient(phi, sigma_value, x);
    }
    Eigen::Matrix<double, 12, 1> gpsi;
    Eigen::Matrix<double, 12, 6> hessian_m;  // ∇²ψ U_m
    for (int i = 0; i < 12; ++i) {
      gpsi[i] = psi_gradient[i].value();
      hessian_m.row(i) = psi_gradient[i].derivatives().transpose();
    }
    const Eigen::Matrix<double, 6, 12> second = (U.transpose() * hessian_m) * C;  // Uᵀ ∇²ψ dz_k
    const Eigen::Matrix<double, n, 6> P = gradient_along(z, U);

    // Uᵀ ∇ψ with U's own derivatives (the turn blocks), then (∇φ U)ᵀ dσ and the second derivatives.
    Eigen::Matrix<S, 6, 1> p = along_range(gpsi, turn);
    const Eigen::Matrix<double, n, 12> dsigma = ad::jacobian(sigma);
    const Eigen::Matrix<double, 6, 12> first = P.transpose() * dsigma;
    for (int a = 0; a < 6; ++a) p[a].derivatives() += (first.row(a) + second.row(a)).transpose();
    return p;
  }
}

/// Regularization of the invariants' discrete gradient (weighted |Δz|²): the correction is the
/// miss times W Δz / (|Δz|²_W + τ²) instead of a division switched off below a threshold. It stays
/// smooth where the shape hardly changes (a switch there made Newton cycle on spinning beams), and
/// what it leaves of the miss, miss · τ²/(|Δz|² + τ²) ≤ |φ''| τ², is a drift of about 1e-10 of
/// spin-up-simo's energy over 30 s. τ² = 1e-14 left a noise floor just above Newton's 1e-10
/// (cancellation in the miss, amplified by 1/τ² in its derivative): 136 cut steps between 12 and
/// 17 s at Δt = 0.0025; 1e-12 gives none.
inline constexpr double invariant_regularization = 1e-12;

/// The discrete gradient G of ε over the step u, G u = Δε (to the regularization), through
/// invariants: ε = φ_k(z_k) with z_k = (S_kᵀ d, S_kᵀ S_o) seen from end k (o the other end;
/// d = x_b + R_b o_b − x_a − R_a o_a), G = G_φk G_zk. The end k is chosen by the geometry, not by
/// the node order (Beam's constructor: the end with the lexicographically smaller reference
/// point), so that the forces do not depend on the order of the nodes. G_zk is exact in closed
/// form because z_k is bilinear in positions and triads: with the Cayley step, ΔR = b̂ R̄ (R̄ the
/// average of R_n and R_{n+1}), so
///   Δ(S_kᵀ d) = S̄_kᵀ [Δx_b − Δx_a − (R̄_b o_b) × b_b + (R̄_a o_a) × b_a − b_k × d̄],
///   Δ(S_kᵀ S_o) e_j = S̄_kᵀ (S̄_o e_j) × (b_k − b_o),
/// and G_zk annihilates every rigid mode of the middle configuration (equal b, Δx = t + b × x̄): the
/// forces Gᵀσ have no resultant and no moment, so momenta are kept exactly. G_φk is Gonzalez's
/// discrete gradient of φ_k in z-space, ∇φ_k at the middle configuration plus the miss
/// (Δε − ∇φ_k Δz_k) along W Δz_k (W = diag(I/L², I₉); regularized: invariant_regularization).
/// Unlike a correction along the deformational part of u, its size follows Δz, the change of the
/// beam's shape: a spinning, nearly rigid beam gets a tiny correction, smooth enough for Newton.
/// Returns the forces Gᵀσ for the generalized forces σ, without forming G = G_φ U Vᵀ: V y with
/// y = (G_φ U)ᵀ σ, which needs ∇φ_k U only through (∇φ_k U)ᵀ σ (range_force).
template <class S>
Eigen::Matrix<S, 12, 1> discrete_gradient_force(const Start& st, const Configuration<S>& end,
                                                const Eigen::Matrix<S, 12, 1>& u,
                                                const Eigen::Matrix<S, Beam::n_strains, 1>& delta,
                                                const Eigen::Matrix<S, Beam::n_strains, 1>& sigma, const Geometry& g) {
  using V = ad::Vec3T<S>;
  using M = ad::Mat3T<S>;
  using Z = Eigen::Matrix<S, 12, 1>;
  const Configuration<double>& q0 = st.q;
  const std::array<M, 2> R{M(0.5 * (q0.Ra.cast<S>() + end.Ra)), M(0.5 * (q0.Rb.cast<S>() + end.Rb))};
  const std::array<M, 2> Sbar{section_axes<S>(R[0], g, 0), section_axes<S>(R[1], g, 1)};
  const std::array<V, 2> offset{g.centred[0] ? V(V::Zero()) : V(R[0] * ad::constant_factor<S>(g.o[0])),
                                g.centred[1] ? V(V::Zero()) : V(R[1] * ad::constant_factor<S>(g.o[1]))};
  const V d = 0.5 * (q0.xb.cast<S>() + end.xb - q0.xa.cast<S>() - end.xa) + offset[1] - offset[0];
  const Configuration<S> mid = two_frame::along_step(q0, u, Instant::Middle);
  const Z za = invariants<S>(mid.xa, mid.xb, mid.Ra, mid.Rb, g);
  const int k = g.side, o = 1 - k;
  const M own = Sbar[static_cast<std::size_t>(k)].transpose();
  // G_zk = U Vᵀ has rank 6: Δz_k = U α with α = (Δ(S_kᵀ d), b_k − b_o), U = [I 0; 0 T] and
  // T's blocks T_j = S̄_kᵀ (S̄_o e_j)^ (the change of Q's column j). Only ∇φ_k U is needed, six
  // directional derivatives instead of twelve partial ones (the dual numbers' inner level).
  Eigen::Matrix<S, 3, 12> Gd = Eigen::Matrix<S, 3, 12>::Zero();  // the rows of Δ(S_kᵀ d)
  Gd.template block<3, 3>(0, 0) = -own;
  Gd.template block<3, 3>(0, 6) = own;
  if (!g.centred[0]) Gd.template block<3, 3>(0, 3) = own * fem::skew(offset[0]);
  if (!g.centred[1]) Gd.template block<3, 3>(0, 9) = -own * fem::skew(offset[1]);
  Gd.template block<3, 3>(0, 6 * k + 3) += own * fem::skew(d);
  std::array<M, 3> turn;
  for (int j = 0; j < 3; ++j)
    turn[static_cast<std::size_t>(j)] = own * fem::skew(V(Sbar[static_cast<std::size_t>(o)].col(j)));
  const V change = Gd.lazyProduct(u);
  const V spin = V(u.template segment<3>(6 * k + 3)) - V(u.template segment<3>(6 * o + 3));
  Eigen::Matrix<S, 6, 1> alpha;
  alpha << change, spin;
  Z dz;
  dz.template head<3>() = change;
  for (int j = 0; j < 3; ++j) dz.template segment<3>(3 + 3 * j) = turn[static_cast<std::size_t>(j)] * spin;

  // z_k at the middle configuration, and (∇φ_k U)ᵀ σ there (range_force); from end b,
  // z_b = (e_b, Q_b) = (Q_aᵀ d_a, Q_aᵀ).
  Z zk = za;
  if (k == 1) {
    M Qa;
    for (int j = 0; j < 3; ++j) Qa.col(j) = za.template segment<3>(3 + 3 * j);
    zk.template head<3>() = Qa.transpose() * V(za.template head<3>());
    for (int j = 0; j < 3; ++j) zk.template segment<3>(3 + 3 * j) = Qa.transpose().col(j);
  }
  const Eigen::Matrix<S, 6, 1> p = range_force<S>(zk, turn, mid, sigma, g);

  // The miss along W Δz, in α's coordinates: W Δz = W U α, so its row is (Uᵀ W Δz)ᵀ, and
  // G_φ U = ∇φ_k U + (Δε − ∇φ_k U α)(Uᵀ W Δz)ᵀ / (|Δz|²_W + τ²) gives y = p + Uᵀ W Δz (Δεᵀσ − αᵀp) / (...).
  Z w = dz;
  w.template head<3>() /= g.L * g.L;
  const S denominator = w.dot(dz) + invariant_regularization;
  Eigen::Matrix<S, 6, 1> weight;
  weight.template head<3>() = w.template head<3>();
  weight.template tail<3>().setZero();
  for (int j = 0; j < 3; ++j)
    weight.template tail<3>() += turn[static_cast<std::size_t>(j)].transpose() * V(w.template segment<3>(3 + 3 * j));
  const Eigen::Matrix<S, 6, 1> y = p + weight * ((delta.dot(sigma) - alpha.dot(p)) / denominator);

  // Gᵀσ = V y, Vᵀ = [Gd; the selection of b_k − b_o].
  Eigen::Matrix<S, 12, 1> f = Gd.transpose().lazyProduct(V(y.template head<3>()));
  f.template segment<3>(6 * k + 3) += y.template tail<3>();
  f.template segment<3>(6 * o + 3) -= y.template tail<3>();
  return f;
}

/// Δε over the step u with the deformations at both ends of the step evaluated in extended
/// precision (fem::StepState::precise). The miss Δε − ∇φ Δz that the discrete gradient corrects is
/// O(|Δz|³) and is divided by |Δz|² + τ², so the rounding of two separately computed ε (1e-16:
/// their angles come from matrices with entries of order 1) is amplified up to 1/(2τ) = 5e5
/// times: on a spinning beam a noise floor of Newton's corrections near 1e-11, above what its
/// chord test needs. In long double (64-bit mantissa) it is 2 000 times lower; it costs about
/// 1.5 µs per evaluation, so it is used only when asked for.
Strains change_of_deformations(const Start& st, const Vec12& u, const Geometry& g) {
  using LD = long double;
  const Configuration<LD> end = two_frame::along_step(st.q, Eigen::Matrix<LD, 12, 1>(u.cast<LD>()), Instant::End);
  const Configuration<LD> start{st.q.xa.cast<LD>(), st.q.xb.cast<LD>(), st.q.Ra.cast<LD>(), st.q.Rb.cast<LD>()};
  const Eigen::Matrix<LD, Beam::n_strains, 1> delta = local_deformations<LD>(end.xa, end.xb, end.Ra, end.Rb, g) -
                                                     local_deformations<LD>(start.xa, start.xb, start.Ra, start.Rb, g);
  return delta.cast<double>();
}

const Vec12& plain_values(const Vec12& u) { return u; }
Vec12 plain_values(const Eigen::Matrix<ad::Dual<12>, 12, 1>& u) { return ad::values(u); }
void set_value(double& x, double v) { x = v; }
void set_value(ad::Dual<12>& x, double v) { x.value() = v; }

/// Internal force on (a, b) over the step for the unknowns u (scheme of beam.hpp).
template <class S>
Eigen::Matrix<S, 12, 1> internal_force(const Start& st, const Eigen::Matrix<S, 12, 1>& u, const Geometry& g,
                                       const StrainMatrix& K, double eta, fem::TimeScheme scheme, double h,
                                       bool precise) {
  using E = Eigen::Matrix<S, Beam::n_strains, 1>;
  const Configuration<S> end = two_frame::along_step(st.q, u, Instant::End);
  const auto& Ks = ad::constant_factor<S>(K);
  if (scheme == fem::TimeScheme::Static) {
    const auto [eps1, B1] = strains_and_gradient(end, g);
    return B1.transpose() * (Ks * eps1);
  }
  // The midpoint force needs the gradient at the middle of the step only: ε at the end costs
  // one level of differentiation less.
  const E eps1 = local_deformations<S>(end.xa, end.xb, end.Ra, end.Rb, g);
  const E eps0 = st.eps.cast<S>();
  E delta = eps1 - eps0;
  if (precise) {
    const Strains accurate = change_of_deformations(st, plain_values(u), g);
    for (int i = 0; i < Beam::n_strains; ++i) set_value(delta[i], accurate[i]);
  }
  const E damping = (eta / h) * (Ks * delta);
  if (scheme == fem::TimeScheme::Midpoint)
    return discrete_gradient_force<S>(st, end, u, delta, E(Ks * (0.5 * (eps0 + eps1)) + damping), g);
  const auto B1 = strains_and_gradient(end, g).second;
  const auto B0 = strains_and_gradient(st.q, g).second;
  return 0.5 * (B0.template cast<S>().transpose() * (Ks * eps0) + B1.transpose() * (Ks * eps1)) +
         discrete_gradient_force<S>(st, end, u, delta, damping, g);
}

/// The element's unknowns u = (Δx_a, φ_a, Δx_b, φ_b) at the trial state.
Vec12 step_unknowns(const fem::StepState& s, const std::array<NodeId, 2>& n) {
  Vec12 u;
  u << s.increment(n[0]), s.rotation_increment(n[0]), s.increment(n[1]), s.rotation_increment(n[1]);
  return u;
}

Configuration<double> configuration(std::span<const fem::NodeState> states, const std::array<NodeId, 2>& n) {
  const fem::NodeState& a = states[n[0].index];
  const fem::NodeState& b = states[n[1].index];
  return {a.position, b.position, a.orientation.toRotationMatrix(), b.orientation.toRotationMatrix()};
}

/// The configuration at the start of a step with node a as the origin. Everything the step's
/// forces depend on is a difference of positions, and forming it before the step's increments
/// are added keeps its round-off at that of the element's length instead of the coordinates':
/// for the 15 m flexible pendulum, axial forces EA/ℓ times 1.7e-15 m (7e-8 N) were a noise floor
/// that kept Newton's chord corrections from settling below the kept-Jacobian margin.
Configuration<double> step_start(std::span<const fem::NodeState> states, const std::array<NodeId, 2>& n) {
  Configuration<double> q = configuration(states, n);
  q.xb -= q.xa;
  q.xa.setZero();
  return q;
}

/// Timoshenko bending stiffness of one plane for the two end rotations, with Φ = 12 EI/(GA L²).
Eigen::Matrix2d bending_stiffness(double EI, double GA, double L) {
  const double phi = GA > 0.0 ? 12.0 * EI / (GA * L * L) : 0.0;
  const double k = EI / (L * (1.0 + phi));
  Eigen::Matrix2d K;
  K << 4.0 + phi, 2.0 - phi, 2.0 - phi, 4.0 + phi;
  return k * K;
}



}  // namespace

/// What the stamp needs from the start of the step: the element's configuration and
/// deformations, and each node's lumped inertia.
struct Beam::StepStart {
  Start element;
  std::array<inertia::BodyStart, 2> nodes;
};

Beam::~Beam() = default;

Beam::Beam(std::string name, const fem::AttachedNode& a, const fem::AttachedNode& b, const BeamSection& section,
           const Vec3& orientation, const std::array<Vec3, 2>& end_offsets)
    : Element(std::move(name)),
      nodes_{a.id, b.id},
      displacement_{a.node.displacement, b.node.displacement},
      rotation_{a.node.rotation, b.node.rotation},
      section_(section),
      reference_position_{a.node.reference_position, b.node.reference_position} {
  const std::string who = "beam '" + this->name() + "': ";
  if (!rotation_[0].valid() || !rotation_[1].valid())
    throw std::invalid_argument(who + "both nodes must be frame nodes");
  const Vec3 chord = b.initial.position + end_offsets[1] - a.initial.position - end_offsets[0];
  L_ = chord.norm();
  if (!(L_ > 0.0)) throw std::invalid_argument(who + "its nodes coincide");
  const Vec3 e1 = chord / L_;
  Vec3 e2 = orientation - orientation.dot(e1) * e1;
  if (!(e2.norm() > 1e-6 * orientation.norm()) || orientation.norm() == 0.0)
    throw std::invalid_argument(who + "the orientation vector is parallel to the beam (or zero)");
  e2.normalize();
  Mat3 E0;
  E0 << e1, e2, e1.cross(e2);
  offset_[0] = a.initial.orientation.toRotationMatrix().transpose() * E0;
  offset_[1] = b.initial.orientation.toRotationMatrix().transpose() * E0;
  end_offset_[0] = a.initial.orientation.conjugate() * end_offsets[0];
  // The midpoint's discrete gradient is built from one end's invariants: the end with the
  // lexicographically smaller reference point, so that both node orders give the same element.
  {
    const Vec3 pa = a.initial.position + end_offsets[0], pb = b.initial.position + end_offsets[1];
    invariant_side_ = std::lexicographical_compare(pb.begin(), pb.end(), pa.begin(), pa.end()) ? 1 : 0;
  }
  end_offset_[1] = b.initial.orientation.conjugate() * end_offsets[1];
  for (std::size_t k = 0; k < 2; ++k) {
    aligned_[k] = offset_[k] == Mat3::Identity();
    centred_[k] = end_offset_[k] == Vec3::Zero();
  }

  K_.setZero();
  K_(0, 0) = section.EA * L_;
  K_(1, 1) = section.GJ / L_;
  K_.block<2, 2>(2, 2) = bending_stiffness(section.EIy, section.GAz, L_);
  K_.block<2, 2>(4, 4) = bending_stiffness(section.EIz, section.GAy, L_);
}

void Beam::declare(fem::UnknownRegistry& registry) {
  registry.couple({displacement_[0], rotation_[0], displacement_[1], rotation_[1]});
}

void Beam::stamp(const fem::StepState& s, fem::ResidualSink& r, fem::JacobianSink& j) const {
  const Geometry g{L_, offset_, end_offset_, invariant_side_, aligned_, centred_};
  const StepStart& start = start_cache_.get(s, [&] {
    StepStart b;
    b.element.q = step_start(s.committed, nodes_);
    b.element.eps = local_deformations<double>(b.element.q.xa, b.element.q.xb, b.element.q.Ra, b.element.q.Rb, g);
    for (std::size_t k = 0; k < 2; ++k) {
      const fem::InertiaLump l = lump(k);
      b.nodes[k] = inertia::body_start(s.at_start(nodes_[k]), s.time.h, l.mass, l.inertia, Vec3::Zero(), s.gravity);
    }
    return b;
  });
  const Start& st = start.element;
  const Vec12 u = step_unknowns(s, nodes_);
  const std::array<fem::BlockId, 4> blocks{displacement_[0], rotation_[0], displacement_[1], rotation_[1]};
  if (j.wanted()) {
    const auto x = ad::variables<12>(u);
    const Eigen::Matrix<ad::Dual<12>, 12, 1> f =
        internal_force(st, x, g, K_, section_.damping_time, s.time.scheme, s.time.h, s.precise);
    const Vec12 v = ad::values(f);
    const Mat12 J = ad::jacobian(f);
    for (int p = 0; p < 4; ++p) {
      r.add<3>(blocks[p], Vec3(v.segment<3>(3 * p)));
      for (int q = 0; q < 4; ++q) j.add<3, 3>(blocks[p], blocks[q], Mat3(J.block<3, 3>(3 * p, 3 * q)));
    }
  } else {
    // Residual only: one level of differentiation less (about ten times cheaper).
    const Vec12 v = internal_force(st, u, g, K_, section_.damping_time, s.time.scheme, s.time.h, s.precise);
    for (int p = 0; p < 4; ++p) r.add<3>(blocks[p], Vec3(v.segment<3>(3 * p)));
  }

  // Lumped mass: half the element at each node, with the rotary inertia in section axes.
  for (std::size_t k = 0; k < 2; ++k) {
    const inertia::BodyStart& b = start.nodes[k];
    if (b.m == 0.0 && b.J.isZero()) continue;
    inertia::stamp_body(s, nodes_[k], b, r, j);
  }

  // Consistent part of the translational mass: c [−1 1; 1 −1] times (2/h²)(Δx − h v_n).
  const double c = coupling_mass();
  if (c == 0.0 || s.time.is_static()) return;
  const double k = fem::inertia_coefficient(s.time.h);
  const Vec3 w = (s.increment(nodes_[1]) - s.time.h * s.at_start(nodes_[1]).velocity) -
                 (s.increment(nodes_[0]) - s.time.h * s.at_start(nodes_[0]).velocity);
  r.add<3>(displacement_[0], Vec3(c * k * w));
  r.add<3>(displacement_[1], Vec3(-c * k * w));
  const Mat3 d = c * k * Mat3::Identity();
  j.add<3, 3>(displacement_[0], displacement_[0], Mat3(-d));
  j.add<3, 3>(displacement_[0], displacement_[1], d);
  j.add<3, 3>(displacement_[1], displacement_[0], d);
  j.add<3, 3>(displacement_[1], displacement_[1], Mat3(-d));
}

void Beam::stamp_rates(const fem::StepState&, fem::JacobianSink& mass, fem::JacobianSink&) const {
  const double c = coupling_mass();
  if (c == 0.0) return;
  const Mat3 d = c * Mat3::Identity();
  mass.add<3, 3>(displacement_[0], displacement_[0], Mat3(-d));
  mass.add<3, 3>(displacement_[0], displacement_[1], d);
  mass.add<3, 3>(displacement_[1], displacement_[0], d);
  mass.add<3, 3>(displacement_[1], displacement_[1], Mat3(-d));
}

Strains Beam::strains(std::span<const fem::NodeState> states) const {
  const Configuration<double> q = configuration(states, nodes_);
  const Geometry g{L_, offset_, end_offset_, invariant_side_, aligned_, centred_};
  return local_deformations<double>(q.xa, q.xb, q.Ra, q.Rb, g);
}

double Beam::strain_energy(std::span<const fem::NodeState> states) const {
  const Strains eps = strains(states);
  return 0.5 * eps.dot(K_ * eps);
}

void Beam::add_energy(std::span<const fem::NodeState> states, const Vec3& gravity, fem::StateEnergy& e) const {
  e.strain += strain_energy(states);
  for (std::size_t k = 0; k < 2; ++k) {
    const fem::InertiaLump l = lump(k);
    const fem::NodeState& n = states[nodes_[k].index];
    inertia::add_body_energy(n, l.mass, l.inertia, Vec3::Zero(), gravity, reference_position_[k], e, n.velocity);
  }
  if (const double c = coupling_mass(); c != 0.0) {
    const fem::NodeState &a = states[nodes_[0].index], &b = states[nodes_[1].index];
    const Vec3 dv = a.velocity - b.velocity;
    e.kinetic -= 0.5 * c * dv.squaredNorm();
    e.angular_momentum -= c * (a.position - b.position).cross(dv);
  }
}

fem::InertiaLump Beam::lump(std::size_t k) const {
  const Mat3 J_section = 0.5 * L_ * Vec3(section_.rhoJ, section_.rhoIy, section_.rhoIz).asDiagonal();
  return {nodes_[k], 0.5 * section_.rhoA * L_, Vec3::Zero(), Mat3(offset_[k] * J_section * offset_[k].transpose())};
}

void Beam::inertia_lumps(fem::InertiaSink& out) const {
  for (std::size_t k = 0; k < 2; ++k) out.add(lump(k));
}

void Beam::add_step_work(const fem::StepState& s, fem::StepWork& w) const {
  if (section_.damping_time == 0.0 || s.time.is_static()) return;
  // Exactly what the damping force Gᵀ η K Δε / h did over the step, since G u = Δε.
  const Geometry g{L_, offset_, end_offset_, invariant_side_, aligned_, centred_};
  Start st;
  st.q = step_start(s.committed, nodes_);
  const Vec12 u = step_unknowns(s, nodes_);
  const Configuration<double> end = two_frame::along_step(st.q, u, Instant::End);
  const Strains delta = local_deformations<double>(end.xa, end.xb, end.Ra, end.Rb, g) -
                        local_deformations<double>(st.q.xa, st.q.xb, st.q.Ra, st.q.Rb, g);
  w.dissipated += section_.damping_time / s.time.h * delta.dot(K_ * delta);
}

SectionForces Beam::section_forces(std::span<const fem::NodeState> states) const {
  const Strains eps = strains(states);
  const Strains g = K_ * eps;  // generalized forces conjugate to ε
  SectionForces f;
  f.N = section_.EA * eps[0];
  f.T = g[1];
  // End moments M_a, M_b are conjugate to the end rotations (both positive about the same
  // axis): the section moment runs linearly from −M_a to M_b, the shear is its slope.
  f.My = 0.5 * (g[3] - g[2]);
  f.Mz = 0.5 * (g[5] - g[4]);
  f.Qz = (g[2] + g[3]) / L_;
  f.Qy = -(g[4] + g[5]) / L_;
  return f;
}

void Beam::cell_values(std::span<const fem::NodeState> states, fem::CellValueSink& out) const {
  const SectionForces f = section_forces(states);
  out.set("axial_force", f.N);
  out.set("shear_force_y", f.Qy);
  out.set("shear_force_z", f.Qz);
  out.set("torque", f.T);
  out.set("bending_moment_y", f.My);
  out.set("bending_moment_z", f.Mz);
  out.set("radius", section_.radius);
}

}  // namespace catena::elements
