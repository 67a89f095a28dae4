#pragma once
/// Rigid body carried by a frame node: mass m, inertia tensor J_c about its centre of mass in the
/// node's axes, centre of mass at offset c from the node (node axes), under the step's gravity
/// (fem::StepState::gravity).
/// Unknowns touched: the node's Δx and b (R_{n+1} = cay(b) R_n, fem/step_rotation.hpp).
///
/// Inertia is an energy–momentum scheme in the sense of Simo & Wong (1991):
///   rotation   (π_{n+1} − π_n)/h,  π = R J_c Rᵀ ω,  ω_{n+1} = 2b/h − cay(b) ω_n,
///   translation of the centre x_c = x + R c:  m (v_{c,n+1} − v_{c,n})/h with
///              v_{c,n+1} = 2 Δx_c/h − v_{c,n},  Δx_c = Δx + (cay(b) − I) R_n c,
/// and the translational inertia and weight p acting on the offset become the node moment
/// ½(a_n + a_{n+1}) × p (a = R c), the exact work-conjugate of Δx_c in terms of (Δx, b) by the
/// chord identity of the Cayley map. Then the kinetic plus potential energy of a free body
/// changes by exactly the work of the other forces on the node (f·Δx + m·b), and a free body keeps
/// its linear and angular momentum.
/// The centre moves by the midpoint rule, the node by its own (fem::advance); for c ≠ 0 the two
/// velocities of the centre differ by O(h²), so the body keeps the centre velocity it integrates
/// as its history (commit), and the node velocity is not used for it after the first step.
/// Jacobian: exact, by forward automatic differentiation of the residual.
#include "fem/element.hpp"
#include "fem/start_cache.hpp"

#include <optional>

namespace catena::elements {

namespace inertia {
struct BodyStart;
}

using fem::Mat3;
using fem::NodeId;
using fem::Vec3;

struct RigidBodyProperties {
  double mass = 0.0;                 ///< [kg], > 0 (0 allowed for a pure rotary inertia)
  Mat3 inertia = Mat3::Zero();       ///< about the centre of mass, node axes [kg m²], symmetric
  Vec3 offset = Vec3::Zero();        ///< centre of mass from the node, node axes [m]
};

class RigidBody final : public fem::Element {
 public:
  /// `shape`: what the scene draws (output only; io/scene_shapes.hpp).
  RigidBody(std::string name, const fem::AttachedNode& node, const RigidBodyProperties& body,
            const fem::BodyShape& shape = {});
  ~RigidBody() override;

  std::string_view kind() const override { return "rigid_body"; }
  void declare(fem::UnknownRegistry& registry) override;
  void stamp(const fem::StepState& s, fem::ResidualSink& r, fem::JacobianSink& j) const override;
  void commit(const fem::StepState& s) override;
  /// History: the centre velocity (a flag, then 3 values).
  void save_history(std::vector<double>& out) const override;
  void restore_history(std::span<const double>& in) override;
  void add_energy(std::span<const fem::NodeState> states, const Vec3& gravity, fem::StateEnergy& e) const override;
  void inertia_lumps(fem::InertiaSink& out) const override { out.add({node_, body_.mass, body_.offset, body_.inertia}); }
  /// Output: a vertex on the body's node (which carries its orientation and velocity as point
  /// data) with the fields mass and the vectors centre_of_mass, centre_velocity (global).
  std::span<const NodeId> cell_nodes() const override { return {&node_, 1}; }
  void cell_values(std::span<const fem::NodeState> states, fem::CellValueSink& out) const override;
  /// The scene: links from the centre to the attachment points on its node, and its shape.
  fem::Drawing drawing() const override {
    fem::Drawing d = fem::drawn_as(fem::DrawnAs::RigidBody, node_);
    d.mass = body_.mass;
    d.offset = body_.offset;
    d.inertia = body_.inertia;
    d.shape = shape_;
    return d;
  }

  [[nodiscard]] NodeId node() const { return node_; }
  [[nodiscard]] const RigidBodyProperties& properties() const { return body_; }

 private:
  NodeId node_;
  fem::BlockId displacement_;
  fem::BlockId rotation_;
  RigidBodyProperties body_;
  fem::BodyShape shape_;
  Vec3 reference_centre_;  ///< the node at t = 0: potential energy is measured from there
  /// Velocity of the centre at the last committed state (global) when the offset is nonzero;
  /// empty before the first dynamic step and after a static one: then v + ω × R c of the node.
  std::optional<Vec3> centre_velocity_;
  fem::StartCache<inertia::BodyStart> start_cache_;  ///< stamp's start of the step, once per time element

  [[nodiscard]] Vec3 centre_velocity(const fem::NodeState& n) const;
};

}  // namespace catena::elements
