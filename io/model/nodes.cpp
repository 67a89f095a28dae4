// Nodes, and what applies to every node once all exist: the initial rigid velocity field.
#include "fem/rotation.hpp"
#include "io/model/list_items.hpp"
#include "io/model/section_readers.hpp"
#include "io/model/values.hpp"
#include "io/yaml_schema.hpp"

namespace catena::io::reader {

void read_nodes(ModelContext& context) {
  const Cursor& root = context.root;
  if (!root.find("nodes") && root.find("chains")) return;  // a model of chains alone
  const Cursor list = root.get("nodes", "the list of nodes");
  list.expect_sequence("a list of nodes {name, position}");
  if (list.size() == 0) list.fail_expected("at least one node");
  const fem::ParameterTable& parameters = context.parameters;
  const std::string_view item_what = "a node {name, position, velocity, orientation, angular_velocity}";
  for_each_mapping(context, list, item_what, schema::node, [&](const Cursor& item, std::size_t) {
    const Cursor name_cursor = item.get("name", "the node's name");
    const std::string name = context.name_at(name_cursor, "a node name");
    const int line = name_cursor.node().Mark().line + 1;
    if (const auto it = context.node_lines.find(name); it != context.node_lines.end())
      name_cursor.fail("duplicate node name '" + name + "' (first defined on line " + std::to_string(it->second) +
                       "); expected a new name");
    context.budget.reserve(item, node_size(item.find("orientation") || item.find("angular_velocity")), "this node");
    const fem::Vec3 position = read_vec3(item.get("position", "the node's position [m]"), parameters,
                                         key_quantity<"nodes[]", "position">("position"));
    const fem::NodeId id = context.add_node(name, position, name_cursor, line);
    fem::NodeState& state = context.model.initial_state[static_cast<std::size_t>(id.index)];
    if (const auto velocity = item.find("velocity")) {
      state.velocity = read_vec3(*velocity, parameters, key_quantity<"nodes[]", "velocity">("velocity"));
      context.record(id).has_velocity = true;
    }
    if (const auto orientation = item.find("orientation")) {
      context.model.make_frame(id);
      state.orientation = fem::quaternion_from_rotation_vector(
          read_vec3(*orientation, parameters, key_quantity<"nodes[]", "orientation">("rotation vector")));
    }
    if (const auto omega = item.find("angular_velocity")) {
      context.model.make_frame(id);
      state.angular_velocity =
          read_vec3(*omega, parameters, key_quantity<"nodes[]", "angular_velocity">("angular velocity"));
      context.record(id).has_angular_velocity = true;
    }
  });
}

void read_initial_velocity(ModelContext& context) {
  const auto c = context.root.find("initial_velocity");
  if (!c) return;
  c->expect_map("a rigid velocity field {omega, about, velocity}");
  c->check_keys(schema::initial_velocity);
  const fem::ParameterTable& parameters = context.parameters;
  VelocityField field;
  if (const auto w = c->find("omega"))
    field.omega = read_vec3(*w, parameters, key_quantity<"initial_velocity", "omega">("angular velocity"));
  if (const auto a = c->find("about"))
    field.about = read_vec3(*a, parameters, key_quantity<"initial_velocity", "about">("point"));
  if (const auto v = c->find("velocity"))
    field.velocity = read_vec3(*v, parameters, key_quantity<"initial_velocity", "velocity">("velocity"));
  context.initial_velocity = field;
}

void apply_initial_velocity(ModelContext& context) {
  if (!context.initial_velocity) return;
  const VelocityField& f = *context.initial_velocity;
  fem::Model& model = context.model;
  for (std::size_t i = 0; i < model.nodes.size(); ++i) {
    if (!context.nodes[i].has_velocity)
      model.initial_state[i].velocity = f.velocity + f.omega.cross(model.nodes[i].reference_position - f.about);
    if (model.nodes[i].kind == fem::NodeKind::Frame && !context.nodes[i].has_angular_velocity)
      model.initial_state[i].angular_velocity = f.omega;
  }
}

}  // namespace catena::io::reader
