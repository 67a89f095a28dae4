#include "elements/beam.hpp"

#include "elements/autodiff.hpp"
#include "elements/rigid_inertia.hpp"
#include "elements/two_frame_step.hpp"
#include "fem/rotation.hpp"

#include <cmath>

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
};

/// Local deformations (beam.hpp) of a configuration: end positions and nodal triads.
template <class T>
Eigen::Matrix<T, Beam::n_strains, 1> local_deformations(const ad::Vec3T<T>& xa, const ad::Vec3T<T>& xb,
                                                        const ad::Mat3T<T>& Ra, const ad::Mat3T<T>& Rb,
                                                        const Geometry& g) {
  using std::sqrt;
  using V = ad::Vec3T<T>;
  using M = ad::Mat3T<T>;
  const M Sa = Ra * g.C[0].cast<T>();
  const M Sb = Rb * g.C[1].cast<T>();
  const M mean = Sa * fem::exp_map(V(0.5 * fem::log_map(M(Sa.transpose() * Sb))));
  const V d = xb + Rb * g.o[1].cast<T>() - xa - Ra * g.o[0].cast<T>();
  const T l = sqrt(d.squaredNorm());
  if (!(fem::scalar_value(l) > 1e-9 * g.L)) throw fem::DomainError("beam collapsed to zero length");
  const V e1 = d / l;
  // The smallest rotation that turns the mean frame's first axis onto the chord.
  const V s1 = mean.col(0);
  const V v = s1.cross(e1);
  const T c = s1.dot(e1);
  if (!(fem::scalar_value(c) > -0.99))
    throw fem::DomainError("beam chord turned more than 170 degrees from its section frames");
  const M W = fem::skew(v);
  const M E = (M::Identity() + W + (W * W) / (T(1.0) + c)) * mean;
  const V ta = fem::log_map(M(E.transpose() * Sa));
  const V tb = fem::log_map(M(E.transpose() * Sb));
  Eigen::Matrix<T, Beam::n_strains, 1> eps;
  const T bow = (2.0 * ta[1] * ta[1] - ta[1] * tb[1] + 2.0 * tb[1] * tb[1] + 2.0 * ta[2] * ta[2] - ta[2] * tb[2] +
                 2.0 * tb[2] * tb[2]) /
                30.0;
  eps << (l - g.L) / g.L + bow, tb[0] - ta[0], ta[1], tb[1], ta[2], tb[2];
  return eps;
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

/// Internal force on (a, b) over the step for the unknowns u (scheme of beam.hpp).
template <class S>
Eigen::Matrix<S, 12, 1> internal_force(const Start& st, const Eigen::Matrix<S, 12, 1>& u, const Geometry& g,
                                       const StrainMatrix& K, double eta, fem::TimeScheme scheme, double h) {
  using E = Eigen::Matrix<S, Beam::n_strains, 1>;
  const Configuration<S> end = two_frame::along_step(st.q, u, Instant::End);
  const Eigen::Matrix<S, Beam::n_strains, Beam::n_strains> Ks = K.cast<S>();
  if (scheme == fem::TimeScheme::Static) {
    const auto [eps1, B1] = strains_and_gradient(end, g);
    return B1.transpose() * (Ks * eps1);
  }
  // The midpoint force needs the gradient at the middle of the step only: ε at the end costs
  // one level of differentiation less.
  const E eps1 = local_deformations<S>(end.xa, end.xb, end.Ra, end.Rb, g);
  const E eps0 = st.eps.cast<S>();
  const E delta = eps1 - eps0;
  const auto deformations = deformations_of(g);
  const auto G = two_frame::discrete_gradient(st.q, u, delta, two_frame::gradient_of<Beam::n_strains>(deformations), g.L,
                                              two_frame::Symmetry::Rigid);
  const E damping = (eta / h) * (Ks * delta);
  if (scheme == fem::TimeScheme::Midpoint) return G.transpose() * (Ks * (0.5 * (eps0 + eps1)) + damping);
  const auto B1 = strains_and_gradient(end, g).second;
  const auto B0 = strains_and_gradient(st.q, g).second;
  return 0.5 * (B0.template cast<S>().transpose() * (Ks * eps0) + B1.transpose() * (Ks * eps1)) +
         G.transpose() * damping;
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

/// Timoshenko bending stiffness of one plane for the two end rotations, with Φ = 12 EI/(GA L²).
Eigen::Matrix2d bending_stiffness(double EI, double GA, double L) {
  const double phi = GA > 0.0 ? 12.0 * EI / (GA * L * L) : 0.0;
  const double k = EI / (L * (1.0 + phi));
  Eigen::Matrix2d K;
  K << 4.0 + phi, 2.0 - phi, 2.0 - phi, 4.0 + phi;
  return k * K;
}



}  // namespace

Beam::Beam(std::string name, std::span<const fem::Node> nodes, std::span<const fem::NodeState> initial, NodeId a,
           NodeId b, const BeamSection& section, const Vec3& orientation, const Vec3& gravity,
           const std::array<Vec3, 2>& end_offsets)
    : Element(std::move(name)),
      nodes_{a, b},
      displacement_{nodes[a.index].displacement, nodes[b.index].displacement},
      rotation_{nodes[a.index].rotation, nodes[b.index].rotation},
      section_(section),
      gravity_(gravity),
      reference_position_{nodes[a.index].reference_position, nodes[b.index].reference_position} {
  const std::string who = "beam '" + this->name() + "': ";
  if (!rotation_[0].valid() || !rotation_[1].valid())
    throw std::invalid_argument(who + "both nodes must be frame nodes");
  const Vec3 chord = initial[b.index].position + end_offsets[1] - initial[a.index].position - end_offsets[0];
  L_ = chord.norm();
  if (!(L_ > 0.0)) throw std::invalid_argument(who + "its nodes coincide");
  const Vec3 e1 = chord / L_;
  Vec3 e2 = orientation - orientation.dot(e1) * e1;
  if (!(e2.norm() > 1e-6 * orientation.norm()) || orientation.norm() == 0.0)
    throw std::invalid_argument(who + "the orientation vector is parallel to the beam (or zero)");
  e2.normalize();
  Mat3 E0;
  E0 << e1, e2, e1.cross(e2);
  offset_[0] = initial[a.index].orientation.toRotationMatrix().transpose() * E0;
  offset_[1] = initial[b.index].orientation.toRotationMatrix().transpose() * E0;
  end_offset_[0] = initial[a.index].orientation.conjugate() * end_offsets[0];
  end_offset_[1] = initial[b.index].orientation.conjugate() * end_offsets[1];

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
  const Geometry g = Geometry{L_, offset_, end_offset_};
  Start st;
  st.q = configuration(s.committed, nodes_);
  st.eps = local_deformations<double>(st.q.xa, st.q.xb, st.q.Ra, st.q.Rb, g);
  const Vec12 u = step_unknowns(s, nodes_);
  const std::array<fem::BlockId, 4> blocks{displacement_[0], rotation_[0], displacement_[1], rotation_[1]};
  if (j.wanted()) {
    const auto x = ad::variables<12>(u);
    const Eigen::Matrix<ad::Dual<12>, 12, 1> f = internal_force(st, x, g, K_, section_.damping_time, s.scheme, s.h);
    const Vec12 v = ad::values(f);
    const Mat12 J = ad::jacobian(f);
    for (int p = 0; p < 4; ++p) {
      r.add<3>(blocks[p], Vec3(v.segment<3>(3 * p)));
      for (int q = 0; q < 4; ++q) j.add<3, 3>(blocks[p], blocks[q], Mat3(J.block<3, 3>(3 * p, 3 * q)));
    }
  } else {
    // Residual only: one level of differentiation less (about ten times cheaper).
    const Vec12 v = internal_force(st, u, g, K_, section_.damping_time, s.scheme, s.h);
    for (int p = 0; p < 4; ++p) r.add<3>(blocks[p], Vec3(v.segment<3>(3 * p)));
  }

  // Lumped mass: half the element at each node, with the rotary inertia in section axes.
  const double m = 0.5 * section_.rhoA * L_;
  const Mat3 J_section = 0.5 * L_ * Vec3(section_.rhoJ, section_.rhoIy, section_.rhoIz).asDiagonal();
  for (int k = 0; k < 2; ++k) {
    if (m == 0.0 && J_section.isZero()) continue;
    const Mat3 J_node = offset_[k] * J_section * offset_[k].transpose();
    const inertia::BodyStart b = inertia::body_start(s.at_start(nodes_[k]), s.h, m, J_node, Vec3::Zero(), gravity_);
    inertia::stamp_body(s, nodes_[k], b, r, j);
  }

  // Consistent part of the translational mass: c [−1 1; 1 −1] times (2/h²)(Δx − h v_n).
  const double c = coupling_mass();
  if (c == 0.0 || s.scheme == fem::TimeScheme::Static) return;
  const double k = fem::inertia_coefficient(s.h);
  const Vec3 w = (s.increment(nodes_[1]) - s.h * s.at_start(nodes_[1]).velocity) -
                 (s.increment(nodes_[0]) - s.h * s.at_start(nodes_[0]).velocity);
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
  return local_deformations<double>(q.xa, q.xb, q.Ra, q.Rb, Geometry{L_, offset_, end_offset_});
}

double Beam::strain_energy(std::span<const fem::NodeState> states) const {
  const Strains eps = strains(states);
  return 0.5 * eps.dot(K_ * eps);
}

void Beam::add_energy(std::span<const fem::NodeState> states, fem::StateEnergy& e) const {
  e.strain += strain_energy(states);
  const double m = 0.5 * section_.rhoA * L_;
  const Mat3 J_section = 0.5 * L_ * Vec3(section_.rhoJ, section_.rhoIy, section_.rhoIz).asDiagonal();
  for (int k = 0; k < 2; ++k) {
    const Mat3 J_node = offset_[k] * J_section * offset_[k].transpose();
    const fem::NodeState& n = states[nodes_[k].index];
    inertia::add_body_energy(n, m, J_node, Vec3::Zero(), gravity_, reference_position_[k], e, n.velocity);
  }
  if (const double c = coupling_mass(); c != 0.0) {
    const fem::NodeState &a = states[nodes_[0].index], &b = states[nodes_[1].index];
    const Vec3 dv = a.velocity - b.velocity;
    e.kinetic -= 0.5 * c * dv.squaredNorm();
    e.angular_momentum -= c * (a.position - b.position).cross(dv);
  }
}

void Beam::inertia_lumps(fem::InertiaSink& out) const {
  const double m = 0.5 * section_.rhoA * L_;
  const Mat3 J_section = 0.5 * L_ * Vec3(section_.rhoJ, section_.rhoIy, section_.rhoIz).asDiagonal();
  for (int k = 0; k < 2; ++k) out.add({nodes_[k], m, Vec3::Zero(), Mat3(offset_[k] * J_section * offset_[k].transpose())});
}

void Beam::add_step_work(const fem::StepState& s, fem::StepWork& w) const {
  if (section_.damping_time == 0.0 || s.scheme == fem::TimeScheme::Static) return;
  // Exactly what the damping force Gᵀ η K Δε / h did over the step, since G u = Δε.
  const Geometry g = Geometry{L_, offset_, end_offset_};
  Start st;
  st.q = configuration(s.committed, nodes_);
  const Vec12 u = step_unknowns(s, nodes_);
  const Configuration<double> end = two_frame::along_step(st.q, u, Instant::End);
  const Strains delta = local_deformations<double>(end.xa, end.xb, end.Ra, end.Rb, g) -
                        local_deformations<double>(st.q.xa, st.q.xb, st.q.Ra, st.q.Rb, g);
  w.dissipated += section_.damping_time / s.h * delta.dot(K_ * delta);
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
