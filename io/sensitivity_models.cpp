#include "io/sensitivity_models.hpp"

#include "io/model_reader.hpp"
#include "io/name_hint.hpp"
#include "io/output_directory.hpp"

#include <algorithm>
#include <cmath>

namespace catena::io {

namespace {

std::string counts(const char* what, std::size_t a, std::size_t b) {
  return std::string(what) + ": " + std::to_string(a) + ", then " + std::to_string(b);
}

}  // namespace

std::string structure_difference(const fem::Model& a, const fem::Model& b) {
  if (a.nodes.size() != b.nodes.size()) return counts("the number of nodes", a.nodes.size(), b.nodes.size());
  for (std::size_t n = 0; n < a.nodes.size(); ++n)
    if (a.nodes[n].name != b.nodes[n].name || a.nodes[n].kind != b.nodes[n].kind)
      return "node " + std::to_string(n) + ": '" + a.nodes[n].name + "', then '" + b.nodes[n].name + "'";
  if (a.elements.size() != b.elements.size())
    return counts("the number of elements", a.elements.size(), b.elements.size());
  for (std::size_t e = 0; e < a.elements.size(); ++e)
    if (a.elements[e]->name() != b.elements[e]->name() || a.elements[e]->kind() != b.elements[e]->kind())
      return "element " + std::to_string(e) + ": '" + a.elements[e]->name() + "', then '" + b.elements[e]->name() + "'";
  const auto& ba = a.registry.blocks();
  const auto& bb = b.registry.blocks();
  if (ba.size() != bb.size()) return counts("the number of unknown blocks", ba.size(), bb.size());
  for (std::size_t i = 0; i < ba.size(); ++i)
    if (ba[i].owner != bb[i].owner || ba[i].label != bb[i].label || ba[i].size != bb[i].size ||
        ba[i].fixed != bb[i].fixed || ba[i].kind != bb[i].kind)
      return "the unknowns of " + ba[i].owner + " (" + ba[i].label + "): supports or kinds differ";
  if (a.registry.couplings() != b.registry.couplings()) return "the couplings between unknowns";
  if (a.sensors.size() != b.sensors.size()) return counts("the number of sensors", a.sensors.size(), b.sensors.size());
  for (std::size_t s = 0; s < a.sensors.size(); ++s)
    if (a.sensors[s].name != b.sensors[s].name) return "sensor " + std::to_string(s) + ": '" + a.sensors[s].name + "'";
  const fem::AnalysisSettings& x = a.analysis;
  const fem::AnalysisSettings& y = b.analysis;
  if (x.type != y.type || x.scheme != y.scheme) return "the analysis type or integrator";
  if (x.dt != y.dt) return "analysis.dt: " + format_double(x.dt) + ", then " + format_double(y.dt);
  if (x.t_end != y.t_end) return "analysis.t_end: " + format_double(x.t_end) + ", then " + format_double(y.t_end);
  if (x.dt_min != y.dt_min || x.output_every != y.output_every || x.vtk_every != y.vtk_every ||
      x.vtk_dt != y.vtk_dt || x.initial_equilibrium != y.initial_equilibrium || x.ramp_gravity != y.ramp_gravity ||
      x.newton_tolerance != y.newton_tolerance || x.max_newton_iterations != y.max_newton_iterations ||
      x.instantaneous_reactions != y.instantaneous_reactions)
    return "the analysis or output settings";
  return {};
}

std::vector<solvers::ParameterModels> read_parameter_models(const RunOptions& options, const fem::Model& model) {
  return read_parameter_models(options, model, options.sensitivity, "--sensitivity");
}

std::vector<solvers::ParameterModels> read_parameter_models(const RunOptions& options, const fem::Model& model,
                                                            const std::vector<std::string>& names,
                                                            const std::string& option) {
  std::vector<solvers::ParameterModels> out;
  if (names.empty()) return out;
  if (model.analysis.instantaneous_reactions)
    throw SensitivityInputError(option + ": output.reactions: instantaneous is not differentiated (its "
                                "reactions come from extra short steps); use the step averages (the default)");
  std::vector<std::string> declared;
  for (const auto& [name, value] : model.parameters) declared.push_back(name);
  for (const std::string& name : names) {
    const auto it = std::find_if(model.parameters.begin(), model.parameters.end(),
                                 [&](const auto& p) { return p.first == name; });
    if (it == model.parameters.end())
      throw SensitivityInputError(
          option + ": '" + name + "' is not a parameter of the model" +
          unknown_name_hint(name, declared, {.none = "the model declares no parameters (section `parameters`)",
                                             .label = "parameters"}));
    solvers::ParameterModels p;
    p.name = name;
    p.value = it->second;
    p.step = sensitivity_relative_step * (p.value != 0.0 ? std::abs(p.value) : 1.0);
    for (std::size_t k = 0; k < solvers::difference_multiples.size(); ++k) {
      const double value = p.value + solvers::difference_multiples[k] * p.step;
      std::vector<std::string> overrides = options.overrides;
      overrides.push_back(name + '=' + format_double(value));
      fem::Model perturbed = [&] {
        try {
          return read_options_model(options, overrides);
        } catch (const InputError& e) {
          throw SensitivityInputError(option + ": parameter '" + name + "' cannot be changed to " +
                                      format_double(value) + " (" + e.what() +
                                      "): only parameters that change values, not the model's shape, can be "
                                      "differentiated by");
        }
      }();
      // The command line's settings, as load_model applies them to the run's model.
      perturbed.analysis.output_every = model.analysis.output_every;
      perturbed.analysis.checkpoint_every = model.analysis.checkpoint_every;
      if (const std::string d = structure_difference(model, perturbed); !d.empty())
        throw SensitivityInputError(option + ": parameter '" + name + "' changes the model's structure at " +
                                    name + " = " + format_double(value) + " (" + d +
                                    "): only parameters that change values, not the model's shape or time grid, "
                                    "can be differentiated by");
      p.models[k] = std::make_unique<fem::Model>(std::move(perturbed));
    }
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace catena::io
