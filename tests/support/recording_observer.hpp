#pragma once
// Keeps every frame's energy record and sensor values in memory, for assertions.
#include "fem/sensor.hpp"
#include "solvers/observer.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace catena::testing {

class RecordingObserver final : public solvers::Observer {
 public:
  struct Row {
    double t;
    solvers::EnergyRecord energy;
    std::vector<double> sensors;
    std::vector<fem::NodeState> states;
    std::vector<double> sensitivities;  ///< Frame::sensitivities (catena run --sensitivity)
  };
  void on_frame(const solvers::Frame& f) override {
    Row r{f.t, f.energy, {}, {f.states.begin(), f.states.end()}, {f.sensitivities.begin(), f.sensitivities.end()}};
    for (const fem::Sensor& s : f.model->sensors)
      r.sensors.push_back(fem::evaluate_sensor(s, f.model->nodes, f.states, f.model->initial_state));
    rows.push_back(std::move(r));
  }
  [[nodiscard]] double max_balance_drift() const {
    double d = 0.0;
    for (const Row& r : rows) d = std::max(d, std::abs(r.energy.balance() - rows.front().energy.balance()));
    return d;
  }

  /// The frame at time t (frames land on the output grid up to round-off).
  [[nodiscard]] const Row& row_at(double t) const {
    for (const Row& r : rows)
      if (std::abs(r.t - t) < 1e-9) return r;
    throw std::runtime_error("no frame at t = " + std::to_string(t));
  }

  /// Largest deviation of the energy and of each momentum component from their values in the
  /// first frame at or after t0, over the frames from there on.
  struct Drifts {
    double balance = 0, mechanical = 0;  ///< balance, kinetic + strain
    fem::Vec3 p = fem::Vec3::Zero(), L = fem::Vec3::Zero();
  };
  [[nodiscard]] Drifts drifts_after(double t0) const {
    const auto from = std::find_if(rows.begin(), rows.end(), [t0](const Row& r) { return r.t >= t0 - 1e-9; });
    if (from == rows.end()) throw std::runtime_error("no frame at or after t = " + std::to_string(t0));
    const solvers::EnergyRecord& e0 = from->energy;
    Drifts d;
    for (auto r = from; r != rows.end(); ++r) {
      const solvers::EnergyRecord& e = r->energy;
      d.balance = std::max(d.balance, std::abs(e.balance() - e0.balance()));
      d.mechanical = std::max(d.mechanical, std::abs(e.state.kinetic + e.state.strain - e0.state.kinetic - e0.state.strain));
      d.p = d.p.cwiseMax((e.state.momentum - e0.state.momentum).cwiseAbs());
      d.L = d.L.cwiseMax((e.state.angular_momentum - e0.state.angular_momentum).cwiseAbs());
    }
    return d;
  }
  std::vector<Row> rows;
};

}  // namespace catena::testing
