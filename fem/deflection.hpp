#pragma once
/// Deflection relative to a frame node (`output.deflection_frame`): each node's displacement less
/// the rigid motion of that node's frame since t = 0, so that the bending of a beam carried by a
/// moving or spinning hub can be read apart from the hub's motion. For node i, with X the
/// reference (t = 0) positions, x the current ones, and the frame node f's current position x_f,
/// rotation R_f (node axes to global) and reference rotation R_f0:
///   deflection_i = x_i − x_f − R_f R_f0ᵀ (X_i − X_f0)     global components [m]
///   local_i      = R_fᵀ deflection_i = R_fᵀ (x_i − x_f) − R_f0ᵀ (X_i − X_f0)
/// the same vector along the frame's current axes (what a `displacement` sensor with
/// `frame: <f>` reads, fem/sensor.hpp). Both are zero for every node under any rigid motion of the
/// whole model, and the frame node's own are zero always. (The reader takes a frame node; a point
/// node here has R = I, and its translation alone is removed.)
#include "fem/node.hpp"

namespace catena::fem {

/// One node's deflection in both forms [m].
struct Deflection {
  Vec3 global = Vec3::Zero();  ///< global components
  Vec3 local = Vec3::Zero();   ///< along the frame node's current axes, R_fᵀ · global
};

/// The rigid motion of the frame node since t = 0, applied to any node.
class DeflectionFrame {
 public:
  /// `reference_position`, `reference_orientation`: the frame node's X_f0 and R_f0 (t = 0);
  /// `current`: its state now.
  DeflectionFrame(const Vec3& reference_position, const Quaternion& reference_orientation, const NodeState& current);
  /// The deflection of a node with reference position X and current position x.
  [[nodiscard]] Deflection of(const Vec3& reference_position, const Vec3& position) const;

 private:
  Vec3 reference_origin_, origin_;
  Mat3 reference_axes_, axes_;  ///< R_f0 and R_f
};

}  // namespace catena::fem
