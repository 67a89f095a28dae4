#pragma once
/// Redundant constraints: an over-constrained loop (a planar four-bar of rigid links joined by
/// four revolute joints in 3D) leaves some multipliers undetermined, and the Newton matrix is
/// singular. A pivoting sparse solver may still return a solution of the consistent system,
/// with arbitrary reactions: Catena refuses to run such a model and names the unknowns that
/// cannot be determined instead.
#include "assembly/tableau.hpp"
#include "fem/constraint_rank.hpp"

#include <Eigen/Core>

#include <optional>
#include <string>
#include <vector>

namespace catena::solvers {

/// J (the tableau's numbering) as a dense matrix, for the dense tests here and in
/// solvers/equilibrium_stability.hpp: only on one rank and up to `max_unknowns` unknowns; nothing
/// otherwise.
std::optional<Eigen::MatrixXd> dense_copy(const assembly::Tableau& tableau, Mat J, int max_unknowns);

/// The unknowns whose columns of J depend on the others: a rank-revealing QR with column pivoting
/// of J, rows and columns equilibrated first. Dense, so only for up to `max_unknowns` unknowns on
/// one rank; larger or distributed matrices return nothing (not checked).
std::vector<fem::DependentUnknown> dependent_unknowns(const assembly::Tableau& tableau, Mat J,
                                                      int max_unknowns = 1500);

}  // namespace catena::solvers
