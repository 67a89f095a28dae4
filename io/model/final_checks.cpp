// What only the whole model shows: initial velocities that break a joint, and free unknowns
// without inertia.
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

void check_joint_velocities(ModelContext& context) {
  fem::Model& model = context.model;
  model.update_length_scale();
  const double L = model.length_scale;
  double speed = 0.0;
  for (const fem::NodeState& s : model.initial_state)
    speed = std::max({speed, s.velocity.norm(), s.angular_velocity.norm() * L});
  for (const auto& [joint, cursor] : context.joints) {
    const Eigen::Matrix<double, 6, 1> rates = joint->relative_rates(model.initial_state);
    for (std::size_t k = 0; k < 6; ++k) {
      const elements::JointLaw& law = joint->definition().laws[k];
      double expected = 0.0;
      if (law.kind == elements::JointLawKind::PrescribedRate) {
        expected = law.function ? (*law.function)(0.0) : 0.0;
      } else if (law.kind == elements::JointLawKind::Prescribed) {
        const double dt = 1e-7;  // one-sided: laws may be defined from t = 0 on only
        if (law.function) expected = ((*law.function)(dt) - (*law.function)(0.0)) / dt;
      } else {
        continue;
      }
      const bool rotation = k >= 3;
      const double rate = rates[static_cast<Eigen::Index>(k)];
      const double tolerance = 1e-6 * ((1.0 + speed) / (rotation ? L : 1.0) + std::abs(expected));
      if (std::abs(rate - expected) > tolerance)
        cursor.fail("joint '" + joint->name() + "': the initial velocities make component " +
                    std::string(schema::joint_components[k]) + " change at " + format_number(rate) +
                    (rotation ? " rad/s" : " m/s") + " where its law gives " + format_number(expected) +
                    "; expected initial velocities that respect the joint (a rigid field initial_velocity, or "
                    "matching node velocities)");
    }
  }
}

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
