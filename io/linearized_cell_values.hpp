#pragma once
/// The cell data of a mode's frames (io/linearized_command.cpp): every element's `cell_values`
/// linearized about the state the modes belong to, b. At a frame's node states x it gives
///   C(b) + C'(b)[x ⊖ b],
/// x ⊖ b the nodes' displacements x − b and the rotation vectors of R_x R_bᵀ, the derivative by a
/// central difference along x ⊖ b (velocities are the frame's). A frame drawn at a finite
/// amplitude then carries the section forces of the linear motion it draws, as its displacements
/// are; the elements' own values at the drawn shape are not those: a bending mode drawn a tenth of
/// a rod's length across stretches the rod by the square of that, which the axial stiffness turns
/// into axial forces far above any prestress. What an element does not compute from its nodes'
/// positions and orientations (a joint's reactions, from its multipliers) keeps its value at b.
#include "io/cell_value_source.hpp"

#include "fem/model.hpp"

#include <span>
#include <string>
#include <vector>

namespace catena::io {

class LinearizedCellValues final : public CellValueSource {
 public:
  /// The difference step: the largest node motion of h (x ⊖ b) (rotations times the model's size)
  /// relative to the model's size. The values curve on the scale of an element's length, so their
  /// second-order error stays far below their change even for elements 1e-3 of the model's size;
  /// and it is large against the round-off of positions (1e-16 of the model's size).
  static constexpr double relative_step = 1e-6;

  /// Linearized about `about`, one state per node of `model` (copied); `model` must outlive this.
  LinearizedCellValues(const fem::Model& model, std::span<const fem::NodeState> about);

  void set_frame(std::span<const fem::NodeState> states) override;
  void element_values(const fem::Element& element, fem::CellValueSink& out) const override;
  [[nodiscard]] std::string description() const override;

 private:
  const fem::Model& model_;
  std::vector<fem::NodeState> about_;          ///< b, with the current frame's velocities
  std::vector<fem::NodeState> plus_, minus_;   ///< b ⊕ ±h (x ⊖ b)
  double inverse_difference_ = 0.0;            ///< 1 / 2h; 0 when the frame is b itself
};

}  // namespace catena::io
