#pragma once
/// The one abstraction everything hangs on (docs/architecture.md). An element declares once the
/// unknown blocks it owns or touches, then for each Newton iterate of a time element stamps its
/// residual rows and Jacobian blocks into abstract sinks. Stamping is const and caches nothing.
#include "fem/drawing.hpp"
#include "fem/energy.hpp"
#include "fem/sinks.hpp"
#include "fem/step_state.hpp"
#include "fem/unknowns.hpp"

#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace catena::fem {

/// Thrown by `stamp` when a trial state has no meaning (a bar of zero length, a rotation past
/// its chart); the Newton solver answers it by cutting the step, never by crashing.
class DomainError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Named per-cell values for output (axial force, section forces...).
class CellValueSink {
 public:
  virtual ~CellValueSink() = default;
  virtual void set(std::string_view field, double value) = 0;
  /// A vector field (global axes): a 3-component array in VTK, `<field>_x/_y/_z` elsewhere.
  virtual void set_vector(std::string_view field, const Vec3& v) {
    std::string name(field);
    const std::size_t n = name.size();
    for (const char* c : {"_x", "_y", "_z"}) {
      name.resize(n);
      name += c;
      set(name, v[c[1] - 'x']);
    }
  }
};

/// Named 3-component values at the ends of an element's output cell (Element::end_values): `end`
/// indexes `cell_nodes()`, and each value is the element's own at that end, not averaged with its
/// neighbours' (a scene that draws every element with its own end points shows it there).
class EndValueSink {
 public:
  virtual ~EndValueSink() = default;
  virtual void set(std::size_t end, std::string_view field, const Vec3& value) = 0;
};

/// Where an element writes the starting values of its own unknowns for a step (the predictor).
class PredictionSink {
 public:
  virtual ~PredictionSink() = default;
  virtual void set(BlockId block, const double* values, int n) = 0;
  template <int N>
  void set(BlockId block, const Eigen::Matrix<double, N, 1>& v) { set(block, v.data(), N); }
};

/// A rigid lump of inertia carried by a node: its mass, its centre's offset from the node and its
/// inertia tensor about the centre, both in the node's axes (so the lump turns with the node).
/// Linearized analyses (solvers/linearized_analysis.hpp) build mass and gyroscopic matrices from
/// lumps.
struct InertiaLump {
  NodeId node;
  double mass = 0.0;             ///< [kg]
  Vec3 offset = Vec3::Zero();    ///< centre of mass from the node, node axes [m]
  Mat3 inertia = Mat3::Zero();   ///< about the centre, node axes [kg m²]
};

class InertiaSink {
 public:
  virtual ~InertiaSink() = default;
  virtual void add(const InertiaLump& lump) = 0;
};

/// One velocity constraint of an element at a state: a multiplier component that a kinematic
/// law holds (an ideal constraint, a drive), the gradient of its relative coordinate with respect
/// to the velocities and angular velocities of the element's nodes (ė = Σ g_n · (v_n, ω_n)), and
/// the rate its law prescribes.
struct VelocityConstraint {
  BlockId multiplier;
  int component = 0;
  std::vector<std::pair<NodeId, Eigen::Matrix<double, 1, 6>>> gradient;
  double rate = 0.0;  ///< [m/s or rad/s]
};

/// A `cell_values` field over a time element, for laws of the motion that read it
/// (fem/law_sensors.hpp): its value at the start and at the end of the step, and the end value's
/// derivatives by the unknowns (Δx, b) of each node it depends on.
struct FieldOverStep {
  double start = 0.0;
  double end = 0.0;
  std::vector<std::pair<NodeId, Eigen::Matrix<double, 1, 6>>> by_end;
};

class Element {
 public:
  explicit Element(std::string name) : name_(std::move(name)) {}
  virtual ~Element() = default;
  Element(const Element&) = delete;
  Element& operator=(const Element&) = delete;

  [[nodiscard]] const std::string& name() const { return name_; }
  [[nodiscard]] virtual std::string_view kind() const = 0;  ///< "truss", "point_mass", ...

  /// Creates the element's own blocks (relative coordinates, multipliers) and declares, with
  /// `UnknownRegistry::couple`, every block its stamps touch. Called once, before numbering.
  virtual void declare(UnknownRegistry& registry) = 0;
  /// Once the model's sensors are read and the sensors laws read are bound (fem/law_sensors.hpp),
  /// after every element is declared: the element's rows whose laws read sensors, followed by the
  /// blocks of the nodes those sensors read, one more coupling, which Model::couple_law_sensors
  /// adds after the element's own. Empty (the default) when its laws read no sensor.
  virtual std::vector<BlockId> couple_law_sensors() { return {}; }
  /// The index of a `cell_values` field that laws of the motion may read (fem/law_sensors.hpp: a
  /// joint's relative coordinates); none for the others (the default: every field).
  [[nodiscard]] virtual std::optional<int> law_field(std::string_view /*field*/) const { return std::nullopt; }
  /// The nodes the law fields depend on.
  [[nodiscard]] virtual std::vector<NodeId> law_field_nodes() const { return {}; }
  /// Law field `index` over the step `s` (the value at the end is the one `cell_values` reports
  /// once the step is committed). Called while other elements stamp: it keeps nothing.
  [[nodiscard]] virtual FieldOverStep law_field_over_step(int /*index*/, const StepState& /*s*/) const { return {}; }

