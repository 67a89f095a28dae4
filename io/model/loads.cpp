// Nodal forces and moments: global, follower or semitangential, functions of time; dead ones may be
// laws of the node's motion (elements/nodal_load.hpp).
#include "elements/nodal_load.hpp"
#include "io/model/list_items.hpp"
#include "io/model/section_readers.hpp"
#include "io/model/values.hpp"
#include "io/yaml_schema.hpp"

#include <algorithm>

namespace catena::io::reader {

namespace {

/// A load's components: functions of time, and laws of the motion (elements/nodal_load.hpp) where
/// a component names a variable of the node's motion or an input (its function is then 0).
struct LoadComponents {
  std::array<fem::Expression, 3> functions;
  elements::LoadLaws laws;
};

/// The variables a law of a force (or a moment) may use: a force has no angular velocity.
std::span<const std::string_view> load_variables(bool moment) {
  return std::span<const std::string_view>(elements::nodal_load_variables)
      .first(moment ? elements::nodal_load_variables.size() : elements::nodal_force_variable_count);
}

/// Fails at a force's component that names the angular velocity (not a parameter), which only
/// moments read.
void refuse_angular_velocity_in_force(const ModelContext& context, const Cursor& c) {
  if (!c.is_scalar()) return;
  const auto all = std::span<const std::string_view>(elements::nodal_load_variables);
  for (const std::string& name : expression_names(c.node().Scalar()))
    if (!context.parameters.contains(name) &&
        std::find(all.begin() + elements::nodal_force_variable_count, all.end(), name) != all.end())
      c.fail("'" + name + "' (the node's angular velocity) is a variable of a moment's law; a force's law may use " +
             join(load_variables(false)) + ", the inputs, the parameters and t");
}

fem::Expression read_component(ModelContext& context, const Cursor& c, bool moment, elements::LoadLaws& laws,
                               std::size_t k) {
  const Quantity quantity{moment ? "moment component" : "force component", moment ? "N m" : "N"};
  if (!moment) refuse_angular_velocity_in_force(context, c);
  std::optional<MotionLaw> motion =
      read_motion_law(context, c, load_variables(moment), moment ? "a nodal moment" : "a nodal force");
  if (!motion) return read_time_function(c, context.parameters, quantity);
  laws.components[k].emplace(
      elements::LoadLaw{std::move(motion->law), std::move(motion->inputs), std::move(motion->sensors)});
  laws.inputs = context.model.inputs;
  laws.law_sensors = context.model.law_sensors;
  return fem::Expression("0", context.parameters);
}

LoadComponents read_load_vector(ModelContext& context, const Cursor& c, bool moment) {
  const std::string what = moment ? "a moment [N m]" : "a force [N]";
  if (!c.is_sequence() || c.size() != 3)
    c.fail_expected(what + " as a list of 3 numbers or expressions of t and the node's motion [x, y, z]");
  elements::LoadLaws laws;
  std::array<fem::Expression, 3> functions{read_component(context, c[0], moment, laws, 0),
                                           read_component(context, c[1], moment, laws, 1),
                                           read_component(context, c[2], moment, laws, 2)};
  return {std::move(functions), std::move(laws)};
}

/// Fails at the first component that is a law of the motion: a follower or semitangential load
/// (`what`) takes functions of time only.
void refuse_laws(const Cursor& c, const elements::LoadLaws& laws, const std::string& what) {
  for (std::size_t k = 0; k < 3; ++k)
    if (laws.components[k])
      c[k].fail("expected a function of t in a " + what + "; found the law of the motion '" +
                c[k].node().Scalar() + "': laws of the motion act on dead loads (global axes, no follower or "
                "semitangential) only");
}

}  // namespace

constexpr ListSection loads_section{"loads", "a list of nodal loads {node, force or moment}",
                                    "a nodal load {name, node, force or moment, follower}", schema::load};

void read_loads(ModelContext& context) {
  fem::Model& model = context.model;
  for_each_section_item(context, loads_section, [&](const Cursor& item, std::size_t i) {
    const std::vector<fem::NodeId> nodes = context.target_nodes(item, "load");
    const std::vector<std::string> names = context.element_names(item, "load", i, nodes);
    const auto force = item.find("force");
    const auto moment = item.find("moment");
    if (force && moment) moment->fail("expected either a force or a moment in one load; found both");
    const Cursor values = force    ? *force
                          : moment ? *moment
                                   : item.get("force", "the force [N] as [x, y, z], functions of t (or a moment [N m])");
    const bool is_moment = moment.has_value();
    bool follower = false;
    if (const auto f = item.find("follower")) follower = read_bool(*f, "a boolean");
    bool semitangential = false;
    if (const auto f = item.find("semitangential")) {
      semitangential = read_bool(*f, "a boolean");
      if (semitangential && (!is_moment || follower))
        f->fail(std::string("expected semitangential only on a moment that is not a follower; found it on ") +
                (is_moment ? "a follower moment" : "a force"));
    }
    const elements::LoadAxes axes = semitangential ? elements::LoadAxes::Semitangential
                                    : follower     ? elements::LoadAxes::Follower
                                                   : elements::LoadAxes::Global;
    const std::string what = std::string(semitangential ? "semitangential " : follower ? "follower " : "") +
                             (is_moment ? "moment" : "force");
    for (std::size_t k = 0; k < nodes.size(); ++k) {
      LoadComponents g = read_load_vector(context, values, is_moment);
      if (axes != elements::LoadAxes::Global) refuse_laws(values, g.laws, what);
      const fem::Quaternion orientation = model.initial_state[static_cast<std::size_t>(nodes[k].index)].orientation;
      // A follower load's components turn with the node; its node turns about the plane's normal
      // only, so what leaves the plane is what leaves it at t = 0.
      std::array<bool, 3> laws{};
      for (std::size_t c = 0; c < 3; ++c) laws[c] = g.laws.components[c].has_value();
      check_load_in_plane(context, values, g.functions, is_moment, what,
                          follower ? orientation.toRotationMatrix() : fem::Mat3::Identity(), laws);
      if (is_moment || follower) model.make_frame(nodes[k]);
      model.add_element<elements::NodalLoad>(names[k], model.attach(nodes[k]), std::move(g.functions),
                                             is_moment ? elements::LoadKind::Moment : elements::LoadKind::Force, axes,
                                             1.0, orientation, std::move(g.laws));
    }
  });
}

}  // namespace catena::io::reader
