#pragma once
/// What an element sees while stamping one Newton iterate of a time element [t_n, t_n + h]:
/// the committed state at t_n and the trial unknowns. Read-only; elements cache nothing.
#include "fem/node.hpp"
#include "fem/time_scheme.hpp"
#include "fem/unknowns.hpp"

#include <span>
#include <vector>

namespace catena::fem {

struct StepState {
  double t_n = 0.0;
  double h = 0.0;
  TimeScheme scheme = TimeScheme::Midpoint;
  std::span<const Node> nodes;
  std::span<const NodeState> committed;  ///< state at t_n, one per node
  std::span<const double> trial;         ///< trial unknowns, indexed through `map`
  const DofMap* map = nullptr;           ///< block -> index in `trial` (fixed -> none)
  /// Static stamping only: multiplies every load and weight. Load stepping at a fixed time
  /// (the equilibrium that starts a dynamic run) raises it from 0 to 1; otherwise it is 1.
  double load_factor = 1.0;
  /// Set by Newton when its corrections stall below the tolerance but above what its test needs:
  /// an element whose residual subtracts nearly equal quantities (the beam's change of
  /// deformations over the step) then evaluates them in extended precision, which lowers the
  /// rounding noise that stalled the corrections. Both modes compute the same residual to rounding.
  bool precise = false;

  [[nodiscard]] double t_end() const { return t_n + h; }

  /// Trial values of a block; fixed components read as 0.
  template <int N>
  [[nodiscard]] Eigen::Matrix<double, N, 1> values(BlockId b) const {
    Eigen::Matrix<double, N, 1> v;
    const std::span<const Dof> dofs = map->dofs(b);
    for (int i = 0; i < N; ++i) v[i] = dofs[i] == fixed_dof ? 0.0 : trial[dofs[i]];
    return v;
  }
  [[nodiscard]] Vec3 increment(NodeId n) const { return values<3>(nodes[n.index].displacement); }
  [[nodiscard]] const NodeState& at_start(NodeId n) const { return committed[n.index]; }
  [[nodiscard]] Vec3 position_end(NodeId n) const { return committed[n.index].position + increment(n); }
  [[nodiscard]] Vec3 velocity_end(NodeId n) const {
    return 2.0 * increment(n) / h - committed[n.index].velocity;
  }
  /// Frame nodes: the rotation unknown of the step, the spatial Cayley vector b with
  /// R_{n+1} = cay(b) R_n (fem/step_rotation.hpp).
  [[nodiscard]] Vec3 rotation_increment(NodeId n) const { return values<3>(nodes[n.index].rotation); }
};

}  // namespace catena::fem
