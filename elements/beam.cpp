#include "elements/beam.hpp"

#include "elements/beam_kinematics.hpp"
#include "elements/rigid_inertia.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

namespace catena::elements {

using beam_kinematics::bending_stiffness;
using beam_kinematics::Configuration;
using beam_kinematics::configuration;
using beam_kinematics::Geometry;
using beam_kinematics::Instant;
using beam_kinematics::internal_force;
using beam_kinematics::invariants;
using beam_kinematics::local_deformations;
using beam_kinematics::Mat12;
using beam_kinematics::Start;
using beam_kinematics::step_start;
using beam_kinematics::step_unknowns;
using beam_kinematics::Strains;
using beam_kinematics::Vec12;

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

Mat3 Beam::section_axes(std::span<const fem::NodeState> states) const {
  return states[nodes_[0].index].orientation.toRotationMatrix() * offset_[0];
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

std::array<EndSection, 2> Beam::end_sections(std::span<const fem::NodeState> states) const {
  const Geometry g{L_, offset_, end_offset_, invariant_side_, aligned_, centred_};
  // Node a at the origin (step_start): the forces depend on differences of positions only.
  const Configuration<double> q = step_start(states, nodes_);
  const auto [eps, B] = beam_kinematics::strains_and_gradient(q, g);
  const Vec12 f = B.transpose() * (K_ * eps);
  std::array<EndSection, 2> ends;
  for (std::size_t k = 0; k < 2; ++k) {
    const fem::NodeState& node = states[nodes_[k].index];
    const Mat3 R = node.orientation.toRotationMatrix();
    const auto i = static_cast<Eigen::Index>(6 * k);
    ends[k] = end_section(k, f.segment<3>(i), f.segment<3>(i + 3), node.position,
                          node.position + R * end_offset_[k], R * offset_[k]);
  }
  return ends;
}

void Beam::end_values(std::span<const fem::NodeState> states, fem::EndValueSink& out) const {
  write_end_sections(end_sections(states), out);
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
