#include "model_facts.hpp"

#include "errors.hpp"

#include "io/beam_axes.hpp"
#include "io/commands.hpp"
#include "io/model_check.hpp"
#include "io/model_reader.hpp"
#include "io/summary_writer.hpp"

#include <pybind11/stl.h>

namespace catena::python {

namespace py = pybind11;

namespace {

std::string analysis_name(const fem::Model& model) {
  io::SummaryData data;
  io::describe_model(model, data);
  return data.analysis;
}

/// The analysis' settings `catena check` prints, by name.
py::dict analysis_settings(const fem::Model& model) {
  const fem::AnalysisSettings& a = model.analysis;
  const fem::LinearizedSettings& lin = a.linearized;
  py::dict settings;
  settings["type"] = analysis_name(model);
  if (a.type == fem::AnalysisType::Eigen) {
    settings["modes"] = lin.modes;
    settings["about_equilibrium"] = lin.about_equilibrium;
    settings["turning_frame_rate"] = lin.frame_angular_velocity.norm();
  } else if (a.type == fem::AnalysisType::Buckling) {
    settings["preload"] = lin.preload;
    settings["load_factor_max"] = lin.load_factor_max;
    settings["increments"] = lin.increments;
  } else {
    if (a.type == fem::AnalysisType::Dynamic)
      settings["integrator"] = a.scheme == fem::TimeScheme::Midpoint ? "midpoint" : "newmark";
    settings["dt"] = a.dt;
    settings["t_end"] = a.t_end;
  }
  return settings;
}

}  // namespace

fem::Model read_model(const ModelSource& source, const std::vector<std::string>& overrides) {
  if (source.text) return io::read_model(io::ModelText{*source.text, source.file.string()}, overrides);
  return io::read_model(source.file, overrides);
}

py::dict describe(const fem::Model& model) {
  py::dict facts;
  facts["name"] = model.name;
  facts["analysis"] = analysis_name(model);
  facts["dt"] = model.analysis.dt;
  facts["t_end"] = model.analysis.t_end;
  py::list nodes;
  for (const fem::Node& node : model.nodes) nodes.append(node.name);
  facts["nodes"] = nodes;
  py::list sensors;
  for (const fem::Sensor& sensor : model.sensors) sensors.append(sensor.name);
  facts["sensors"] = sensors;
  py::dict parameters;
  for (const auto& [name, value] : model.parameters) parameters[py::str(name)] = value;
  facts["parameters"] = parameters;
  return facts;
}

py::dict check(const fem::Model& model, const std::string& display) {
  const io::ModelCheck checked = io::check_model(model, display);
  if (checked.refusal) throw Error(io::exit_bad_input, *checked.refusal);
  py::dict facts = describe(model);
  facts["constraints"] = !checked.has_joints           ? py::object(py::none())
                         : checked.constraints_tested ? py::str("independent")
                                                      : py::str("not tested");
  facts["unknowns"] = checked.size.unknowns;
  facts["nonzeros"] = checked.size.nonzeros;
  facts["elements"] = checked.element_kinds;
  py::dict sets;
  for (const fem::NamedSet& set : model.sets)
    sets[py::str(set.name)] = set.nodes.empty() ? set.elements.size() : set.nodes.size();
  facts["sets"] = sets;
  facts["beam_axes"] = io::describe_beam_axes(model);
  facts["analysis"] = analysis_settings(model);
  return facts;
}

}  // namespace catena::python
