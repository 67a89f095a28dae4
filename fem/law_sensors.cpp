#include "fem/law_sensors.hpp"

#include "fem/sensor_kinematics.hpp"

#include <algorithm>
#include <stdexcept>

namespace catena::fem {

namespace {

/// The terms of `sensor` times `weight` appended to `out` (a point along a beam: its parts').
void append_terms(const Sensor& sensor, double weight, std::span<const Node> nodes, std::span<const NodeState> initial,
                  LawSensor& out) {
  const double w = weight * sensor.scale;
  if (!sensor.parts.empty()) {
    for (const WeightedSensor& part : sensor.parts) append_terms(part.sensor, w * part.weight, nodes, initial, out);
    return;
  }
  const char* const readable = "a law reads node sensors (position, displacement, velocity, rotation, "
                               "angular_velocity) and joints' relative coordinates (relative_x ... relative_rz)";
  const auto add_node = [&](NodeId id) {
    const Node& node = nodes[id.index];
    const LawSensorNode n{id, node.displacement, node.rotation};
    if (std::find(out.nodes.begin(), out.nodes.end(), n) == out.nodes.end()) out.nodes.push_back(n);
  };
  if (sensor.quantity == SensorQuantity::ElementField) {
    const std::optional<int> field = sensor.element ? sensor.element->law_field(sensor.field) : std::nullopt;
    if (!field)
      throw std::invalid_argument("it reads the field " + sensor.field + " of element '" +
                                  (sensor.element ? sensor.element->name() : std::string("?")) +
                                  "', which has no derivative a law could use; " + readable);
    LawSensorTerm term;
    term.weight = w;
    term.quantity = sensor.quantity;
    term.element = sensor.element;
    term.field = *field;
    out.terms.push_back(term);
    for (const NodeId n : sensor.element->law_field_nodes()) add_node(n);
    return;
  }
  if (sensor.quantity == SensorQuantity::Orientation)
    throw std::invalid_argument(std::string("it reads a quaternion component, defined up to its sign; ") + readable);
  LawSensorTerm term{w, sensor.node, sensor.quantity, sensor.component, sensor.frame, sensor.offset, Vec3::Zero()};
  if (sensor.quantity == SensorQuantity::Displacement) term.reference = displacement_reference(sensor, nodes, initial);
  out.terms.push_back(term);
  add_node(sensor.node);
  if (sensor.frame && sensor.frame->node) add_node(*sensor.frame->node);
}

}  // namespace

std::size_t LawSensors::add(const std::string& name) {
  const auto it = std::find_if(sensors_.begin(), sensors_.end(), [&](const LawSensor& s) { return s.name == name; });
  if (it != sensors_.end()) return static_cast<std::size_t>(it - sensors_.begin());
  sensors_.push_back({name, {}, {}});
  return sensors_.size() - 1;
}

void LawSensors::bind(std::size_t index, const Sensor& sensor, std::span<const Node> nodes,
                      std::span<const NodeState> initial) {
  LawSensor bound{sensors_[index].name, {}, {}};
  append_terms(sensor, 1.0, nodes, initial, bound);
  sensors_[index] = std::move(bound);
}

}  // namespace catena::fem
