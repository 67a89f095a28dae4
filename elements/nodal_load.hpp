#pragma once
/// Nodal force or moment given as three time functions, dead (global axes) or follower (axes of
/// a frame node, turning with it), or, dead only, with components that are laws of the motion.
/// Row: −ḡ on the node's force (or moment) balance, with ḡ the load over the step:
///   dead       ḡ = ½ (g(t_n) + g(t_{n+1}))                        (no Jacobian)
///   follower   ḡ = R_m ½ (g(t_n) + g(t_{n+1})),  R_m = R_n turned by half the step's angle
///              (fem::half_step_rotation; Jacobian by automatic
///              differentiation; a follower load is not conservative, so any consistent average
///              will do, and this one is symmetric in time)
/// Its work over a step, ḡ · Δx for a force and ḡ · b for a moment (b: the step's Cayley vector,
/// the work-conjugate of moments in Catena's balances, fem/step_rotation.hpp), is the
/// `external_work` of energy.csv, so the balance holds for time-varying loads too.
/// Static analysis: ḡ = g(t_{n+1}) (follower: R_{n+1} g).
///
/// Laws of the motion (LoadLaws; fem/law.hpp): a dead load's component may be a law F of the
/// loaded node's position x and velocity v (global), its speed |v|, for a moment its angular
/// velocity w (global), the sampled inputs u and t (a drag −c·speed·vx, a thrust that fades with
/// the speed, a spring to a point −k(x − x0)). Over a time step its average along the step,
///   F̄ = ∫₀¹ F(x_n + s Δx, Δx/h, b/h, u(t_n), t_n + s h) ds     (4-point Gauss–Legendre),
/// the joint's rule (elements/joint.hpp) rather than the midpoint value F(x̄, ...): for a law of x
/// alone that is a gradient, F = −∇V, the work F̄ · Δx = ∫ F · dx along the step is −ΔV exactly
/// for V a polynomial up to degree 8 (and to the quadrature's error otherwise), so a spring
/// written as a law keeps the energy to the Newton tolerance, where the midpoint value lets a
/// nonlinear one's energy drift at second order in h. Rates enter as the step's mean velocities Δx/h and b/h, what the
/// scheme's momentum balances see: a linear drag −c v gives m(v_{n+1} − v_n)/h = −c ½(v_n + v_{n+1}),
/// the decay factor (1 − ch/2m)/(1 + ch/2m) per step, and dissipates c |Δx|²/h ≥ 0, booked (as
/// all of F̄'s work) as external work. Jacobian: ∂F̄/∂Δx = ∫ (s ∂F/∂x + ∂F/∂v / h) ds on the
/// node's displacement block, ∂F̄/∂b = ∫ ∂F/∂w / h ds on its rotation block, from the law's
/// exact derivatives. speed enters through ∂/∂v = (∂F/∂speed) v/|v|. At v = 0 that direction does
/// not exist: a law whose derivative by speed vanishes there (the drag −c·speed·vx) is
/// differentiable and its derivative is 0; one whose derivative by speed does not (a thrust
/// T0(1 − speed/v_max)) has a cone there, and Newton's matrix takes the zero element of its
/// generalized gradient: a step from rest starts at v̄ = 0 (the predictor's Δx = h v_n), and a
/// LawError there, as fem::Law reports a kink of abs, would leave such a thrust no first step. Its
/// iterates leave the cone, and a converged step that moves has the exact derivative; a step that
/// converges at rest does so on a residual that is zero there. A linearized analysis about rest
/// has no linearization of such a law: stamp_rates throws LawError.
/// Statics: F(x_{n+1}, 0, 0, u(t_n), t_{n+1}), taken whole at every load factor of an initial
/// equilibrium (as the joint's laws and springs: only functions of time are ramped).
/// Linearized analyses: ∂F/∂x in the static stamp's stiffness, −∂F/∂v and −∂F/∂w at the state,
/// rates zero, as damping (stamp_rates). Follower and semitangential loads take no laws.
/// A law may also read sensors (fem/law_sensors.hpp), other nodes' motion taken along the same step
/// (elements/law_sensor_reading.hpp): its rows then also have their derivatives by those nodes'
/// unknowns (linearized: by their rates as damping).
///
/// Semitangential moment (Argyris): the conservative moment whose potential is −m · ψ, ψ the
/// rotation vector of the node's rotation from its reference orientation, R R_0ᵀ = exp(ψ̂), m
/// given in global axes. Its vector turns, to first order, by half the node's rotation (a follower
/// moment turns by all of it, a dead one not at all): a clamped shaft under a semitangential end
/// torque buckles at M = π EI / l. Rows: static −T(ψ)⁻ᵀ m (T the tangent of exp), the spatial
/// moment, as static moment rows are; time elements the gradient −Tc(b)ᵀ T(ψ_m)⁻ᵀ m in the
/// step's Cayley vector b (Tc: tangent of the Cayley map) at ψ_m = ½(ψ_n + ψ_{n+1}), with Gonzalez's
/// correction along b, so that the work over a step is m̄ · (ψ_{n+1} − ψ_n) exactly. Defined while
/// the rotation from the reference stays below π.
#include "elements/law_sensor_reading.hpp"
#include "fem/element.hpp"
#include "fem/expression.hpp"
#include "fem/inputs.hpp"
#include "fem/law.hpp"

#include <array>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace catena::elements {

enum class LoadKind : std::uint8_t { Force, Moment };
enum class LoadAxes : std::uint8_t { Global, Follower, Semitangential };

