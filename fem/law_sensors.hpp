#pragma once
/// The sensors that laws of the motion read (a joint's force law or a nodal load naming a sensor
/// of the model's `sensors` section: a controller on a measured angle, a thrust that follows another
/// node's speed). A law may read a node sensor of a vector quantity (position, displacement,
/// velocity, rotation, angular velocity; global or in a frame; a point along a beam, interpolated
/// between nodes) and an element's field that the element gives with its derivatives
/// (Element::law_field: a joint's relative coordinates): a weighted sum of such terms whose exact
/// derivatives by the nodes' unknowns the element reading it adds to the Newton matrix
/// (elements/law_sensor_reading.hpp). Other element fields (a truss's axial force) and
/// orientations (quaternion components, defined up to sign) are refused: they have no such
/// derivative.
///
/// The model file names the sensors before it defines them (laws are read with the joints and
/// loads, sensors last), so the table is filled in two stages: `add` while the laws are read
/// (elements keep the index), `bind` once the sensors are. fem::Model owns it through a shared
/// pointer, as it owns fem::Inputs, so that the elements' pointer stays valid when the model moves.
#include "fem/node.hpp"
#include "fem/sensor.hpp"

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace catena::fem {

/// One node quantity or element field of a law's sensor, with its weight in the sum (the interpolation's weight times
/// the sensor's scale).
struct LawSensorTerm {
  double weight = 1.0;
  NodeId node;
  SensorQuantity quantity = SensorQuantity::Position;
  int component = 0;
  std::optional<SensorFrame> frame;
  Vec3 offset = Vec3::Zero();     ///< the point measured, from the node in its axes (Sensor::offset)
  Vec3 reference = Vec3::Zero();  ///< Displacement: displacement_reference (fem/sensor_kinematics.hpp)
  /// ElementField: the element (the model's, which outlives the table) and its law field's index.
  const Element* element = nullptr;
  int field = -1;
};

/// A node whose unknowns a law's sensor reads, with its blocks (rotation: none for a point node).
struct LawSensorNode {
  NodeId id;
  BlockId displacement;
  BlockId rotation;
  friend bool operator==(const LawSensorNode& a, const LawSensorNode& b) { return a.id.index == b.id.index; }
};

struct LawSensor {
  std::string name;
  std::vector<LawSensorTerm> terms;
  std::vector<LawSensorNode> nodes;  ///< every node the terms read (measured and frame nodes), once
};

class LawSensors {
 public:
  /// The index of the sensor named `name`, added (not yet bound) when no law has named it before.
  std::size_t add(const std::string& name);
  [[nodiscard]] std::size_t size() const { return sensors_.size(); }
  [[nodiscard]] bool empty() const { return sensors_.empty(); }
  [[nodiscard]] const std::string& name(std::size_t index) const { return sensors_[index].name; }
  /// Binds sensor `index` to its definition. Throws std::invalid_argument, with the reason, for a
  /// sensor a law cannot read (an element field, an orientation).
  void bind(std::size_t index, const Sensor& sensor, std::span<const Node> nodes, std::span<const NodeState> initial);
  [[nodiscard]] bool bound(std::size_t index) const { return !sensors_[index].terms.empty(); }
  /// Sensor `index`, bound.
  [[nodiscard]] const LawSensor& operator[](std::size_t index) const { return sensors_[index]; }

 private:
  std::vector<LawSensor> sensors_;
};

}  // namespace catena::fem
