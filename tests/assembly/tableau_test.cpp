// The tableau: numbering covers every free component once, the PETSc Jacobian equals the dense
// sum of element stamps, and the pattern is exactly the declared one.
#include "assembly/tableau.hpp"

#include "assembly/ordering.hpp"

#include "elements/point_mass.hpp"
#include "elements/truss.hpp"
#include "support/step_context.hpp"
#include "support/tangent_check.hpp"

#include <gtest/gtest.h>

#include <random>
#include <set>

namespace catena::assembly {
namespace {

using fem::Vec3;

/// A small random truss net with a support, every node with mass.
fem::Model truss_net(int n, unsigned seed) {
  fem::Model m;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int i = 0; i < n; ++i) m.add_node("n" + std::to_string(i), Vec3(i + 0.3 * u(rng), 0.3 * u(rng), 0.3 * u(rng)));
  for (int c = 0; c < 3; ++c) m.fix(fem::NodeId{0}, c);
  m.fix(fem::NodeId{1}, 2);
  m.gravity = Vec3(0, 0, -9.81);
  for (int i = 0; i < n; ++i)
    m.add_element<elements::PointMass>("m" + std::to_string(i), m.attach(fem::NodeId{i}), 1.0 + i);
  for (int i = 0; i + 1 < n; ++i)
    for (int j = i + 1; j < std::min(n, i + 3); ++j)
      m.add_element<elements::Truss>("t" + std::to_string(i) + "_" + std::to_string(j), m.attach(fem::NodeId{i}),
                                     m.attach(fem::NodeId{j}), elements::TrussSection{1e5},
                                     (m.nodes[j].reference_position - m.nodes[i].reference_position).norm());
  m.update_length_scale();
  return m;
}

TEST(Tableau, NumberingCoversEveryFreeComponentOnce) {
  const fem::Model m = truss_net(12, 1);
  const Tableau t(m, PETSC_COMM_WORLD);
  EXPECT_EQ(t.n_global(), m.registry.n_free_dofs());
  std::set<fem::Dof> seen;
  for (std::size_t b = 0; b < m.registry.n_blocks(); ++b)
    for (const fem::Dof d : t.global_map().dofs(fem::BlockId{static_cast<std::int32_t>(b)}))
      if (d != fem::fixed_dof) {
        EXPECT_TRUE(seen.insert(d).second) << "dof " << d << " numbered twice";
      }
  EXPECT_EQ(static_cast<PetscInt>(seen.size()), t.n_global());
  EXPECT_EQ(t.row_name(t.global_map().dofs(m.nodes[1].displacement)[1]), "node 'n1' force y");
}

TEST(Tableau, JacobianEqualsDenseSumOfElementStamps) {
  fem::Model m = truss_net(10, 2);
  Tableau t(m, PETSC_COMM_WORLD);
  // A random trial state in the tableau's numbering.
  testing::TrialState dense(m);
  dense.map = t.global_map();
  dense.trial.assign(static_cast<std::size_t>(t.n_global()), 0.0);
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> u(-0.2, 0.2);
  for (double& x : dense.trial) x = u(rng);
  const fem::StepState s = dense.view(m);
  fem::DenseJacobian J(dense.map, static_cast<int>(t.n_global()));
  fem::DenseResidual R(dense.map, static_cast<int>(t.n_global()));
  for (const auto& e : m.elements) e->stamp(s, R, J);

  VecHandle x = t.create_vector(), f = t.create_vector();
  PetscScalar* a = nullptr;
  ASSERT_EQ(VecGetArray(x, &a), 0);
  for (PetscInt i = 0; i < t.n_owned(); ++i) a[i] = dense.trial[t.first_owned() + i];
  ASSERT_EQ(VecRestoreArray(x, &a), 0);
  fem::StepState context = s;
  context.trial = {};
  context.map = nullptr;
  t.assemble_residual(context, x, f);
  t.assemble_jacobian(context, x, t.jacobian());
  const PetscScalar* fr = nullptr;
  ASSERT_EQ(VecGetArrayRead(f, &fr), 0);
  for (PetscInt i = 0; i < t.n_owned(); ++i) EXPECT_NEAR(fr[i], R.r[t.first_owned() + i], 1e-9 * R.r.cwiseAbs().maxCoeff());
  ASSERT_EQ(VecRestoreArrayRead(f, &fr), 0);
  double max_err = 0.0;
  for (PetscInt i = t.first_owned(); i < t.first_owned() + t.n_owned(); ++i)
    for (PetscInt j = 0; j < t.n_global(); ++j) {
      PetscScalar v = 0;
      ASSERT_EQ(MatGetValues(t.jacobian(), 1, &i, 1, &j, &v), 0);
      max_err = std::max(max_err, std::abs(v - J.J(i, j)));
    }
  EXPECT_LT(max_err, 1e-12 * J.J.cwiseAbs().maxCoeff());
}

TEST(Tableau, PatternIsExactlyTheDeclaredCouplings) {
  const fem::Model m = truss_net(8, 3);
  const Tableau t(m, PETSC_COMM_WORLD);
  // Count block couplings by hand: each node couples with itself and its truss neighbours.
  long expected = 0;
  std::vector<std::set<int>> adj(m.nodes.size());
  for (std::size_t i = 0; i < m.nodes.size(); ++i) adj[i].insert(static_cast<int>(i));
  for (const auto& e : m.elements) {
    const auto nodes = e->cell_nodes();
    if (nodes.size() == 2) {
      adj[nodes[0].index].insert(nodes[1].index);
      adj[nodes[1].index].insert(nodes[0].index);
    }
  }
  auto n_free = [&](int node) {
    int c = 0;
    for (const fem::Dof d : t.global_map().dofs(m.nodes[node].displacement)) c += d != fem::fixed_dof;
    return c;
  };
  for (std::size_t i = 0; i < m.nodes.size(); ++i)
    for (const int j : adj[i]) expected += static_cast<long>(n_free(static_cast<int>(i))) * n_free(j);
  EXPECT_EQ(t.n_nonzeros(), expected);
  // The count without PETSc (catena check) is the same.
  const PatternSize size = pattern_size(block_graph(m.registry));
  EXPECT_EQ(size.unknowns, t.n_global());
  EXPECT_EQ(size.nonzeros, expected);
}

TEST(Tableau, OnePassGivesTheResidualAndJacobianOfTwoAndValuesRoundTrip) {
  const fem::Model m = truss_net(10, 5);
  Tableau t(m, PETSC_COMM_WORLD);
  const fem::StepState context = testing::midpoint_step(m, m.initial_state, 0.0, 1e-2);
  VecHandle x = t.create_vector(), f1 = t.create_vector(), f2 = t.create_vector();
  ASSERT_EQ(VecSetRandom(x, nullptr), 0);
  ASSERT_EQ(VecScale(x, 0.01), 0);
  t.assemble_residual(context, x, f1);
  t.assemble_jacobian(context, x, t.jacobian());
  const std::vector<double> separate = t.jacobian_values();
  const long assemblies = t.matrix_assemblies();
  t.assemble(context, x, f2, t.jacobian());
  EXPECT_EQ(t.matrix_assemblies(), assemblies + 1);
  EXPECT_EQ(t.jacobian_values(), separate);
  ASSERT_EQ(VecAXPY(f2, -1.0, f1), 0);
  PetscReal diff = 1.0;
  ASSERT_EQ(VecNorm(f2, NORM_INFINITY, &diff), 0);
  EXPECT_EQ(diff, 0.0);
  ASSERT_EQ(static_cast<long>(separate.size()), t.n_nonzeros());
  // Zeroed, then written back from the values: the same matrix, entry for entry.
  ASSERT_EQ(MatZeroEntries(t.jacobian()), 0);
  t.set_jacobian_values(separate);
  EXPECT_EQ(t.jacobian_values(), separate);
  EXPECT_THROW(t.set_jacobian_values(std::vector<double>(3, 1.0)), std::invalid_argument);
}

TEST(Tableau, ThreadsStampTheSameSumsBitForBit) {
  const fem::Model m = truss_net(400, 7);
  Tableau serial(m, PETSC_COMM_WORLD), threaded(m, PETSC_COMM_WORLD);
  serial.set_threads(1);
  threaded.set_threads(2);  // asked for: no timing decides
  const fem::StepState context = testing::midpoint_step(m, m.initial_state, 0.0, 1e-2);
  VecHandle x = serial.create_vector(), f1 = serial.create_vector(), f2 = threaded.create_vector();
  ASSERT_EQ(VecSetRandom(x, nullptr), 0);
  ASSERT_EQ(VecScale(x, 0.01), 0);
  int ranks = 1;
  MPI_Comm_size(PETSC_COMM_WORLD, &ranks);
  EXPECT_EQ(threaded.threads(), ranks == 1 ? 2 : 1);  // one thread per rank under MPI
  serial.assemble(context, x, f1, serial.jacobian());
  threaded.assemble(context, x, f2, threaded.jacobian());
  EXPECT_EQ(threaded.jacobian_values(), serial.jacobian_values());
  const PetscScalar *a = nullptr, *b = nullptr;
  PetscInt n = 0;
  ASSERT_EQ(VecGetLocalSize(f1, &n), 0);
  ASSERT_EQ(VecGetArrayRead(f1, &a), 0);
  ASSERT_EQ(VecGetArrayRead(f2, &b), 0);
  for (PetscInt i = 0; i < n; ++i) EXPECT_EQ(a[i], b[i]) << "row " << i;
  ASSERT_EQ(VecRestoreArrayRead(f2, &b), 0);
  ASSERT_EQ(VecRestoreArrayRead(f1, &a), 0);
}

/// Declares its node's own coupling only, then stamps a coupling to another node as well.
class StampsOutsideItsCouplings final : public fem::Element {
 public:
  StampsOutsideItsCouplings(const fem::AttachedNode& a, const fem::AttachedNode& b)
      : Element("rogue"), a_(a.node.displacement), b_(b.node.displacement) {}
  std::string_view kind() const override { return "rogue"; }
  void declare(fem::UnknownRegistry& registry) override { registry.couple({a_}); }
  void stamp(const fem::StepState&, fem::ResidualSink&, fem::JacobianSink& j) const override {
    j.add<3, 3>(a_, b_, fem::Mat3::Identity());
  }

