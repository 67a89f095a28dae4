#include "io/objective_evaluation.hpp"

#include "assembly/collectives.hpp"
#include "assembly/tableau.hpp"
#include "io/model_reader.hpp"
#include "io/sensitivity_models.hpp"
#include "solvers/direct_sensitivity.hpp"
#include "solvers/time_integrator.hpp"

#include <petscsys.h>

#include <stdexcept>

namespace catena::io {

ObjectiveEvaluation evaluate_objective(const RunOptions& options) {
  fem::Model model = read_model(options.model, options.overrides);
  if (!model.objective)
    throw std::invalid_argument(options.model.string() + ": the model has no analysis.objective");
  assembly::Tableau tableau(model, PETSC_COMM_WORLD);
  tableau.set_threads(options.threads);
  solvers::DirectSensitivity sensitivity(model, tableau, read_parameter_models(options, model));
  solvers::TimeIntegrator integrator(model, tableau);
  integrator.set_sensitivity(&sensitivity);
  solvers::Observer nothing_written;
  const solvers::RunStatistics stats = integrator.run(nothing_written);
  // Rank 0 holds the objective and its gradient (element sensors are gathered there).
  std::vector<double> values{stats.objective.value_or(0.0)};
  for (const double g : sensitivity.objective_gradient(stats.t_reached)) values.push_back(g);
  values.resize(1 + options.sensitivity.size(), 0.0);
  assembly::broadcast_from_root(values);
  return {values.front(), {values.begin() + 1, values.end()}, stats.wall_seconds};
}

}  // namespace catena::io
