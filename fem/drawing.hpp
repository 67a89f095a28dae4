#pragma once
/// What an element looks like in the scene, the second VTK series (io/scene_layout.hpp draws
/// it): the geometry no stamp needs. Lengths [m], masses [kg], inertias [kg m²].
#include "fem/types.hpp"

#include <cstdint>

namespace catena::fem {

/// A point fixed in a node's axes at which an element acts or that it holds: a joint's frame
/// points, a load's point of application. The scene draws a rigid body's links from its centre of
/// mass to the attachment points on its node.
struct AttachmentPoint {
  NodeId node;
  Vec3 offset = Vec3::Zero();  ///< from the node, node axes [m]
  /// The point `Element::output_point` returns (a joint's frame B point): the scene takes the
  /// motion of the element's vertex from it.
  bool output_point = false;
};

/// The visual shape of a rigid body, in its node's axes, centred on its centre of mass
/// (`rigid_bodies[].shape`). FromInertia: the uniform box of the body's mass and inertia
/// (io/scene_shapes.hpp); none for a body without mass.
struct BodyShape {
  enum class Kind : std::uint8_t { FromInertia, Box, Cylinder, Sphere, None };
  Kind kind = Kind::FromInertia;
  Vec3 sides = Vec3::Zero();  ///< box: side lengths along the node's x, y, z [m]
  double radius = 0.0;        ///< cylinder, sphere [m]
  double length = 0.0;        ///< cylinder [m]
  int axis = 2;               ///< cylinder: its axis, 0, 1, 2 for the node's x, y, z
};

/// Which part of the scene an element is; each has a code in the scene's `part` cell array.
enum class DrawnAs : std::uint8_t { Nothing, Beam, Truss, RigidBody, Joint, PointMass };

/// An element's drawing (Element::drawing): the part, and for a rigid body or a point mass the
/// node carrying it; a rigid body also its mass, centre and inertia (the default shape's source)
/// and its shape. Beams and trusses are drawn through `cell_nodes`, joints through
/// `output_point`, `output_axes` and `attachment_points`.
struct Drawing {
  DrawnAs part = DrawnAs::Nothing;
  NodeId node;                  ///< RigidBody, PointMass
  double mass = 0.0;            ///< RigidBody
  Vec3 offset = Vec3::Zero();   ///< RigidBody: centre of mass from the node, node axes
  Mat3 inertia = Mat3::Zero();  ///< RigidBody: about the centre of mass, node axes
  BodyShape shape;              ///< RigidBody
  /// Joint: 1 + its kind's index in the joint library (elements/joint_kinds.hpp: 1 clamp,
  /// 2 spherical, 3 revolute, 4 prismatic, 5 cylindrical, 6 universal, 7 planar, 8 free), 0 for a
  /// joint of its own laws: says which of its axes mean something (a hinge's axis 3).
  int joint_kind = 0;
};

/// The drawing of a part (on `node`, for a rigid body or a point mass).
inline Drawing drawn_as(DrawnAs part, NodeId node = {}) {
  Drawing d;
  d.part = part;
  d.node = node;
  return d;
}

}  // namespace catena::fem
