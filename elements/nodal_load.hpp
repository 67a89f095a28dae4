#pragma once
/// Dead nodal force f(t) (fixed direction in space), each component a time function [N].
/// Row: −½ (f(t_n) + f(t_{n+1})) on the node's force balance (trapezoidal in time, both schemes);
/// no Jacobian. Its work over a step, ½ (f(t_n) + f(t_{n+1})) · Δx, is the `external_work` of
/// energy.csv, so the balance holds for time-varying loads too.
#include "fem/element.hpp"
#include "fem/expression.hpp"

#include <array>

namespace catena::elements {

class NodalLoad final : public fem::Element {
 public:
  NodalLoad(std::string name, std::span<const fem::Node> nodes, fem::NodeId node,
            std::array<fem::Expression, 3> force);

  std::string_view kind() const override { return "nodal_load"; }
  void declare(fem::UnknownRegistry& registry) override;
  void stamp(const fem::StepState& s, fem::ResidualSink& r, fem::JacobianSink& j) const override;
  void add_step_work(const fem::StepState& s, fem::StepWork& w) const override;
  [[nodiscard]] fem::Vec3 force(double t) const;

 private:
  [[nodiscard]] fem::Vec3 step_average(const fem::StepState& s) const;
  fem::NodeId node_;
  fem::BlockId block_;
  std::array<fem::Expression, 3> force_;
};

}  // namespace catena::elements
