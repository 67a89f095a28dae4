#pragma once
/// The objective and its gradient for `catena optimize` (app/optimize_command.hpp): one whole run
/// of the model as an in-memory app::Simulation (nothing written, nothing printed), with the
/// options' --set (the optimizer's parameter values among them) and the gradient with respect to
/// the parameters of `options.sensitivity` (the direct method, solvers/direct_sensitivity.hpp) or
/// of `options.gradient` (the adjoint, solvers/adjoint_gradient.hpp), as `catena run` takes them.
/// This is the optimizer's one source of objectives and gradients.
#include "io/commands.hpp"

#include <vector>

namespace catena::app {

struct ObjectiveEvaluation {
  double objective = 0.0;        ///< Ψ, summary.json's `objective`
  std::vector<double> gradient;  ///< dΨ/dp per parameter of options.sensitivity or options.gradient
};

/// Runs the model of `options` until t_end or io::stop_requested() (collective: every rank gets
/// rank 0's values). Throws app::RunError with the exit code and message of `catena run` at these
/// options when the run does not complete: io::exit_bad_input for a model or parameter value the
/// run refuses (or a model without `analysis.objective`), io::exit_solver_failure with the
/// failure's message (summary.json's), 128 + signal when stopped ("stopped during a run at t = T s").
[[nodiscard]] ObjectiveEvaluation evaluate_objective(const io::RunOptions& options);

}  // namespace catena::app
