#include "fem/start_stamp.hpp"

#include "fem/sinks.hpp"

#include <exception>
#include <span>
#include <utility>

namespace catena::fem {

namespace {

/// The predicted values, numbered by a DofMap; fixed components stay out.
class PredictedUnknowns final : public PredictionSink {
 public:
  PredictedUnknowns(const DofMap& map, int n) : map_(&map), values_(static_cast<std::size_t>(n), 0.0) {}
  using PredictionSink::set;
  void set(BlockId block, const double* values, int n) override {
    const std::span<const Dof> dofs = map_->dofs(block);
    for (std::size_t c = 0; c < static_cast<std::size_t>(n); ++c)
      if (dofs[c] != fixed_dof) values_[static_cast<std::size_t>(dofs[c])] = values[c];
  }
  [[nodiscard]] std::vector<double> take() && { return std::move(values_); }

 private:
  const DofMap* map_;
  std::vector<double> values_;
};

}  // namespace

std::vector<double> first_predictor(const Model& model, const DofMap& map, const TimeElement& time) {
  PredictedUnknowns u(map, model.registry.n_free_dofs());
  // The nodes' part follows the analysis' type, as the run's predictor does: a static analysis's
  // first increment starts from zero.
  if (model.analysis.type == AnalysisType::Dynamic)
    for (std::size_t n = 0; n < model.nodes.size(); ++n) {
      const NodeState& state = model.initial_state[n];
      u.set<3>(model.nodes[n].displacement, Vec3(time.h * state.velocity));
      if (model.nodes[n].rotation.valid()) u.set<3>(model.nodes[n].rotation, Vec3(time.h * state.angular_velocity));
    }
  const StepState s{time, model.nodes, model.initial_state, {}, &map};
  for (const auto& e : model.elements) e->predict(s, u);
  return std::move(u).take();
}

std::optional<std::string> first_unstampable_element(const Model& model) {
  const DofMap map = model.registry.sequential_numbering();
  const TimeElement time =
      TimeElement::dynamic_step(0.0, model.analysis.dt > 0.0 ? model.analysis.dt : 1.0, model.analysis.scheme);
  // A run that starts from a static equilibrium meets its elements there first, from the initial
  // state with the rates zero.
  const bool from_equilibrium = model.analysis.initial_equilibrium && model.analysis.type == AnalysisType::Dynamic;
  const std::vector<double> trial =
      from_equilibrium ? std::vector<double>(static_cast<std::size_t>(model.registry.n_free_dofs()), 0.0)
                       : first_predictor(model, map, time);
  StepState s{time, model.nodes, model.initial_state, trial, &map};
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
