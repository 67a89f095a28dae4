#pragma once
/// Direct (forward) design sensitivities of a run (docs/sensitivity.md): the derivative of every
/// committed state, sensor and energy column with respect to named model parameters, carried
/// along the time elements by the chain rule.
///
/// A time element's unknowns u solve R(u; S_n, p) = 0, S_n the state it starts from (node
/// positions, velocities, orientations, angular velocities, the elements' histories: a joint's
/// relative coordinates and multipliers, a body's centre velocity; the work done so far), and the
/// state it ends in is S_{n+1} = A(S_n, u) (the elements' commit and fem::advance). So
///
///   J du/dp = −(∂R/∂S_n dS_n/dp + ∂R/∂p),   dS_{n+1}/dp = ∂A/∂S_n dS_n/dp + ∂A/∂u du/dp,
///
/// J = ∂R/∂u the exact Jacobian at the converged u, evaluated and factored afresh (Newton may have
/// kept an older one). This is the derivative of the converged discrete solution: the computed
/// states, not the exact motion, are differentiated, so it agrees with differences of whole runs
/// (same steps, no cuts) to their own accuracy.
///
/// A parameter reaches every number of the model through its expressions (node positions, section
/// data, masses, loads and joint laws as functions of time, gravity): the model is read again at
/// p + kε, k = −2, −1, 1, 2 (io/sensitivity_models.hpp, same structure checked), and the partial
/// derivatives ∂R/∂S_n · dS_n/dp + ∂R/∂p, ∂A/∂S_n · dS_n/dp + ∂A/∂u · du/dp and those of the sensors
/// and energies are directional derivatives along (dS/dp, 1): those models' elements are evaluated
/// at S + kε dS/dp (orientations exp(kε dθ) R) and differenced with the fourth-order central
/// formula (8 (f₁ − f₋₁) − (f₂ − f₋₂)) / 12ε, whose truncation error is O(ε⁴) (ε = 1e-3 |p|: ~1e-12
/// relative) and rounding ~1e-13: the partials are exact to the digits a run keeps. The state at
/// t = 0 (the initial equilibrium and the velocities made to meet the joints included) is each
/// model's own start, differenced alike; those solves converge to the Newton tolerance, which then
/// bounds the start's derivative at tolerance / ε.
///
/// Cost per time element: one Jacobian and factorization, and per parameter four residuals, four
/// commits and one solve. Under MPI every rank evaluates its own elements, as Newton does.
#include "assembly/petsc_handle.hpp"
#include "assembly/tableau.hpp"
#include "fem/model.hpp"
#include "solvers/committed_state.hpp"
#include "solvers/objective.hpp"

#include <petscksp.h>

#include <array>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace catena::solvers {

/// The multiples k of the difference step at which each parameter's model is read again.
inline constexpr std::array<int, 4> difference_multiples{-2, -1, 1, 2};

/// The fourth-order central difference of f at the multiples −2, −1, 1, 2 of `step` (its
/// truncation O(step⁴)): (8 (f₁ − f₋₁) − (f₂ − f₋₂)) / 12 step. For numbers, vectors, matrices.
template <class T>
[[nodiscard]] auto fourth_order_difference(const T& f_m2, const T& f_m1, const T& f_p1, const T& f_p2, double step) {
  return T((8.0 * (f_p1 - f_m1) - (f_p2 - f_m2)) / (12.0 * step));
}

/// A copy of the tableau's Jacobian and a KSP that factors it with a pivoting LU (SuperLU; MUMPS
/// under MPI) whatever Newton uses, with its own options prefix: the sensitivities' exact
/// Jacobian at a converged step, which a saddle-point LU without pivoting might not survive (the
/// adjoint also solves with its transpose, which both packages do).
struct PivotingSolve {
  assembly::MatHandle jacobian;
  assembly::Handle<KSP, KSPDestroy> ksp;
};
[[nodiscard]] PivotingSolve pivoting_solve(const assembly::Tableau& tableau, const char* options_prefix);

/// A parameter a run is differentiated by: its name and value p, the difference step ε, and the
/// model read again at p + kε for each k of difference_multiples (the same structure as the run's).
struct ParameterModels {
  std::string name;
  double value = 0.0;
  double step = 0.0;
  std::array<std::unique_ptr<fem::Model>, difference_multiples.size()> models;
};

/// A node state's derivative: d position, d velocity, d orientation (a spatial rotation vector:
/// R(p + dp) = exp(dθ dp) R(p)), d angular velocity.
using NodeTangent = Eigen::Matrix<double, 12, 1>;

/// fourth_order_difference of a node's states at the multiples −2, −1, 1, 2 of `step`, as a
/// NodeTangent. The orientations' part: the rotation vectors g_k = log(R(k) R(−k)ᵀ) ≈ 2k dθ are
/// odd in k, so (8 g₁ − g₂) / 12 step.
[[nodiscard]] NodeTangent node_state_difference(const fem::NodeState& m2, const fem::NodeState& m1,
                                                const fem::NodeState& p1, const fem::NodeState& p2, double step);
