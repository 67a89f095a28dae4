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
///
/// Semitangential moment (Argyris): the conservative moment whose potential is −m · ψ, ψ the
/// rotation vector of the node's rotation from its reference orientation, R R_0ᵀ = exp(ψ̂), m
/// given in global axes. Its vector turns, to first order, by half the node's rotation (a follower
/// moment turns by all of it, a dead one not at all): a clamped shaft under a semitangential end
/// torque buckles at M = π EI / l. Rows: static −T(ψ)⁻ᵀ m (T the tangent of exp), the spatial
/// moment, as static moment rows are; time elements the gradient −Tc(b)ᵀ T(ψ_m)⁻ᵀ m in the
/// step's Cayley vector b (Tc: tangent of the Cayley map) at ψ_m = ½(ψ_n + ψ_{n+1}), with Gonzalez's
/// correction along b, so that the work over a step is m̄ · (ψ_{n+1} − ψ_n) exactly. Defined while
/// the rotation from the reference stays below π.
#include "fem/element.hpp"
#include "fem/expression.hpp"

#include <array>

namespace catena::elements {

enum class LoadKind : std::uint8_t { Force, Moment };
enum class LoadAxes : std::uint8_t { Global, Follower, Semitangential };

class NodalLoad final : public fem::Element {
 public:
  /// `scale` multiplies the three functions (a distributed load lumped on a node, for instance).
  /// Moments and follower loads need a frame node.
  NodalLoad(std::string name, const fem::AttachedNode& node, std::array<fem::Expression, 3> values,
            LoadKind kind = LoadKind::Force, LoadAxes axes = LoadAxes::Global, double scale = 1.0,
            const fem::Quaternion& reference = fem::Quaternion::Identity());

  std::string_view kind() const override { return kind_ == LoadKind::Force ? "nodal_force" : "nodal_moment"; }
  void declare(fem::UnknownRegistry& registry) override;
  void stamp(const fem::StepState& s, fem::ResidualSink& r, fem::JacobianSink& j) const override;
  void add_step_work(const fem::StepState& s, fem::StepWork& w) const override;
  /// The load at time t in the given axes: scale · g(t) [N or N m].
  [[nodiscard]] fem::Vec3 value(double t) const;
  /// Its point of application, the node itself.
  void attachment_points(std::vector<fem::AttachmentPoint>& out) const override {
    out.push_back({node_, fem::Vec3::Zero(), false});
  }

 private:
  fem::NodeId node_;
  fem::BlockId block_;     ///< displacement (force) or rotation (moment) block
  fem::BlockId rotation_;  ///< the node's rotation block (follower loads)
  std::array<fem::Expression, 3> values_;
  LoadKind kind_;
  LoadAxes axes_;
  double scale_;
  fem::Mat3 reference_;  ///< R_0 of a semitangential moment's node
};

}  // namespace catena::elements