 private:
  fem::BlockId a_, b_;
};

TEST(Tableau, AStampOutsideTheDeclaredPatternIsAnError) {
  fem::Model m;
  m.add_node("a", Vec3(0, 0, 0));
  m.add_node("b", Vec3(1, 0, 0));
  m.add_node("c", Vec3(2, 0, 0));
  m.add_element<elements::Truss>("ab", m.attach(fem::NodeId{0}), m.attach(fem::NodeId{1}),
                                 elements::TrussSection{1e5}, 1.0);
  m.add_element<elements::Truss>("bc", m.attach(fem::NodeId{1}), m.attach(fem::NodeId{2}),
                                 elements::TrussSection{1e5}, 1.0);
  m.add_element<StampsOutsideItsCouplings>(m.attach(fem::NodeId{0}), m.attach(fem::NodeId{2}));  // a and c never couple
  m.update_length_scale();
  Tableau t(m, PETSC_COMM_WORLD);
  const fem::StepState context = testing::midpoint_step(m, m.initial_state, 0.0, 1e-2);
  VecHandle x = t.create_vector();
  ASSERT_EQ(VecZeroEntries(x), 0);
  EXPECT_THROW(t.assemble_jacobian(context, x, t.jacobian()), PetscFailure);
  // The matrix stays usable: the same tableau assembles again (and throws again).
  EXPECT_THROW(t.assemble_jacobian(context, x, t.jacobian()), PetscFailure);
}

}  // namespace
}  // namespace catena::assembly
