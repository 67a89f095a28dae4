#pragma once
/// A validated model: nodes with their initial state, elements, the unknown registry they
/// declared, analysis settings and sensors. Built by io::read_model (or by hand in tests and
/// benchmarks); consumed by the tableau and the time integrator.
#include "fem/element.hpp"
#include "fem/node.hpp"
#include "fem/sensor.hpp"
#include "fem/time_scheme.hpp"
#include "fem/unknowns.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace catena::fem {

/// `Dynamic`: time elements from 0 to t_end. `Static`: equilibrium without inertia at a sequence
/// of load levels; t runs from 0 to t_end as the load parameter (loads are functions of t), with
/// increments that start at dt, are halved on Newton failure and grow back after successes.
enum class AnalysisType : std::uint8_t { Dynamic, Static };

struct AnalysisSettings {
  AnalysisType type = AnalysisType::Dynamic;
  TimeScheme scheme = TimeScheme::Midpoint;
  double dt = 0.01;          ///< nominal step [s]
  double t_end = 1.0;        ///< [s]
  int output_every = 1;      ///< write VTK and CSV rows every n nominal steps
  double dt_min = 0.0;       ///< smallest step after cutting [s]; 0 -> dt / 1024
  int max_newton_iterations = 25;
  /// Newton stops when the largest scaled correction max_i |δu_i| / s_i is below this
  /// (s_i: length scale for displacements, see docs/architecture.md "Convergence").
  double newton_tolerance = 1e-10;
  /// Sparse direct solver for the Newton systems: mumps | klu | umfpack | superlu | petsc.
  std::string linear_solver = "mumps";
  /// Dynamic analyses: start from the static equilibrium under the loads and weights at t = 0
  /// (reached by raising them from 0 in adaptive increments) instead of the given positions;
  /// the given velocities are kept.
  bool initial_equilibrium = false;
};

class Model {
 public:
  std::string name;
  std::vector<Node> nodes;
  std::vector<NodeState> initial_state;  ///< one per node, t = 0
  std::vector<std::unique_ptr<Element>> elements;
  UnknownRegistry registry;
  Vec3 gravity = Vec3::Zero();
  AnalysisSettings analysis;
  std::vector<Sensor> sensors;
  /// Characteristic length [m] (bounding-box diagonal of the nodes, at least 1e-3 m): scales the
  /// Newton test for displacement unknowns.
  double length_scale = 1.0;

  /// Adds a node and its unknown blocks; returns its id.
  NodeId add_node(std::string node_name, const Vec3& position, NodeKind kind = NodeKind::Point);
  /// Looks a node up by name.
  [[nodiscard]] std::optional<NodeId> find_node(std::string_view node_name) const;
  /// Adds an element (its `declare` runs here, so its blocks exist from now on).
  template <class E, class... Args>
  E& add_element(Args&&... args) {
    auto e = std::make_unique<E>(std::forward<Args>(args)...);
    E& ref = *e;
    const std::size_t first = registry.couplings().size();
    e->declare(registry);
    element_couplings.emplace_back(first, registry.couplings().size());
    elements.push_back(std::move(e));
    return ref;
  }
  /// For each element, the range of `registry.couplings()` its `declare` added.
  std::vector<std::pair<std::size_t, std::size_t>> element_couplings;
  /// Removes a translational component of a node (a support).
  void fix(NodeId node, int component) { registry.fix(nodes[node.index].displacement, component); }
  /// Removes a rotational component of a frame node (a clamp, with `fix`).
  void fix_rotation(NodeId node, int component) { registry.fix(nodes[node.index].rotation, component); }
  /// Makes a point node a frame node (adds its rotation block); no effect on a frame node.
  /// Elements that need orientations (beams, rigid bodies) call this before they are added.
  void make_frame(NodeId node);
  /// Recomputes `length_scale` from the node positions.
  void update_length_scale();
};

}  // namespace catena::fem
