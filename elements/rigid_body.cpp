#include "elements/rigid_body.hpp"

#include "elements/rigid_inertia.hpp"

namespace catena::elements {

RigidBody::RigidBody(std::string name, std::span<const fem::Node> nodes, NodeId node, const RigidBodyProperties& body,
                     const Vec3& gravity)
    : Element(std::move(name)),
      node_(node),
      displacement_(nodes[node.index].displacement),
      rotation_(nodes[node.index].rotation),
      body_(body),
      gravity_(gravity),
      reference_centre_(nodes[node.index].reference_position) {
  if (!rotation_.valid())
    throw std::invalid_argument("rigid body '" + this->name() + "': node '" + nodes[node.index].name +
                                "' is not a frame node");
}

void RigidBody::declare(fem::UnknownRegistry& registry) { registry.couple({displacement_, rotation_}); }

void RigidBody::stamp(const fem::StepState& s, fem::ResidualSink& r, fem::JacobianSink& j) const {
  const inertia::BodyStart b =
      inertia::body_start(s.at_start(node_), s.h, body_.mass, body_.inertia, body_.offset, gravity_);
  inertia::stamp_body(s, node_, b, r, j);
}

void RigidBody::add_energy(std::span<const fem::NodeState> states, fem::StateEnergy& e) const {
  inertia::add_body_energy(states[node_.index], body_.mass, body_.inertia, body_.offset, gravity_, reference_centre_, e);
}

}  // namespace catena::elements
