#include "io/objective_evaluation.hpp"

#include "assembly/collectives.hpp"
#include "assembly/tableau.hpp"
#include "io/model_reader.hpp"
#include "io/output_directory.hpp"
#include "io/sensitivity_models.hpp"
#include "io/stop_signals.hpp"
#include "solvers/adjoint_gradient.hpp"
#include "solvers/direct_sensitivity.hpp"
#include "solvers/solver_failure.hpp"
#include "solvers/time_integrator.hpp"

#include <petscsys.h>

#include <memory>
#include <stdexcept>

namespace catena::io {

ObjectiveEvaluation evaluate_objective(const RunOptions& options) {
  fem::Model model = read_model(options.model, options.overrides);
  if (!model.objective)
    throw std::invalid_argument(options.model.string() + ": the model has no analysis.objective");
  if (!options.sensitivity.empty() && !options.gradient.empty())
    throw std::invalid_argument("evaluate_objective: the direct method or the adjoint, not both");
  assembly::Tableau tableau(model, PETSC_COMM_WORLD);
  tableau.set_threads(options.threads);
  solvers::TimeIntegrator integrator(model, tableau);
  std::unique_ptr<solvers::DirectSensitivity> direct;
  std::unique_ptr<solvers::AdjointGradient> adjoint;
  if (options.gradient.empty()) {
    direct = std::make_unique<solvers::DirectSensitivity>(model, tableau, read_parameter_models(options, model));
    integrator.set_sensitivity(direct.get());
  } else {
    adjoint = std::make_unique<solvers::AdjointGradient>(
        model, tableau, read_parameter_models(options, model, options.gradient, "--gradient"));
    integrator.set_adjoint(adjoint.get());
  }
  solvers::Observer nothing_written;
  const solvers::RunStatistics stats = integrator.run(nothing_written, &stop_requested());
  if (stats.interrupted) throw solvers::Interrupted("stopped during a run at t = " + format_double(stats.t_reached) + " s");
  // Rank 0 holds the objective and its gradient (element sensors are gathered there).
  std::vector<double> values{stats.objective.value_or(0.0)};
  for (const double g : direct ? direct->objective_gradient(stats.t_reached) : adjoint->gradient(integrator.states()))
    values.push_back(g);
  values.resize(1 + (direct ? options.sensitivity.size() : options.gradient.size()), 0.0);
  assembly::broadcast_from_root(values);
  return {values.front(), {values.begin() + 1, values.end()}};
}

}  // namespace catena::io
