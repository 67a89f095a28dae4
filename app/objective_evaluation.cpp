#include "app/objective_evaluation.hpp"

#include "app/simulation.hpp"
#include "assembly/collectives.hpp"
#include "io/output_directory.hpp"
#include "io/stop_signals.hpp"

#include <utility>

namespace catena::app {

namespace {

/// Ψ and dΨ/dp of a completed run's summary, rank 0's on every rank (element sensors are
/// gathered there, so the other ranks' values may be missing or partial).
ObjectiveEvaluation objective_of(const io::SummaryData& summary, std::size_t parameters) {
  std::vector<double> values{summary.objective.value_or(0.0)};
  for (const auto& [name, derivative] : summary.objective_gradient) values.push_back(derivative);
  values.resize(1 + parameters, 0.0);
  assembly::broadcast_from_root(values);
  return {values.front(), {values.begin() + 1, values.end()}};
}

}  // namespace

ObjectiveEvaluation evaluate_objective(const io::RunOptions& options) {
  SimulationOptions run;
  run.run = options;
  run.run.quiet = true;
  run.write_files = false;
  run.stop = &io::stop_requested();
  Simulation simulation(std::move(run));
  if (!simulation.model().objective)
    throw RunError(io::exit_bad_input, options.model.string() + ": the model has no analysis.objective");
  try {
    while (simulation.step()) {
    }
  } catch (const RunError&) {
    // The failure is kept: finish() reports it with summary.json's message.
  }
  const Outcome outcome = simulation.finish();
  if (outcome.exit_code > 128)
    throw RunError(outcome.exit_code, "stopped during a run at t = " +
                                          io::format_double(outcome.summary.counters.t_reached) + " s");
  if (outcome.exit_code != io::exit_ok) throw RunError(outcome.exit_code, outcome.summary.message);
  return objective_of(outcome.summary, (options.gradient.empty() ? options.sensitivity : options.gradient).size());
}

}  // namespace catena::app
