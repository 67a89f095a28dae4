#pragma once
/// The node quantities a sensor measures (fem/sensor.hpp), as functions of the node's motion at one
/// instant, on any scalar type: sensors.csv evaluates them on committed states (doubles), and laws
/// of the motion that read a sensor (fem/law_sensors.hpp) on a time element with dual numbers, for
/// their exact derivatives by the step's unknowns (elements/law_sensor_reading.hpp).
#include "fem/rotation.hpp"
#include "fem/sensor.hpp"

namespace catena::fem {

/// A node's motion at one instant, global frame: position, rotation (node axes to global),
/// velocity and angular velocity.
template <class T>
struct NodeMotionT {
  Vec3T<T> position;
  Mat3T<T> rotation;
  Vec3T<T> velocity;
  Vec3T<T> angular_velocity;
};

/// A sensor frame at one instant: its origin, its axes (global components) and the velocity of
/// its origin and its angular velocity.
template <class T>
struct FrameMotionT {
  Vec3T<T> origin;
  Mat3T<T> axes;
  Vec3T<T> velocity;
  Vec3T<T> angular_velocity;
};

/// The motion of the point fixed to a node at `offset` (node axes): x + R c, v + ω × R c, the
/// node's rotation and angular velocity (a sensor's offset).
template <class T>
[[nodiscard]] NodeMotionT<T> point_motion(const NodeMotionT<T>& node, const Vec3& offset) {
  if (offset == Vec3::Zero()) return node;
  const Vec3T<T> arm = node.rotation * offset.cast<T>();
  return {node.position + arm, node.rotation, node.velocity + node.angular_velocity.cross(arm), node.angular_velocity};
}

/// The frame `frame` at the instant its node (none: a frame fixed in space) moves as `node`:
/// x_F = x_n + R_n c, R_F = R_n Q, v_F = v_n + ω_n × R_n c, ω_F = ω_n.
template <class T>
[[nodiscard]] FrameMotionT<T> frame_motion(const SensorFrame& frame, const NodeMotionT<T>* node) {
  const Vec3T<T> zero = Vec3T<T>::Zero();
  if (node == nullptr) return {frame.offset.cast<T>(), frame.axes.cast<T>(), zero, zero};
  const Vec3T<T> arm = node->rotation * frame.offset.cast<T>();
  return {node->position + arm, node->rotation * frame.axes.cast<T>(),
          node->velocity + node->angular_velocity.cross(arm), node->angular_velocity};
}

/// The vector quantity `quantity` (position, displacement, velocity, rotation or angular velocity:
/// not an orientation or an element field) of a node moving as `node`, in `frame` (none: the
/// global frame), by the formulas of evaluate_sensor (fem/sensor.hpp). `reference` is the
/// displacement's origin, displacement_reference(). The rotation is log(R_Fᵀ R), angle in [0, π].
template <class T>
[[nodiscard]] Vec3T<T> node_quantity(SensorQuantity quantity, const NodeMotionT<T>& node, const FrameMotionT<T>* frame,
                                     const Vec3& reference) {
  if (frame == nullptr) {
    switch (quantity) {
      case SensorQuantity::Position: return node.position;
      case SensorQuantity::Displacement: return node.position - reference.cast<T>();
      case SensorQuantity::Velocity: return node.velocity;
      case SensorQuantity::Rotation: return log_map<T>(node.rotation);
      case SensorQuantity::AngularVelocity: return node.angular_velocity;
      default: break;
    }
  } else {
    const Mat3T<T> Rt = frame->axes.transpose();
    const Vec3T<T> r = node.position - frame->origin;
    switch (quantity) {
      case SensorQuantity::Position: return Rt * r;
      case SensorQuantity::Displacement: return Rt * r - reference.cast<T>();
      case SensorQuantity::Velocity:
        return Rt * (node.velocity - frame->velocity - frame->angular_velocity.cross(r));
      case SensorQuantity::Rotation: return log_map<T>(Mat3T<T>(Rt * node.rotation));
      case SensorQuantity::AngularVelocity: return Rt * (node.angular_velocity - frame->angular_velocity);
      default: break;
    }
  }
  throw std::invalid_argument("node_quantity: not a vector quantity of a node");
}

/// The origin displacement sensors measure from: the measured point's reference position X (the
/// node's, plus R_0 c for an offset c; global frame), or in a frame its reference position relative
/// to the frame at t = 0, R_F0ᵀ (X − X_F0), with X_F0 and R_F0 from the frame node's reference
/// position and initial orientation (`initial`).
[[nodiscard]] Vec3 displacement_reference(const Sensor& sensor, std::span<const Node> nodes,
                                          std::span<const NodeState> initial);

}  // namespace catena::fem
