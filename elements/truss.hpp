#pragma once
/// Co-rotational truss (bar) between two point nodes a and b, linear in the engineering strain:
///     N = EA (l − l0) / l0,   W = EA (l − l0)² / (2 l0).
/// Unknowns touched: Δx_a, Δx_b (3 + 3). Rows: force balance at a and b; internal force at b is
/// +f, at a −f.
///
/// Midpoint scheme (Crisfield & Shi 1994, eqs 8–20; docs/formulation.md §3): with chords
/// x21 = x_b − x_a at t_n and t_{n+1}, lengths l_n, l_{n+1} and midpoint chord
/// x21_m = (x21_n + x21_{n+1}) / 2,
///     f = N_m e_m,   e_m = x21_m / l_m,   N_m = β (N_n + N_{n+1}) / 2,   β = 2 l_m / (l_n + l_{n+1}),
/// i.e. f = (N_n + N_{n+1}) / (l_n + l_{n+1}) · x21_m, which satisfies f · Δx21 = W_{n+1} − W_n
/// exactly (a discrete gradient), so the truss neither gains nor loses energy.
/// Trapezoidal scheme: f = ½ (N_n e_n + N_{n+1} e_{n+1}).
/// Tested: tangent against central differences; zero force under rigid motion; the discrete
/// energy identity on random states.
#include "elements/end_sections.hpp"
#include "fem/element.hpp"

#include <array>

namespace catena::elements {

using fem::Mat3;
using fem::NodeId;
using fem::Vec3;

struct TrussSection {
  double EA = 0.0;  ///< axial stiffness [N], > 0
};

/// Internal force on node b and its derivative with respect to the chord increment
/// d = Δx_b − Δx_a, for either scheme. Pure kinematics, testable on its own.
struct TrussForce {
  Vec3 f;  ///< on node b [N]; node a receives −f
  Mat3 K;  ///< ∂f/∂d [N/m]
};
TrussForce truss_force(const Vec3& x21_n, const Vec3& d, double EA, double l0, fem::TimeScheme scheme);

class Truss final : public fem::Element {
 public:
  Truss(std::string name, const fem::AttachedNode& a, const fem::AttachedNode& b, TrussSection section,
        double rest_length);

  std::string_view kind() const override { return "truss"; }
  void declare(fem::UnknownRegistry& registry) override;
  void stamp(const fem::StepState& s, fem::ResidualSink& r, fem::JacobianSink& j) const override;
  void add_energy(std::span<const fem::NodeState> states, const Vec3& gravity, fem::StateEnergy& e) const override;
  std::span<const NodeId> cell_nodes() const override { return nodes_; }
  fem::Drawing drawing() const override { return fem::drawn_as(fem::DrawnAs::Truss); }
  void cell_values(std::span<const fem::NodeState> states, fem::CellValueSink& out) const override;
  /// `section_force` (N, 0, 0) and `section_moment` 0 at both ends (end_sections).
  void end_values(std::span<const fem::NodeState> states, fem::EndValueSink& out) const override;

  /// Axial force N = EA (l − l0) / l0 for the given states [N].
  [[nodiscard]] double axial_force(std::span<const fem::NodeState> states) const;
  /// Both ends' section values (elements/end_sections.hpp): the internal force N e at b, −N e at
  /// a (e the current chord's direction), in axes whose first is e.
  [[nodiscard]] std::array<EndSection, 2> end_sections(std::span<const fem::NodeState> states) const;
  [[nodiscard]] double rest_length() const { return l0_; }

 private:
  std::array<NodeId, 2> nodes_;
  std::array<fem::BlockId, 2> blocks_;
  TrussSection section_;
  double l0_;
};

}  // namespace catena::elements
