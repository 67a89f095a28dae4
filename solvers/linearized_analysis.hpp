#pragma once
/// Eigen and buckling analyses: the model linearized about a state (docs/architecture.md,
/// "Linearized analyses").
///
/// State: the static equilibrium under the loads at t = 0 (load factor 1), or the configuration
/// as given, optionally seen from a frame turning at a constant rate Ω (a steady rotation; in
/// that frame it is an equilibrium under centrifugal forces).
/// Matrices, all with the tableau's pattern and the joints' multipliers kept as unknowns:
///   K  the static stamp's Jacobian (material, geometric and load stiffness, constraint rows,
///      centrifugal softening in a turning frame),
///   D  ∂(residual)/∂(rates): joint dampers, Coriolis and gyroscopic terms,
///   M  ∂(residual)/∂(accelerations): the elements' inertia lumps (elements/node_inertia.hpp).
/// Modes: (s² M + s D + K) φ = 0, with SLEPc: without D the generalized problem K φ = ω² M φ
/// (EPS), otherwise the quadratic one (PEP); shift-and-invert about a target σ below zero, LU by
/// the model's linear solver. Rows without inertia (constraints) have infinite eigenvalues and
/// never come near σ; rigid-body and mechanism modes come out as ω ≈ 0 and are reported as such.
/// Buckling: (K(p) + Λ K₁) φ = 0 with K₁ = dK/dp from the equilibria at p and p + δp (the linear
/// buckling problem about the preloaded state p), and the lowest eigenvalue of K (in a metric that
/// needs no inertia, BucklingPoint) tracked along the static load path until it crosses zero.
#include "assembly/tableau.hpp"
#include "solvers/committed_state.hpp"
#include "solvers/newton.hpp"
#include "solvers/run_counters.hpp"
#include "solvers/static_equilibrium.hpp"

#include <atomic>
#include <complex>
#include <memory>
#include <vector>

namespace catena::solvers {

enum class ModeKind : std::uint8_t { Rigid, Elastic, Unstable };

struct Mode {
  /// The root s of det(s² M + s D + K) = 0 of the pair ±s: Im s > 0, or, for a real pair, s ≥ 0.
  /// Rigid modes keep their computed (round-off) value; writers show them as zero.
  std::complex<double> s;
  ModeKind kind = ModeKind::Elastic;
  /// φ, global numbering, as it is drawn: the motion Im(φ e^{iθ}) = sin θ Re φ + cos θ Im φ over
  /// a period θ ∈ [0, 2π]. Its phase is turned so that the largest component of the node that
  /// moves most is real and positive, and it is scaled so that this node's largest displacement
  /// over the period is 1 in length (a mode of rotations such as a shaft's torsion, whose
  /// displacements are below 1e-3 of its rotations times the model's size: its largest rotation
  /// times that size). `shape` is Re φ; `shape_imag` Im φ, empty for a real φ (every mode of
  /// K φ = ω² M φ). A quadratic problem's (D ≠ 0) eigenvector is complex: its real part alone may
  /// be anything, even zero.
  std::vector<double> shape, shape_imag;

  [[nodiscard]] double natural_frequency() const { return std::abs(s); }  ///< |s| [rad/s]
  [[nodiscard]] double damped_frequency() const { return std::abs(s.imag()); }  ///< [rad/s]
  /// −Re s / |s|; 0 when Re s = 0 (not −0, which an undamped mode's −0 / |s| would print as).
  [[nodiscard]] double damping_ratio() const { return s.real() != 0.0 ? -s.real() / std::abs(s) : 0.0; }

  /// Two-sided solves only (LinearizedAnalysis::modes(true), for eigenvalue sensitivities): the
  /// eigenvalue μ = −s² of K φ = μ M φ, and its right and left eigenvectors (K φ = μ M φ,
  /// ψᴴ K = μ ψᴴ M) as the solver gave them (not normalized), global numbering.
  std::complex<double> mu;
  std::vector<std::complex<double>> right, left;
};

struct EigenResult {
  std::vector<Mode> modes;  ///< by increasing |s|
  double shift = 0.0;       ///< σ used for ω² [(rad/s)²]: 0, or below 0 for a singular K
  bool quadratic = false;   ///< solved as a quadratic problem (D ≠ 0)
  /// Two-sided solves only: μ of the converged eigenpairs beyond `modes` (a kept mode's eigenvalue
  /// may have a close partner among them).
  std::vector<std::complex<double>> other_values;
};

struct BucklingPoint {
  double load_factor = 0.0;
  /// Lowest eigenvalue μ of K φ = μ B φ there, B = I on displacements and L² I on rotations (L:
  /// the model's size) [N/m]; it crosses zero where the path loses stability.
  double lowest = 0.0;
};

struct BucklingResult {
  double preload = 0.0;
  /// The smallest positive critical factor of the linear buckling problem about the preload;
  /// NaN when there is none.
  double linear_factor = 0.0;
  std::vector<double> linear_shape;  ///< its mode (global numbering), scaled as Mode::shape
  std::vector<BucklingPoint> path;   ///< the tracked lowest eigenvalue
  /// Where the tracked lowest eigenvalue crosses zero (secant refinement between the path's
  /// points); NaN when it does not up to load_factor_max.
  double tracked_factor = 0.0;
  /// Two-sided solves only (buckling(true), for critical-load sensitivities): every converged
  /// eigenpair of the linear problem A φ = Λ B φ (LinearizedAnalysis::buckling_stiffness(),
  /// buckling_stiffness_rate()) as a Mode with Mode::mu = Λ (from the preload) and its right and
  /// left eigenvectors (s, kind and shape unused); `linear_index` the one reported as
  /// linear_factor = preload + Λ (linear_pairs.modes.size() when there is none).
  EigenResult linear_pairs;
  std::size_t linear_index = 0;
};

class LinearizedAnalysis {
 public:
  /// Builds the tableau of `model`, whose inertia must already be in NodeInertia elements
  /// (elements::add_node_inertia: M and the turning frame's terms come from them alone; solvers
  /// do not link elements). `model` must outlive this object.
  LinearizedAnalysis(fem::Model& model, MPI_Comm comm);
  ~LinearizedAnalysis();

