#pragma once
/// The unknown registry: every block of tableau unknowns, who owns it, and which blocks are
/// coupled by an element. Elements fill it in `Element::declare`; the tableau (assembly/) turns it
/// into a numbering and an exact sparsity pattern. Nothing here knows PETSc.
#include "fem/types.hpp"

#include <array>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace catena::fem {

/// What a block of unknowns measures; decides its unit and the scale used by the Newton test.
enum class UnknownKind : std::uint8_t {
  Displacement,        ///< position increment over the time element [m]
  Rotation,            ///< incremental rotation vector [rad]
  Multiplier,          ///< a joint's internal force [N] / moment [N m]
};

inline constexpr int max_block_size = 6;

struct BlockInfo {
  std::string owner;  ///< "node 'tip'", "joint 'hinge'": used in messages and output
  std::string label;  ///< "force", "moment", "kinematic": names the rows of the block
  UnknownKind kind = UnknownKind::Displacement;
  int size = 0;
  std::array<bool, max_block_size> fixed{};  ///< components removed by supports
  /// Multiplier components whose law prescribes a motion (a joint's drive): their force does work
  /// over a step, so Newton tests their convergence too (solvers/newton.cpp, scale_multipliers).
  std::array<bool, max_block_size> driven{};
  /// Components in global axes, in triples (x, y, z; rx, ry, rz), that a rigid rotation of the
  /// model turns with this node's axes: a frame node's own blocks, a ground joint's reactions.
  /// None: invariant (a point node's position increment, reactions in a body's axes). Newton's
  /// chord corrections co-rotate a kept Jacobian with it (solvers/jacobian_transport.hpp).
  std::optional<NodeId> turns_with;
  [[nodiscard]] std::string row_name(int component) const;  ///< "node 'tip' force y"
};

/// Maps every block to its scalar unknowns (fixed components map to `fixed_dof`).
class DofMap {
 public:
  DofMap() = default;
  DofMap(std::vector<Dof> dofs, std::vector<std::int32_t> block_offsets)
      : dofs_(std::move(dofs)), offsets_(std::move(block_offsets)) {}
  [[nodiscard]] std::span<const Dof> dofs(BlockId b) const {
    return {dofs_.data() + offsets_[b.index], dofs_.data() + offsets_[b.index + 1]};
  }
  [[nodiscard]] std::size_t n_blocks() const { return offsets_.empty() ? 0 : offsets_.size() - 1; }
  /// Same blocks, every free dof replaced by `f(dof)` (which may return `fixed_dof`).
  template <class F>
  [[nodiscard]] DofMap transformed(F f) const {
    std::vector<Dof> d = dofs_;
    for (Dof& x : d)
      if (x != fixed_dof) x = f(x);
    return DofMap(std::move(d), offsets_);
  }

 private:
  std::vector<Dof> dofs_;
  std::vector<std::int32_t> offsets_;
};

class UnknownRegistry {
 public:
  BlockId add_block(std::string owner, std::string label, UnknownKind kind, int size);
  /// Removes one component of a block (a support). Its rows and columns are never stamped.
  void fix(BlockId block, int component);
  /// Marks one component of a multiplier block as driven (BlockInfo::driven).
  void drive(BlockId block, int component);
  /// Declares the node whose rotation turns the block's components (BlockInfo::turns_with).
  void turn_with(BlockId block, NodeId node);
  /// Declares that an element stamps the residual rows and Jacobian blocks coupling all `blocks`
  /// with each other. Called once per element at set-up: the sparsity is fixed from then on.
  void couple(std::span<const BlockId> blocks);
  void couple(std::initializer_list<BlockId> blocks) { couple(std::span(blocks.begin(), blocks.size())); }
  /// A coupling inserted at `position` of couplings() (Model::couple_law_sensors).
  void insert_coupling(std::size_t position, std::span<const BlockId> blocks);

  [[nodiscard]] const BlockInfo& block(BlockId b) const { return blocks_[b.index]; }
  [[nodiscard]] std::size_t n_blocks() const { return blocks_.size(); }
  [[nodiscard]] std::span<const BlockInfo> blocks() const { return blocks_; }
  /// Each declared coupling, by element in declaration order (blocks listed per group).
  [[nodiscard]] const std::vector<std::vector<BlockId>>& couplings() const { return couplings_; }
  /// Numbers free components block after block in registration order (tests, dense solves).
  [[nodiscard]] DofMap sequential_numbering() const;
  /// Numbers free components in the given block order.
  [[nodiscard]] DofMap numbering(std::span<const BlockId> order) const;
  [[nodiscard]] int n_free_dofs() const;

 private:
  std::vector<BlockInfo> blocks_;
  std::vector<std::vector<BlockId>> couplings_;
};

}  // namespace catena::fem