  /// Adds the element's residual contribution (force units for node rows) and its exact
  /// derivative with respect to the trial unknowns.
  virtual void stamp(const StepState& s, ResidualSink& r, JacobianSink& j) const = 0;

  /// Linearized (continuous-time) analyses about the static state `s` (zero node increments):
  /// the derivatives of the element's residual with respect to the accelerations (`mass`) and the
  /// rates (`damping`: dampers, gyroscopic terms) of its unknowns. The stiffness is the static
  /// stamp's Jacobian. Most elements have neither; inertia comes from `inertia_lumps`.
  virtual void stamp_rates(const StepState&, JacobianSink& /*mass*/, JacobianSink& /*damping*/) const {}
  /// The element's inertia as rigid lumps on its nodes (none for massless elements).
  virtual void inertia_lumps(InertiaSink&) const {}
  /// Its velocity constraints at time t and the given states (solvers/consistent_start.hpp
  /// makes initial velocities meet them). Most elements have none.
  virtual void velocity_constraints(double /*t*/, std::span<const NodeState>, std::vector<VelocityConstraint>&) const {}
  /// Takes its own unknowns' values from `x` (`map`'s numbering) outside a step's commit: the
  /// joints' reported reactions at t = 0 and, with `output.reactions: instantaneous`, at each row
  /// (TimeIntegrator::report_reactions), which the next step also starts its prediction from.
  virtual void take_multipliers(std::span<const double> /*x*/, const DofMap& /*map*/) {}

  /// After convergence of a time element: update internal history. Most elements have none.
  virtual void commit(const StepState&) {}
  /// Checkpoints: appends the history `commit` keeps (values read back bit for bit) to `out`.
  virtual void save_history(std::vector<double>& /*out*/) const {}
  /// Restores what `save_history` wrote, consuming it from the front of `in`. Throws
  /// std::invalid_argument when `in` is too short.
  virtual void restore_history(std::span<const double>& /*in*/) {}

  /// Whether `stamp` evaluates its residual more precisely when StepState::precise asks for it
  /// (Newton asks only when some element does).
  [[nodiscard]] virtual bool has_precise_residual() const { return false; }

  /// Starting values of the element's own unknowns for the step [t_n, t_n + h] (node unknowns are
  /// the integrator's). Unset unknowns start at zero.
  virtual void predict(const StepState&, PredictionSink&) const {}

  /// State functions at a committed state; the potential energy of the weights is the one under
  /// `gravity` [m/s²] (the model's, as the steps are stamped under it: StepState::gravity).
  virtual void add_energy(std::span<const NodeState> /*states*/, const Vec3& /*gravity*/, StateEnergy&) const {}
  /// Work done and energy dissipated over a converged time element.
  virtual void add_step_work(const StepState&, StepWork&) const {}

  /// Nodes of the element's output cell (a line for trusses); empty for elements without one.
  [[nodiscard]] virtual std::span<const NodeId> cell_nodes() const { return {}; }
  /// An output point of its own (a joint's point), written as a vertex cell that carries the
  /// element's cell values; used instead of `cell_nodes` when present.
  [[nodiscard]] virtual std::optional<Vec3> output_point(std::span<const NodeState>) const { return std::nullopt; }
  virtual void cell_values(std::span<const NodeState>, CellValueSink&) const {}
  /// Values at each end of the output cell: trusses and beams `section_force` (N, Q2, Q3) [N] and
  /// `section_moment` (T, M2, M3) [N m] in the section axes at that end (elements/end_sections.hpp).
  /// Most elements have none.
  virtual void end_values(std::span<const NodeState>, EndValueSink&) const {}
  /// The axes its output point carries, global components at the given states (a joint's frame A
  /// axes); none by default.
  [[nodiscard]] virtual std::optional<Mat3> output_axes(std::span<const NodeState>) const { return std::nullopt; }

  /// The scene (io/scene_layout.hpp): what the element is drawn as, and the points fixed in its
  /// nodes' axes at which it acts or that it holds (a joint's frames, a load's point), appended
  /// to `out`; none by default.
  [[nodiscard]] virtual Drawing drawing() const { return {}; }
  virtual void attachment_points(std::vector<AttachmentPoint>& /*out*/) const {}

 private:
  std::string name_;
};

/// The next `n` values of a checkpointed history, consumed from `in` (Element::restore_history).
/// Throws std::invalid_argument naming `element` when fewer remain.
inline std::span<const double> take_history(std::span<const double>& in, std::size_t n, const Element& element) {
  if (in.size() < n)
    throw std::invalid_argument("element '" + element.name() + "': the saved history has " + std::to_string(in.size()) +
                                " values, the element reads " + std::to_string(n));
  const std::span<const double> taken = in.first(n);
  in = in.subspan(n);
  return taken;
}

}  // namespace catena::fem
