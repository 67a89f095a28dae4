// Nodal forces and moments: global, follower or semitangential, functions of time.
#include "elements/nodal_load.hpp"
#include "io/model/list_items.hpp"
#include "io/model/section_readers.hpp"
#include "io/model/values.hpp"
#include "io/yaml_schema.hpp"

namespace catena::io::reader {

namespace {

std::array<fem::Expression, 3> read_load_vector(const ModelContext& context, const Cursor& c, bool moment) {
  const std::string what = moment ? "a moment [N m]" : "a force [N]";
  if (!c.is_sequence() || c.size() != 3) c.fail_expected(what + " as a list of 3 numbers or expressions of t [x, y, z]");
  const Quantity component{moment ? "moment component" : "force component", moment ? "N m" : "N"};
  const fem::ParameterTable& parameters = context.parameters;
  return {read_time_function(c[0], parameters, component), read_time_function(c[1], parameters, component),
          read_time_function(c[2], parameters, component)};
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
      std::array<fem::Expression, 3> g = read_load_vector(context, values, is_moment);
      const fem::Quaternion orientation = model.initial_state[static_cast<std::size_t>(nodes[k].index)].orientation;
      // A follower load's components turn with the node; its node turns about the plane's normal
      // only, so what leaves the plane is what leaves it at t = 0.
      check_load_in_plane(context, values, g, is_moment, what,
                          follower ? orientation.toRotationMatrix() : fem::Mat3::Identity());
      if (is_moment || follower) model.make_frame(nodes[k]);
      model.add_element<elements::NodalLoad>(names[k], model.attach(nodes[k]), std::move(g),
                                             is_moment ? elements::LoadKind::Moment : elements::LoadKind::Force, axes,
                                             1.0, orientation);
    }
  });
}

}  // namespace catena::io::reader
