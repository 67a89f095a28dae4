#pragma once
/// The gradient of a run's objective (`analysis.objective`) with respect to many parameters by one
/// backward sweep of transposed solves: the discrete adjoint of the time elements
/// (docs/sensitivity.md, "The adjoint gradient").
///
/// A time element's unknowns u_n solve R(u_n; S_n, p) = 0 and its commit gives S_{n+1} =
/// A(S_n, u_n, p) (solvers/direct_sensitivity.hpp names S). The objective is
///   Ψ = Σ_n w_n g(S_n, t_n, p) + F(S_N, t_N, p),   w_0 = h_0/2, w_n = (h_{n−1} + h_n)/2, w_N = h_{N−1}/2,
/// the trapezoid of solvers/objective.hpp. With μ_n = dΨ/dS_n (through every later state), from
/// μ_N = F_S + w_N g_S backward:
///   Jᵀ ν_n = (∂A/∂u)ᵀ μ_{n+1},   μ_n = (∂A/∂S)ᵀ μ_{n+1} − (∂R/∂S)ᵀ ν_n + w_n g_S(S_n),
/// and
///   dΨ/dp = Σ_n [μ_{n+1}ᵀ ∂A/∂p − ν_nᵀ ∂R/∂p + w_n g_p(S_n)] + w_N g_p(S_N) + F_p + μ_0ᵀ dS_0/dp,
/// J = ∂R/∂u the exact Jacobian at the converged u_n (assembled and factored afresh per step,
/// solved transposed). This is, to the partials' accuracy, the same number as the direct
/// method's (the chain rule summed in the other order): the derivative of the computed objective.
///
/// The partial matrices ∂R/∂S, ∂A/∂S and ∂A/∂u are not coded in the elements (their Jacobians are
/// in u only). They are sparse: an element's residual rows and history read only its nodes'
/// states and its own history, a node's commit only its own state and unknowns. Their columns are
/// coloured so that no row depends on two columns of one colour (greedy, on the pattern the
/// elements' declared couplings give), and one fourth-order difference per colour
/// (solvers::fourth_order_difference, steps ε = 1e-6 of the state's scale) along the sum of its
/// columns recovers every entry. The parameters' partials ∂R/∂p, ∂A/∂p and g_p are differences of
/// the models read at p ± kε at the same S_n and u_n, and the start's derivative dS_0/dp is the
/// direct method's (DirectSensitivity::start).
///
/// Cost: the forward run stores every time element's start state and unknowns (bytes_stored());
/// the sweep per time element assembles and factors one Jacobian, makes one transposed solve,
/// 4 (colours of S + colours of u) residual and commit evaluations, and per parameter 4 residuals
/// and commits: the solves do not grow with the parameters, the evaluations do (docs/sensitivity.md
/// compares it with the direct method's one solve per parameter and step).
#include "assembly/petsc_handle.hpp"
#include "assembly/tableau.hpp"
#include "fem/model.hpp"
#include "solvers/committed_state.hpp"
#include "solvers/direct_sensitivity.hpp"
#include "solvers/integrator_state.hpp"

#include <petscksp.h>

#include <array>
#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace catena::solvers {

class AdjointGradient {
 public:
  /// `model` and `tableau` are the run's; they must outlive this. Throws std::invalid_argument
  /// when the model has no objective. Under MPI every rank carries the whole sweep on gathered
  /// vectors (the residuals, the histories, the adjoint's), the elements' evaluations and the
  /// transposed solve (MUMPS) distributed as Newton's.
  AdjointGradient(fem::Model& model, assembly::Tableau& tableau, std::vector<ParameterModels> parameters);
  ~AdjointGradient();
  AdjointGradient(const AdjointGradient&) = delete;
  AdjointGradient& operator=(const AdjointGradient&) = delete;

  [[nodiscard]] const std::vector<ParameterModels>& parameters() const { return start_.parameters(); }

  /// At the start (t = 0), after the run's own start: dS_0/dp of each parameter (collective).
  void start() { start_.start(); }
  /// Stores the time element `time` Newton converged on from the committed `state` of `model`
  /// (before its commit) with the unknowns `u` (collective).
  void record(const fem::Model& model, assembly::Tableau& tableau, const fem::TimeElement& time,
              const CommittedState& state, Vec u);
  /// Where a continued run's model comes from again: the same file and settings (commands.cpp).
  void set_model_source(std::function<fem::Model()> source) { model_source_ = std::move(source); }
  /// A run continued from `resume` (a checkpoint): the time elements before it are replayed from
  /// t = 0 on a model of `set_model_source` and recorded first (collective). Throws
  /// std::runtime_error when the replay does not take the checkpoint's count of time elements.
  void resume(const IntegratorState& resume);
  /// Bytes the stored time elements hold.
  [[nodiscard]] std::size_t bytes_stored() const;

  /// The backward sweep, once the run has committed its last time element: dΨ/dp per parameter,
  /// `final_states` the run's states at its end (the elements' histories are the model's; they
  /// are left as they were). Throws SolverFailure when a Jacobian is singular.
  [[nodiscard]] std::vector<double> gradient(std::span<const fem::NodeState> final_states);

  /// The state space's dimension (12 per node, then every element's history) and the colours the
  /// partial matrices take (∂R/∂S and ∂A/∂S share theirs; ∂A/∂u): the sweep's cost per step.
  [[nodiscard]] std::size_t state_size() const { return history_offset_.back(); }
  [[nodiscard]] std::size_t state_colours() const { return state_colouring_.colours.size(); }
  [[nodiscard]] std::size_t unknown_colours() const { return unknown_colouring_.colours.size(); }

