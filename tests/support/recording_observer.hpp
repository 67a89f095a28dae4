#pragma once
// Keeps every frame's energy record and sensor values in memory, for assertions.
#include "fem/sensor.hpp"
#include "solvers/observer.hpp"

#include <vector>

namespace catena::testing {

class RecordingObserver final : public solvers::Observer {
 public:
  struct Row {
    double t;
    solvers::EnergyRecord energy;
    std::vector<double> sensors;
    std::vector<fem::NodeState> states;
  };
  void on_frame(const solvers::Frame& f) override {
    Row r{f.t, f.energy, {}, {f.states.begin(), f.states.end()}};
    for (const fem::Sensor& s : f.model->sensors)
      r.sensors.push_back(fem::evaluate_sensor(s, f.model->nodes, f.states, f.model->initial_state));
    rows.push_back(std::move(r));
  }
  [[nodiscard]] double max_balance_drift() const {
    double d = 0.0;
    for (const Row& r : rows) d = std::max(d, std::abs(r.energy.balance() - rows.front().energy.balance()));
    return d;
  }
  std::vector<Row> rows;
};

}  // namespace catena::testing
