#pragma once
/// Joint between two frames, as more-than-redundant relative coordinates with multipliers
/// (Borri, Franchi & Mantegazza; docs/formulation.md §1).
///
/// Frames. Frame A sits on a frame node a (offset c_a and axes Q_a fixed in the node's axes) or on
/// the ground (a fixed point and axes); frame B on a frame node b. Point and axes:
/// p = x + R c, J = R Q.
///
/// Unknowns owned: the multipliers λ (block "reaction", 6), the generalized force and moment the
/// joint applies to frame B (−λ to frame A), in the axes of frame A, averaged over the step; a
/// free component without a force law has none (its multiplier is zero: the component is fixed
/// in the registry, so a spherical joint has 3 unknowns). The relative coordinates e = (ε, ρ)
/// are evaluated from the frames, e_{n+1} = E(q_{n+1}), never solved for: the formulation's
/// kinematic rows E(q_{n+1}) − e_{n+1} = 0 are eliminated with their unknowns, which leaves the
/// same solution in q and λ (Borri, Franchi & Mantegazza keep e as unknowns; it buys nothing
/// here and doubled the tableau of a chain). e is kept at every committed state (history).
///   ε = J_aᵀ (p_b − p_a)                         relative displacement, frame A axes
///   ρ = the coordinates of R_rel = J_aᵀ J_b: by default tracked incrementally,
///       ρ_{n+1} = ρ_n + log(R_rel,n+1 R_rel,nᵀ) (components in frame A's axes), so it never wraps
///       and has no singularity at whole turns (a hinge that turns 135 rad reads 135 rad; about a
///       fixed axis it is the angle); or Cardan angles (α, β, γ) with R_rel = R_x(α) R_y(β) R_z(γ),
///       for the universal joint (γ = 0; singular at β = ±π/2, where the forks' axes align).
///       A rotational component held at zero by an ideal constraint is measured instead by a
///       product of joint axes (ρ_x = −y_a·z_b, ρ_y = x_a·z_b, ρ_z = −x_a·y_b: the sine of a
///       rotation about that axis alone), bilinear in the two frames.
/// Rows:
///   node rows      −Gᵀ λ, G a discrete gradient of E(q) = (ε, ρ) over the step:
///                  G u = E(q_{n+1}) − E(q_n), so the joint's forces do work λ · Δe exactly, with
///                  no resultant and no moment between two nodes (momenta kept). ε and the held
///                  rotations are bilinear in the frames: their G is exact in closed form from
///                  step averages (joint.cpp); other rotations use the Gonzalez form of
///                  elements/two_frame_step.hpp. Rows whose multipliers are held at zero (free
///                  components without a law) are left out.
///   constitutive   one per component with a multiplier (block "reaction"), JointLaw, with
///                  e_{n+1} = E(q_{n+1}):
///     Prescribed      e_{n+1} = g(t_{n+1})                 (ideal constraint: g = 0; a drive)
///     PrescribedRate  e_{n+1} = e_n + h ½(ė(t_n) + ė(t_{n+1}))   (a velocity drive)
///     Free / Spring   λ = −k (ē − e_rest) − c Δe/h + ½(f(t_n) + f(t_{n+1})),  ē = ½(e_n + e_{n+1})
///                     (free: k = c = 0, f = 0 unless given)
///     with a law of the motion F (JointLaw::law: a function of every coordinate e_j of the joint,
///     their rates ė_j, sampled inputs u and t; fem/law.hpp) in place of f(t): its step average
///                     F̄ = ∫₀¹ F(e_n + s Δe, Δe/h, u(t_n), t_n + s h) ds
///     by 4-point Gauss–Legendre quadrature (exact for polynomials of degree 7 in s), so that for a
///     law of e alone F̄ Δe = ∫ F de over the step (a conservative nonlinear spring keeps the energy
///     to the Newton tolerance), and its exact derivatives ∂F̄/∂e_{n+1,j} (every component: the row
///     may couple them) in the Jacobian. Static analysis: F(e_{n+1}, 0, u(t_n), t_{n+1}), taken whole
///     at every load factor of the initial equilibrium, as springs are (only time functions ramp).
///     A law evaluated at a kink throws fem::LawError (a DomainError: the step is cut).
///     A law may also read sensors (fem/law_sensors.hpp): other nodes' motion, taken along the same
///     step (elements/law_sensor_reading.hpp); its row then also has their derivatives by those
///     nodes' unknowns, and F̄ Δe stays its work on the joint (external_work).
/// Energy: λ · Δe is the work the joint does on the nodes: zero for ideal constraints, the drive's
/// work for prescribed laws and f's and F̄'s (external_work), −Δ(½ k (e − e_rest)²) for springs
/// (strain), −c Δe²/h for dampers (dissipated). Static analysis: node rows −B(q_{n+1})ᵀ λ, springs
/// at the end value, no dampers. The trapezoidal scheme uses the midpoint's G as well.
/// Linearized analyses: k and ∂F/∂e in the static stamp's stiffness, c − ∂F/∂ė (at the state, rates
/// zero) as damping (stamp_rates).
/// Activation: outside [active_from, active_until) every component is free with λ = 0 (a released
/// joint; springs store no energy then); a step is on or off as its middle is, and the sparsity
/// never changes.
#include "elements/law_sensor_reading.hpp"
#include "fem/element.hpp"
#include "fem/expression.hpp"
#include "fem/inputs.hpp"
#include "fem/law.hpp"
#include "fem/model.hpp"
#include "fem/start_cache.hpp"

