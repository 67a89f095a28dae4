#include "elements/rigid_body.hpp"

#include "elements/rigid_inertia.hpp"
#include "fem/step_rotation.hpp"

namespace catena::elements {

RigidBody::RigidBody(std::string name, const fem::AttachedNode& node, const RigidBodyProperties& body,
                     const fem::BodyShape& shape)
    : Element(std::move(name)),
      node_(node.id),
      displacement_(node.node.displacement),
      rotation_(node.node.rotation),
      body_(body),
      shape_(shape),
      reference_centre_(node.node.reference_position) {
  if (!rotation_.valid())
    throw std::invalid_argument("rigid body '" + this->name() + "': node '" + node.node.name +
                                "' is not a frame node");
}

RigidBody::~RigidBody() = default;

void RigidBody::declare(fem::UnknownRegistry& registry) { registry.couple({displacement_, rotation_}); }

Vec3 RigidBody::centre_velocity(const fem::NodeState& n) const {
  if (centre_velocity_) return *centre_velocity_;
  return n.velocity + n.angular_velocity.cross(n.orientation * body_.offset);
}

void RigidBody::stamp(const fem::StepState& s, fem::ResidualSink& r, fem::JacobianSink& j) const {
  const inertia::BodyStart& b = start_cache_.get(s, [&] {
    const fem::NodeState& start = s.at_start(node_);
    inertia::BodyStart body = inertia::body_start(start, s.time.h, body_.mass, body_.inertia, body_.offset, s.gravity);
    body.vc = centre_velocity(start);
    return body;
  });
  inertia::stamp_body(s, node_, b, r, j);
}

void RigidBody::commit(const fem::StepState& s) {
  if (s.time.is_static() || body_.offset.isZero()) {
    centre_velocity_.reset();
    return;
  }
  const fem::NodeState& start = s.at_start(node_);
  const Vec3 a_n = start.orientation * body_.offset;
  const Vec3 a_1 = fem::step_rotation(s.rotation_increment(node_)) * a_n;
  centre_velocity_ = 2.0 * (s.increment(node_) + a_1 - a_n) / s.time.h - centre_velocity(start);
}

void RigidBody::save_history(std::vector<double>& out) const {
  out.push_back(centre_velocity_ ? 1.0 : 0.0);
  const Vec3 v = centre_velocity_.value_or(Vec3::Zero());
  out.insert(out.end(), v.data(), v.data() + 3);
}

void RigidBody::restore_history(std::span<const double>& in) {
  const std::span<const double> h = fem::take_history(in, 4, *this);
  centre_velocity_.reset();
  if (h[0] != 0.0) centre_velocity_ = Vec3(h[1], h[2], h[3]);
}

void RigidBody::add_energy(std::span<const fem::NodeState> states, const Vec3& gravity, fem::StateEnergy& e) const {
  const fem::NodeState& n = states[node_.index];
  inertia::add_body_energy(n, body_.mass, body_.inertia, body_.offset, gravity, reference_centre_, e,
                           centre_velocity(n));
}

void RigidBody::cell_values(std::span<const fem::NodeState> states, fem::CellValueSink& out) const {
  const fem::NodeState& n = states[node_.index];
  out.set("mass", body_.mass);
  out.set_vector("centre_of_mass", n.position + n.orientation * body_.offset);
  out.set_vector("centre_velocity", centre_velocity(n));
}

}  // namespace catena::elements