  /// The partial matrix ∂(R, A)/∂S (`of_state`) or ∂A/∂u at stored step `step`, dense: rows the
  /// residual's then the commit's outputs (the state space), columns the state space or the
  /// unknowns. `coloured`: as the sweep takes it, entries outside the pattern zero; otherwise one
  /// difference per column and every row (the tests compare the two: the pattern must hold).
  [[nodiscard]] std::vector<std::vector<double>> partial_matrix(std::size_t step, bool of_state, bool coloured);
  [[nodiscard]] std::size_t steps_recorded() const { return steps_.size(); }

 private:
  /// A committed state in the state space's terms.
  struct Snapshot {
    std::vector<fem::NodeState> states;
    std::vector<std::vector<double>> histories;
  };
  struct Step {
    fem::TimeElement time;
    Snapshot start;
    std::vector<double> u;
  };
  /// Columns sharing a colour, and for each column the output rows it may change (ascending).
  struct Colouring {
    std::vector<std::vector<std::size_t>> colours;
    std::vector<std::vector<std::size_t>> rows;
  };

  /// `model`'s committed state `scratch` (on the run's tableau) put at `s`, moved by a δ (state
  /// space, δ empty: not moved; orientations by exp(a δθ) on the left).
  void put_state(fem::Model& model, CommittedState& scratch, const Snapshot& s, const std::vector<double>& delta,
                 double a) const;
  /// One evaluation at `step`'s start moved by a δ and its unknowns by a v (either empty: not
  /// moved): the residual (when `residual` is not null) and the state the commit leaves.
  [[nodiscard]] Snapshot evaluate(fem::Model& model, CommittedState& scratch, const Step& step,
                                  const std::vector<double>& delta, const std::vector<double>& v, double a,
                                  std::vector<double>* residual);
  /// The fourth-order difference of four evaluations at the multiples k of a step: residual rows
  /// (when given), then the commit's state-space outputs (orientations as rotation vectors).
  [[nodiscard]] std::vector<double> difference(const std::array<Snapshot, 4>& outputs,
                                               const std::array<std::vector<double>, 4>* residuals,
                                               double step) const;
  /// Along (δ, v) at `step` (its steps in δ and v themselves: k = ±1, ±2 multiples of them).
  [[nodiscard]] std::vector<double> directional(const Step& step, const std::vector<double>& delta,
                                                const std::vector<double>& v, bool residual);
  /// Calls f(column, row, value) for every entry of the partial matrix of `colouring` at `step`.
  template <class F>
  void for_each_partial(const Step& step, bool of_state, const Colouring& colouring, const F& f);
  /// The objective's integrand (or final value) of `model` at `s` moved by a δ.
  [[nodiscard]] double objective_at(fem::Model& model, CommittedState& scratch, const Snapshot& s,
                                    const std::vector<double>& delta, double a, double t, bool final) const;
  /// weight · g_S (integrand) or F_S (final) at `s`, time t, added to `mu`.
  void add_objective_gradient(const Snapshot& s, double t, bool final, double weight, std::vector<double>& mu);
  /// weight · g_p (or F_p) per parameter at `s`, time t, added to `grad`.
  void add_objective_parameter_partials(const Snapshot& s, double t, bool final, double weight,
                                        std::vector<double>& grad);
  /// μᵀ ∂A/∂p − νᵀ ∂R/∂p per parameter at `step`, added to `grad`.
  void add_parameter_partials(const Step& step, const std::vector<double>& mu, const std::vector<double>& nu,
                              std::vector<double>& grad);
  /// Every element's history, the same on every rank (collective under MPI).
  [[nodiscard]] std::vector<std::vector<double>> histories_of(const fem::Model& model,
                                                              const assembly::Tableau& tableau) const;
  [[nodiscard]] std::vector<std::vector<double>> histories_of(const fem::Model& model) const;
  /// The owned entries of the distributed `x` from a vector in global numbering.
  void set_owned(Vec x, const std::vector<double>& global) const;
  /// Node n's reference position in `model` (a parameter's) less the run's. The adjoint's state
  /// holds positions as displacements from the reference, so that a parameter's partials at a
  /// fixed state move the nodes with their reference: a length parameter then does not strain
  /// the elements at fixed positions, whose stiff reaction the start's derivative would cancel
  /// again to the loss of every digit a stiff member's EA/L has over the result.
  [[nodiscard]] fem::Vec3 reference_shift(const fem::Model& model, std::size_t n) const;
  /// The difference steps of the state-space entries and of the unknowns, from the recorded
  /// trajectory's magnitudes.
  void choose_steps();

  fem::Model* model_;
  assembly::Tableau* tableau_;
  DirectSensitivity start_;
  CommittedState scratch_;
  std::vector<Step> steps_;
  std::vector<std::size_t> history_offset_;  ///< per element, its history's first entry; last: the size
  Colouring state_colouring_, unknown_colouring_;
  /// The objective's state-space entries (the nodes and histories its sensors read).
  std::vector<std::size_t> objective_entries_;
  /// The difference steps along each state-space entry and each unknown.
  std::vector<double> state_step_, unknown_step_;
  assembly::VecHandle u_, f_;
  PivotingSolve solve_;
  int ranks_ = 1;
  std::function<fem::Model()> model_source_;
};

}  // namespace catena::solvers
