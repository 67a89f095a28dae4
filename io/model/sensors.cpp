// Sensors: a node's position, displacement, velocity, rotation, orientation or angular velocity
// (in a frame of a node, a rigid body or a joint), or an element's output field; the columns of
// sensors.csv.
#include "elements/beam.hpp"
#include "fem/energy.hpp"
#include "io/model/list_items.hpp"
#include "io/model/section_readers.hpp"
#include "io/model/values.hpp"
#include "io/name_hint.hpp"
#include "io/yaml_schema.hpp"

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

namespace catena::io::reader {

namespace {

constexpr std::array<std::string_view, 4> quaternion_components{"x", "y", "z", "w"};
/// In the order of fem::SensorQuantity.
constexpr std::array<std::string_view, 6> sensor_quantities{"position", "displacement",  "velocity",
                                                            "rotation", "orientation", "angular_velocity"};

/// The fields an element writes in `cell_values`, found by asking it once at t = 0.
std::vector<std::string> fields_of(const fem::Model& model, const fem::Element& e) {
  struct Collector final : fem::CellValueSink {
    std::vector<std::string> names;
    void set(std::string_view field, double) override {
      if (std::find(names.begin(), names.end(), field) == names.end()) names.emplace_back(field);
    }
  } collector;
  e.cell_values(model.initial_state, collector);
  return collector.names;
}

/// An element sensor on `element`: the field named by `quantity`; `where` is the element's place.
void read_element_sensor(const ModelContext& context, const Cursor& item, const Cursor& where,
                         const fem::Element& element, fem::Sensor& s) {
  if (const auto component = item.find("component"))
    component->fail("expected no component in an element sensor (an element field is one number); found " +
                    component->found());
  if (const auto frame = item.find("frame"))
    frame->fail("expected no frame in an element sensor (element fields are in element axes); found " + frame->found());
  if (const auto offset = item.find("offset"))
    offset->fail("expected no offset in an element sensor (a point on a node is a node sensor's); found " +
                 offset->found());
  const std::vector<std::string> fields = fields_of(context.model, element);
  if (fields.empty())
    where.fail("element '" + element.name() + "' (" + std::string(element.kind()) +
               ") writes no output fields; expected an element with fields, such as a truss or a beam");
  const std::vector<std::string_view> choices(fields.begin(), fields.end());
  const Cursor quantity = item.get("quantity", "the element field: " + join(choices));
  s.quantity = fem::SensorQuantity::ElementField;
  s.field = fields[read_choice(quantity, choices, "a field of " + std::string(element.kind()) + " '" + element.name() +
                                                      "'")];
  s.element = &element;
}

/// A frame looked up by name in `frames` (rigid bodies or joints: `noun` and its `plural`);
/// unknown: a suggestion.
fem::SensorFrame find_frame(const Cursor& c, const std::string& name,
                            const std::map<std::string, fem::SensorFrame>& frames, std::string_view noun,
                            std::string_view plural) {
  if (const auto it = frames.find(name); it != frames.end()) return it->second;
  std::vector<std::string> names;
  for (const auto& entry : frames) names.push_back(entry.first);
  const DefinedNamesWording wording{
      .none = "the model has no " + std::string(plural), .list_at_most = 12, .counted = "are defined"};
  c.fail("unknown " + std::string(noun) + " '" + name + "'" + unknown_name_hint(name, names, wording));
}

/// `frame: <node>`, or one of `{node: n}`, `{body: b}` (a rigid body: origin at its centre of
/// mass, the node axes) and `{joint: j}` (the joint's frame A: its point and axes).
fem::SensorFrame read_sensor_frame(const ModelContext& context, const Cursor& c) {
  if (c.is_scalar()) return fem::SensorFrame{context.read_node(c), fem::Vec3::Zero(), fem::Mat3::Identity()};
  c.expect_map("a frame: a node name, or one of {node: name}, {body: name}, {joint: name}");
  c.check_keys(schema::sensor_frame);
  if (c.size() != 1) c.fail("expected exactly one of node, body or joint in a frame; found " + std::to_string(c.size()));
  if (const auto n = c.find("node"))
    return fem::SensorFrame{context.read_node(*n), fem::Vec3::Zero(), fem::Mat3::Identity()};
  if (const auto b = c.find("body"))
    return find_frame(*b, context.name_at(*b, "a rigid body name"), context.body_frames, "rigid body", "rigid bodies");
  const Cursor j = *c.find("joint");
  return find_frame(j, context.name_at(j, "a joint name"), context.joint_frames, "joint", "joints");
}

/// A node sensor on `node` (`where`: the place that named it).
void read_node_sensor(const ModelContext& context, const Cursor& item, const Cursor& where, fem::NodeId node,
                      fem::Sensor& s) {
  s.node = node;
  s.quantity = static_cast<fem::SensorQuantity>(
      read_choice(item.get("quantity", join(sensor_quantities)), sensor_quantities, "a quantity"));
  const bool rotational = s.quantity == fem::SensorQuantity::Rotation ||
                          s.quantity == fem::SensorQuantity::Orientation ||
                          s.quantity == fem::SensorQuantity::AngularVelocity;
  if (rotational && context.model.nodes[static_cast<std::size_t>(node.index)].kind != fem::NodeKind::Frame)
    where.fail("node '" + context.node_name(node) + "' has no orientation (a point node); expected a frame " +
               "node for quantity '" + std::string(sensor_quantities[static_cast<std::size_t>(s.quantity)]) +
               "' (a node of a beam or rigid body, or one given an orientation)");
  if (s.quantity == fem::SensorQuantity::Orientation) {
    s.component = static_cast<int>(
        read_choice(item.get("component", "x, y, z or w"), quaternion_components, "a quaternion component"));
  } else {
    s.component = static_cast<int>(read_choice(item.get("component", "x, y or z"), axis_names, "a component"));
  }
  if (const auto frame = item.find("frame")) s.frame = read_sensor_frame(context, *frame);
  if (const auto offset = item.find("offset")) {
    if (context.model.nodes[static_cast<std::size_t>(node.index)].kind != fem::NodeKind::Frame)
      offset->fail("node '" + context.node_name(node) +
                   "' has no axes (a point node) to give a point in; expected an offset on a frame node (a node "
                   "of a beam or rigid body, or one given an orientation)");
    s.offset = read_vec3(*offset, context.parameters, key_quantity<"sensors[]", "offset">("point on the node"));
  }
}

/// A beam definition looked up by name; unknown: a suggestion.
const BeamDefinition& find_beam(const ModelContext& context, const Cursor& c) {
  const std::string name = context.name_at(c, "a beam name");
  if (const auto it = context.beams.find(name); it != context.beams.end()) return it->second;
  std::vector<std::string> names;
  for (const auto& entry : context.beams) names.push_back(entry.first);
  const DefinedNamesWording wording{.none = "the model has no beams", .list_at_most = 12, .counted = "are defined"};
  c.fail("unknown beam '" + name + "'" + unknown_name_hint(name, names, wording));
}

/// The two points of `stations` (ascending) to interpolate linearly between at `s`, with their
/// weights: the pair around s, or the nearest pair outside (linear extrapolation); one point alone
/// when there is only one.
std::vector<std::pair<std::size_t, double>> interpolation(const std::vector<double>& stations, double s) {
  if (stations.size() == 1) return {{0, 1.0}};
  std::size_t k = 1;  // stations[k − 1], stations[k] bracket s (or are the nearest pair)
  while (k + 1 < stations.size() && stations[k] < s) ++k;
  const double xi = (s - stations[k - 1]) / (stations[k] - stations[k - 1]);
  return {{k - 1, 1.0 - xi}, {k, xi}};
}

/// A sensor at distance `at` along a beam: node quantities interpolated linearly between the
/// nodes on either side (what the elements' chords do), element fields between the middles of
/// the elements on either side, where the elements evaluate them, and extrapolated over the half
/// elements at the beam's ends (exact for a field that is linear along the beam, a bending moment
/// between loads).
void read_beam_point_sensor(const ModelContext& context, const Cursor& item, const Cursor& beam_cursor,
                            fem::Sensor& s) {
  const BeamDefinition& beam = find_beam(context, beam_cursor);
  std::vector<double> nodes{0.0}, middles;
  for (const elements::Beam* e : beam.elements) {
    middles.push_back(nodes.back() + e->length() / 2.0);
    nodes.push_back(nodes.back() + e->length());
  }
  const double length = nodes.back();
  const Cursor at_cursor = item.get("at", "the point's distance along the beam from its first node [m]");
  const double at = read_number(at_cursor, context.parameters,
                                key_quantity<"sensors[]", "at">("distance along the beam", Bound::NonNegative));
  if (at > length * (1.0 + 1e-12))
    at_cursor.fail("expected a distance along beam '" + context.name_at(beam_cursor, "") + "' of at most its length " +
                   format_number(length) + " m; found " + format_number(at) + " m");
  const auto quantity = item.find("quantity");
  const bool node_quantity =
      quantity && quantity->is_scalar() &&
      std::find(sensor_quantities.begin(), sensor_quantities.end(), quantity->node().Scalar()) != sensor_quantities.end();
  if (node_quantity && quantity->node().Scalar() == "orientation")
    quantity->fail("expected a quantity that interpolates along a beam (position, displacement, velocity, rotation or "
                   "angular_velocity); found 'orientation' (a quaternion: use a node sensor)");
  for (const auto& [index, weight] : interpolation(node_quantity ? nodes : middles, at)) {
    fem::WeightedSensor part{weight, {}};
    if (node_quantity)
      read_node_sensor(context, item, beam_cursor, beam.chain[index], part.sensor);
    else
      read_element_sensor(context, item, beam_cursor, *beam.elements[index], part.sensor);
    s.parts.push_back(std::move(part));
  }
}

/// A sensor's name is a variable of the objective and heads a column of sensors.csv (after `t`) and
/// of sensitivities.csv (`name:p`, beside the energy columns' `kinetic:p` and `objective:p`): it may
/// be none of the names those already use.
void check_sensor_name(const ModelContext& context, const Cursor& c, const std::string& name) {
  check_unreserved_name(c, name, "sensor name");
  const auto& parameters = context.model.parameters;
  if (std::any_of(parameters.begin(), parameters.end(), [&](const auto& p) { return p.first == name; }))
    c.fail("'" + name + "' is the name of a parameter (an objective would read the sensor in its place); expected "
           "another sensor name");
  if (context.model.inputs->find(name))
    c.fail("'" + name + "' is the name of an input (a law would read the input in the sensor's place); expected "
           "another sensor name");
  const auto& energy = fem::energy_column_names;
  const bool energy_column = std::find(energy.begin(), energy.end(), name) != energy.end();
  if (energy_column || name == "objective") {
    const std::string column = energy_column ? "an energy column (energy.csv)" : "the objective's column";
    c.fail("'" + name + "' is the name of " + column + ": sensitivities.csv would have two columns '" + name +
           ":p' (--sensitivity p); expected another sensor name");
  }
}

}  // namespace

constexpr ListSection sensors_section{"sensors", "a list of sensors {name, node, quantity, component}",
                                      "a sensor {name, node, element or set, quantity, component, frame}",
                                      schema::sensor};

void scan_sensor_names(ModelContext& context) {
  const fem::ParameterTable parameters = context.parameters;
  try {
    for_each_section_item(context, sensors_section, [&](const Cursor& item, std::size_t) {
      const auto name = item.find("name");
      if (!name || !name->is_scalar()) return;
      const std::string sensor = context.name_at(*name, "a sensor name");
      if (item.find("set")) context.sensor_set_prefixes.push_back(sensor + "_");
      else context.sensor_names.push_back(sensor);
    });
  } catch (const InputError&) {
    // read_sensors reports it where it belongs, after the sections before it.
    context.parameters = parameters;
  }
}

void read_sensors(ModelContext& context) {
  std::map<std::string, int> first_line;
  // Sensor names are unique: they head the columns of sensors.csv.
  const auto claim = [&](const std::string& name, const Cursor& where) {
    check_sensor_name(context, where, name);
    if (const auto it = first_line.find(name); it != first_line.end())
      where.fail("duplicate sensor name '" + name + "' (first defined on line " + std::to_string(it->second) +
                 "); expected a new name");
    first_line.emplace(name, where.node().Mark().line + 1);
  };
  for_each_section_item(context, sensors_section, [&](const Cursor& item, std::size_t) {
    const Cursor name_cursor = item.get("name", "the sensor's name, a column of sensors.csv");
    const std::string name = context.name_at(name_cursor, "a sensor name");
    if (name.find_first_of(",\"\n\r") != std::string::npos)
      name_cursor.fail_expected("a sensor name without commas, quotes or line breaks (it heads a CSV column)");
    double scale = 1.0;
    if (const auto c = item.find("scale"))
      scale = read_number(*c, context.parameters, Quantity{"sensor scale (a factor on the value)", ""});
    const auto node = item.find("node");
    const auto element = item.find("element");
    const auto set = item.find("set");
    const auto beam = item.find("beam");
    if (node && element) node->fail("expected either a node or an element in one sensor; found both");
    if (set && (node || element)) set->fail("expected either a set or a single node or element in one sensor; found both");
    if (beam && (node || element || set))
      beam->fail("expected either a point along a beam or a node, element or set in one sensor; found both");
    if (const auto at = item.find("at"); at && !beam)
      at->fail("expected `at` only with `beam` (a point along a beam); found it without");
    const auto add = [&](const std::string& sensor_name, auto&& fill) {
      fem::Sensor s;
      s.name = sensor_name;
      s.scale = scale;
      claim(s.name, name_cursor);
      fill(s);
      context.model.sensors.push_back(std::move(s));
    };
    if (set) {  // one sensor per member, named <sensor>_<member>
      const fem::NamedSet& members = context.read_set(*set, "");
      for (const fem::NodeId id : members.nodes)
        add(name + "_" + context.node_name(id), [&](fem::Sensor& s) { read_node_sensor(context, item, *set, id, s); });
      for (const fem::Element* e : members.elements)
        add(name + "_" + e->name(), [&](fem::Sensor& s) { read_element_sensor(context, item, *set, *e, s); });
    } else if (beam) {
      add(name, [&](fem::Sensor& s) { read_beam_point_sensor(context, item, *beam, s); });
    } else if (element) {
      add(name, [&](fem::Sensor& s) {
        read_element_sensor(context, item, *element, context.read_element(*element), s);
      });
    } else {
      const Cursor node_cursor = item.get("node", "the node measured (or an element, a set or a beam)");
      add(name, [&](fem::Sensor& s) { read_node_sensor(context, item, node_cursor, context.read_node(node_cursor), s); });
    }
  });
}

}  // namespace catena::io::reader
