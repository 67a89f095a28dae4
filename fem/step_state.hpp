#pragma once
/// What an element sees while stamping one Newton iterate of a time element [t_n, t_n + h]:
/// the description of the step (its time element and the gravity it is stamped under), the
/// committed state at t_n and the trial unknowns. Read-only; what an element derives from the
/// start alone it may keep between the passes of one time element (fem/start_cache.hpp).
#include "fem/node.hpp"
#include "fem/time_element.hpp"
#include "fem/unknowns.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace catena::fem {

struct StepState {
  /// When the element is, its scheme and phase, the load factor: the integrator's description,
  /// apart from the trial values.
  TimeElement time;
  std::span<const Node> nodes;
  std::span<const NodeState> committed;  ///< state at t_n, one per node
  std::span<const double> trial;         ///< trial unknowns, indexed through `map`
  const DofMap* map = nullptr;           ///< block -> index in `trial` (fixed -> none)
  /// Set by Newton when its corrections stall below the tolerance but above what its test needs:
  /// an element whose residual subtracts nearly equal quantities (the beam's change of
  /// deformations over the step) then evaluates them in extended precision, which lowers the
  /// rounding noise that stalled the corrections. Both modes compute the same residual to rounding.
  bool precise = false;
  /// Names the start this time element is stamped from (the committed states and the elements'
  /// histories, besides `time`): new_start_id() each time the integrator
  /// describes a time element, so that elements may keep what depends on the start alone between
  /// its Newton passes (fem::StartCache). 0: not named (a StepState built by hand), keep nothing.
  std::uint64_t start_id = 0;
  /// The gravity acceleration [m/s²] the step is stamped under: the model's, filled in where the
  /// integrator describes a time element (solvers/committed_state.cpp), so that elements carrying
  /// mass take it from the step rather than keeping a copy. Last, so that the positional
  /// initialisations {time, nodes, committed, trial, map[, precise]} keep their meaning; a
  /// description built by hand has none unless it sets it.
  Vec3 gravity = Vec3::Zero();

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
    return 2.0 * increment(n) / time.h - committed[n.index].velocity;
  }
  /// Frame nodes: the rotation unknown of the step, the spatial Cayley vector b with
  /// R_{n+1} = cay(b) R_n (fem/step_rotation.hpp).
  [[nodiscard]] Vec3 rotation_increment(NodeId n) const { return values<3>(nodes[n.index].rotation); }
};

/// A start_id not handed out before in this process (never 0).
[[nodiscard]] std::uint64_t new_start_id();

}  // namespace catena::fem