  /// Polls `stop` (may be null) inside the eigensolver's iterations and between the buckling
  /// path's increments; when set on any rank they end with solvers::Interrupted (collective).
  void set_stop(const std::atomic<bool>* stop) { stop_ = stop; }
  /// Throws Interrupted ("stopped " + where) when `set_stop`'s flag is set on any rank (collective).
  void stop_if_requested(const char* where) const;

  /// Brings the states to the linearization point: refuses redundant constraints, then solves
  /// the equilibrium (about_equilibrium) or keeps the configuration. Throws SolverFailure.
  void establish_state();
  /// K, D, M at the current states (load factor `p`, 1 for eigen-analysis).
  void linearize(double load_factor = 1.0);
  /// Modes of the last linearization. `two_sided`: also the right and left eigenvectors and μ of
  /// each mode and the other converged eigenvalues (Mode::mu, EigenResult::other_values; a second
  /// solve, of the transposed pencil), for K φ = ω² M φ only: throws SolverFailure for a quadratic
  /// problem (quadratic()). A mode whose left eigenvector was not found has Mode::left empty.
  [[nodiscard]] EigenResult modes(bool two_sided = false) const;
  /// Whether the last linearization has rate terms (D ≠ 0): its modes solve a quadratic problem
  /// (collective).
  [[nodiscard]] bool quadratic() const;
  /// Buckling of the loads: linear problem about the current state, then the tracked path.
  /// `two_sided`: also the linear problem's eigenpairs with their left eigenvectors
  /// (BucklingResult::linear_pairs; a second solve, of the transposed pencil).
  [[nodiscard]] BucklingResult buckling(bool two_sided = false);
  /// The linear buckling problem about the current state (load factor p, after establish_state):
  /// A φ = Λ B φ with A = K(p) and B = −dK/dλ, this by central differences of the equilibria at
  /// p ± δ, δ = 10⁻² max(1, p). Leaves the states at p + δ. buckling() forms it first.
  void form_buckling_pencil();
  [[nodiscard]] Mat buckling_stiffness() const { return buckling_A_; }       ///< A = K(p)
  [[nodiscard]] Mat buckling_stiffness_rate() const { return buckling_B_; }  ///< B = −dK/dλ

  [[nodiscard]] Mat stiffness() const { return K_; }
  [[nodiscard]] Mat damping() const { return D_; }
  [[nodiscard]] Mat mass() const { return M_; }
  [[nodiscard]] const assembly::Tableau& tableau() const { return *tableau_; }
  [[nodiscard]] std::span<const fem::NodeState> states() const { return state_->states(); }
  /// What the static solves counted (Newton iterations, increments).
  [[nodiscard]] const RunCounters& counters() const { return counters_; }
  /// Energies of the current states (collective).
  [[nodiscard]] EnergyRecord energy() const { return state_->energy(0.0); }

  /// An eigenvalue (μ or s) with its vector (global numbering).
  struct Pair {
    std::complex<double> value;
    std::vector<double> vector;  ///< the real part
    /// The imaginary part: quadratic problems' eigenpairs with Im s ≠ 0 only, empty otherwise.
    std::vector<double> imag;
    /// Two-sided solves: the whole (complex) right and left eigenvectors.
    std::vector<std::complex<double>> right, left;
  };

 private:
  [[nodiscard]] fem::StepState static_context(double load_factor) const;
  /// Eigenpairs s of (K + s D + s² M) φ = 0 nearest √shift, one of each conjugate pair.
  void quadratic_eigenpairs(double shift, double omega2, double spurious, std::vector<Pair>& pairs) const;
  /// The left eigenvectors of A φ = μ B φ for `pairs` (whole right eigenpairs, `nev` asked near
  /// `target`), from the transposed pencil, matched by eigenvalue.
  void attach_left_eigenvectors(Mat A, Mat B, double target, int nev, std::vector<Pair>& pairs) const;
  /// Modes of K φ = ω² M φ (+ D when `with_damping`) for the current K, D and the given M.
  [[nodiscard]] EigenResult modes(Mat M, bool with_damping, bool two_sided = false) const;
  /// Lowest eigenvalue μ of K φ = μ B φ, rigid modes left out.
  [[nodiscard]] double lowest_eigenvalue(Mat B) const;

  fem::Model* model_;
  std::unique_ptr<assembly::Tableau> tableau_;
  RunCounters counters_;
  std::unique_ptr<Newton> newton_;
  std::unique_ptr<CommittedState> state_;
  std::unique_ptr<StaticEquilibrium> equilibrium_;  ///< the linearization point's and the buckling path's
  assembly::VecHandle u_;
  assembly::MatHandle K_, D_, M_;
  assembly::MatHandle buckling_A_, buckling_B_;  ///< the last form_buckling_pencil's
  double load_factor_ = 0.0;  ///< of the current states
  const std::atomic<bool>* stop_ = nullptr;
};

}  // namespace catena::solvers