/// The variables a load's law of the motion reads, in the order fem::Law takes their values: the
/// node's position [m] and velocity [m/s] (global), its speed |v| [m/s] and its angular velocity
/// [rad/s] (global; moments only), then the inputs it names (LoadLaw::inputs). A force's laws
/// read the first nodal_force_variable_count.
inline constexpr std::array<std::string_view, 10> nodal_load_variables{"x",     "y",  "z",  "vx", "vy",
                                                                       "vz", "speed", "wx", "wy", "wz"};
inline constexpr std::size_t nodal_force_variable_count = 7;

/// A component given as a law of the motion (header comment) instead of a function of time.
struct LoadLaw {
  /// Variables: nodal_load_variables (a force's: the first nodal_force_variable_count), then the
  /// sensors `sensors` names, then the inputs `inputs` names.
  fem::Law law;
  std::vector<std::size_t> inputs;   ///< indices of fem::Inputs
  std::vector<std::size_t> sensors{};  ///< indices of fem::LawSensors
};

/// The components of a load that are laws of the motion (the others are its functions of time).
struct LoadLaws {
  std::array<std::optional<LoadLaw>, 3> components;
  /// The model's inputs (fem::Model::inputs), which the laws read; none when no law reads any.
  std::shared_ptr<const fem::Inputs> inputs;
  /// The sensors the laws read (fem::Model::law_sensors, bound before `declare`); none when no law
  /// reads any.
  std::shared_ptr<const fem::LawSensors> law_sensors{};
};

class NodalLoad final : public fem::Element {
 public:
  /// `scale` multiplies the three functions (a distributed load lumped on a node, for instance)
  /// and the laws. Moments and follower loads need a frame node. A component with a law in `laws`
  /// is that law (its function in `values` is added to it: give 0); laws need global axes.
  NodalLoad(std::string name, const fem::AttachedNode& node, std::array<fem::Expression, 3> values,
            LoadKind kind = LoadKind::Force, LoadAxes axes = LoadAxes::Global, double scale = 1.0,
            const fem::Quaternion& reference = fem::Quaternion::Identity(), LoadLaws laws = {});

  std::string_view kind() const override { return kind_ == LoadKind::Force ? "nodal_force" : "nodal_moment"; }
  void declare(fem::UnknownRegistry& registry) override;
  /// Its rows with the blocks of the nodes its laws' sensors read.
  std::vector<fem::BlockId> couple_law_sensors() override;
  void stamp(const fem::StepState& s, fem::ResidualSink& r, fem::JacobianSink& j) const override;
  void add_step_work(const fem::StepState& s, fem::StepWork& w) const override;
  /// Damping of the linearized problem: −∂F/∂v and −∂F/∂w of the laws of the motion (header).
  void stamp_rates(const fem::StepState& s, fem::JacobianSink& mass, fem::JacobianSink& damping) const override;
  /// The functions of time at t in the given axes: scale · g(t) [N or N m] (laws not included).
  [[nodiscard]] fem::Vec3 value(double t) const;
  /// The laws of the motion over the step (static: at its end) and their derivatives by the
  /// step's unknowns Δx and b (header comment); zero without laws.
  struct LawsOverStep {
    fem::Vec3 value = fem::Vec3::Zero();
    fem::Mat3 by_displacement = fem::Mat3::Zero();
    fem::Mat3 by_rotation = fem::Mat3::Zero();
    SensorJacobian<3> by_sensors;  ///< by the unknowns of the nodes the laws' sensors read
  };
  [[nodiscard]] LawsOverStep laws_over_step(const fem::StepState& s) const;
  /// Its point of application, the node itself.
  void attachment_points(std::vector<fem::AttachmentPoint>& out) const override {
    out.push_back({node_, fem::Vec3::Zero(), false});
  }

 private:
  /// The motion a law reads at one instant: position, velocity and angular velocity (global).
  struct Motion {
    fem::Vec3 x, v, w;
  };
  /// The derivatives of the laws at one instant, a row per component.
  struct LawGradient {
    fem::Mat3 by_x = fem::Mat3::Zero(), by_v = fem::Mat3::Zero(), by_w = fem::Mat3::Zero();
    fem::Vec3 by_speed = fem::Vec3::Zero();  ///< ∂F/∂speed, included in by_v but for its direction
    SensorJacobian<3> by_sensors;            ///< through the sensors, by their nodes' unknowns or rates
  };
  /// The laws with the inputs held from the step's start and the sensors read `how` (at `at` of the
  /// step; its time): their values and derivatives; derivatives by v (speed's included, header) and
  /// w only for readings with rates (not End).
  [[nodiscard]] fem::Vec3 laws_at(const fem::StepState& s, SensorReading how, double at, const Motion& motion,
                                  LawGradient& d) const;

  fem::NodeId node_;
  fem::BlockId block_;     ///< displacement (force) or rotation (moment) block
  fem::BlockId displacement_;  ///< the node's displacement block (laws of x and v)
  fem::BlockId rotation_;  ///< the node's rotation block (follower loads, laws of w)
  std::array<fem::Expression, 3> values_;
  LoadKind kind_;
  LoadAxes axes_;
  double scale_;
  fem::Mat3 reference_;  ///< R_0 of a semitangential moment's node
  LoadLaws laws_;
  LawSensorColumns sensor_columns_;  ///< the nodes the laws' sensors read (set by couple_law_sensors)
  bool reads_translation_ = false;  ///< a law reads x, v or speed: the displacement block's columns
  bool reads_rotation_ = false;     ///< a law reads w: the rotation block's columns
};

}  // namespace catena::elements
