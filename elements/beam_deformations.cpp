#include "elements/beam_deformations.hpp"

#include "elements/dual.hpp"

#include <cmath>

namespace catena::elements::beam_deformations {

namespace {

using fem::Mat3;
using fem::Vec3;

/// x as the variable of a one-direction dual number: fem's scalar coefficient functions give
/// their values and derivatives through it.
ad::Dual<1> variable(double x) { return ad::Dual<1>(x, Eigen::Matrix<double, 1, 1>(1.0)); }

/// The adjoint of R ↦ fem::log_map(R) at R: the R̄ with ⟨R̄, dR⟩ = t̄ · d log_map(R), following
/// log_map's branches; false in its third branch (angle above 90 degrees).
bool log_map_adjoint(const Mat3& r, const Vec3& tbar, Mat3& rbar) {
  const double c = 0.5 * (r.trace() - 1.0);
  const Vec3 w = fem::axial(r);  // sin θ n
  const double s2 = w.squaredNorm();
  Vec3 wbar;
  double cbar = 0.0;
  if (c > 0.0 && s2 < fem::rotation_detail::log_series_sin2) {
    // φ = f(s²) w
    const ad::Dual<1> f = fem::log_series_factor(variable(s2));
    wbar = f.value() * tbar + (2.0 * f.derivatives()[0] * tbar.dot(w)) * w;
  } else if (c >= 0.0) {
    // φ = g w with g = atan2(s, c)/s, s = |w|
    const double s = std::sqrt(s2);
    const double theta = std::atan2(s, c);
    const double g = theta / s;
    const double q = s2 + c * c;
    const double tw = tbar.dot(w);
    wbar = g * tbar + (tw * (c * s / q - theta) / (s2 * s)) * w;
    cbar = -tw / q;
  } else {
    return false;
  }
  // w = axial(R), c = ½(tr R − 1).
  rbar = 0.5 * fem::skew(wbar);
  rbar.diagonal().array() += 0.5 * cbar;
  return true;
}

/// The adjoint of fem::identity_plus(v, v2, a, b) = I + a v̂ + b (v vᵀ − v2 I): the parts of
/// ⟨R̄, dR⟩ along dv, dv2, da, db.
struct IdentityPlusAdjoint {
  Vec3 v;
  double v2 = 0.0, a = 0.0, b = 0.0;
};
IdentityPlusAdjoint identity_plus_adjoint(const Vec3& v, double v2, double a, double b, const Mat3& rbar) {
  const Vec3 ax = fem::axial(rbar);
  const double trace = rbar.trace();
  IdentityPlusAdjoint out;
  out.v = (2.0 * a) * ax + b * ((rbar + rbar.transpose()) * v);
  out.v2 = -b * trace;
  out.a = 2.0 * v.dot(ax);
  out.b = v.dot(rbar * v) - v2 * trace;
  return out;
}

/// The adjoint of φ ↦ fem::exp_map(φ) at φ, following its branches.
Vec3 exp_map_adjoint(const Vec3& phi, const Mat3& rbar) {
  const double x = phi.squaredNorm();  // θ²
  // exp_map's coefficients a = sin θ/θ, b = (1 − cos θ)/θ² and their derivatives in θ².
  const fem::ExpCoefficients<ad::Dual<1>> c = fem::exp_coefficients(variable(x));
  const IdentityPlusAdjoint p = identity_plus_adjoint(phi, x, c.a.value(), c.b.value(), rbar);
  const double xbar = p.v2 + p.a * c.a.derivatives()[0] + p.b * c.b.derivatives()[0];
  return p.v + (2.0 * xbar) * phi;
}

}  // namespace

std::optional<Invariants> work_gradient(const Invariants& z, const Deformations& sigma, double L) {
  // The forward sweep of of_invariants, keeping what the reverse one needs.
  const Vec3 d = z.head<3>();
  Mat3 Q;
  for (int j = 0; j < 3; ++j) Q.col(j) = z.segment<3>(3 + 3 * j);
  const Vec3 m = fem::log_map(Q);
  const Vec3 half = 0.5 * m;
  const Mat3 mean = fem::exp_map(half);
  const double l = d.norm();
  if (!(l > 1e-9 * L)) throw fem::DomainError("beam collapsed to zero length");
  const Vec3 e1 = d / l;
  const Vec3 s1 = mean.col(0);
  const Vec3 v = s1.cross(e1);
  const double c = s1.dot(e1);
  if (!(c > -0.99)) throw fem::DomainError("beam chord turned more than 170 degrees from its section frames");
  const double k = 1.0 / (1.0 + c);
  const double v2 = v.squaredNorm();
  const Mat3 P = fem::identity_plus(v, v2, 1.0, k);
  const Mat3 E = P * mean;
  const Mat3 A = E.transpose();
  const Mat3 W = E.transpose() * Q;
  const Vec3 ta = fem::log_map(A);
  const Vec3 tb = fem::log_map(W);

  // ψ = σ · ((l − L)/L + bow, tb_x − ta_x, ta_y, tb_y, ta_z, tb_z), bow from ta, tb (y, z).
  const double bowbar = sigma[0];
  const double lbar = sigma[0] / L;
  const Vec3 tabar(-sigma[1], sigma[2] + bowbar * (4.0 * ta[1] - tb[1]) / 30.0,
                   sigma[4] + bowbar * (4.0 * ta[2] - tb[2]) / 30.0);
  const Vec3 tbbar(sigma[1], sigma[3] + bowbar * (4.0 * tb[1] - ta[1]) / 30.0,
                   sigma[5] + bowbar * (4.0 * tb[2] - ta[2]) / 30.0);
  Mat3 Abar, Wbar;
  if (!log_map_adjoint(A, tabar, Abar) || !log_map_adjoint(W, tbbar, Wbar)) return std::nullopt;
  // A = Eᵀ, W = Eᵀ Q.
  const Mat3 Ebar = Abar.transpose() + Q * Wbar.transpose();
  Mat3 Qbar = E * Wbar;
  // E = P mean.
  const Mat3 Pbar = Ebar * mean.transpose();
  Mat3 meanbar = P.transpose() * Ebar;
  // P = identity_plus(v, |v|², 1, k), k = 1/(1 + c).
  const IdentityPlusAdjoint p = identity_plus_adjoint(v, v2, 1.0, k, Pbar);
  const Vec3 vbar = p.v + (2.0 * p.v2) * v;
  const double cbar = -k * k * p.b;
  // v = s1 × e1, c = s1 · e1, s1 = mean e_x.
  meanbar.col(0) += e1.cross(vbar) + cbar * e1;
  const Vec3 e1bar = vbar.cross(s1) + cbar * s1;
  // e1 = d/l, l = |d|.
  const Vec3 dbar = (e1bar - e1.dot(e1bar) * e1) / l + lbar * e1;
  // mean = exp(½ log Q).
  const Vec3 mbar = 0.5 * exp_map_adjoint(half, meanbar);
  Mat3 Qlog;
  if (!log_map_adjoint(Q, mbar, Qlog)) return std::nullopt;
  Qbar += Qlog;

  Invariants g;
  g.head<3>() = dbar;
  for (int j = 0; j < 3; ++j) g.segment<3>(3 + 3 * j) = Qbar.col(j);
  return g;
}

}  // namespace catena::elements::beam_deformations
