#pragma once
// Every node's deflection relative to a frame node (fem::DeflectionFrame, which the scene applies
// to each of its points), for the tests that check it on nodes.
#include "fem/deflection.hpp"

#include <span>
#include <vector>

namespace catena::testing {

/// `nodes` give the reference positions X and `initial` the frame node's reference orientation
/// (fem::Model's nodes and initial_state); `states` are the current ones, one per node.
inline std::vector<fem::Deflection> node_deflections(std::span<const fem::Node> nodes,
                                                     std::span<const fem::NodeState> initial,
                                                     std::span<const fem::NodeState> states, fem::NodeId frame) {
  const auto f = static_cast<std::size_t>(frame.index);
  const fem::DeflectionFrame rigid(nodes[f].reference_position, initial[f].orientation, states[f]);
  std::vector<fem::Deflection> out;
  out.reserve(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) out.push_back(rigid.of(nodes[i].reference_position, states[i].position));
  return out;
}

}  // namespace catena::testing
