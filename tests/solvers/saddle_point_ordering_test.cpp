// LU without pivoting in the saddle-point order (solvers/saddle_point_ordering.hpp): the order is
// a permutation that keeps each block's rows together and puts every multiplier after all the
// node unknowns its row couples to; PETSc's own LU in that order solves a dynamic Newton matrix
// (rigid bodies, spherical and revolute joints, a beam, ground joints) as SuperLU with partial
// pivoting does, and with the multipliers first it cannot (a zero pivot).
#include "assembly/tableau.hpp"
#include "io/model_reader.hpp"
#include "solvers/newton.hpp"
#include "solvers/saddle_point_ordering.hpp"
#include "support/step_context.hpp"
#include "support/test_files.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

namespace catena::solvers {
namespace {

const std::string model_text = R"yaml(name: saddle
nodes:
  - {name: a, position: [0, 0, 0]}
  - {name: b, position: [2, 0, 0]}
  - {name: c, position: [2.5, 0, 0]}
  - {name: d, position: [3.5, 0, 0]}
beams:
  - name: beam
    from: a
    to: b
    elements: 3
    section: {EA: 1e8, GAy: 4e7, GAz: 4e7, GJ: 800, EIy: 1000, EIz: 1200, rhoA: 2, rhoJ: 0.02, rhoIy: 0.01, rhoIz: 0.01}
rigid_bodies:
  - {name: body_c, node: c, mass: 3, inertia: [1e-4, 0.1, 0.1]}
  - {name: body_d, node: d, mass: 1, inertia: [1e-4, 0.08, 0.08]}
joints:
  - {name: pin, kind: spherical, node: a, at: [0, 0, 0]}
  - {name: link, kind: spherical, nodes: [b, c], at: [2, 0, 0]}
  - {name: hinge, kind: revolute, nodes: [c, d], at: [3, 0, 0], axis: [0, 0, 1]}
  - {name: ground_d, kind: spherical, node: d, at: [4, 0, 0]}
gravity: [0, 0, -9.81]
analysis: {dt: 1e-3, t_end: 1}
)yaml";

/// x = J⁻¹ b with `package` and `ordering` (PETSc's names); false when the factorization fails.
bool solve(Mat J, const char* package, const char* ordering, Vec b, Vec x) {
  assembly::Handle<KSP, KSPDestroy> ksp;
  EXPECT_EQ(KSPCreate(PETSC_COMM_SELF, ksp.out()), 0);
  EXPECT_EQ(KSPSetOperators(ksp, J, J), 0);
  configure_direct_solve(ksp, package);
  PC pc = nullptr;
  EXPECT_EQ(KSPGetPC(ksp, &pc), 0);
  EXPECT_EQ(PCFactorSetMatOrderingType(pc, ordering), 0);
  EXPECT_EQ(PetscPushErrorHandler(PetscReturnErrorHandler, nullptr), 0);
  const PetscErrorCode code = KSPSolve(ksp, b, x);
  EXPECT_EQ(PetscPopErrorHandler(), 0);
  KSPConvergedReason reason = KSP_CONVERGED_ITERATING;
  if (code == 0) {
    EXPECT_EQ(KSPGetConvergedReason(ksp, &reason), 0);
  }
  return code == 0 && reason > 0;
}

TEST(SaddlePointOrdering, PutsEveryMultiplierAfterItsNodesAndSolvesWithoutPivoting) {
  int ranks = 1;
  MPI_Comm_size(PETSC_COMM_WORLD, &ranks);
  if (ranks != 1) GTEST_SKIP() << "LU without pivoting is serial";
  const fem::Model m = io::read_model(testing::write_temp("catena_saddle", "model.yaml", model_text));
  assembly::Tableau t(m, PETSC_COMM_WORLD);
  const PetscInt n = t.n_global();

  // A dynamic Newton matrix at a trial state with reactions of every size.
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  assembly::VecHandle x = t.create_vector();
  {
    PetscScalar* a = nullptr;
    ASSERT_EQ(VecGetArray(x, &a), 0);
    for (PetscInt i = 0; i < n; ++i)
      a[i] = (t.row_kind(i) == fem::UnknownKind::Multiplier ? 50.0 : 1e-3) * u(rng);
    ASSERT_EQ(VecRestoreArray(x, &a), 0);
  }
  const fem::StepState step = testing::midpoint_step(m, m.initial_state, 0.0, 1e-3);
  t.assemble_jacobian(step, x, t.jacobian());

  const std::vector<PetscInt> order = saddle_point_order(t);
  ASSERT_EQ(static_cast<PetscInt>(order.size()), n);
  std::vector<PetscInt> position(static_cast<std::size_t>(n), -1);
  for (std::size_t k = 0; k < order.size(); ++k) {
    ASSERT_GE(order[k], 0);
    ASSERT_LT(order[k], n);
    ASSERT_EQ(position[static_cast<std::size_t>(order[k])], -1) << "row " << order[k] << " twice";
    position[static_cast<std::size_t>(order[k])] = static_cast<PetscInt>(k);
  }
  // Each block's rows together, in their own order.
  for (std::size_t b = 0; b < t.global_map().n_blocks(); ++b) {
    std::vector<PetscInt> at;
    for (const fem::Dof d : t.global_map().dofs(fem::BlockId{static_cast<std::int32_t>(b)}))
      if (d != fem::fixed_dof) at.push_back(position[static_cast<std::size_t>(d)]);
    for (std::size_t i = 1; i < at.size(); ++i) EXPECT_EQ(at[i], at[i - 1] + 1) << "block " << b;
  }
  // Every multiplier after every node unknown its row couples to.
  int multipliers = 0;
  for (PetscInt row = 0; row < n; ++row) {
    if (t.row_kind(row) != fem::UnknownKind::Multiplier) continue;
    ++multipliers;
    PetscInt count = 0;
    const PetscInt* columns = nullptr;
    ASSERT_EQ(MatGetRow(t.jacobian(), row, &count, &columns, nullptr), 0);
    for (PetscInt k = 0; k < count; ++k)
      if (t.row_kind(columns[k]) != fem::UnknownKind::Multiplier) {
        EXPECT_LT(position[static_cast<std::size_t>(columns[k])], position[static_cast<std::size_t>(row)])
            << t.row_name(row) << " before " << t.row_name(columns[k]);
      }
    ASSERT_EQ(MatRestoreRow(t.jacobian(), row, &count, &columns, nullptr), 0);
  }
  EXPECT_EQ(multipliers, 3 + 3 + 5 + 3);

  // PETSc's LU in that order against SuperLU's with partial pivoting.
  assembly::VecHandle b = t.create_vector(), pivoted = t.create_vector(), pivot_free = t.create_vector();
  ASSERT_EQ(VecSetRandom(b, nullptr), 0);
  ASSERT_TRUE(solve(t.jacobian(), MATSOLVERSUPERLU, MATORDERINGNATURAL, b, pivoted));
  attach_saddle_point_order(t.jacobian(), order);
  ASSERT_TRUE(solve(t.jacobian(), MATSOLVERPETSC, saddle_point_ordering_name(), b, pivot_free));
  PetscReal scale = 0.0, miss = 0.0;
  ASSERT_EQ(VecNorm(pivoted, NORM_INFINITY, &scale), 0);
  ASSERT_EQ(VecAXPY(pivot_free, -1.0, pivoted), 0);
  ASSERT_EQ(VecNorm(pivot_free, NORM_INFINITY, &miss), 0);
  EXPECT_LT(miss, 1e-9 * scale);
  // The multipliers first: a zero pivot at once.
  std::vector<PetscInt> multipliers_first = order;
  std::stable_partition(multipliers_first.begin(), multipliers_first.end(),
                        [&](PetscInt row) { return t.row_kind(row) == fem::UnknownKind::Multiplier; });
  attach_saddle_point_order(t.jacobian(), multipliers_first);
  EXPECT_FALSE(solve(t.jacobian(), MATSOLVERPETSC, saddle_point_ordering_name(), b, pivot_free));
}

}  // namespace
}  // namespace catena::solvers