#include <array>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace catena::elements {

using fem::Mat3;
using fem::NodeId;
using fem::Vec3;

/// Where a joint frame sits.
struct JointFrame {
  std::optional<NodeId> node;  ///< empty: the ground
  Vec3 offset = Vec3::Zero();  ///< node axes (ground: the global position of the point)
  Mat3 axes = Mat3::Identity();  ///< joint axes in node axes (ground: global)
};

enum class JointLawKind : std::uint8_t { Free, Prescribed, PrescribedRate, Spring };

/// The variables a joint law of the motion reads, in the order fem::Law takes their values: the
/// joint's six relative coordinates and their rates, then its own component's coordinate and rate
/// (`e`, `e_rate`), then the sensors it names (JointLaw::law_sensors), then the sampled inputs it
/// names (JointLaw::law_inputs).
inline constexpr std::array<std::string_view, 14> joint_law_variables{
    "x",      "y",      "z",       "rx",      "ry",      "rz", "x_rate", "y_rate", "z_rate", "rx_rate",
    "ry_rate", "rz_rate", "e", "e_rate"};

using fem::max_law_inputs;

/// The constitutive choice of one relative coordinate (header comment).
struct JointLaw {
  JointLawKind kind = JointLawKind::Free;
  std::optional<fem::Expression> function;  ///< g (Prescribed), ė (PrescribedRate), f (Free, Spring)
  /// Free, Spring: a force law of the motion F in place of f (header); its variables
  /// joint_law_variables, then the sensors `law_sensors` (indices of fem::LawSensors) and the
  /// inputs `law_inputs` (indices of fem::Inputs) name.
  std::optional<fem::Law> law;
  std::vector<std::size_t> law_sensors;
  std::vector<std::size_t> law_inputs;
  double stiffness = 0.0;  ///< k [N/m or N m/rad]
  double damping = 0.0;    ///< c [N s/m or N m s/rad]
  double rest = 0.0;       ///< e_rest [m or rad]
};

enum class RotationCoordinates : std::uint8_t { RotationVector, Cardan };

struct JointDefinition {
  std::string kind = "custom";  ///< the library kind it came from (elements/joint_kinds.hpp)
  std::array<JointLaw, 6> laws;  ///< ε_x, ε_y, ε_z, ρ_x, ρ_y, ρ_z
  RotationCoordinates rotation = RotationCoordinates::RotationVector;
  double active_from = -std::numeric_limits<double>::infinity();
  double active_until = std::numeric_limits<double>::infinity();
  /// The model's inputs, which laws of the motion read (fem::Model::inputs); none: no law reads any.
  std::shared_ptr<const fem::Inputs> inputs;
  /// The sensors laws of the motion read (fem::Model::law_sensors, bound before `declare`); none:
  /// no law reads any.
  std::shared_ptr<const fem::LawSensors> law_sensors;
};

class Joint final : public fem::Element {
 public:
  /// `nodes`: the nodes of frames a and b, in that order, without the ground's (attach_frames);
  /// the relative coordinates start from their states at t = 0.
  /// `length_scale` [m]: makes translations and rotations comparable in the discrete gradient.
  Joint(std::string name, std::span<const fem::AttachedNode> nodes, const JointFrame& a, const JointFrame& b,
        JointDefinition definition, double length_scale);
  ~Joint() override;

