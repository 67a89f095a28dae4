#pragma once
/// The objective and its gradient for `catena optimize` (app/optimize_command.hpp): one whole run
/// of the model, in this process, with the options' --set (the optimizer's parameter values among
/// them) and the gradient with respect to the parameters of `options.sensitivity` (the direct
/// method, solvers/direct_sensitivity.hpp) or of `options.gradient` (the adjoint,
/// solvers/adjoint_gradient.hpp), as `catena run` takes them; nothing is written. This is the
/// optimizer's one source of objectives and gradients.
#include "io/commands.hpp"

#include <vector>

namespace catena::io {

struct ObjectiveEvaluation {
  double objective = 0.0;         ///< Ψ, summary.json's `objective`
  std::vector<double> gradient;   ///< dΨ/dp per parameter of options.sensitivity or options.gradient
};

/// Runs the model of `options` (collective: every rank gets rank 0's values). Throws InputError or SensitivityInputError for a model or parameter the run
/// refuses, solvers::SolverFailure when the run fails, std::invalid_argument for a model without
/// `analysis.objective` or with both `sensitivity` and `gradient` set.
[[nodiscard]] ObjectiveEvaluation evaluate_objective(const RunOptions& options);

}  // namespace catena::io
