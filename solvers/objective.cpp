#include "solvers/objective.hpp"

#include <vector>

namespace catena::solvers {

namespace {

double evaluate_at(const std::optional<fem::Expression>& e, const fem::Model& model,
                   std::span<const fem::NodeState> states, double t) {
  if (!e) return 0.0;
  std::vector<double> sensors;
  sensors.reserve(model.sensors.size());
  for (const fem::Sensor& s : model.sensors)
    sensors.push_back(fem::evaluate_sensor(s, model.nodes, states, model.initial_state));
  return (*e)(t, sensors);
}

}  // namespace

double objective_integrand(const fem::Model& model, std::span<const fem::NodeState> states, double t) {
  return model.objective ? evaluate_at(model.objective->integrand, model, states, t) : 0.0;
}

double objective_final(const fem::Model& model, std::span<const fem::NodeState> states, double t) {
  return model.objective ? evaluate_at(model.objective->final, model, states, t) : 0.0;
}

}  // namespace catena::solvers
