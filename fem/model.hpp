#pragma once
/// A validated model: nodes with their initial state, elements, the unknown registry they
/// declared, analysis settings and sensors. Built by io::read_model (or by hand in tests and
/// benchmarks); consumed by the tableau and the time integrator.
#include "fem/element.hpp"
#include "fem/expression.hpp"
#include "fem/inputs.hpp"
#include "fem/law_sensors.hpp"
#include "fem/node.hpp"
#include "fem/sensor.hpp"
#include "fem/time_scheme.hpp"
#include "fem/unknowns.hpp"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace catena::fem {

/// `Dynamic`: time elements from 0 to t_end. `Static`: equilibrium without inertia at a sequence
/// of load levels; t runs from 0 to t_end as the load parameter (loads are functions of t), with
/// increments that start at dt, are halved on Newton failure and grow back after successes.
/// `Eigen`: modes of the problem linearized about an equilibrium, a given configuration or a
/// steady rotation. `Buckling`: critical load factor of the loads (solvers/linearized_analysis.hpp).
enum class AnalysisType : std::uint8_t { Dynamic, Static, Eigen, Buckling };

/// Eigen and buckling analyses (solvers/linearized_analysis.hpp, docs/model-format.md).
struct LinearizedSettings {
  int modes = 10;                  ///< number of modes wanted
  bool about_equilibrium = true;   ///< false: about the configuration as given (no static solve)
  /// A steady rotation: the model is linearized in the frame turning at this rate about the axis
  /// through `frame_centre` (global) [rad/s]; zero: an inertial frame.
  Vec3 frame_angular_velocity = Vec3::Zero();
  Vec3 frame_centre = Vec3::Zero();  ///< [m]
  double shift = 0.0;                ///< shift-invert target ω² [(rad/s)²]; 0: automatic
  bool export_matrices = false;      ///< write K, D, M in Matrix Market format
  int mode_frames = 24;              ///< frames per mode in the ParaView series of a mode shape
  double mode_amplitude = 0.0;       ///< largest displacement in a mode's series [m]; 0: 10 % of the model's size
  double load_factor_max = 2.0;      ///< buckling: the static load path is followed up to this factor
  int increments = 20;               ///< buckling: equal increments of that path
  double preload = 0.0;              ///< buckling: load factor of the state the linear problem is about
};

struct AnalysisSettings {
  AnalysisType type = AnalysisType::Dynamic;
  TimeScheme scheme = TimeScheme::Midpoint;
  double dt = 0.01;          ///< nominal step [s]
  double t_end = 1.0;        ///< [s]
  /// Write CSV rows (and VTK frames, unless vtk_every or vtk_dt say otherwise) every n nominal steps.
  int output_every = 1;
  int vtk_every = 0;    ///< a VTK frame every n nominal steps (`output.vtk_every`); 0: every output_every
  double vtk_dt = 0.0;  ///< a VTK frame when t passes a multiple of this (`output.dt`) [s]; 0: by steps
  int checkpoint_every = 0;  ///< write a checkpoint every n nominal steps (`output.checkpoint_every`); 0: none
  bool scene = true;         ///< write the scene series at the VTK frames (`output.scene`, io/scene_writer.hpp)
  /// Dynamic analyses: joint reactions in rows and frames after t = 0 at the frame's time
  /// (`output.reactions: instantaneous`, TimeIntegrator::instantaneous_reactions) instead of
  /// averaged over the step that ends there.
  bool instantaneous_reactions = false;
  /// Output of every node's deflection relative to this frame node (`output.deflection_frame`,
  /// fem/deflection.hpp); none: not written.
  std::optional<NodeId> deflection_frame;
  double dt_min = 0.0;       ///< smallest step after cutting [s]; 0 -> dt / 1024
  int max_newton_iterations = 25;
  /// Newton stops when the largest scaled correction max_i |δu_i| / s_i is below this
  /// (s_i: length scale for displacements, see docs/architecture.md "Convergence").
  double newton_tolerance = 1e-10;
  /// Sparse direct solver for the Newton systems: auto | mumps | klu | umfpack | superlu | petsc.
  std::string linear_solver = "auto";
  /// Dynamic analyses: start from the static equilibrium under the loads and weights at t = 0
  /// (reached by raising them from 0 in adaptive increments) instead of the given positions;
  /// the given velocities are kept.
  bool initial_equilibrium = false;
  /// Static analyses: the weights grow with the load parameter, gravity · t / t_end (a structure
  /// followed along its load path under its own weight); false: in full from the first increment.
  bool ramp_gravity = false;
  LinearizedSettings linearized;  ///< eigen and buckling analyses only
};

