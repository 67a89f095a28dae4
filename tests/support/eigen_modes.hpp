#pragma once
// The modes of a test model of tests/solvers/models, computed as `catena run` does for an
// eigen-analysis (inertia merged into NodeInertia elements, the state established, linearized).
#include "elements/node_inertia.hpp"
#include "io/model_reader.hpp"
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

}  // namespace catena::testing
