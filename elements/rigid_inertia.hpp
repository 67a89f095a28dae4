#pragma once
/// The inertia and weight of a rigid body on a frame node, as residual templates for automatic
/// differentiation; used by RigidBody and by the lumped masses of beams. The scheme and its
/// energy identity are explained in elements/rigid_body.hpp.
#include "elements/autodiff.hpp"
#include "fem/step_rotation.hpp"
#include "fem/sinks.hpp"
#include "fem/energy.hpp"
#include "fem/step_state.hpp"

namespace catena::elements::inertia {

/// What the residual needs from the start of the step, all in global axes.
struct BodyStart {
  double h = 0.0;
  double m = 0.0;
  fem::Vec3 weight = fem::Vec3::Zero();  ///< m g
  fem::Mat3 J = fem::Mat3::Zero();       ///< R_n J_c R_nᵀ
  fem::Vec3 pi = fem::Vec3::Zero();      ///< angular momentum about the centre, J ω_n
  fem::Vec3 a = fem::Vec3::Zero();       ///< centre offset R_n c
  fem::Vec3 vc = fem::Vec3::Zero();      ///< velocity of the centre v_n + ω_n × a
};

/// Residual of the node's force and moment balance (rows Δx, b) for the unknowns u = (Δx, b).
template <class T>
Eigen::Matrix<T, 6, 1> dynamic_residual(const Eigen::Matrix<T, 6, 1>& u, const BodyStart& b) {
  using V = ad::Vec3T<T>;
  const V dx = u.template head<3>();
  const V beta = u.template tail<3>();
  const ad::Mat3T<T> C = fem::step_rotation(beta);
  const V a_n = b.a.cast<T>();
  const V a_1 = C * a_n;
  const V dxc = dx + a_1 - a_n;
  const V p = (2.0 * b.m / (b.h * b.h)) * (dxc - b.h * b.vc.cast<T>()) - b.weight.cast<T>();
  const V mu = (0.5 * (a_n + a_1)).cross(p);
  const V pi_n = b.pi.cast<T>();
  const V bvec = (2.0 / b.h) * (b.J.cast<T>() * beta) - pi_n;
  const V rot = (C * bvec - pi_n) / b.h;
  Eigen::Matrix<T, 6, 1> r;
  r << p, rot + mu;
  return r;
}

template <class T>
Eigen::Matrix<T, 6, 1> static_residual(const Eigen::Matrix<T, 6, 1>& u, const BodyStart& b) {
  using V = ad::Vec3T<T>;
  const V a_1 = fem::step_rotation(V(u.template tail<3>())) * b.a.cast<T>();
  const V w = b.weight.cast<T>();
  Eigen::Matrix<T, 6, 1> r;
  r << -w, -a_1.cross(w);
  return r;
}

/// The start-of-step data of a body (mass m, inertia J_c about its centre and offset c in node
/// axes) on a node in state n.
inline BodyStart body_start(const fem::NodeState& n, double h, double m, const fem::Mat3& J_c, const fem::Vec3& c,
                            const fem::Vec3& gravity) {
  const fem::Mat3 R = n.orientation.toRotationMatrix();
  BodyStart b;
  b.h = h;
  b.m = m;
  b.weight = m * gravity;
  b.J = R * J_c * R.transpose();
  b.pi = b.J * n.angular_velocity;
  b.a = R * c;
  b.vc = n.velocity + n.angular_velocity.cross(b.a);
  return b;
}

/// The residual of the body for the scheme of `s` at the unknowns x (double or dual numbers).
template <class T>
Eigen::Matrix<T, 6, 1> body_residual(const fem::StepState& s, const Eigen::Matrix<T, 6, 1>& x, const BodyStart& b) {
  if (!s.time.is_static()) return dynamic_residual(x, b);
  BodyStart loaded = b;
  loaded.weight *= s.time.external_load_factor();
  return static_residual(x, loaded);
}

/// Stamps the body's residual and exact Jacobian on a node's displacement and rotation blocks
/// (the residual alone, without dual numbers, when no Jacobian is wanted).
inline void stamp_body(const fem::StepState& s, fem::NodeId node, const BodyStart& b, fem::ResidualSink& r,
                       fem::JacobianSink& j) {
  const fem::Node& n = s.nodes[static_cast<std::size_t>(node.index)];
  Eigen::Matrix<double, 6, 1> u;
  u << s.increment(node), s.rotation_increment(node);
  if (!j.wanted()) {
    const Eigen::Matrix<double, 6, 1> v = body_residual(s, u, b);
    r.add<3>(n.displacement, fem::Vec3(v.head<3>()));
    r.add<3>(n.rotation, fem::Vec3(v.tail<3>()));
    return;
  }
  const Eigen::Matrix<ad::Dual<6>, 6, 1> res = body_residual(s, ad::variables<6>(u), b);
  const Eigen::Matrix<double, 6, 1> v = ad::values(res);
  const Eigen::Matrix<double, 6, 6> J = ad::jacobian(res);
  r.add<3>(n.displacement, fem::Vec3(v.head<3>()));
  r.add<3>(n.rotation, fem::Vec3(v.tail<3>()));
  j.add<3, 3>(n.displacement, n.displacement, fem::Mat3(J.topLeftCorner<3, 3>()));
  j.add<3, 3>(n.displacement, n.rotation, fem::Mat3(J.topRightCorner<3, 3>()));
  j.add<3, 3>(n.rotation, n.displacement, fem::Mat3(J.bottomLeftCorner<3, 3>()));
  j.add<3, 3>(n.rotation, n.rotation, fem::Mat3(J.bottomRightCorner<3, 3>()));
}

/// Kinetic and potential energy and momenta of the body on a node in state n, its centre moving
/// at vc; the potential is measured from the node's reference position X0.
inline void add_body_energy(const fem::NodeState& n, double m, const fem::Mat3& J_c, const fem::Vec3& c,
                            const fem::Vec3& gravity, const fem::Vec3& X0, fem::StateEnergy& e,
                            const fem::Vec3& vc) {
  const fem::Mat3 R = n.orientation.toRotationMatrix();
  const fem::Vec3 a = R * c;
  const fem::Vec3 centre = n.position + a;
  const fem::Vec3 pi = R * J_c * R.transpose() * n.angular_velocity;
  e.kinetic += 0.5 * m * vc.squaredNorm() + 0.5 * n.angular_velocity.dot(pi);
  e.potential -= m * gravity.dot(centre - X0);
  e.momentum += m * vc;
  e.angular_momentum += centre.cross(m * vc) + pi;
}

}  // namespace catena::elements::inertia
