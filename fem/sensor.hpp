#pragma once
/// Sensors: named scalar histories written to sensors.csv, one column each. A sensor reads a
/// node quantity, in the global frame or in the frame of another node (a frame rotating with a
/// hub, for instance: components along that node's axes, motion relative to it).
#include "fem/node.hpp"

#include <optional>
#include <span>
#include <string>

namespace catena::fem {

enum class SensorQuantity : std::uint8_t { Position, Displacement, Velocity };

struct Sensor {
  std::string name;
  NodeId node;
  SensorQuantity quantity = SensorQuantity::Position;
  int component = 0;                ///< 0, 1, 2 = x, y, z (of the chosen frame)
  std::optional<NodeId> frame;      ///< none: global frame
};

/// Value of `sensor` for the given node states (SI units).
/// In a node's frame F (origin x_F, rotation R_F, angular velocity ω_F):
///   position      R_Fᵀ (x − x_F)
///   displacement  R_Fᵀ (x − x_F) − R_F0ᵀ (X − X_F)   (motion relative to the frame)
///   velocity      R_Fᵀ (v − v_F − ω_F × (x − x_F))   (as seen by an observer riding the frame)
double evaluate_sensor(const Sensor& sensor, std::span<const Node> nodes,
                       std::span<const NodeState> states, std::span<const NodeState> initial);

}  // namespace catena::fem
