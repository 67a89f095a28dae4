// Chains: n rigid bodies in series, each between two consecutive joint points (given, or along a
// line), jointed at every shared point and optionally to the ground at the first one.
#include "elements/joint_kinds.hpp"
#include "elements/rigid_body.hpp"
#include "io/model/list_items.hpp"
#include "io/model/section_readers.hpp"
#include "io/model/values.hpp"
#include "io/yaml_schema.hpp"

namespace catena::io::reader {

namespace {

/// The joint of a chain, `{kind, axis, x_axis, laws}`: its definition and global axes.
std::pair<elements::JointDefinition, fem::Mat3> read_chain_joint(ModelContext& context, const Cursor& c) {
  c.expect_map("a chain joint {kind, axis, x_axis, laws}");
  c.check_keys(schema::chain_joint);
  const std::string_view kind = read_joint_kind(c);
  elements::JointDefinition def = elements::joint_definition(kind);
  const fem::Mat3 axes = read_joint_axes(context, c);
  if (const auto laws = c.find("laws")) read_joint_laws(context, *laws, kind, def);
  return {std::move(def), axes};
}

/// A chain of `n` bodies: n frame nodes, n bodies and n joints (at most); reserved before they are.
void reserve_chain(ModelContext& context, const Cursor& count, int n) {
  context.budget.reserve(count, (node_size(true) + two_frame_element_size() + joint_size()).times(n),
                         std::to_string(n) + " bodies");
}

/// The joint points of a chain: `points`, or `bodies` + 1 points from `from` along `direction`.
std::vector<fem::Vec3> read_chain_points(ModelContext& context, const Cursor& item) {
  const fem::ParameterTable& parameters = context.parameters;
  std::vector<fem::Vec3> points;
  std::vector<Cursor> point_cursors;  // where each point was given, for messages
  const auto given = item.find("points");
  const auto from = item.find("from");
  const auto direction = item.find("direction");
  const auto length = item.find("length");
  const auto bodies = item.find("bodies");
  if (given) {
    if (from || direction || length)
      (from ? *from : direction ? *direction : *length)
          .fail("expected either points or from, direction and length; found both");
    given->expect_sequence("the chain's joint points, a list of points [[x, y, z], ...]");
    for_each_item(context, *given, [&](const Cursor& point, std::size_t) {
      point_cursors.push_back(point);
      points.push_back(read_vec3(point, parameters, key_quantity<"chains[]", "points">("chain point")));
    });
    if (points.size() < 2)
      given->fail("expected at least 2 chain points (the ends of one body); found " + std::to_string(points.size()));
    reserve_chain(context, *given, static_cast<int>(points.size()) - 1);
    if (bodies) {
      const int n = read_integer(*bodies, parameters, "bodies in the chain", 1);
      if (static_cast<std::size_t>(n) + 1 != points.size())
        bodies->fail("expected " + std::to_string(points.size() - 1) + " bodies (one between each two of the " +
                     std::to_string(points.size()) + " points); found " + std::to_string(n));
    }
  } else {
    if (!bodies && !from) static_cast<void>(item.get("points", "the joint points, or bodies, from, direction and length"));
    const Cursor bodies_cursor = item.get("bodies", "the number of bodies");
    const int n = read_integer(bodies_cursor, parameters, "bodies in the chain", 1);
    reserve_chain(context, bodies_cursor, n);
    const fem::Vec3 start =
        read_vec3(item.get("from", "the chain's first end [m]"), parameters, key_quantity<"chains[]", "from">("point"));
    const Cursor direction_cursor = item.get("direction", "the direction of the chain [x, y, z]");
    const fem::Vec3 d = read_vec3(direction_cursor, parameters, Quantity{"direction", ""});
    if (!(d.norm() > 0.0)) direction_cursor.fail("expected a nonzero direction vector; found " + format_vector(d));
    const double L = read_number(item.get("length", "the length of each body [m]"), parameters,
                                 key_quantity<"chains[]", "length">("body length", Bound::Positive));
    for (int k = 0; k <= n; ++k) {
      points.push_back(start + (k * L) * d.normalized());
      point_cursors.push_back(direction_cursor);
    }
  }
  for (std::size_t k = 1; k < points.size(); ++k)
    if (!((points[k] - points[k - 1]).norm() > 0.0))
      point_cursors[k].fail("expected distinct consecutive chain points (bodies of nonzero length); found points " +
                            std::to_string(k - 1) + " and " + std::to_string(k) + " both at " + format_vector(points[k]));
  return points;
}

}  // namespace

constexpr ListSection chains_section{
    "chains",
    "a list of chains of rigid bodies {name, bodies, from, direction, length or points, mass, inertia, joint, ground}",
    "a chain {name, bodies, from, direction, length or points, mass, inertia, joint, ground}", schema::chain};

/// Generates nodes and bodies `<name>_<k>` (k = 1..n, at the bodies' centres, x axis along the
/// body) and joints `<name>_joint_<k>` at the first end of body k.
void read_chains(ModelContext& context) {
  fem::Model& model = context.model;
  for_each_section_item(context, chains_section, [&](const Cursor& item, std::size_t) {
    const Cursor name_cursor = item.get("name", "the chain's name; its nodes, bodies and joints are named after it");
    const std::string name = context.name_at(name_cursor, "a chain name");
    const int line = name_cursor.node().Mark().line + 1;
    const std::vector<fem::Vec3> points = read_chain_points(context, item);

    elements::RigidBodyProperties body;
    body.mass = read_number(item.get("mass", "the mass of each body [kg]"), context.parameters,
                            key_quantity<"chains[]", "mass">("mass", Bound::Positive));
    body.inertia = read_inertia(
        context, item.get("inertia", "the inertia of each body about its centre [kg m^2], body axes (x along the body)"));
    const Cursor joint_cursor = item.get("joint", "the joint between consecutive bodies {kind, axis, x_axis, laws}");
    const auto ground = item.find("ground");

    // Bodies at the centres. The nodes keep the global axes at t = 0 and the inertia is turned
    // into them (the body axes, x along the body, become the bodies' sensor frames): a chain
    // reads exactly as the same bodies written by hand with global inertia tensors.
    std::vector<fem::NodeId> ids;
    const int n = static_cast<int>(points.size()) - 1;
    for (int k = 1; k <= n; ++k) {
      const std::string body_name = name + "_" + std::to_string(k);
      if (const auto it = context.node_lines.find(body_name); it != context.node_lines.end())
        name_cursor.fail("the chain's generated node '" + body_name + "' has the name of a node defined on line " +
                         std::to_string(it->second) + "; expected a chain name whose generated names are new");
      const fem::Vec3& p = points[static_cast<std::size_t>(k - 1)];
      const fem::Vec3& q = points[static_cast<std::size_t>(k)];
      const fem::NodeId id = context.add_node(body_name, (p + q) / 2.0, name_cursor, line, fem::NodeKind::Frame);
      const fem::Mat3 axes = fem::Quaternion::FromTwoVectors(fem::Vec3::UnitX(), q - p).toRotationMatrix();
      elements::RigidBodyProperties turned = body;
      const fem::Mat3 J = axes * body.inertia * axes.transpose();
      turned.inertia = 0.5 * (J + J.transpose());
      context.claim_element_name(body_name, name_cursor);
      context.record(id).mass += body.mass;
      context.record(id).turns = true;
      model.add_element<elements::RigidBody>(body_name, model.attach(id), turned);
      context.body_frames.emplace(body_name, fem::SensorFrame{id, fem::Vec3::Zero(), axes});
      ids.push_back(id);
    }

    // Joints at the first end of each body: to the body before it, to the ground for body 1.
    for (int k = 1; k <= n; ++k) {
      if (k == 1 && !ground) continue;
      const Cursor& spec = k == 1 ? *ground : joint_cursor;
      auto [def, axes] = read_chain_joint(context, spec);
      const std::string joint_name = name + "_joint_" + std::to_string(k);
      context.claim_element_name(joint_name, name_cursor);
      const std::optional<fem::NodeId> previous =
          k == 1 ? std::nullopt : std::optional<fem::NodeId>(ids[static_cast<std::size_t>(k - 2)]);
      add_joint(context, joint_name, std::move(def), previous, ids[static_cast<std::size_t>(k - 1)],
                points[static_cast<std::size_t>(k - 1)], axes, spec);
    }
  });
}

}  // namespace catena::io::reader
