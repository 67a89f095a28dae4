#pragma once
/// Small fixed-size algebra types shared by every layer (Eigen, column vectors, SI units).
#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cstdint>

namespace catena::fem {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Quaternion = Eigen::Quaterniond;

/// Index of a node in `Model::nodes`.
struct NodeId {
  std::int32_t index = -1;
  friend bool operator==(NodeId, NodeId) = default;
};

/// Handle of a block of unknowns in the `UnknownRegistry` (a node's displacement, a joint's
/// multipliers, ...). Elements keep these handles; only the registry knows where a block lives.
struct BlockId {
  std::int32_t index = -1;
  [[nodiscard]] bool valid() const { return index >= 0; }
  friend bool operator==(BlockId, BlockId) = default;
};

/// Index of one scalar unknown (a degree of freedom) in a numbering; -1 marks a fixed component,
/// which stamps skip (a support removes the unknown rather than adding a reaction row).
using Dof = std::int32_t;
inline constexpr Dof fixed_dof = -1;

}  // namespace catena::fem
