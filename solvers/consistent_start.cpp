#include "solvers/consistent_start.hpp"

#include "fem/lump_mass.hpp"

#include "solvers/newton.hpp"
#include "solvers/redundancy.hpp"
#include "solvers/solver_failure.hpp"

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

namespace catena::solvers {

using assembly::check;
using assembly::quietly;

namespace {

using Mat6 = Eigen::Matrix<double, 6, 6>;
using Vec6 = Eigen::Matrix<double, 6, 1>;

/// Each node's mass matrix in (v, ω), global axes: the sum of its lumps' (fem/lump_mass.hpp).
std::vector<Mat6> node_masses(const fem::Model& model, std::span<const fem::NodeState> states) {
  struct Sink final : fem::InertiaSink {
    std::vector<fem::InertiaLump> lumps;
    void add(const fem::InertiaLump& lump) override { lumps.push_back(lump); }
  } sink;
  for (const auto& e : model.elements) e->inertia_lumps(sink);
  std::vector<Mat6> M(model.nodes.size(), Mat6::Zero());
  for (const fem::InertiaLump& lump : sink.lumps) {
    const auto n = static_cast<std::size_t>(lump.node.index);
    M[n] += fem::lump_mass_matrix(lump, states[n].orientation.toRotationMatrix());
  }
  return M;
}

/// A node's six global unknowns (velocity, then angular velocity; fem::fixed_dof where held).
std::array<PetscInt, 6> node_dofs(const fem::DofMap& map, const fem::Node& node) {
  std::array<PetscInt, 6> d;
  d.fill(fem::fixed_dof);
  const auto x = map.dofs(node.displacement);
  for (int c = 0; c < 3; ++c) d[static_cast<std::size_t>(c)] = x[static_cast<std::size_t>(c)];
  if (node.rotation.valid()) {
    const auto r = map.dofs(node.rotation);
    for (int c = 0; c < 3; ++c) d[static_cast<std::size_t>(3 + c)] = r[static_cast<std::size_t>(c)];
  }
  return d;
}

/// The kinematic constraints of the model's elements at t and `states` that are unknowns of the
/// tableau (a planar model's released components are not).
std::vector<fem::VelocityConstraint> constraints_at(const fem::Model& model, const assembly::Tableau& tableau,
                                                    std::span<const fem::NodeState> states, double t) {
  const fem::DofMap& map = tableau.global_map();
  std::vector<fem::VelocityConstraint> constraints;
  for (const auto& e : model.elements) e->velocity_constraints(t, states, constraints);
  std::erase_if(constraints, [&](const fem::VelocityConstraint& c) {
    return map.dofs(c.multiplier)[static_cast<std::size_t>(c.component)] == fem::fixed_dof;
  });
  return constraints;
}

PetscInt row_of(const fem::DofMap& map, const fem::VelocityConstraint& c) {
  return map.dofs(c.multiplier)[static_cast<std::size_t>(c.component)];
}

/// Solves [M Gᵀ; G 0] [x; μ] = [p; b] for every node's (translation, rotation) x and the
/// constraints' μ, p per node = `node_rhs(n, M_n)`, b[c] = `target(c)`: with p = M x₀, the x
/// closest to x₀ in M's metric with G x = b. M from the lumps at `states`, each row at least 1e-12
/// of the largest of its kind. Returns [x; μ] in global numbering, on every rank. Throws
/// SolverFailure when the system is singular.
std::vector<double> solve_saddle(const fem::Model& model, assembly::Tableau& tableau,
                                 std::span<const fem::NodeState> states,
                                 const std::vector<fem::VelocityConstraint>& constraints,
                                 const std::function<Vec6(std::size_t, const Mat6&)>& node_rhs,
                                 const std::function<double(const fem::VelocityConstraint&)>& target) {
  const fem::DofMap& map = tableau.global_map();
  const std::vector<Mat6> M = node_masses(model, states);
  const PetscInt first = tableau.first_owned(), last = first + tableau.n_owned();
  auto owned = [&](PetscInt row) { return row >= first && row < last; };
  double largest[2] = {0.0, 0.0};
  for (const Mat6& m : M)
    for (int k = 0; k < 6; ++k) largest[k / 3] = std::max(largest[k / 3], m(k, k));
  Mat A_raw = nullptr;
  check(MatDuplicate(tableau.jacobian(), MAT_DO_NOT_COPY_VALUES, &A_raw), "MatDuplicate");
  const assembly::MatHandle A(A_raw);
  check(MatZeroEntries(A), "MatZeroEntries");
  const assembly::VecHandle rhs = tableau.create_vector();
  const assembly::VecHandle solution = tableau.create_vector();
  check(VecZeroEntries(rhs), "VecZeroEntries");
  for (std::size_t n = 0; n < model.nodes.size(); ++n) {
    const std::array<PetscInt, 6> d = node_dofs(map, model.nodes[n]);
    Mat6 m = M[n];
    for (int k = 0; k < 6; ++k) m(k, k) = std::max(m(k, k), 1e-12 * largest[k / 3]);
    const Vec6 p = node_rhs(n, m);
    for (int i = 0; i < 6; ++i) {
      const PetscInt row = d[static_cast<std::size_t>(i)];
      if (row == fem::fixed_dof || !owned(row)) continue;
      check(VecSetValue(rhs, row, p(i), INSERT_VALUES), "VecSetValue");
      for (int j = 0; j < 6; ++j) {
        const PetscInt col = d[static_cast<std::size_t>(j)];
        if (col != fem::fixed_dof && m(i, j) != 0.0) check(MatSetValue(A, row, col, m(i, j), ADD_VALUES), "MatSetValue");
      }
    }
  }
  // Multiplier rows that hold no kinematic constraint (springs, free components with a force)
  // take an identity row: their μ is zero.
  std::vector<bool> constrained(static_cast<std::size_t>(tableau.n_global()), false);
  for (const fem::VelocityConstraint& c : constraints) constrained[static_cast<std::size_t>(row_of(map, c))] = true;
  for (PetscInt row = first; row < last; ++row)
    if (tableau.row_kind(row) == fem::UnknownKind::Multiplier && !constrained[static_cast<std::size_t>(row)])
      check(MatSetValue(A, row, row, 1.0, ADD_VALUES), "MatSetValue");
  // G and Gᵀ, each constraint by the rank that owns its row.
  for (const fem::VelocityConstraint& c : constraints) {
    const PetscInt row = row_of(map, c);
    if (!owned(row)) continue;
    check(VecSetValue(rhs, row, target(c), INSERT_VALUES), "VecSetValue");
    for (const auto& [node, g] : c.gradient) {
      const std::array<PetscInt, 6> d = node_dofs(map, model.nodes[static_cast<std::size_t>(node.index)]);
      for (int j = 0; j < 6; ++j) {
        const PetscInt col = d[static_cast<std::size_t>(j)];
        if (col == fem::fixed_dof || g(j) == 0.0) continue;
        check(MatSetValue(A, row, col, g(j), ADD_VALUES), "MatSetValue");
        check(MatSetValue(A, col, row, g(j), ADD_VALUES), "MatSetValue");
      }
    }
  }
  check(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY), "MatAssemblyBegin");
  check(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY), "MatAssemblyEnd");
  check(VecAssemblyBegin(rhs), "VecAssemblyBegin");
  check(VecAssemblyEnd(rhs), "VecAssemblyEnd");

