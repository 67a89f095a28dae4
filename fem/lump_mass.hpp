#pragma once
/// The mass matrix of a rigid lump (fem::InertiaLump) in its node's (velocity, angular velocity),
/// global axes: a lump of mass m whose centre sits at c from the node (global) with inertia I
/// about it has kinetic energy ½ m |v − [c]ₓ ω|² + ½ ωᵀ I ω, so
///   M = [ m 1      −m [c]ₓ
///         m [c]ₓ   m [c]ₓᵀ[c]ₓ + I ].
#include "fem/element.hpp"
#include "fem/rotation.hpp"

namespace catena::fem {

/// The lump's 6×6 mass matrix with its node turned by `R` (node axes to global).
[[nodiscard]] inline Eigen::Matrix<double, 6, 6> lump_mass_matrix(const InertiaLump& lump, const Mat3& R) {
  const Mat3 C = skew<double>(R * lump.offset);
  Eigen::Matrix<double, 6, 6> m;
  m.topLeftCorner<3, 3>() = lump.mass * Mat3::Identity();
  m.topRightCorner<3, 3>() = -lump.mass * C;
  m.bottomLeftCorner<3, 3>() = lump.mass * C;  // (−m C)ᵀ = m C: C is skew
  m.bottomRightCorner<3, 3>() = lump.mass * C.transpose() * C + R * lump.inertia * R.transpose();
  return m;
}

}  // namespace catena::fem
