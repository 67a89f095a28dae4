#include "fem/sensor.hpp"

namespace catena::fem {

double evaluate_sensor(const Sensor& sensor, std::span<const Node> nodes,
                       std::span<const NodeState> states, std::span<const NodeState> initial) {
  const NodeState& s = states[sensor.node.index];
  const Vec3& X = nodes[sensor.node.index].reference_position;
  Vec3 value = Vec3::Zero();
  if (!sensor.frame) {
    switch (sensor.quantity) {
      case SensorQuantity::Position: value = s.position; break;
      case SensorQuantity::Displacement: value = s.position - X; break;
      case SensorQuantity::Velocity: value = s.velocity; break;
    }
    return value[sensor.component];
  }
  const NodeState& f = states[sensor.frame->index];
  const NodeState& f0 = initial[sensor.frame->index];
  const Mat3 Rt = f.orientation.toRotationMatrix().transpose();
  const Vec3 r = s.position - f.position;
  switch (sensor.quantity) {
    case SensorQuantity::Position: value = Rt * r; break;
    case SensorQuantity::Displacement:
      value = Rt * r - f0.orientation.toRotationMatrix().transpose() *
                           (X - nodes[sensor.frame->index].reference_position);
      break;
    case SensorQuantity::Velocity: value = Rt * (s.velocity - f.velocity - f.angular_velocity.cross(r)); break;
  }
  return value[sensor.component];
}

}  // namespace catena::fem
