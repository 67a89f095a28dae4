#pragma once
/// A run's numbers as Python values: histories as dicts of NumPy arrays (the columns of
/// energy.csv and sensors.csv), node states and counters as dicts.
#include "app/simulation.hpp"

#include <pybind11/pybind11.h>

namespace catena::python {

/// {"t": ..., sensor name: ...}: every row so far.
[[nodiscard]] pybind11::dict sensor_history(const fem::Model& model, const app::History& history);
/// {"t": ..., "kinetic": ..., ... "Lz": ...}: every row so far, energy.csv's columns.
[[nodiscard]] pybind11::dict energy_history(const app::History& history);
/// {"t": ..., "sensor:p": ..., ...}: every row so far of sensitivities.csv, `columns` its columns after t.
[[nodiscard]] pybind11::dict sensitivity_history(const std::vector<std::string>& columns, const app::History& history);
/// {"t": t, "kinetic": ..., ...}: the energy columns now.
[[nodiscard]] pybind11::dict energy_now(const solvers::EnergyRecord& energy);
/// position, displacement, velocity, orientation (x, y, z, w), rotation (3×3), angular_velocity.
[[nodiscard]] pybind11::dict node_state(const fem::Node& node, const fem::NodeState& state);
/// summary.json's counters (solvers/run_counters.hpp), by name.
[[nodiscard]] pybind11::dict counters(const solvers::RunCounters& counters);

}  // namespace catena::python
