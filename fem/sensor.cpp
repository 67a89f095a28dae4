#include "fem/sensor.hpp"

#include "fem/rotation.hpp"

#include <limits>

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

/// The quantity a sensor measures, before its scale.
double measured(const Sensor& sensor, std::span<const Node> nodes, std::span<const NodeState> states,
                std::span<const NodeState> initial) {
  if (sensor.quantity == SensorQuantity::ElementField) {
    if (sensor.element == nullptr) return std::numeric_limits<double>::quiet_NaN();
    FieldCapture capture(sensor.field);
    sensor.element->cell_values(states, capture);
    return capture.value();
  }
  const NodeState& s = states[sensor.node.index];
  const Quaternion& q = s.orientation;
  const Vec3& omega = s.angular_velocity;
  const Vec3& X = nodes[sensor.node.index].reference_position;
  if (!sensor.frame) {
    switch (sensor.quantity) {
      case SensorQuantity::Position: return s.position[sensor.component];
      case SensorQuantity::Displacement: return (s.position - X)[sensor.component];
      case SensorQuantity::Velocity: return s.velocity[sensor.component];
      case SensorQuantity::Rotation: return rotation_vector(q)[sensor.component];
      case SensorQuantity::Orientation: return q.coeffs()[sensor.component];  // x, y, z, w
      case SensorQuantity::AngularVelocity: return omega[sensor.component];
      case SensorQuantity::ElementField: break;
    }
    return std::numeric_limits<double>::quiet_NaN();
  }
  // The frame's origin, rotation and motion now and at t = 0.
  const SensorFrame& frame = *sensor.frame;
  Vec3 xf = frame.offset, vf = Vec3::Zero(), omega_f = Vec3::Zero(), Xf0 = frame.offset;
  Quaternion qf(frame.axes), qf0(frame.axes);
  if (frame.node) {
    const std::size_t n = frame.node->index;
    const NodeState& f = states[n];
    const Quaternion& qn0 = initial[n].orientation;
    const Vec3 arm = f.orientation * frame.offset;
    xf = f.position + arm;
    vf = f.velocity + f.angular_velocity.cross(arm);
    omega_f = f.angular_velocity;
    Xf0 = nodes[n].reference_position + qn0 * frame.offset;
    qf = f.orientation * qf;
    qf0 = qn0 * qf0;
  }
  const Mat3 Rt = qf.toRotationMatrix().transpose();
  const Vec3 r = s.position - xf;
  switch (sensor.quantity) {
    case SensorQuantity::Position: return (Rt * r)[sensor.component];
    case SensorQuantity::Displacement:
      return (Rt * r - qf0.toRotationMatrix().transpose() * (X - Xf0))[sensor.component];
    case SensorQuantity::Velocity: return (Rt * (s.velocity - vf - omega_f.cross(r)))[sensor.component];
    case SensorQuantity::Rotation: return rotation_vector(qf.conjugate() * q)[sensor.component];
    case SensorQuantity::Orientation: return (qf.conjugate() * q).coeffs()[sensor.component];
    case SensorQuantity::AngularVelocity: return (Rt * (omega - omega_f))[sensor.component];
    case SensorQuantity::ElementField: break;
  }
  return std::numeric_limits<double>::quiet_NaN();
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

double evaluate_sensor(const Sensor& sensor, std::span<const Node> nodes, std::span<const NodeState> states,
                       std::span<const NodeState> initial) {
  if (sensor.parts.empty()) return sensor.scale * measured(sensor, nodes, states, initial);
  double value = 0.0;
  for (const WeightedSensor& part : sensor.parts) value += part.weight * evaluate_sensor(part.sensor, nodes, states, initial);
  return sensor.scale * value;
}

}  // namespace catena::fem
