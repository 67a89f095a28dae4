#pragma once
/// The scene's geometry (io/scene_writer.hpp describes the files): which points and cells draw
/// each element, built once from the model's constant geometry. Every point is fixed in a node's
/// axes (an anchor: the node and an offset in its axes), so a frame moves each point rigidly with
/// its node: x + R c, velocity v + ω × R c.
///
/// Cells, in element order (model.elements), each with the cell data `part` (ScenePart's code),
/// `element` (the element's index in model.elements, the order results.vtu's element cells
/// follow) and `joint_kind` (a joint's fem::Drawing::joint_kind, 0 on other cells):
///   beam, truss   one VTK_LINE (VTK_POLY_LINE through 3 nodes or more) through copies of its
///                 cell nodes of its own
///   rigid body    its links: one VTK_LINE from the centre of mass to each attachment point on
///                 its node (fem::Element::attachment_points of every element: joint frames,
///                 nodal loads) and to the node itself when it is not the centre, each line with
///                 two points of its own (points closer than 1e-9 m to the centre or to another
///                 attachment are drawn once); then its shape's faces (io/scene_shapes.hpp:
///                 VTK_TRIANGLE, VTK_QUAD, VTK_POLYGON), its vertices points of their own
///   joint         a VTK_VERTEX at frame B's joint point (the point of results.vtu)
///   point mass    a VTK_VERTEX at its node
/// Elements drawn as nothing (loads, node inertias) have no cell.
/// Point fields (GridLayout::point_fields, SceneField's order): `displacement` [m] (position − its
/// position at t = 0), `velocity` [m/s], `section_radius` [m] (constant; for the Tube filter),
/// `joint_axis_1`, `joint_axis_2`, `joint_axis_3` (frame A's joint axes, global, on joint points;
/// zero elsewhere; fem::Element::output_axes), `section_force` [N] and `section_moment` [N m]
/// (3 each, at a beam's or truss's own end points, fem::Element::end_values; NaN on every other
/// point, so that a colour map of them spans the beams alone), and with `output.deflection_frame`
/// `deflection` and `deflection_local` [m] (every point's, fem/deflection.hpp).
/// section_radius: a beam's or truss's points its `radius` cell value (a beam's section radius,
/// nonzero since a section without one gets its radius of gyration), else `line_radius_fraction`
/// of its length at t = 0; a body's link points `link_radius_fraction` of its longest link; 0 on
/// shape, joint and point-mass points.
#include "fem/model.hpp"
#include "io/vtk_grid_encoder.hpp"

#include <cstddef>
#include <vector>

namespace catena::io::scene {

/// The `part` codes of the scene's cells (a contract with tools/render and tools/view).
enum class ScenePart : int { Beam = 1, Truss = 2, BodyLink = 3, BodyShape = 4, Joint = 5, PointMass = 6 };

/// The scene's point fields, their index in GridLayout::point_fields; the last two only with
/// `output.deflection_frame` (SceneLayout::deflection).
enum class SceneField : std::size_t {
  Displacement,
  Velocity,
  SectionRadius,
  JointAxis1,
  JointAxis2,
  JointAxis3,
  SectionForce,
  SectionMoment,
  Deflection,
  DeflectionLocal
};

inline constexpr double link_radius_fraction = 0.03;
inline constexpr double line_radius_fraction = 0.02;

/// A point fixed in a node's axes.
struct Anchor {
  std::size_t node = 0;
  fem::Vec3 offset = fem::Vec3::Zero();  ///< node axes [m]
};

/// An element's consecutive points.
struct ScenePoints {
  std::size_t element = 0;      ///< index in model.elements
  std::size_t first_point = 0;
  std::size_t n_points = 0;
};

struct SceneLayout {
  std::vector<Anchor> anchors;         ///< one per point
  std::vector<fem::Vec3> reference;    ///< each point at t = 0 (the node's reference position, its t = 0 axes) [m]
  std::vector<double> section_radius;  ///< per point [m]
  std::vector<ScenePoints> lines;      ///< beams and trusses: the points of their line, node by node
  std::vector<ScenePoints> joints;     ///< each joint's vertex point
  bool deflection = false;             ///< the layout has the deflection fields
  vtk::GridLayout grid;                ///< points, cells, `part`, `element`, the point fields' names
};

/// The scene of `model` (its elements' drawings at the initial state). Throws
/// std::invalid_argument when a drawing names a node outside the model.
[[nodiscard]] SceneLayout scene_layout(const fem::Model& model);

}  // namespace catena::io::scene
