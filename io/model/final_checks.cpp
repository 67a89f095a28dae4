// What only the whole model shows: free unknowns without inertia. (Initial velocities that break
// a joint are made to meet it when the run starts: solvers/consistent_start.hpp.)
#include "io/model/section_readers.hpp"
#include "io/model/values.hpp"
#include "io/yaml_schema.hpp"

#include <algorithm>
#include <cmath>

namespace catena::io::reader {

namespace {

/// "x", "x and z", "x, y and z"
template <std::size_t N>
std::string list_components(const std::array<bool, N>& which, std::span<const std::string_view> names) {
  std::vector<std::string_view> chosen;
  for (std::size_t c = 0; c < N; ++c)
    if (which[c]) chosen.push_back(names[c]);
  std::string out;
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    if (i > 0) out += i + 1 == chosen.size() ? " and " : ", ";
    out += chosen[i];
  }
  return out;
}

}  // namespace

void check_free_nodes_have_inertia(const ModelContext& context) {
  const fem::Model& model = context.model;
  for (std::size_t i = 0; i < model.nodes.size(); ++i) {
    const NodeRecord& node = context.nodes[i];
    if (!(node.mass > 0.0)) {
      const std::array<bool, 3> free{!node.fixed[0], !node.fixed[1], !node.fixed[2]};
      if (free[0] || free[1] || free[2])
        node.cursor.fail("node '" + model.nodes[i].name + "' is free in " + list_components(free, axis_names) +
                         " but has no mass; add a mass or a support");
    }
    if (model.nodes[i].kind == fem::NodeKind::Frame && !node.turns) {
      const std::array<bool, 3> free{!node.fixed[3], !node.fixed[4], !node.fixed[5]};
      if (free[0] || free[1] || free[2])
        node.cursor.fail("node '" + model.nodes[i].name + "' is free to rotate about " +
                         list_components(free, axis_names) +
                         " but has no rotary inertia and no beam; add a rigid body or a support (dofs " +
                         list_components(free, std::span<const std::string_view>(dof_names).subspan(3)) + ")");
    }
  }
}

}  // namespace catena::io::reader
