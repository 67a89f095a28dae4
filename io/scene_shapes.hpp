#pragma once
/// A rigid body's visual shape as a small surface mesh for the scene (io/scene_layout.hpp), in
/// the node's axes, centred on the centre of mass [m]. Faces are convex polygons whose vertices
/// turn counter-clockwise seen from outside (outward normals by the right-hand rule).
///
/// Shapes (fem::BodyShape, key `rigid_bodies[].shape`):
///   box        8 vertices, 6 quadrilaterals, sides along the node's x, y, z
///   cylinder   `cylinder_sides` vertices on each end circle, as many side quadrilaterals and two
///              end polygons; axis along the node's x, y or z
///   sphere     `sphere_stacks` bands between the poles, `sphere_slices` around: triangles at the
///              poles, quadrilaterals between; vertices on the sphere
///   default    (FromInertia) the uniform box with the body's mass m and inertia: along each
///              principal axis i of the inertia tensor the side a_i = sqrt(6 (I_j + I_k − I_i) / m)
///              (a box of sides a has I_i = m (a_j² + a_k²) / 12), each side raised to at least
///              `min_side_fraction` of the longest, so that a slender bar is a visible thin box;
///              nothing for a body without mass
///   none       nothing
#include "fem/drawing.hpp"

#include <vector>

namespace catena::io::scene {

inline constexpr int cylinder_sides = 20;
inline constexpr int sphere_stacks = 8;
inline constexpr int sphere_slices = 16;
/// Smallest side of a default box as a fraction of its longest.
inline constexpr double min_side_fraction = 0.05;

struct SurfaceMesh {
  std::vector<fem::Vec3> vertices;       ///< from the centre of mass, node axes [m]
  std::vector<std::vector<int>> faces;   ///< vertex indices of each face, outward orientation
};

/// Sides of the default box along the principal axes whose moments are `principal_moments`
/// (header comment); `mass` > 0 [kg], moments [kg m²].
[[nodiscard]] fem::Vec3 inertia_box_sides(double mass, const fem::Vec3& principal_moments);

/// The surface of `shape` for a body of `mass` and `inertia` (about the centre, node axes): empty
/// for `none` and for the default shape of a body without mass.
[[nodiscard]] SurfaceMesh body_surface(const fem::BodyShape& shape, double mass, const fem::Mat3& inertia);

}  // namespace catena::io::scene
