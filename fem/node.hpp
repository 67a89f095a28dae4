#pragma once
/// Nodes: a point node carries a position (trusses, point masses); a frame node adds an
/// orientation (beams, rigid bodies; its rotation unknown is the Cayley vector of the step,
/// fem/step_rotation.hpp).
#include "fem/types.hpp"

#include <string>

namespace catena::fem {

enum class NodeKind : std::uint8_t { Point, Frame };

/// Committed state of a node at the start of a time element, SI units, global frame.
struct NodeState {
  Vec3 position = Vec3::Zero();
  Vec3 velocity = Vec3::Zero();
  Quaternion orientation = Quaternion::Identity();  ///< maps node axes to global axes
  Vec3 angular_velocity = Vec3::Zero();             ///< global components [rad/s]
};

struct Node {
  std::string name;
  NodeKind kind = NodeKind::Point;
  Vec3 reference_position = Vec3::Zero();  ///< position at t = 0 (displacement is measured from it)
  BlockId displacement;                    ///< Δx over the time element (3 unknowns)
  BlockId rotation;                        ///< frame nodes only: the step's Cayley vector b (fem/step_rotation.hpp)
};

/// One node as an element's constructor sees it (fem::Model::attach): its id, what the element
/// keeps, with the node and its state at t = 0 to read blocks, kind and positions from. An
/// element receives only the nodes it attaches to, not the model's node table. It refers into the
/// model's tables, which may grow (and move) when nodes are added: an element copies what it
/// needs and keeps no AttachedNode beyond its construction.
struct AttachedNode {
  NodeId id;
  const Node& node;
  const NodeState& initial;
};

}  // namespace catena::fem
