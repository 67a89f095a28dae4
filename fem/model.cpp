#include "fem/model.hpp"

#include <algorithm>

namespace catena::fem {

NodeId Model::add_node(std::string node_name, const Vec3& position, NodeKind kind) {
  Node n;
  const std::string owner = "node '" + node_name + "'";
  n.name = std::move(node_name);
  n.kind = kind;
  n.reference_position = position;
  n.displacement = registry.add_block(owner, "force", UnknownKind::Displacement, 3);
  nodes.push_back(std::move(n));
  NodeState s;
  s.position = position;
  initial_state.push_back(s);
  const NodeId id{static_cast<std::int32_t>(nodes.size() - 1)};
  if (kind == NodeKind::Frame) make_frame_blocks(id);
  return id;
}

void Model::make_frame(NodeId node) {
  Node& n = nodes[static_cast<std::size_t>(node.index)];
  if (n.kind == NodeKind::Frame) return;
  make_frame_blocks(node);
}

void Model::make_frame_blocks(NodeId node) {
  Node& n = nodes[static_cast<std::size_t>(node.index)];
  n.kind = NodeKind::Frame;
  n.rotation = registry.add_block("node '" + n.name + "'", "moment", UnknownKind::Rotation, 3);
  // A frame node's position increment and rotation are global vectors that turn with its axes.
  registry.turn_with(n.displacement, node);
  registry.turn_with(n.rotation, node);
}

std::optional<NodeId> Model::find_node(std::string_view node_name) const {
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].name == node_name) return NodeId{static_cast<std::int32_t>(i)};
  return std::nullopt;
}

void Model::couple_law_sensors() {
  // From the last element, so that an insertion shifts only the ranges already extended.
  for (std::size_t e = elements.size(); e-- > 0;) {
    const std::vector<BlockId> blocks = elements[e]->couple_law_sensors();
    if (blocks.empty()) continue;
    registry.insert_coupling(element_couplings[e].second, blocks);
    ++element_couplings[e].second;
    for (std::size_t later = e + 1; later < element_couplings.size(); ++later) {
      ++element_couplings[later].first;
      ++element_couplings[later].second;
    }
  }
}

void Model::update_length_scale() {
  if (nodes.empty()) return;
  Vec3 lo = nodes.front().reference_position, hi = lo;
  for (const Node& n : nodes) {
    lo = lo.cwiseMin(n.reference_position);
    hi = hi.cwiseMax(n.reference_position);
  }
  // The points elements are drawn at (a joint's): a pendulum's one node at its centre of mass
  // hangs from a hinge half its length away.
  for (const auto& e : elements)
    if (const std::optional<Vec3> p = e->output_point(initial_state)) {
      lo = lo.cwiseMin(*p);
      hi = hi.cwiseMax(*p);
    }
  length_scale = std::max((hi - lo).norm(), 1e-3);
}

std::string Model::element_description(const Element& e) const {
  std::string d = std::string(e.kind()) + " element '" + e.name() + "'";
  if (const auto it = origins.find(element_origin_key(e.name())); it != origins.end()) d = it->second + ": " + d;
  return d;
}

}  // namespace catena::fem