/// A scalar of a run (`analysis.objective`): Ψ = ∫ integrand dt + final, the integral by the
/// trapezoidal rule on every time element; both expressions of the sensors (by name, in the
/// model's order), t and the parameters. Either may be absent.
struct Objective {
  std::optional<Expression> integrand;
  std::optional<Expression> final;
};

/// A named set of nodes or of elements (the `sets` section of a model file), members in the order
/// given. Loads, supports and sensors may name a set instead of one node or element.
struct NamedSet {
  std::string name;
  std::vector<NodeId> nodes;                ///< a node set
  std::vector<const Element*> elements;     ///< an element set (owned by the model)
};

/// The key of Model::origins under which the reader records where an element is written.
[[nodiscard]] inline std::string element_origin_key(std::string_view element_name) {
  return "element '" + std::string(element_name) + "'";
}

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
  std::vector<NamedSet> sets;
  /// The elements that one item of the model file made together, by the item's name (a beam
  /// definition's elements, in order along it): what `catena check` describes per item.
  std::vector<NamedSet> element_groups;
  std::optional<Objective> objective;  ///< `analysis.objective`; none: not set
  /// Characteristic length [m] (bounding-box diagonal of the nodes and the joints' points, at
  /// least 1e-3 m): scales the Newton test for displacement unknowns.
  double length_scale = 1.0;
  /// The parameters the model file declares (`parameters`), in its order, with their values after
  /// `--set`: what `catena run --sensitivity` differentiates by (solvers/direct_sensitivity.hpp).
  std::vector<std::pair<std::string, double>> parameters;
  /// Where the model file writes an element, "model.yaml:12", by the owner name of its
  /// unknowns ("joint 'hinge'") and by element_origin_key (every element the reader makes): for
  /// messages about the element found after reading (a joint whose constraints are redundant, a
  /// beam collapsing in a step: element_description).
  std::map<std::string, std::string, std::less<>> origins;
  /// The named inputs (`inputs`, fem/inputs.hpp) the laws read, shared with the elements that read
  /// them: their address stays fixed when the model moves. A program sets them between steps
  /// (`model.inputs->set(name, value)`).
  std::shared_ptr<Inputs> inputs = std::make_shared<Inputs>();
  /// The sensors laws read (fem/law_sensors.hpp), shared with the elements whose laws read them.
  std::shared_ptr<LawSensors> law_sensors = std::make_shared<LawSensors>();

  /// Adds a node and its unknown blocks; returns its id.
  NodeId add_node(std::string node_name, const Vec3& position, NodeKind kind = NodeKind::Point);
  /// Looks a node up by name.
  [[nodiscard]] std::optional<NodeId> find_node(std::string_view node_name) const;
  /// A node as the constructor of an element attached to it receives it (valid until the next
  /// node is added).
  [[nodiscard]] AttachedNode attach(NodeId node) const {
    const auto i = static_cast<std::size_t>(node.index);
    return {node, nodes[i], initial_state[i]};
  }
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
  /// For each element, the range of `registry.couplings()` its `declare` (and couple_law_sensors)
  /// added.
  std::vector<std::pair<std::size_t, std::size_t>> element_couplings;
  /// Adds each element's Element::couple_law_sensors after its own couplings, once the sensors that
  /// laws read are bound (the reader calls it after the `sensors` section). Once, before numbering.
  void couple_law_sensors();
  /// Removes a translational component of a node (a support).
  void fix(NodeId node, int component) { registry.fix(nodes[node.index].displacement, component); }
  /// Removes a rotational component of a frame node (a clamp, with `fix`).
  void fix_rotation(NodeId node, int component) { registry.fix(nodes[node.index].rotation, component); }
  /// Makes a point node a frame node (adds its rotation block); no effect on a frame node.
  /// Elements that need orientations (beams, rigid bodies) call this before they are added.
  void make_frame(NodeId node);
  /// Recomputes `length_scale` from the node positions and the elements' output points.
  void update_length_scale();
  /// "model.yaml:12: beam element 'bar_2'": an element named for a message, with where the
  /// model file writes it when the reader recorded it (origins).
  [[nodiscard]] std::string element_description(const Element& e) const;

 private:
  /// A frame node's rotation block, and the node's blocks declared turning with it.
  void make_frame_blocks(NodeId node);
};

}  // namespace catena::fem