  KSP ksp_raw = nullptr;
  check(KSPCreate(tableau.comm(), &ksp_raw), "KSPCreate");
  const assembly::Handle<KSP, KSPDestroy> ksp(ksp_raw);
  int ranks = 1;
  MPI_Comm_size(tableau.comm(), &ranks);
  configure_direct_solve(ksp, solver_package("auto", ranks));
  check(KSPSetOperators(ksp, A, A), "KSPSetOperators");
  const PetscErrorCode code = quietly([&] { return KSPSolve(ksp, rhs, solution); });
  KSPConvergedReason reason = KSP_CONVERGED_ITERATING;
  if (code == 0) check(KSPGetConvergedReason(ksp, &reason), "KSPGetConvergedReason");
  if (code != 0 || reason < 0) {
    std::string msg =
        "the initial state cannot be made to meet the joints: their constraints and drives contradict each other "
        "(or drive a loop that cannot move)";
    const std::vector<fem::DependentUnknown> dependent = dependent_unknowns(tableau, A);
    if (!dependent.empty()) msg += "; dependent: " + fem::list_dependent(dependent, model);
    throw InconsistentJoints(msg);
  }
  std::vector<double> x;
  tableau.gather_all(solution, x);
  return x;
}

/// max |G v − b| over the constraints at the states' velocities.
double velocity_violation(const std::vector<fem::VelocityConstraint>& constraints,
                          std::span<const fem::NodeState> states) {
  double worst = 0.0;
  for (const fem::VelocityConstraint& c : constraints) {
    double rate = 0.0;
    for (const auto& [node, g] : c.gradient) {
      const fem::NodeState& s = states[static_cast<std::size_t>(node.index)];
      Vec6 v;
      v << s.velocity, s.angular_velocity;
      rate += g.dot(v);
    }
    worst = std::max(worst, std::abs(rate - c.rate));
  }
  return worst;
}

}  // namespace

VelocityProjectionReport project_velocities(const fem::Model& model, assembly::Tableau& tableau,
                                            CommittedState& state, double t) {
  VelocityProjectionReport report;
  const std::span<fem::NodeState> states = state.states();
  const std::vector<fem::VelocityConstraint> constraints = constraints_at(model, tableau, states, t);
  report.constraints = static_cast<int>(constraints.size());
  if (constraints.empty()) return report;
  const std::vector<double> x = solve_saddle(
      model, tableau, states, constraints,
      [&](std::size_t n, const Mat6& m) {
        Vec6 v0;
        v0 << states[n].velocity, states[n].angular_velocity;
        return Vec6(m * v0);
      },
      [](const fem::VelocityConstraint& c) { return c.rate; });
  const fem::DofMap& map = tableau.global_map();
  const double L = model.length_scale;
  for (std::size_t n = 0; n < model.nodes.size(); ++n) {
    const std::array<PetscInt, 6> d = node_dofs(map, model.nodes[n]);
    fem::NodeState& s = states[n];
    for (int i = 0; i < 6; ++i) {
      const PetscInt dof = d[static_cast<std::size_t>(i)];
      if (dof == fem::fixed_dof) continue;
      double& value = i < 3 ? s.velocity[i] : s.angular_velocity[i - 3];
      const double change = std::abs(x[static_cast<std::size_t>(dof)] - value) * (i < 3 ? 1.0 : L);
      if (change > report.largest_change) {
        report.largest_change = change;
        report.where = "node '" + model.nodes[n].name + (i < 3 ? "' velocity" : "' angular velocity");
      }
      value = x[static_cast<std::size_t>(dof)];
    }
  }
  report.largest_violation = velocity_violation(constraints, states);
  return report;
}

}  // namespace catena::solvers
