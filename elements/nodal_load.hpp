#pragma once
/// Nodal force or moment given as three time functions, dead (global axes) or follower (axes of
/// a frame node, turning with it).
/// Row: −ḡ on the node's force (or moment) balance, with ḡ the load over the step:
///   dead       ḡ = ½ (g(t_n) + g(t_{n+1}))                        (no Jacobian)
///   follower   ḡ = R_m ½ (g(t_n) + g(t_{n+1})),  R_m = R_n turned by half the step's angle
///              (fem::half_step_rotation; Jacobian by automatic
///              differentiation; a follower load is not conservative, so any consistent average
///              will do, and this one is symmetric in time)
/// Its work over a step, ḡ · Δx for a force and ḡ · b for a moment (b: the step's Cayley vector,
/// the work-conjugate of moments in Catena's balances, fem/step_rotation.hpp), is the
/// `external_work` of energy.csv, so the balance holds for time-varying loads too.
/// Static analysis: ḡ = g(t_{n+1}) (follower: R_{n+1} g).
#include "fem/element.hpp"
#include "fem/expression.hpp"

#include <array>

namespace catena::elements {

enum class LoadKind : std::uint8_t { Force, Moment };
enum class LoadAxes : std::uint8_t { Global, Follower };

class NodalLoad final : public fem::Element {
 public:
  /// `scale` multiplies the three functions (a distributed load lumped on a node, for instance).
  /// Moments and follower loads need a frame node.
  NodalLoad(std::string name, std::span<const fem::Node> nodes, fem::NodeId node, std::array<fem::Expression, 3> values,
            LoadKind kind = LoadKind::Force, LoadAxes axes = LoadAxes::Global, double scale = 1.0);

  std::string_view kind() const override { return kind_ == LoadKind::Force ? "nodal_force" : "nodal_moment"; }
  void declare(fem::UnknownRegistry& registry) override;
  void stamp(const fem::StepState& s, fem::ResidualSink& r, fem::JacobianSink& j) const override;
  void add_step_work(const fem::StepState& s, fem::StepWork& w) const override;
  /// The load at time t in the given axes: scale · g(t) [N or N m].
  [[nodiscard]] fem::Vec3 value(double t) const;

 private:
  fem::NodeId node_;
  fem::BlockId block_;     ///< displacement (force) or rotation (moment) block
  fem::BlockId rotation_;  ///< the node's rotation block (follower loads)
  std::array<fem::Expression, 3> values_;
  LoadKind kind_;
  LoadAxes axes_;
  double scale_;
};

}  // namespace catena::elements