  std::string_view kind() const override { return "joint"; }
  void declare(fem::UnknownRegistry& registry) override;
  /// Its laws' rows with the blocks of the nodes their sensors read.
  std::vector<fem::BlockId> couple_law_sensors() override;
  void stamp(const fem::StepState& s, fem::ResidualSink& r, fem::JacobianSink& j) const override;
  /// The same stamp with every derivative by automatic differentiation: the test oracle of the
  /// hand-derived ones (a spherical joint's in dynamic steps).
  void stamp_by_automatic_differentiation(const fem::StepState& s, fem::ResidualSink& r, fem::JacobianSink& j) const;
  /// Damping of the linearized problem: c on the law rows of active free/spring components.
  void stamp_rates(const fem::StepState& s, fem::JacobianSink& mass, fem::JacobianSink& damping) const override;
  void commit(const fem::StepState& s) override;
  /// History: e, λ, whether active, J_aᵀ J_b (22 values).
  void save_history(std::vector<double>& out) const override;
  void restore_history(std::span<const double>& in) override;
  void predict(const fem::StepState& s, fem::PredictionSink& out) const override;
  void add_energy(std::span<const fem::NodeState> states, const Vec3& gravity, fem::StateEnergy& e) const override;
  /// Its held and driven components while active: B(q)'s rows (rate_gradient) and the laws'
  /// rates (law_rate).
  void velocity_constraints(double t, std::span<const fem::NodeState> states,
                            std::vector<fem::VelocityConstraint>& out) const override;
  /// λ, the reactions its sensors report (fem::Element::take_multipliers).
  void take_multipliers(std::span<const double> x, const fem::DofMap& map) override;
  /// The rate component k's kinematic law prescribes at t: ė(t) for a rate drive, ġ(t) (a
  /// one-sided difference: laws may be defined from t = 0 on only) for a prescribed motion, 0 for
  /// an ideal constraint; 0 for other laws.
  [[nodiscard]] double law_rate(int k, double t) const;
  void add_step_work(const fem::StepState& s, fem::StepWork& w) const override;
  /// Output: a point of its own, frame B's joint point.
  std::optional<Vec3> output_point(std::span<const fem::NodeState> states) const override;
  /// Fields: reaction_force_x/y/z, reaction_moment_x/y/z (λ, frame A axes, averaged over the
  /// last step) and their norms reaction_force_norm, reaction_moment_norm; relative_x/y/z [m] and
  /// relative_rx/ry/rz [rad] (e at the last committed state); the vectors reaction_force_vector and
  /// reaction_moment_vector (the force and moment on B, global axes, for ParaView's Glyph).
  void cell_values(std::span<const fem::NodeState> states, fem::CellValueSink& out) const override;
  /// Laws of the motion may read its relative coordinates relative_x ... relative_rz (indices 0-5).
  [[nodiscard]] std::optional<int> law_field(std::string_view field) const override;
  [[nodiscard]] std::vector<fem::NodeId> law_field_nodes() const override;
  /// e_n and e_{n+1} = E(q_{n+1}) of component `index`, with the latter's derivatives by the frames'
  /// nodes' unknowns (computed afresh: another element's stamp may call it on another thread).
  [[nodiscard]] fem::FieldOverStep law_field_over_step(int index, const fem::StepState& s) const override;
  /// Frame A's joint axes, global components (the ground's as given): the axes the relative
  /// coordinates are measured in. Revolute, prismatic and cylindrical joints move about/along
  /// axis 3 (z), a planar joint keeps the plane of axes 1 and 2, a universal joint turns about
  /// axis 1 (and B's axis 2); elements/joint_kinds.hpp.
  std::optional<Mat3> output_axes(std::span<const fem::NodeState> states) const override;
  fem::Drawing drawing() const override;
  /// Frame A's point when it is on a node, then frame B's (the output point).
  void attachment_points(std::vector<fem::AttachmentPoint>& out) const override;

  /// The relative coordinates of a configuration (rotations unwrapped near the committed ones).
  [[nodiscard]] Eigen::Matrix<double, 6, 1> relative_coordinates(std::span<const fem::NodeState> states) const;
  [[nodiscard]] const Eigen::Matrix<double, 6, 1>& committed_coordinates() const { return e_; }
  [[nodiscard]] const Eigen::Matrix<double, 6, 1>& reactions() const { return lambda_; }
  [[nodiscard]] const JointDefinition& definition() const { return def_; }

  /// Planar models (the nodes keep to planes normal to `normal`, global): frees the components
  /// the plane already keeps — the translation along the normal and the rotations about the two
  /// in-plane axes — whose constraint rows would otherwise repeat it and make the Newton matrix
  /// singular; their multipliers leave `registry`. Throws std::invalid_argument when no joint axis
  /// lies along the normal, or when one of those components is driven.
  void release_out_of_plane(const Vec3& normal, fem::UnknownRegistry& registry);

  /// B(q): the gradient of the relative coordinates' rates with respect to (v_a, ω_a, v_b, ω_b).
  [[nodiscard]] Eigen::Matrix<double, 6, 12> rate_gradient(std::span<const fem::NodeState> states) const;
  [[nodiscard]] bool active_at(double t) const { return t >= def_.active_from && t < def_.active_until; }
  /// A step is active when its middle is: the switch flips between steps, whatever the round-off
  /// in t_n (ten steps of 0.01 end at 0.09999999999999999).
  /// The initial equilibrium (a static solve at the fixed time t = 0) holds a joint released at
  /// t = 0 (`active_until: 0`): the chain hangs from it, then falls.
  [[nodiscard]] bool active_in_step(const fem::StepState& s) const {
    if (s.time.at_fixed_time()) return s.time.t_n >= def_.active_from && s.time.t_n <= def_.active_until;
    return active_at(s.time.t_n + 0.5 * s.time.h);
  }

