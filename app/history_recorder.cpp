#include "app/history_recorder.hpp"

#include "assembly/collectives.hpp"
#include "assembly/petsc_session.hpp"
#include "fem/sensor.hpp"

#include <utility>

namespace catena::app {

std::vector<double> sensor_values(const fem::Model& model, std::span<const fem::NodeState> states) {
  std::vector<double> values(model.sensors.size(), 0.0);
  if (assembly::PetscSession::rank() == 0)
    for (std::size_t i = 0; i < values.size(); ++i)
      values[i] = fem::evaluate_sensor(model.sensors[i], model.nodes, states, model.initial_state);
  if (assembly::PetscSession::size() > 1) assembly::broadcast_from_root(values);
  return values;
}

void HistoryRecorder::on_frame(const solvers::Frame& frame) {
  if (!frame.row) return;
  history_.t.push_back(frame.t);
  history_.energy.push_back(solvers::energy_columns(frame.energy));
  history_.sensors.push_back(sensor_values(model_, frame.states));
  if (frame.sensitivities.empty()) return;
  // Element sensors' derivatives are rank 0's (as their values are): every rank records those.
  std::vector<double> derivatives(frame.sensitivities.begin(), frame.sensitivities.end());
  if (assembly::PetscSession::size() > 1) assembly::broadcast_from_root(derivatives);
  history_.sensitivities.push_back(std::move(derivatives));
}

}  // namespace catena::app
