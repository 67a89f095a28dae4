#pragma once
/// The objective and its gradient for `catena optimize` (io/optimize_command.hpp): one whole run
/// of the model, in this process, with the options' --set (the optimizer's parameter values among
/// them) and the direct sensitivities of docs/sensitivity.md with respect to the parameters of
/// `options.sensitivity`; nothing is written. This is the optimizer's one source of gradients: the
/// adjoint method (one backward sweep for all parameters) would take its place here.
#include "io/commands.hpp"

#include <vector>

namespace catena::io {

struct ObjectiveEvaluation {
  double objective = 0.0;         ///< Ψ, summary.json's `objective`
  std::vector<double> gradient;   ///< dΨ/dp per parameter of options.sensitivity, in that order
  double wall_seconds = 0.0;
};

/// Runs the model of `options` (collective: every rank gets rank 0's values). Throws InputError
/// or SensitivityInputError for a model or parameter the run refuses, solvers::SolverFailure when
/// the run fails, std::invalid_argument for a model without `analysis.objective`.
[[nodiscard]] ObjectiveEvaluation evaluate_objective(const RunOptions& options);

}  // namespace catena::io
