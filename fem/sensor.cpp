#include "fem/sensor.hpp"

#include "fem/rotation.hpp"
#include "fem/sensor_kinematics.hpp"

#include <limits>
#include <optional>

namespace catena::fem {

namespace {

/// Keeps the value an element sets for one field.
class FieldCapture final : public CellValueSink {
 public:
  explicit FieldCapture(const std::string& field) : field_(field) {}
  void set(std::string_view field, double value) override {
    if (field == field_) value_ = value;
  }
  [[nodiscard]] double value() const { return value_; }

 private:
  const std::string& field_;
  double value_ = std::numeric_limits<double>::quiet_NaN();
};

/// A committed node state as the motion sensor_kinematics.hpp reads.
NodeMotionT<double> motion_of(const NodeState& s) {
  return {s.position, s.orientation.toRotationMatrix(), s.velocity, s.angular_velocity};
}

/// The orientation of a sensor's frame (none: the global axes), as a quaternion.
Quaternion frame_orientation(const Sensor& sensor, std::span<const NodeState> states) {
  if (!sensor.frame) return Quaternion::Identity();
  const Quaternion axes(sensor.frame->axes);
  return sensor.frame->node ? states[sensor.frame->node->index].orientation * axes : axes;
}

/// The quantity a sensor measures, before its scale.
double measured(const Sensor& sensor, std::span<const Node> nodes, std::span<const NodeState> states,
                std::span<const NodeState> initial) {
  if (sensor.quantity == SensorQuantity::ElementField) {
    if (sensor.element == nullptr) return std::numeric_limits<double>::quiet_NaN();
    FieldCapture capture(sensor.field);
    sensor.element->cell_values(states, capture);
    return capture.value();
  }
  const Quaternion& q = states[sensor.node.index].orientation;
  // Rotations are measured on the quaternions the states keep (their logarithm is the more
  // accurate near a half turn); the vector quantities by the formulas laws read them with.
  if (sensor.quantity == SensorQuantity::Rotation)
    return rotation_vector(frame_orientation(sensor, states).conjugate() * q)[sensor.component];
  if (sensor.quantity == SensorQuantity::Orientation)
    return (frame_orientation(sensor, states).conjugate() * q).coeffs()[sensor.component];  // x, y, z, w
  const NodeMotionT<double> node = point_motion(motion_of(states[sensor.node.index]), sensor.offset);
  std::optional<FrameMotionT<double>> frame;
  if (sensor.frame) {
    const std::optional<NodeMotionT<double>> frame_node =
        sensor.frame->node ? std::optional(motion_of(states[sensor.frame->node->index])) : std::nullopt;
    frame = frame_motion(*sensor.frame, frame_node ? &*frame_node : nullptr);
  }
  const Vec3 reference = sensor.quantity == SensorQuantity::Displacement ? displacement_reference(sensor, nodes, initial)
                                                                         : Vec3::Zero();
  return node_quantity(sensor.quantity, node, frame ? &*frame : nullptr, reference)[sensor.component];
}

}  // namespace

std::string_view sensor_unit(const Sensor& sensor) {
  if (sensor.scale != 1.0) return "";
  if (!sensor.parts.empty()) return sensor_unit(sensor.parts.front().sensor);  // a point along a beam
  switch (sensor.quantity) {
    case SensorQuantity::Position:
    case SensorQuantity::Displacement: return "m";
    case SensorQuantity::Velocity: return "m/s";
    case SensorQuantity::Rotation: return "rad";
    case SensorQuantity::Orientation: return "1";
    case SensorQuantity::AngularVelocity: return "rad/s";
    case SensorQuantity::ElementField: break;
  }
  // The fields elements write in `cell_values` (beams, trusses, rigid bodies, joints).
  const std::string_view f = sensor.field;
  const auto starts = [&](std::string_view prefix) { return f.substr(0, prefix.size()) == prefix; };
  if (starts("reaction_moment") || starts("bending_moment") || f == "torque") return "N m";
  if (starts("reaction_force") || starts("shear_force") || f == "axial_force") return "N";
  if (f == "relative_rx" || f == "relative_ry" || f == "relative_rz") return "rad";
  if (f == "relative_x" || f == "relative_y" || f == "relative_z" || f == "radius") return "m";
  if (f == "mass") return "kg";
  return "";
}

Vec3 displacement_reference(const Sensor& sensor, std::span<const Node> nodes, std::span<const NodeState> initial) {
  const Vec3 X = nodes[sensor.node.index].reference_position +
                 initial[sensor.node.index].orientation.toRotationMatrix() * sensor.offset;
  if (!sensor.frame) return X;
  const SensorFrame& frame = *sensor.frame;
  if (!frame.node) return frame.axes.transpose() * (X - frame.offset);
  const std::size_t n = frame.node->index;
  const Mat3 R0 = initial[n].orientation.toRotationMatrix();
  return (R0 * frame.axes).transpose() * (X - (nodes[n].reference_position + R0 * frame.offset));
}

double evaluate_sensor(const Sensor& sensor, std::span<const Node> nodes, std::span<const NodeState> states,
                       std::span<const NodeState> initial) {
  if (sensor.parts.empty()) return sensor.scale * measured(sensor, nodes, states, initial);
  double value = 0.0;
  for (const WeightedSensor& part : sensor.parts) value += part.weight * evaluate_sensor(part.sensor, nodes, states, initial);
  return sensor.scale * value;
}

}  // namespace catena::fem
