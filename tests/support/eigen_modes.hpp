#pragma once
// The modes of a test model of tests/solvers/models, computed as `catena run` does for an
// eigen-analysis (inertia merged into NodeInertia elements, the state established, linearized).
#include "elements/node_inertia.hpp"
#include "io/model_reader.hpp"
#include "io/sensitivity_models.hpp"
#include "solvers/linearized_analysis.hpp"

#include <string>
#include <vector>

namespace catena::testing {

inline std::string solver_model_path(const std::string& name) {
  return std::string(CATENA_SOURCE_DIR) + "/tests/solvers/models/" + name + ".yaml";
}

inline solvers::EigenResult modes_of(const std::string& name, const std::vector<std::string>& overrides = {}) {
  fem::Model model = io::read_model(solver_model_path(name), overrides);
  elements::add_node_inertia(model);
  solvers::LinearizedAnalysis analysis(model, PETSC_COMM_WORLD);
  analysis.establish_state();
  analysis.linearize();
  return analysis.modes();
}

/// A linearized analysis's model and the models `catena run --sensitivity` reads for `parameters`,
/// all with their inertia merged as the run's are.
struct SensitivityModels {
  fem::Model model;
  std::vector<solvers::ParameterModels> perturbed;
};

inline SensitivityModels sensitivity_models(const std::string& path, const std::vector<std::string>& overrides,
                                            const std::vector<std::string>& parameters) {
  io::RunOptions options;
  options.model = path;
  options.overrides = overrides;
  options.sensitivity = parameters;
  SensitivityModels out{io::read_model(path, overrides), {}};
  out.perturbed = io::read_parameter_models(options, out.model);
  for (solvers::ParameterModels& p : out.perturbed)
    for (auto& m : p.models) elements::add_node_inertia(*m);
  elements::add_node_inertia(out.model);
  return out;
}

}  // namespace catena::testing