 private:
  struct Start;
  /// The start of the step; `rotations` false: without the rotational coordinates (E0 keeps the
  /// committed ones, f cannot evaluate new ones), for stamps that have no rotational rows.
  [[nodiscard]] Start start_of(const fem::StepState& s, bool rotations) const;
  /// start_of, computed once per time element (fem::StartCache): the stamps' passes, then
  /// add_step_work and commit share it.
  [[nodiscard]] const Start& start(const fem::StepState& s, bool rotations = true) const;
  /// Can the multipliers of a group (0: ε, 1: ρ) be nonzero in an (in)active step?
  [[nodiscard]] bool carries_force(bool active, int group) const;
  /// Whether component k has a multiplier unknown (a law, a constraint or a force).
  [[nodiscard]] bool has_multiplier(int component) const;
  /// Whether a law of the motion reads a coordinate of group g (0: ε, 1: ρ).
  [[nodiscard]] bool laws_read(int group) const;
  using Row6 = Eigen::Matrix<double, 1, 6>;
  /// Component k's law of the motion at coordinates e and rates `rate`, time t, the inputs held
  /// over a step from t_inputs: its value, and its derivatives by e and ė (`e`, `e_rate` added to
  /// their component's).
  /// `sensors`: the values of the sensors it reads; their derivatives into `by_sensor`.
  [[nodiscard]] double law_at(int k, double t, double t_inputs, const Eigen::Matrix<double, 6, 1>& e,
                              const Eigen::Matrix<double, 6, 1>& rate, std::span<const double> sensors, Row6& by_e,
                              Row6& by_rate, std::span<double> by_sensor) const;
  /// Component k's law with the sensors it reads read `how` (at `at` of the step): its value, and its
  /// derivatives by e and ė and, through the sensors, by their columns (`by_columns`, added to).
  [[nodiscard]] double law_reading_sensors(int k, const fem::StepState& s, SensorReading how, double at,
                                           const Eigen::Matrix<double, 6, 1>& e, const Eigen::Matrix<double, 6, 1>& rate,
                                           Row6& by_e, Row6& by_rate, SensorGradient& by_columns, double weight) const;
  /// The step average F̄ of component k's law of the motion (or, in statics, its end value) and its
  /// derivatives by e_{n+1} and by the sensor columns (`by_columns`: sensor_columns_.size(), set;
  /// header comment).
  [[nodiscard]] double law_over_step(int k, const fem::StepState& s, const Eigen::Matrix<double, 6, 1>& E0,
                                     const Eigen::Matrix<double, 6, 1>& E1, Row6& dE1, SensorGradient& by_columns) const;
  /// The node unknowns of the step in the order of two_frame (zeros for the ground).
  [[nodiscard]] Eigen::Matrix<double, 12, 1> step_unknowns(const fem::StepState& s) const;
  struct End;
  /// The end of the time element `s` for its trial unknowns, computed once for them (add_step_work
  /// and commit both ask).
  [[nodiscard]] const End& end_of(const fem::StepState& s) const;
  void stamp_with(const fem::StepState& s, fem::ResidualSink& r, fem::JacobianSink& j, bool by_hand) const;

  std::array<JointFrame, 2> frames_;
  JointDefinition def_;
  double length_scale_;
  std::array<fem::BlockId, 2> displacement_{}, rotation_{};
  fem::BlockId reaction_;
  LawSensorColumns sensor_columns_;  ///< the nodes the laws' sensors read (set by couple_law_sensors)

  // History: the committed relative coordinates and the last step's multipliers.
  Eigen::Matrix<double, 6, 1> e_ = Eigen::Matrix<double, 6, 1>::Zero();
  Eigen::Matrix<double, 6, 1> lambda_ = Eigen::Matrix<double, 6, 1>::Zero();
  bool active_now_ = true;  ///< at the committed state
  Mat3 relative_rotation_ = Mat3::Identity();  ///< J_aᵀ J_b at the committed state
  Mat3 axes0_ = Mat3::Identity();               ///< frame A's joint axes at t = 0, global
  fem::StartCache<Start> start_, translation_start_;  ///< start(s, true) and start(s, false)
  struct StampStart;
  fem::StartCache<StampStart> stamp_start_;  ///< the stamp's compact start (joints without rotational multipliers)
  mutable std::unique_ptr<End> end_;                    ///< end_of's last answer
};

/// The nodes frames a and b are on, as a joint between them receives them (the ground's frame
/// has none).
std::vector<fem::AttachedNode> attach_frames(const fem::Model& model, const JointFrame& a, const JointFrame& b);

}  // namespace catena::elements