/// `s` moved by a along `d` (the orientation by exp(a dθ) on the left).
[[nodiscard]] fem::NodeState moved_node_state(const fem::NodeState& s, const NodeTangent& d, double a);

/// The derivative of a run's state with respect to one parameter.
struct StateTangent {
  std::vector<NodeTangent> nodes;  ///< per node
  std::vector<std::vector<double>> histories;  ///< per element, its history's derivative
  fem::StepWork work;                          ///< of the work accumulated from t = 0
};

class DirectSensitivity {
 public:
  /// `model` and `tableau` are the run's; they must outlive this.
  DirectSensitivity(fem::Model& model, assembly::Tableau& tableau, std::vector<ParameterModels> parameters);
  ~DirectSensitivity();
  DirectSensitivity(const DirectSensitivity&) = delete;
  DirectSensitivity& operator=(const DirectSensitivity&) = delete;

  [[nodiscard]] const std::vector<ParameterModels>& parameters() const { return parameters_; }
  /// The derivative of the state after the last step (or the start) per parameter.
  [[nodiscard]] const std::vector<StateTangent>& tangents() const { return tangents_; }
  /// Parameter j's model read at p + difference_multiples[k] ε, and its committed state on the
  /// run's tableau: the adjoint (solvers/adjoint_gradient.hpp) evaluates the parameters' partial
  /// derivatives with them once the start's derivative is taken.
  [[nodiscard]] fem::Model& perturbed_model(std::size_t j, std::size_t k) { return *parameters_[j].models[k]; }
  [[nodiscard]] CommittedState& perturbed_state(std::size_t j, std::size_t k) { return *states_[j][k]; }
  /// The columns of a row: per parameter, every sensor, every energy column, and the objective
  /// (`objective:<p>`: its integral so far plus its final value at the row) when the model has one.
  [[nodiscard]] std::vector<std::string> column_names() const;

  /// The derivative of the start (t = 0): each parameter's models run their own start
  /// (TimeIntegrator::prepare_start: the initial equilibrium, the velocities made to meet the joints, the
  /// reactions at t = 0), each on a tableau of its own (collective).
  void start();
  /// After Newton converged on `time` from the committed `state` (before its commit) with the
  /// unknowns `u`: the derivatives of u and of the state the commit leaves (collective). Throws
  /// SolverFailure when the Jacobian at u is singular.
  void step(const fem::TimeElement& time, const CommittedState& state, Vec u);
  /// The derivatives of the sensors and energy columns at the state after the last step (or the
  /// start) at time t, in column_names()'s order (collective: energies are summed over ranks).
  [[nodiscard]] std::vector<double> row(double t) const;
  /// The objective's derivative per parameter at the state after the last step, at time t (rank
  /// 0's: element sensors; empty without an objective).
  [[nodiscard]] std::vector<double> objective_gradient(double t) const;

  /// The tangents, flattened for a checkpoint; a restart gives them back (same model and
  /// parameters, which the checkpoint's fingerprint ensures). Under MPI a rank holds the
  /// histories' derivatives of the elements it keeps (CommittedState); save gathers them on rank
  /// 0 (collective), restore takes them on every rank.
  [[nodiscard]] std::vector<double> save() const;
  void restore(std::span<const double> saved);

 private:
  /// Puts each perturbed model's state at S + kε dS/dp (S: `base` and the run's elements' histories).
  void perturb(const CommittedState& base);
  /// The tangents from the perturbed models' states and histories, by difference.
  void take_tangents();
  /// The objective's integrand (or final value) of each perturbed model of parameter j at its state
  /// at t, differenced (rank 0; 0 elsewhere and without an objective).
  [[nodiscard]] double objective_difference(std::size_t j, double t, bool final) const;
  /// fourth_order_difference of values at the multiples k of ε, in difference_multiples' order.
  [[nodiscard]] static double difference(const std::array<double, 4>& f, double step) {
    return fourth_order_difference(f[0], f[1], f[2], f[3], step);
  }

  fem::Model* model_;
  assembly::Tableau* tableau_;
  std::vector<ParameterModels> parameters_;
  /// Per parameter and multiple, the perturbed model's committed state (on the run's tableau:
  /// the same numbering, its own model's elements).
  std::vector<std::array<std::unique_ptr<CommittedState>, 4>> states_;
  std::vector<StateTangent> tangents_;
  /// Per parameter, the derivative of the objective's integral so far and of its integrand.
  std::vector<ObjectiveIntegral> objective_;
  PivotingSolve solve_;
  int rank_ = 0;
};

}  // namespace catena::solvers
