#pragma once
/// Co-rotated chord corrections: Newton applies a Jacobian J kept from an earlier iterate as
/// T J Tᵀ, where T turns every triple of unknowns in global axes (fem::BlockInfo::turns_with) by
/// the rotation its node has made since J was evaluated, T_k = R_k R_k,Jᵀ (the node's axes at the
/// end of the step, now and at J's iterate).
///
/// Why: a model's forces are objective. Turning a whole time element (its start and its end) by
/// a rotation Q turns its residual, f(Q u) = Q f(u) for increments in global axes, so its
/// Jacobian is Q J Qᵀ. A kept Jacobian whose model has turned since (a beam spinning at 0.06 rad
/// per step; a pendulum's members, whose axial stiffness is a thousand times their bending one,
/// turned by a few milliradians) is, transported, what a fresh one would be up to the deformation
/// and the relative motion of the nodes since. Untransported, the axial stiffness acts along the
/// old directions and the chord corrections stall or fail: the spin-up beam needed a fresh
/// Jacobian at every step, the flexible pendulum one every four. Since T is orthogonal,
/// (T J Tᵀ)⁻¹ f = T J⁻¹ Tᵀ f: two 3×3 rotations per triple around the kept factorization.
///
/// A triple with a component fixed by a support is turned within its free components (exact when
/// the rotation keeps the fixed axis, as in a planar model). Blocks that turn with nothing (point
/// nodes, reactions in a body's axes) are left as they are. Under MPI each rank turns the triples
/// it owns, reading the nodes' rotation unknowns through one scatter.
#include "assembly/tableau.hpp"

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace catena::solvers {

class JacobianTransport {
 public:
  explicit JacobianTransport(const assembly::Tableau& tableau);

  /// A Jacobian was evaluated at u: its nodes' axes are recorded and T is the identity.
  void record(const fem::StepState& s, Vec u);
  /// T for the iterate u, against the axes recorded with the Jacobian (identity if none are).
  void update(const fem::StepState& s, Vec u);
  /// Whether T differs from the identity (update was called since the last record).
  [[nodiscard]] bool active() const { return active_; }
  /// v ← Tᵀ v: a residual into the axes of the kept Jacobian.
  void to_jacobian_axes(Vec v) const { turn(v, true); }
  /// v ← T v: a correction from the axes of the kept Jacobian.
  void from_jacobian_axes(Vec v) const { turn(v, false); }

  /// The recorded axes for a checkpoint: 9 values (column-major) per node that turns, in node
  /// order, on rank 0; empty when none are recorded. Collective.
  [[nodiscard]] std::vector<double> saved() const;
  /// Takes over axes from `saved` (on every rank); empty, or saved for another model: none.
  void restore(std::span<const double> values);

 private:
  struct Triple {
    std::array<PetscInt, 3> rows;  ///< local rows; -1 for a fixed component
    std::size_t node;              ///< index into nodes_
  };
  struct TurningNode {
    std::size_t node;              ///< model node index
    std::size_t saved_index;       ///< position among all nodes that turn (saved())
    std::array<PetscInt, 3> rotation_values;  ///< indices into the gathered rotation values; -1: fixed
    bool owner = false;            ///< this rank owns the node's rotation block (writes it in saved())
  };
  /// The nodes' step rotations C(b) for the trial u.
  void step_rotations(Vec u, std::vector<fem::Mat3>& out);
  void turn(Vec v, bool transpose) const;
  /// Threads for the loops over nodes: the tableau's (per-node work, the same on any number);
  /// one below `parallel_nodes`, where handing work over costs more than the loop.
  [[nodiscard]] int threads() const { return nodes_.size() >= parallel_nodes ? tableau_->threads() : 1; }
  static constexpr std::size_t parallel_nodes = 256;

  const assembly::Tableau* tableau_;
  MPI_Comm comm_;
  std::vector<Triple> triples_;
  std::vector<TurningNode> nodes_;
  std::size_t n_saved_ = 0;  ///< nodes that turn, over the whole model
  assembly::Handle<VecScatter, VecScatterDestroy> scatter_;
  assembly::VecHandle rotation_values_;
  std::vector<fem::Mat3> at_jacobian_, turn_;
  /// R_n,k R_J,kᵀ for the start named from_start_id_ (fem::StepState::start_id; 0: none).
  std::vector<fem::Mat3> from_start_;
  std::uint64_t from_start_id_ = 0;
  bool recorded_ = false, active_ = false;
};

}  // namespace catena::solvers
