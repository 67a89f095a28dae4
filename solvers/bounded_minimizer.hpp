#pragma once
/// Minimizing a smooth function of a few variables within bounds (lower ≤ x ≤ upper, either side
/// may be infinite), for `catena optimize` (app/optimize_command.hpp): PETSc's TAO, by default its
/// bounded limited-memory quasi-Newton method (TAOBLMVM: a BFGS model of the Hessian, steps
/// projected onto the bounds, a Moré–Thuente line search). The function and its gradient come
/// from one callback, each call a whole run in Catena's use; what the minimizer needs is only that
/// the gradient be the derivative of the values it is given (the direct sensitivities are, to
/// 1e-10 relative, docs/sensitivity.md).
///
/// Convergence is the projected gradient's norm falling to `gradient_tolerance` times its value at
/// the start: the gradient with the components removed that point out of the box at a bound the
/// variable sits on (a minimum on a bound has a gradient pushing outward there, which no feasible
/// step can follow). Relative, so that it means the same whatever the objective's unit and size:
/// an absolute bound stopped an objective of order 1e-4 after 9 iterations, 12 % above what was
/// reachable, and would call any objective scaled small enough converged at its start.
/// TAO's options after `--` (`-tao_type bqnls`, `-tao_ls_type armijo`, `-tao_view`) apply.
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace catena::solvers {

struct VariableBounds {
  double lower = 0.0;  ///< -infinity: none
  double upper = 0.0;  ///< +infinity: none
};

struct MinimizerSettings {
  int max_iterations = 50;
  /// On the projected gradient's Euclidean norm, relative to the start's.
  double gradient_tolerance = 1e-6;
};

/// f(x), and its gradient into `gradient` (same size as x). May throw: the minimization stops
/// there, and minimize_within_bounds rethrows the exception once TAO has returned.
using ObjectiveAndGradient = std::function<double(std::span<const double> x, std::span<double> gradient)>;

/// An iterate TAO accepted (iteration 0: the start), with the function and gradient that were
/// computed there (no evaluation of its own).
struct MinimizerIterate {
  int iteration = 0;
  std::span<const double> x;
  double f = 0.0;
  std::span<const double> gradient;
  double projected_gradient_norm = 0.0;
};
/// Called at every accepted iterate; may throw, as ObjectiveAndGradient.
using IterationMonitor = std::function<void(const MinimizerIterate&)>;

struct MinimizerResult {
  std::vector<double> x;
  double f = 0.0;
  std::vector<double> gradient;
  double projected_gradient_norm = 0.0;
  double start_projected_gradient_norm = 0.0;
  int iterations = 0;
  bool converged = false;  ///< TAO's reason is a convergence, not a limit or a failure
  /// Why it stopped, in the command's terms and with what to do about it ("the projected gradient
  /// fell to 3.1e-07 of the start's, below --gradient-tolerance 1e-06").
  std::string reason;
};

/// The gradient with the components zeroed that point outward at an active bound: x_i at its lower
/// bound with g_i > 0 (descent would go below it), at its upper bound with g_i < 0.
[[nodiscard]] std::vector<double> projected_gradient(std::span<const double> x, std::span<const double> gradient,
                                                     std::span<const VariableBounds> bounds);

/// Minimizes `f` from `start` (inside `bounds`, one per variable). Runs on PETSC_COMM_SELF: under
/// MPI every rank runs the same minimizer on the same values (the callback must give them).
[[nodiscard]] MinimizerResult minimize_within_bounds(const ObjectiveAndGradient& f, const IterationMonitor& monitor,
                                                     std::span<const double> start,
                                                     std::span<const VariableBounds> bounds,
                                                     const MinimizerSettings& settings);

}  // namespace catena::solvers
