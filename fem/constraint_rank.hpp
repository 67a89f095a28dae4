#pragma once
/// Redundant constraints, found without PETSc: an over-constrained loop (a planar four-bar of
/// revolute joints in 3D) leaves some multipliers undetermined, and the Newton matrix singular.
/// The test is on a dynamic step's matrix whatever the analysis: with inertia on the node rows only
/// the constraints' multipliers can leave it singular, where a static tangent is also singular
/// along a mechanism's free directions, which are not redundant constraints. `catena check` runs it
/// on a matrix assembled densely here; `catena run` on the Newton matrix
/// (solvers/redundancy.hpp). Both share the equilibration, the threshold and the message.
#include "fem/model.hpp"

#include <Eigen/Core>

#include <optional>
#include <string>
#include <vector>

namespace catena::fem {

/// A tenth of √(L/g), the time scale of a mechanism of the model's length L swinging under
/// gravity (a tenth of the analysis' dt without gravity) [s].
[[nodiscard]] double mechanism_time_scale(const Model& model);
/// The step of the matrix the rank test runs on: the analysis' dt in a dynamic one, the
/// mechanism's time scale otherwise.
[[nodiscard]] double rank_test_step(const Model& model);

/// Scales every row, then every column, of A to a largest magnitude of 1: rows of inertia (2m/h²),
/// stiffness and kinematics differ by orders of magnitude.
void equilibrate(Eigen::MatrixXd& A);
/// A column-pivoted QR's pivots below this fraction of the largest are dependent columns.
inline constexpr double dependent_pivot = 1e-10;

/// An unknown a rank test found undetermined.
struct DependentUnknown {
  std::string name;   ///< "joint 'D' reaction rz"
  std::string owner;  ///< "joint 'D'" (a key of Model::origins)
};

/// The unknowns the constraints of `model` at its initial state leave undetermined: a
/// rank-revealing QR with column pivoting (Eigen's) of the dense, equilibrated matrix of a dynamic
/// step (rank_test_step) at its predictor (fem/start_stamp.hpp, first_predictor). Empty when the
/// constraints are independent; nothing when the model has more than `max_unknowns` unknowns (not
/// tested).
[[nodiscard]] std::optional<std::vector<DependentUnknown>> redundant_unknowns(const Model& model,
                                                                             int max_unknowns = 1500);

/// "joint 'D' reaction rz, joint 'E' reaction rz (joint 'D' at model.yaml:12, joint 'E' at
/// model.yaml:19)": the unknowns, then where the model file writes their owners.
[[nodiscard]] std::string list_dependent(const std::vector<DependentUnknown>& dependent, const Model& model);

/// The message that refuses a model whose constraints leave `dependent` undetermined.
[[nodiscard]] std::string redundancy_message(const std::vector<DependentUnknown>& dependent, const Model& model);

}  // namespace catena::fem
