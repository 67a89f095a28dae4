#pragma once
/// All the inertia lumps carried by one frame or point node (fem::InertiaLump), merged into one
/// rigid lump, as a linearized analysis sees it from a frame turning at a constant rate Ω about a
/// point p (Ω = 0: an inertial frame). Built by linearized analyses only (solvers/linearized_analysis),
/// never part of a time integration: `add_node_inertia` adds them to a model before its
/// linearized analysis (solvers/linearized_analysis) is built.
///
/// With the node at x, its rotation R = cay(b) R_0, the lump's centre c = x + R d and its inertia
/// J = R J_0 Rᵀ about the centre, relative rates v = ẋ, w (spatial angular velocity relative to
/// the turning frame) and accelerations a, α, the generalized inertia force on (Δx, b) is
///     F_x = m [a + α × d + w × (w × d) + 2 Ω × (v + w × d) + Ω × (Ω × (c − p))]
///     F_θ = d × F_x + J (α + Ω × w) + (Ω + w) × J (Ω + w)
/// (absolute acceleration of the centre and Euler's equations about it, written in the turning
/// frame). It enters the node rows as F_x and Tc(b)ᵀ F_θ (Tc: tangent of the Cayley map; rotation
/// rows are work-conjugate to b):
///   - `stamp` (static scheme; nothing in time elements, where the elements that own the lumps
///     stamp their inertia): the steady part, rates zero — centrifugal force and the
///     gyroscopic moment Ω × J Ω — with its exact derivative in (Δx, b), so that a static solve
///     finds the steady motion, and its Jacobian carries the centrifugal softening;
///   - `stamp_rates`: mass ∂F/∂(a, α) and damping ∂F/∂(v, w) (Coriolis and gyroscopic, skew) at
///     the state.
#include "fem/element.hpp"
#include "fem/model.hpp"

namespace catena::elements {

struct TurningFrame {
  fem::Vec3 angular_velocity = fem::Vec3::Zero();  ///< Ω, global [rad/s]
  fem::Vec3 centre = fem::Vec3::Zero();            ///< p, a point on the axis [m]
};

class NodeInertia final : public fem::Element {
 public:
  /// `lumps`: the lumps of `node`, merged here about it.
  NodeInertia(std::string name, const fem::AttachedNode& node, std::span<const fem::InertiaLump> lumps,
              const TurningFrame& frame);

  std::string_view kind() const override { return "node_inertia"; }
  void declare(fem::UnknownRegistry& registry) override;
  void stamp(const fem::StepState& s, fem::ResidualSink& r, fem::JacobianSink& j) const override;
  void stamp_rates(const fem::StepState& s, fem::JacobianSink& mass, fem::JacobianSink& damping) const override;

 private:
  fem::InertiaLump lump_;
  fem::BlockId displacement_, rotation_;  ///< rotation_ invalid on point nodes
  TurningFrame frame_;
};

/// Merges lumps on one node into one: total mass, common centre, inertia about it (node axes).
fem::InertiaLump merge_lumps(std::span<const fem::InertiaLump> lumps);

/// Adds one NodeInertia per node that carries inertia to `model`: the lumps of every element,
/// merged per node, seen from the turning frame of `model.analysis.linearized`. Call it once,
/// before a linearized analysis of the model is built.
void add_node_inertia(fem::Model& model);

}  // namespace catena::elements
