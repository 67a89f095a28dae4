// `planar`: every node kept to its plane parallel to a global coordinate plane, and the loads
// that must lie in that plane.
#include "io/model/section_readers.hpp"
#include "io/model/values.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace catena::io::reader {

namespace {

constexpr std::array<std::string_view, 3> planes{"xy", "yz", "zx"};
constexpr std::array<int, 3> plane_normals{2, 0, 1};

/// A load's component along a global axis smaller than this, relative to its largest written
/// component, is round-off (a follower load's components turned by the node's axes).
constexpr double in_plane_tolerance = 1e-12;

std::string axis(int k) { return std::string(axis_names[static_cast<std::size_t>(k)]); }

/// "a planar xy model holds every node in that plane: a force along z" (or, for a moment, "lets
/// every node turn about z only: a moment about x").
std::string out_of_plane(const Plane& plane, bool moment, std::string_view what, int k) {
  const std::string model = "a planar " + std::string(plane.name) + " model ";
  if (moment)
    return model + "lets every node turn about " + axis(plane.normal) + " only: a " + std::string(what) + " about " +
           axis(k);
  return model + "holds every node in that plane: a " + std::string(what) + " along " + axis(k);
}

}  // namespace

void read_planar(ModelContext& context) {
  const auto c = context.root.find("planar");
  if (!c) return;
  const std::size_t plane = read_choice(*c, planes, "a plane");
  context.plane = Plane{*c, planes[plane], plane_normals[plane]};
}

void check_load_in_plane(const ModelContext& context, const Cursor& c, const std::array<fem::Expression, 3>& components,
                         bool moment, std::string_view what, const fem::Mat3& axes, const std::array<bool, 3>& laws) {
  if (!context.plane) return;
  const Plane& plane = *context.plane;
  double scale = 0.0;  // the largest constant written component
  for (std::size_t k = 0; k < 3; ++k)
    if (!laws[k] && components[k].is_constant()) scale = std::max(scale, std::abs(components[k](0.0)));
  // Global component i = Σ_k axes(i, k) f_k(t): along the normal for a force, about the two
  // in-plane axes for a moment.
  for (int i = 0; i < 3; ++i) {
    if ((i == plane.normal) == moment) continue;
    int contributors = 0, last = 0;
    bool varies = false;
    double value = 0.0;
    for (int k = 0; k < 3; ++k) {
      if (!(std::abs(axes(i, k)) > in_plane_tolerance)) continue;
      ++contributors;
      last = k;
      const fem::Expression& f = components[static_cast<std::size_t>(k)];
      if (!laws[static_cast<std::size_t>(k)] && f.is_constant())
        value += axes(i, k) * f(0.0);
      else
        varies = true;
    }
    if (!varies && std::abs(value) <= in_plane_tolerance * scale) continue;
    const std::string head =
        out_of_plane(plane, moment, what, i) + " would do nothing (the plane's constraint takes it); ";
    if (contributors == 1)
      c[static_cast<std::size_t>(last)].fail(head + "expected 0 for this component; found '" +
                                             (laws[static_cast<std::size_t>(last)]
                                                  ? c[static_cast<std::size_t>(last)].node().Scalar()
                                                  : components[static_cast<std::size_t>(last)].text()) +
                                             "'");
    c.fail(head + "expected components that give none (global " + axis(i) + " is " +
           format_vector(axes.row(i).transpose()) + " in the node's axes at t = 0); found " +
           (varies ? "functions of t" : "a component of " + format_number(value)));
  }
}

void check_gravity_in_plane(const ModelContext& context, const Cursor& c) {
  if (!context.plane) return;
  const fem::Vec3& g = context.model.gravity;
  const int n = context.plane->normal;
  if (std::abs(g[n]) > in_plane_tolerance * g.norm())
    c[static_cast<std::size_t>(n)].fail(
        "a planar " + std::string(context.plane->name) + " model holds every node in that plane: gravity along " +
        axis(n) + " would do nothing (the plane's constraint carries every weight); expected 0 for this component "
        "(gravity in the plane, or the plane that holds gravity); found " + format_number(g[n]));
}

void apply_planar(ModelContext& context) {
  if (!context.plane) return;
  const Plane& plane = *context.plane;
  const Cursor& c = plane.cursor;
  fem::Model& model = context.model;
  const int normal = plane.normal;
  const std::string in_plane =
      ", out of the " + std::string(plane.name) + " plane; expected a planar model to start in its plane";
  for (std::size_t i = 0; i < model.nodes.size(); ++i) {
    const fem::NodeId id{static_cast<std::int32_t>(i)};
    const fem::NodeState& s = model.initial_state[i];
    const double v = s.velocity[normal];
    if (v != 0.0)
      c.fail("node '" + model.nodes[i].name + "' starts with velocity " + format_number(v) + " m/s along " +
             axis(normal) + in_plane);
    model.fix(id, normal);
    context.nodes[i].fixed[static_cast<std::size_t>(normal)] = true;
    if (model.nodes[i].kind != fem::NodeKind::Frame) continue;
    for (int k = 0; k < 3; ++k) {
      if (k == normal) continue;
      if (s.angular_velocity[k] != 0.0)
        c.fail("node '" + model.nodes[i].name + "' starts turning about " + axis(k) + " (" +
               format_number(s.angular_velocity[k]) + " rad/s)" + in_plane);
      model.fix_rotation(id, k);
      context.nodes[i].fixed[static_cast<std::size_t>(3 + k)] = true;
    }
  }
  for (auto& [joint, cursor] : context.joints) {
    try {
      joint->release_out_of_plane(fem::Vec3::Unit(normal), model.registry);
    } catch (const std::invalid_argument& e) {
      cursor.fail(e.what());
    }
  }
}

}  // namespace catena::io::reader
