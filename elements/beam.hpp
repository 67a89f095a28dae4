#pragma once
/// Two-node 3D co-rotational beam between frame nodes a and b (docs/formulation.md §3).
///
/// Kinematics. The beam's end points are the nodes, or points rigidly offset from them
/// (eccentric connections: p = x + R o, o in node axes). At t = 0 the element frame E0 has e1 along
/// the chord a→b between the end points and e2 along the
/// orientation vector made normal to e1; each node keeps the constant offset C = R_0ᵀ E0 from its
/// own triad, so S = R C is the section frame the node carries. In any configuration the
/// element frame E is the mean of the two section frames, S_a exp(½ log(S_aᵀ S_b)), turned by the
/// smallest rotation that brings its first axis onto the chord. E does not depend on which node
/// is called a. Local deformations (all zero under any rigid motion):
///   ε_ax = (l − L)/L + Σ_{y,z} (2θ_a² − θ_a θ_b + 2θ_b²)/30   (the second-order term is the
///          arc-length excess of the cubic deflection; it gives the consistent geometric
///          stiffness, accurate with few elements)
///   θ_t = θ_{b,x} − θ_{a,x}     torsion
///   θ_{a,y}, θ_{b,y}, θ_{a,z}, θ_{b,z}   end rotations relative to the chord
/// with θ_a = log(Eᵀ S_a). Strain energy W = ½ εᵀ K ε, K from EA, GJ and Timoshenko bending with
/// shear flexibility tied to bending (Φ = 12 EI/(GA L²): no shear locking):
///   (EI/(L(1+Φ))) [[4+Φ, 2−Φ], [2−Φ, 4+Φ]] per bending plane.
///
/// Time integration. Unknowns u = (Δx_a, b_a, Δx_b, b_b), b the nodes' Cayley vectors of the step
/// (fem/step_rotation.hpp). Midpoint: the internal force is f = Gᵀ K ½(ε_n + ε_{n+1}) with G a
/// discrete gradient of ε(u), G u = Δε exactly, so f · u = W_{n+1} − W_n: the beam neither gains
/// nor loses energy. G is built through invariants seen from one end k (beam.cpp):
/// z_k = (S_kᵀ d, S_kᵀ S_o), the chord d between the end points and the other section frame S_o in
/// the axes of S_k; ε = φ(z_k). z_k is bilinear in positions and triads, so with the Cayley step
/// (ΔR = b̂ R̄, R̄ the step average) its change has an exact closed-form gradient, Δz = G_z u, and
/// G_z w = 0 for every rigid mode w of the middle configuration: f has no resultant and no moment
/// about the midpoint positions, and linear and angular momentum are kept exactly. Then
/// G = G_φ G_z with G_φ Gonzalez's discrete gradient of φ in z-space: ∇φ at the middle
/// configuration plus the miss (Δε − ∇φ Δz) along W Δz / (|Δz|²_W + τ²), W = diag(I/L², I₉),
/// τ² = 1e-12: G u = Δε to within |φ''| τ² per step (spin-up-simo: 1e-10 of its energy over 30 s).
/// The correction scales with the change of the beam's shape, not with the step:
/// a spinning, nearly rigid beam gets a small, smooth correction, and Newton converges (spin-up-simo
/// at Δt = 0.01 over 30 s: no cut step and 3.3 iterations per step, where a correction along the
/// step's deformational part took 468 cuts and 7.8 iterations). The end k is the one with the
/// lexicographically smaller reference point, so both node orders give the same element.
/// Trapezoidal: f = ½ (B_0ᵀ K ε_n + B_uᵀ K ε_{n+1}). Kelvin–Voigt damping
/// adds Gᵀ (η K) Δε/h, which dissipates exactly Δεᵀ η K Δε / h ≥ 0 per step.
/// Static: f = B_uᵀ K ε_{n+1}.
/// Mass: lumped, ρA L/2 and the rotary inertia (L/2) diag(ρJ, ρI_y, ρI_z) in section axes at
/// each node, integrated as in RigidBody (energy–momentum); the step's gravity on the lumped masses. A
/// consistent part α (M_c − M_l) = α ρA L/6 [−1 1; 1 −1] ⊗ I may be added to the translations
/// (BeamSection::mass_coupling): constant, with zero row sums, so it changes neither the weight nor
/// the linear momentum, adds −(αρA L/12)|v_a − v_b|² to the kinetic energy and
/// −(αρA L/6)(x_a − x_b) × (v_a − v_b) to the angular momentum, and the time element conserves
/// both as it does for the lumped part (a constant mass matrix with isotropic node blocks).
/// Jacobians: exact, by forward automatic differentiation (elements/dual.hpp) and a reverse sweep
/// for the Hessian of the deformation work (elements/reverse.hpp); the residual's gradient of that
/// work by a hand-written reverse sweep (elements/beam_deformations.hpp).
#include "elements/end_sections.hpp"
#include "fem/element.hpp"
#include "fem/start_cache.hpp"

#include <array>

