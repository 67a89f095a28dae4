#include "model_facts.hpp"

#include "errors.hpp"

#include "assembly/ordering.hpp"
#include "elements/joint.hpp"
#include "fem/constraint_rank.hpp"
#include "fem/start_stamp.hpp"
#include "io/beam_axes.hpp"
#include "io/commands.hpp"
#include "io/model_reader.hpp"
#include "io/summary_writer.hpp"

#include <pybind11/stl.h>

#include <algorithm>
#include <map>

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

/// Elements per kind, joints by their kind ("joint (revolute)"), as `catena check` counts them.
std::map<std::string, int> element_kinds(const fem::Model& model) {
  std::map<std::string, int> kinds;
  for (const auto& e : model.elements) {
    const auto* joint = dynamic_cast<const elements::Joint*>(e.get());
    ++kinds[joint ? "joint (" + joint->definition().kind + ")" : std::string(e->kind())];
  }
  return kinds;
}

/// "independent", "not tested" (too many unknowns for the dense rank test) or None without
/// joints; throws as `catena check` refuses redundant constraints or an element the first stamp
/// would refuse.
py::object constraints(const fem::Model& model, const std::string& display) {
  const auto& blocks = model.registry.blocks();
  const bool has_joints = std::any_of(blocks.begin(), blocks.end(),
                                      [](const fem::BlockInfo& b) { return b.kind == fem::UnknownKind::Multiplier; });
  const std::optional<std::vector<fem::DependentUnknown>> redundant =
      has_joints ? fem::redundant_unknowns(model) : std::nullopt;
  if (redundant && !redundant->empty())
    throw Error(io::exit_bad_input,
                display + ": model '" + model.name + "': " + fem::redundancy_message(*redundant, model));
  if (const std::optional<std::string> refused = fem::first_unstampable_element(model))
    throw Error(io::exit_bad_input, *refused);
  if (!has_joints) return py::none();
  return py::str(redundant ? "independent" : "not tested");
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
  py::dict facts = describe(model);
  facts["constraints"] = constraints(model, display);
  // Counted from the declared couplings, without PETSc (the tableau's pattern is the same).
  const assembly::PatternSize size = assembly::pattern_size(assembly::block_graph(model.registry));
  facts["unknowns"] = size.unknowns;
  facts["nonzeros"] = size.nonzeros;
  facts["elements"] = element_kinds(model);
  py::dict sets;
  for (const fem::NamedSet& set : model.sets)
    sets[py::str(set.name)] = set.nodes.empty() ? set.elements.size() : set.nodes.size();
  facts["sets"] = sets;
  facts["beam_axes"] = io::describe_beam_axes(model);
  facts["analysis"] = analysis_settings(model);
  return facts;
}

}  // namespace catena::python
