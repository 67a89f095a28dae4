#include "elements/point_mass.hpp"

namespace catena::elements {

PointMass::PointMass(std::string name, const fem::AttachedNode& node, double mass)
    : Element(std::move(name)),
      node_(node.id),
      block_(node.node.displacement),
      m_(mass),
      reference_(node.node.reference_position) {}

void PointMass::declare(fem::UnknownRegistry& registry) { registry.couple({block_}); }

void PointMass::stamp(const fem::StepState& s, fem::ResidualSink& r, fem::JacobianSink& j) const {
  if (s.time.is_static()) {
    r.add<3>(block_, fem::Vec3(-s.time.external_load_factor() * m_ * s.gravity));
    return;
  }
  const double c = m_ * fem::inertia_coefficient(s.time.h);
  const fem::Vec3 res = c * (s.increment(node_) - s.time.h * s.at_start(node_).velocity) - m_ * s.gravity;
  r.add<3>(block_, res);
  const fem::Mat3 K = c * fem::Mat3::Identity();
  j.add<3, 3>(block_, block_, K);
}

void PointMass::add_energy(std::span<const fem::NodeState> states, const fem::Vec3& gravity,
                           fem::StateEnergy& e) const {
  const fem::NodeState& s = states[node_.index];
  e.kinetic += 0.5 * m_ * s.velocity.squaredNorm();
  e.potential -= m_ * gravity.dot(s.position - reference_);
  e.momentum += m_ * s.velocity;
  e.angular_momentum += s.position.cross(m_ * s.velocity);
}

}  // namespace catena::elements
