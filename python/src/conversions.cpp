#include "conversions.hpp"

#include <pybind11/numpy.h>

#include <string>

namespace catena::python {

namespace py = pybind11;

namespace {

/// Column `j` of `rows` (row-major, each row of its own) as a new NumPy array.
template <class Rows>
py::array_t<double> column(const Rows& rows, std::size_t j) {
  py::array_t<double> out(static_cast<py::ssize_t>(rows.size()));
  double* data = out.mutable_data();
  for (std::size_t i = 0; i < rows.size(); ++i) data[i] = rows[i][j];
  return out;
}

py::array_t<double> array(const double* values, py::ssize_t n) {
  py::array_t<double> out(n);
  std::copy(values, values + n, out.mutable_data());
  return out;
}

py::array_t<double> vector3(const fem::Vec3& v) { return array(v.data(), 3); }

}  // namespace

py::dict sensor_history(const fem::Model& model, const app::History& history) {
  py::dict out;
  out["t"] = array(history.t.data(), static_cast<py::ssize_t>(history.t.size()));
  for (std::size_t j = 0; j < model.sensors.size(); ++j) out[py::str(model.sensors[j].name)] = column(history.sensors, j);
  return out;
}

py::dict energy_history(const app::History& history) {
  py::dict out;
  out["t"] = array(history.t.data(), static_cast<py::ssize_t>(history.t.size()));
  for (std::size_t j = 0; j < fem::energy_column_names.size(); ++j)
    out[py::str(std::string(fem::energy_column_names[j]))] = column(history.energy, j);
  return out;
}

py::dict sensitivity_history(const std::vector<std::string>& columns, const app::History& history) {
  py::dict out;
  out["t"] = array(history.t.data(), static_cast<py::ssize_t>(history.t.size()));
  for (std::size_t j = 0; j < columns.size(); ++j) out[py::str(columns[j])] = column(history.sensitivities, j);
  return out;
}

py::dict energy_now(const solvers::EnergyRecord& energy) {
  py::dict out;
  out["t"] = energy.t;
  const std::array<double, 12> values = solvers::energy_columns(energy);
  for (std::size_t j = 0; j < values.size(); ++j) out[py::str(std::string(fem::energy_column_names[j]))] = values[j];
  return out;
}

py::dict node_state(const fem::Node& node, const fem::NodeState& state) {
  py::dict out;
  out["position"] = vector3(state.position);
  out["displacement"] = vector3(state.position - node.reference_position);
  out["velocity"] = vector3(state.velocity);
  // Eigen's order, which is SciPy's (scipy.spatial.transform.Rotation.from_quat): scalar last.
  out["orientation"] = array(state.orientation.coeffs().data(), 4);
  const Eigen::Matrix<double, 3, 3, Eigen::RowMajor> rotation = state.orientation.toRotationMatrix();
  py::array_t<double> matrix({3, 3});
  std::copy(rotation.data(), rotation.data() + 9, matrix.mutable_data());
  out["rotation"] = matrix;
  out["angular_velocity"] = vector3(state.angular_velocity);
  return out;
}

py::dict counters(const solvers::RunCounters& counters) {
  py::dict out;
  solvers::for_each_counter_field(
      [&](const auto& field) { out[py::str(std::string(field.name))] = counters.*field.member; });
  return out;
}

}  // namespace catena::python