namespace catena::elements {

using fem::Mat3;
using fem::NodeId;
using fem::Vec3;

struct BeamSection {
  double EA = 0.0;    ///< axial stiffness [N]
  double GAy = 0.0;   ///< shear stiffness along local y [N] (0: no shear flexibility)
  double GAz = 0.0;   ///< shear stiffness along local z [N] (0: no shear flexibility)
  double GJ = 0.0;    ///< torsional stiffness [N m²]
  double EIy = 0.0;   ///< bending stiffness about local y [N m²]
  double EIz = 0.0;   ///< bending stiffness about local z [N m²]
  double rhoA = 0.0;  ///< mass per length [kg/m]
  double rhoJ = 0.0;  ///< polar mass moment per length [kg m]
  double rhoIy = 0.0; ///< mass moment about local y per length [kg m]
  double rhoIz = 0.0; ///< mass moment about local z per length [kg m]
  double damping_time = 0.0;  ///< Kelvin–Voigt retardation time η [s]: stresses K (ε + η ε̇)
  /// Translational mass M = M_lumped + α (M_consistent − M_lumped), α = mass_coupling: 0 lumped,
  /// ½ mixed (the most accurate frequencies: its error is a fifth of the lumped one for the third
  /// cantilever mode), 1 consistent (ρA L/6 [2 1; 1 2] for linear interpolation).
  double mass_coupling = 0.0;
  double radius = 0.0;        ///< for output only (ParaView tubes) [m]
};

/// Section forces in the element frame at the element's middle (N, Q_y, Q_z, T, M_y, M_z) [N, N m].
struct SectionForces {
  double N = 0.0, Qy = 0.0, Qz = 0.0, T = 0.0, My = 0.0, Mz = 0.0;
};

class Beam final : public fem::Element {
 public:
  static constexpr int n_strains = 6;  ///< ε_ax, θ_t, θ_ay, θ_by, θ_az, θ_bz

  /// `orientation`: a vector (global axes, at t = 0) in the plane of local x and y, not along
  /// the chord. The nodes' states at t = 0 give their triads. Both nodes must be frame nodes.
  /// `end_offsets`: rigid eccentric connections, the beam's end points from nodes a and b (global
  /// axes, at t = 0); they turn with the nodes. The lumped masses stay at the nodes.
  Beam(std::string name, const fem::AttachedNode& a, const fem::AttachedNode& b, const BeamSection& section,
       const Vec3& orientation,
       const std::array<Vec3, 2>& end_offsets = {Vec3::Zero(), Vec3::Zero()});
  ~Beam() override;

  std::string_view kind() const override { return "beam"; }
  void declare(fem::UnknownRegistry& registry) override;
  void stamp(const fem::StepState& s, fem::ResidualSink& r, fem::JacobianSink& j) const override;
  /// The change of deformations over the step in long double (beam.cpp: change_of_deformations).
  [[nodiscard]] bool has_precise_residual() const override { return true; }
  void add_energy(std::span<const fem::NodeState> states, const Vec3& gravity, fem::StateEnergy& e) const override;
  void add_step_work(const fem::StepState& s, fem::StepWork& w) const override;
  /// The lumped masses: ρA L/2 and the rotary inertia at each node.
  void inertia_lumps(fem::InertiaSink& out) const override;
  /// The consistent part of the translational mass (mass_coupling), which lumps cannot carry.
  void stamp_rates(const fem::StepState& s, fem::JacobianSink& mass, fem::JacobianSink& damping) const override;
  std::span<const NodeId> cell_nodes() const override { return nodes_; }
  fem::Drawing drawing() const override { return fem::drawn_as(fem::DrawnAs::Beam); }
  /// Fields: axial_force, shear_force_y, shear_force_z, torque, bending_moment_y,
  /// bending_moment_z (SectionForces), radius.
  void cell_values(std::span<const fem::NodeState> states, fem::CellValueSink& out) const override;
  /// `section_force`, `section_moment` at each end (end_sections).
  void end_values(std::span<const fem::NodeState> states, fem::EndValueSink& out) const override;

  /// Local deformations ε for the given states.
  [[nodiscard]] Eigen::Matrix<double, n_strains, 1> strains(std::span<const fem::NodeState> states) const;
  [[nodiscard]] double strain_energy(std::span<const fem::NodeState> states) const;
  [[nodiscard]] SectionForces section_forces(std::span<const fem::NodeState> states) const;
  /// The section force and moment at each end, a then b, in the section axes that end's node
  /// carries (elements/end_sections.hpp), from the internal force Bᵀ K ε at the given states.
  [[nodiscard]] std::array<EndSection, 2> end_sections(std::span<const fem::NodeState> states) const;
  [[nodiscard]] double length() const { return L_; }
  [[nodiscard]] const BeamSection& section() const { return section_; }
  /// The local axes x, y, z (columns, global) that node a carries in `states`: at the initial
  /// states, the section axes the beam was given (`EIy` bends it in the plane of x and z).
  [[nodiscard]] Mat3 section_axes(std::span<const fem::NodeState> states) const;
  /// α ρA L / 6: the coupling entry of the consistent part of the translational mass.
  [[nodiscard]] double coupling_mass() const { return section_.mass_coupling * section_.rhoA * L_ / 6.0; }

 private:
  struct StepStart;
  /// Half the element's mass and rotary inertia, lumped on node k (node axes): what the stamps,
  /// the energies and the linearized analyses see.
  [[nodiscard]] fem::InertiaLump lump(std::size_t k) const;

  std::array<NodeId, 2> nodes_;
  std::array<fem::BlockId, 2> displacement_;
  std::array<fem::BlockId, 2> rotation_;
  BeamSection section_;
  double L_;                              ///< length at t = 0 [m]
  std::array<Mat3, 2> offset_;            ///< C_a = R_a0ᵀ E0
  std::array<Vec3, 2> end_offset_;        ///< end points from the nodes, node axes
  Eigen::Matrix<double, n_strains, n_strains> K_;
  std::array<Vec3, 2> reference_position_;
  int invariant_side_ = 0;  ///< the end whose invariants the midpoint's discrete gradient uses (beam.cpp)
  std::array<bool, 2> aligned_{false, false};  ///< offset_[k] is exactly the identity
  std::array<bool, 2> centred_{false, false};  ///< end_offset_[k] is exactly zero
  fem::StartCache<StepStart> start_cache_;  ///< stamp's start of the step, once per time element
};

}  // namespace catena::elements
