#include "fem/constraint_rank.hpp"

#include "fem/dense_sinks.hpp"
#include "fem/start_stamp.hpp"

#include <Eigen/QR>

#include <cmath>
#include <set>
#include <string_view>

namespace catena::fem {

double mechanism_time_scale(const Model& model) {
  const double g = model.gravity.norm();
  return 0.1 * (g > 0.0 ? std::sqrt(model.length_scale / g) : model.analysis.dt);
}

double rank_test_step(const Model& model) {
  return model.analysis.type == AnalysisType::Dynamic ? model.analysis.dt : mechanism_time_scale(model);
}

void equilibrate(Eigen::MatrixXd& A) {
  for (Eigen::Index i = 0; i < A.rows(); ++i) {
    const double r = A.row(i).cwiseAbs().maxCoeff();
    if (r > 0.0) A.row(i) /= r;
  }
  for (Eigen::Index j = 0; j < A.cols(); ++j) {
    const double c = A.col(j).cwiseAbs().maxCoeff();
    if (c > 0.0) A.col(j) /= c;
  }
}

std::optional<std::vector<DependentUnknown>> redundant_unknowns(const Model& model, int max_unknowns) {
  const int n = model.registry.n_free_dofs();
  if (n > max_unknowns) return std::nullopt;
  std::vector<DependentUnknown> out;
  if (n == 0) return out;
  const DofMap map = model.registry.sequential_numbering();
  std::vector<DependentUnknown> unknowns(static_cast<std::size_t>(n));
  for (std::size_t b = 0; b < model.registry.n_blocks(); ++b) {
    const BlockInfo& block = model.registry.blocks()[b];
    const auto dofs = map.dofs(BlockId{static_cast<std::int32_t>(b)});
    for (std::size_t c = 0; c < dofs.size(); ++c)
      if (dofs[c] != fixed_dof)
        unknowns[static_cast<std::size_t>(dofs[c])] = {block.row_name(static_cast<int>(c)), block.owner};
  }
  // The matrix of a dynamic step from the initial state at its predictor, as `run` tests it
  // (solvers::StaticEquilibrium::check_redundancy): at rest a law of the rates sits on its kink
  // where a body that starts moving takes it off.
  const TimeElement time = TimeElement::dynamic_step(0.0, rank_test_step(model), model.analysis.scheme);
  const std::vector<double> trial = first_predictor(model, map, time);
  StepState s{time, model.nodes, model.initial_state, trial, &map};
  s.gravity = model.gravity;
  DenseResidual residual(map, n);
  DenseJacobian jacobian(map, n);
  for (const auto& e : model.elements) e->stamp(s, residual, jacobian);
  Eigen::MatrixXd& A = jacobian.J;
  equilibrate(A);
  const Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(A);
  const Eigen::VectorXd pivots = qr.matrixR().diagonal().cwiseAbs();
  const double largest = pivots.size() ? pivots.maxCoeff() : 0.0;
  for (Eigen::Index k = 0; k < pivots.size(); ++k)
    if (pivots(k) <= dependent_pivot * largest)
      out.push_back(unknowns[static_cast<std::size_t>(qr.colsPermutation().indices()(k))]);
  return out;
}

std::string list_dependent(const std::vector<DependentUnknown>& dependent, const Model& model) {
  std::string names, places;
  std::set<std::string_view> placed;
  for (const DependentUnknown& d : dependent) {
    names += (names.empty() ? "" : ", ") + d.name;
    const auto origin = model.origins.find(d.owner);
    if (origin == model.origins.end() || !placed.insert(d.owner).second) continue;
    places += (places.empty() ? "" : ", ") + d.owner + " at " + origin->second;
  }
  return places.empty() ? names : names + " (" + places + ")";
}

std::string redundancy_message(const std::vector<DependentUnknown>& dependent, const Model& model) {
  std::string msg = "the Newton matrix is singular at t = 0: " + std::to_string(dependent.size()) +
                    " unknown(s) cannot be determined: " + list_dependent(dependent, model);
  msg += "; these joints' constraints are redundant (an over-constrained loop): free those components, "
         "e.g. use a spherical or cylindrical joint for one joint of a planar loop, or run the model with planar";
  return msg;
}

}  // namespace catena::fem
