#pragma once
/// Lumped point mass m on a node, under the step's gravity g (fem::StepState::gravity).
/// Unknown touched: Δx. Row (force balance):
///     m (v_{n+1} − v_n) / h − m g = (2m / h²)(Δx − h v_n) − m g,      Jacobian (2m / h²) I.
/// Energies: kinetic ½ m v², potential −m g · (x − X), momentum m v, angular momentum x × m v.
/// Gravity is constant, so its midpoint work equals −ΔV exactly.
#include "fem/element.hpp"

namespace catena::elements {

class PointMass final : public fem::Element {
 public:
  PointMass(std::string name, const fem::AttachedNode& node, double mass);

  std::string_view kind() const override { return "point_mass"; }
  void declare(fem::UnknownRegistry& registry) override;
  void stamp(const fem::StepState& s, fem::ResidualSink& r, fem::JacobianSink& j) const override;
  void add_energy(std::span<const fem::NodeState> states, const fem::Vec3& gravity, fem::StateEnergy& e) const override;
  void inertia_lumps(fem::InertiaSink& out) const override { out.add({node_, m_, fem::Vec3::Zero(), fem::Mat3::Zero()}); }
  fem::Drawing drawing() const override { return fem::drawn_as(fem::DrawnAs::PointMass, node_); }
  [[nodiscard]] fem::NodeId node() const { return node_; }
  [[nodiscard]] double mass() const { return m_; }

 private:
  fem::NodeId node_;
  fem::BlockId block_;
  double m_;
  fem::Vec3 reference_;
};

}  // namespace catena::elements
