#include "fem/deflection.hpp"

namespace catena::fem {

DeflectionFrame::DeflectionFrame(const Vec3& reference_position, const Quaternion& reference_orientation,
                                 const NodeState& current)
    : reference_origin_(reference_position),
      origin_(current.position),
      reference_axes_(reference_orientation.toRotationMatrix()),
      axes_(current.orientation.toRotationMatrix()) {}

Deflection DeflectionFrame::of(const Vec3& reference_position, const Vec3& position) const {
  // In the frame's axes first: both terms are then of the size of the structure's, not of the
  // rigid motion's, and the global form is that turned by R_f.
  const Vec3 local = axes_.transpose() * (position - origin_) -
                     reference_axes_.transpose() * (reference_position - reference_origin_);
  return {axes_ * local, local};
}

}  // namespace catena::fem
