#include "fem/start_stamp.hpp"

#include "fem/sinks.hpp"

#include <exception>
#include <vector>

namespace catena::fem {

std::optional<std::string> first_unstampable_element(const Model& model) {
  const DofMap map = model.registry.sequential_numbering();
  const std::vector<double> trial(static_cast<std::size_t>(model.registry.n_free_dofs()), 0.0);
  StepState s{TimeElement::dynamic_step(0.0, model.analysis.dt > 0.0 ? model.analysis.dt : 1.0, model.analysis.scheme),
              model.nodes, model.initial_state, trial, &map};
  s.gravity = model.gravity;
  // Only whether each element can stamp matters.
  NullResidualSink residual;
  NullJacobianSink jacobian;
  for (const auto& e : model.elements) {
    try {
      e->stamp(s, residual, jacobian);
    } catch (const std::exception& error) {
      return model.element_description(*e) + ": " + error.what();
    }
  }
  return std::nullopt;
}

}  // namespace catena::fem
