#pragma once
/// Sensors: named scalar histories written to sensors.csv, one column each. A node sensor reads a
/// node quantity, in the global frame or in the frame of another node (a frame rotating with a
/// hub, for instance: components along that node's axes, motion relative to it). An element
/// sensor reads one of the fields the element writes through `Element::cell_values` (a truss's
/// `axial_force`, a beam's `bending_moment_y`, ...).
#include "fem/element.hpp"
#include "fem/node.hpp"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace catena::fem {

enum class SensorQuantity : std::uint8_t {
  Position,         ///< [m], components x, y, z
  Displacement,     ///< [m], from the reference position
  Velocity,         ///< [m/s]
  Rotation,         ///< rotation vector of the orientation [rad], components x, y, z
  Orientation,      ///< unit quaternion, components x, y, z and w (= component 3)
  AngularVelocity,  ///< [rad/s], components x, y, z
  ElementField,     ///< a `cell_values` field of `element` (`field`)
};

/// The frame a node sensor's value is expressed in: an origin and axes fixed to a node (a node's
/// own frame: zero offset, identity axes; a rigid body's frame: its centre of mass, the node axes;
/// a joint's frame A: the joint point and axes) or fixed in space (a joint's frame A on the ground).
struct SensorFrame {
  SensorFrame() = default;
  /// A node's own frame; implicit, so that a node id still names a frame (`sensor.frame = node`).
  SensorFrame(NodeId frame_node) : node(frame_node) {}  // NOLINT(google-explicit-constructor)
  SensorFrame(std::optional<NodeId> frame_node, const Vec3& origin, const Mat3& frame_axes)
      : node(frame_node), offset(origin), axes(frame_axes) {}

  std::optional<NodeId> node;    ///< none: fixed in space
  Vec3 offset = Vec3::Zero();    ///< origin from the node, node axes (fixed: the global origin)
  Mat3 axes = Mat3::Identity();  ///< frame axes in node axes (fixed: in global axes)
};

/// One term of a Sensor's interpolation: `weight` times the value of `sensor`. A template (of the
/// sensor type, always Sensor: WeightedSensor below) only so that it is completed where
/// `Sensor::parts{}` is: clang instantiates std::vector's destructor in that default member
/// initializer, which needs the element type complete, and a class template is instantiated there,
/// in Sensor's complete-class context, where a struct declared ahead and defined after Sensor is
/// still incomplete. The `{}` itself keeps GCC's -Wmissing-field-initializers quiet where a Sensor
/// is built by designated initializers without `parts`.
template <class PartSensor>
struct Weighted {
  double weight = 0.0;
  PartSensor sensor;
};

struct Sensor;
using WeightedSensor = Weighted<Sensor>;

struct Sensor {
  std::string name;
  NodeId node;                      ///< node sensors: the node measured
  SensorQuantity quantity = SensorQuantity::Position;
  int component = 0;                ///< 0, 1, 2 = x, y, z (of the chosen frame); 3 = w (Orientation only)
  std::optional<SensorFrame> frame;  ///< none: global frame
  /// Node sensors of a frame node: the point measured, fixed to the node, from it in its axes [m]
  /// (position, displacement and velocity are that point's; rotations the node's).
  Vec3 offset = Vec3::Zero();
  /// ElementField: the element (owned by the model, which must outlive the sensor) and the name of
  /// the field it sets in `cell_values`.
  const Element* element = nullptr;
  std::string field{};
  double scale = 1.0;  ///< multiplies the value (a normalization, `scale: 1/L`, or another unit)
  /// Not empty: the value is Σ weight · value of the parts (a point between a beam's nodes or
  /// element middles, interpolated linearly), times `scale`; the fields above are then unused.
  std::vector<WeightedSensor> parts{};
};

/// Value of `sensor` for the given node states (SI units). With an `offset` c, the node's position
/// and velocity are those of its point c: x + R c and v + ω × R c.
/// In a frame F (origin x_F, rotation R_F, quaternion q_F, angular velocity ω_F; on a node n with
/// offset c and axes Q: x_F = x_n + R_n c, R_F = R_n Q, v_F = v_n + ω_n × R_n c, ω_F = ω_n):
///   position          R_Fᵀ (x − x_F)
///   displacement      R_Fᵀ (x − x_F) − R_F0ᵀ (X − X_F0)  (motion relative to the frame; X_F0 with
///                                                      the frame node's reference position)
///   velocity          R_Fᵀ (v − v_F − ω_F × (x − x_F))   (as seen by an observer riding the frame)
///   rotation          log(R_Fᵀ R)    (the rotation vector, angle in [0, π])
///   orientation       q_F⁻¹ q        (components x, y, z, w; sign as the state stores it)
///   angular_velocity  R_Fᵀ (ω − ω_F)
/// In the global frame, R_F = I and x_F = v_F = ω_F = 0: rotation is log(R), the whole orientation
/// of the node (including an initial orientation R0). A point node's state keeps R = I, ω = 0.
/// An element sensor calls the element's `cell_values` and returns the value it sets for `field`
/// (NaN if it sets none).
double evaluate_sensor(const Sensor& sensor, std::span<const Node> nodes,
                       std::span<const NodeState> states, std::span<const NodeState> initial);

/// The SI unit of a sensor's values ("m", "rad/s", "N m"; "1" for a quaternion component): from its
/// quantity, or for an element field from the field's name. Empty when unknown: a field without a
/// known unit, or a `scale` other than 1 (a normalization or another unit).
[[nodiscard]] std::string_view sensor_unit(const Sensor& sensor);

}  // namespace catena::fem
