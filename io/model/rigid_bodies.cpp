// Rigid bodies, and the inertia tensor that chains read too.
#include "elements/rigid_body.hpp"
#include "io/model/list_items.hpp"
#include "io/model/section_readers.hpp"
#include "io/model/values.hpp"
#include "io/yaml_schema.hpp"

#include <Eigen/Eigenvalues>

#include <cmath>

namespace catena::io::reader {

fem::Mat3 read_inertia(const ModelContext& context, const Cursor& c) {
  const std::string expected =
      "an inertia tensor [kg m^2] as 3 principal values [Ixx, Iyy, Izz], 6 values [Ixx, Iyy, Izz, Ixy, Iyz, Ixz] "
      "or a 3x3 list";
  const fem::ParameterTable& parameters = context.parameters;
  const Quantity component{"moment of inertia", "kg m^2"};
  if (!c.is_sequence()) c.fail_expected(expected);
  const auto all_scalars = [&] {
    for (std::size_t k = 0; k < c.size(); ++k)
      if (c[k].is_sequence() || c[k].is_map()) return false;
    return true;
  };
  fem::Mat3 J = fem::Mat3::Zero();
  if (c.size() == 3 && all_scalars()) {
    for (int k = 0; k < 3; ++k) J(k, k) = read_number(c[static_cast<std::size_t>(k)], parameters, component);
  } else if (c.size() == 6 && all_scalars()) {
    double v[6];
    for (std::size_t k = 0; k < 6; ++k) v[k] = read_number(c[k], parameters, component);
    J << v[0], v[3], v[5],  //
        v[3], v[1], v[4],   //
        v[5], v[4], v[2];
  } else if (c.size() == 3) {
    for (std::size_t r = 0; r < 3; ++r) {
      const Cursor row = c[r];
      if (!row.is_sequence() || row.size() != 3) row.fail_expected("a row of the inertia tensor, a list of 3 numbers");
      for (std::size_t k = 0; k < 3; ++k)
        J(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(k)) = read_number(row[k], parameters, component);
    }
    const double scale = J.cwiseAbs().maxCoeff();
    for (int r = 0; r < 3; ++r)
      for (int k = r + 1; k < 3; ++k)
        if (std::abs(J(r, k) - J(k, r)) > 1e-12 * scale)
          c.fail("expected a symmetric inertia tensor; found row " + std::to_string(r) + ", column " +
                 std::to_string(k) + " = " + format_number(J(r, k)) + " but row " + std::to_string(k) + ", column " +
                 std::to_string(r) + " = " + format_number(J(k, r)));
  } else {
    c.fail_expected(expected);
  }
  const Eigen::SelfAdjointEigenSolver<fem::Mat3> eigen(J, Eigen::EigenvaluesOnly);
  const fem::Vec3 l = eigen.eigenvalues();  // ascending
  const std::string moments = format_number(l[0]) + ", " + format_number(l[1]) + ", " + format_number(l[2]);
  if (!(l[0] > 0.0)) c.fail("expected a positive-definite inertia tensor [kg m^2]; found principal moments " + moments);
  if (l[0] + l[1] < l[2] * (1.0 - 1e-12))
    c.fail("expected principal moments of inertia that satisfy the triangle inequality (I1 + I2 >= I3, as for "
           "any body); found principal moments " + moments);
  return J;
}

namespace {

/// `shape: {box: {sides}} | {cylinder: {radius, length, axis}} | {sphere: {radius}} | none`.
fem::BodyShape read_body_shape(const ModelContext& context, const Cursor& c) {
  using Kind = fem::BodyShape::Kind;
  const std::string what = "a shape: box {sides}, cylinder {radius, length, axis}, sphere {radius} or none";
  fem::BodyShape shape;
  if (c.is_scalar()) {
    if (c.found() != "'none'") c.fail_expected(what);
    shape.kind = Kind::None;
    return shape;
  }
  c.expect_map(what);
  c.check_keys(schema::body_shape);
  if (c.size() != 1) c.fail("expected exactly one shape (box, cylinder or sphere); found " + std::to_string(c.size()));
  const auto length = [&](const Cursor& s, std::string_view key, std::string noun) {
    return read_number(s.get(key, "the " + noun + " [m]"), context.parameters, Quantity{std::move(noun), "m", Bound::Positive});
  };
  if (const auto box = c.find("box")) {
    box->expect_map("a box {sides: [a, b, c]}");
    box->check_keys(schema::body_box);
    shape.kind = Kind::Box;
    shape.sides = read_vec3(box->get("sides", "the side lengths [a, b, c] [m] along the node's x, y, z"),
                            context.parameters, Quantity{"side length", "m", Bound::Positive});
  } else if (const auto cylinder = c.find("cylinder")) {
    cylinder->expect_map("a cylinder {radius, length, axis}");
    cylinder->check_keys(schema::body_cylinder);
    shape.kind = Kind::Cylinder;
    shape.radius = length(*cylinder, "radius", "radius");
    shape.length = length(*cylinder, "length", "length");
    if (const auto axis = cylinder->find("axis")) {
      static constexpr std::array<std::string_view, 3> axes{"x", "y", "z"};
      shape.axis = static_cast<int>(read_choice(*axis, axes, "the node axis the cylinder lies along"));
    }
  } else if (const auto sphere = c.find("sphere")) {
    sphere->expect_map("a sphere {radius}");
    sphere->check_keys(schema::body_sphere);
    shape.kind = Kind::Sphere;
    shape.radius = length(*sphere, "radius", "radius");
  }
  return shape;
}

}  // namespace

constexpr ListSection rigid_bodies_section{"rigid_bodies", "a list of rigid bodies {name, node, mass, inertia, offset}",
                                           "a rigid body {name, node, mass, inertia, offset}", schema::rigid_body};

void read_rigid_bodies(ModelContext& context) {
  fem::Model& model = context.model;
  for_each_section_item(context, rigid_bodies_section, [&](const Cursor& item, std::size_t i) {
    const std::string name = context.element_name(item, "body", i);
    const fem::NodeId node = context.read_node(item.get("node", "the frame node carrying the body"));
    elements::RigidBodyProperties body;
    body.mass = read_number(item.get("mass", "the mass [kg]"), context.parameters,
                            key_quantity<"rigid_bodies[]", "mass">("mass", Bound::NonNegative));
    body.inertia =
        read_inertia(context, item.get("inertia", "the inertia tensor about the centre of mass [kg m^2], node axes"));
    if (const auto offset = item.find("offset"))
      body.offset =
          read_vec3(*offset, context.parameters, key_quantity<"rigid_bodies[]", "offset">("centre-of-mass offset"));
    fem::BodyShape shape;
    if (const auto s = item.find("shape")) shape = read_body_shape(context, *s);
    model.make_frame(node);
    context.record(node).mass += body.mass;
    context.record(node).turns = true;
    model.add_element<elements::RigidBody>(name, model.attach(node), body, shape);
    context.body_frames.emplace(name, fem::SensorFrame{node, body.offset, fem::Mat3::Identity()});
  });
}

}  // namespace catena::io::reader
